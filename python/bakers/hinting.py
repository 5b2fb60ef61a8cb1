"""Hints: from any position of a game, a move that keeps a win within reach.

`hint` searches from the position as it is (a referee `Board`, left untouched) and
answers with one of three verdicts:

* ``'win'``: a winning line was found; ``move`` is its first move (after it a win is
  still reachable: ``line``, the rest of the line, wins from there) and ``supermove``
  its first move in the compact form a player would make at once (a sequence moved
  whole); a won board is ``'win'`` with ``won_already`` and no move;
* ``'no_win'``: the search was complete and found no win: "no win from here" is a proof;
* ``'unknown'``: a limit ended the search first (``reason`` says which). By default the
  search stops after `DEFAULT_HINT_LIMITS`, so a hint button never hangs.

Following hints wins. Two searches from neighbouring positions can find different
lines, and a player who followed each new line's first move could go round in circles
(a card to a cell, then back). So `hint` remembers the winning lines it found (the most
recent `REMEMBERED_POSITIONS` positions on them, exactly as laid out, in this process):
the hint for a position on a remembered line is that line's next move, without a search,
and following hints plays one line to the win.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ._native import core
from .board import Board
from .errors import InvalidOptionError
from .limits import SEARCH_THREADS_WHY, Limits, check_threads, limits_or
from .notation import Move
from .solution import Solution
from .solving import SearchProgress, SolveResult, check_method, solve

__all__ = ["Hint", "hint", "remembered_hint", "forget_lines", "DEFAULT_HINT_LIMITS",
           "HINT_VERDICTS", "REMEMBERED_POSITIONS"]

#: The limits of a hint's search when none are given: a few seconds and 2 GiB at most.
DEFAULT_HINT_LIMITS = Limits(seconds=3.0, memory="2G")
#: The answers of `hint`.
HINT_VERDICTS = ("win", "no_win", "unknown")

#: How many positions on winning lines `hint` remembers (the oldest are forgotten).
REMEMBERED_POSITIONS = 50_000

_VERDICTS = {"solved": "win", "impossible": "no_win", "unknown": "unknown"}

# A position exactly as laid out (column and cell order count: the moves name them).
_Key = tuple[Any, ...]
# A remembered line: its moves, the index of this position's move, and the compact
# move that starts there (None inside a multi-card move's chain of single moves).
_Entry = tuple[tuple[Move, ...], int, Move | None]


class _Lines:
    """The positions of recently found winning lines, least recently used first out."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.entries: OrderedDict[_Key, _Entry] = OrderedDict()
        self.lock = threading.Lock()

    @staticmethod
    def key(board: Board) -> _Key:
        return (board.variant, tuple(tuple(c.code for c in column) for column in board.columns),
                tuple(0 if c is None else c.code for c in board.cells), tuple(board.foundations))

    def get(self, board: Board) -> _Entry | None:
        key = self.key(board)
        with self.lock:
            entry = self.entries.get(key)
            if entry is not None:
                self.entries.move_to_end(key)
            return entry

    def add(self, start: Board, result: SolveResult) -> None:
        """Remember every position of ``result``'s winning line from ``start``."""
        assert result.solution is not None and result.supermoves is not None
        moves = tuple(result.solution)
        # the positions where each compact move starts, in order
        board = start.copy(stack=False)
        starts: list[_Key] = []
        for supermove in result.supermoves:
            starts.append(self.key(board))
            board.push(supermove)
        board = start.copy(stack=False)
        added: list[tuple[_Key, _Entry]] = []
        at = 0
        for index, move in enumerate(moves):
            key = self.key(board)
            compact = None
            if at < len(starts) and key == starts[at]:
                compact = result.supermoves[at]
                at += 1
            added.append((key, (moves, index, compact)))
            board.push(move)
        with self.lock:
            for key, entry in added:
                self.entries[key] = entry
                self.entries.move_to_end(key)
            while len(self.entries) > self.capacity:
                self.entries.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()


_LINES = _Lines(REMEMBERED_POSITIONS)


def forget_lines() -> None:
    """Forget every winning line that `hint` remembers."""
    _LINES.clear()


@dataclass(frozen=True)
class Hint:
    """The answer of `hint` for one position.

    ``verdict`` is ``'win'``, ``'no_win'`` or ``'unknown'``. For ``'win'``, ``move`` is
    the first single-card move of a winning line (None when ``won_already``),
    ``supermove`` the first move of the same line written as the compact multi-card
    move it belongs to (equal to ``move`` in most positions) and ``line`` the moves that
    win after ``move``. ``most_home`` is the most cards home in any position the search
    reached (all of them for ``'win'``; for ``'no_win'`` exact when
    ``result.most_home_exact``, else a lower bound; a lower bound for ``'unknown'``);
    ``result`` is the search's full answer (None when the board is won or the hint
    continues a remembered line).
    """

    verdict: str
    move: Move | None
    line: Solution | None
    won_already: bool
    supermove: Move | None
    most_home: int
    reason: str
    result: SolveResult | None

    @property
    def found(self) -> bool:
        """True when a move towards a win is known (``verdict == 'win'`` and not won)."""
        return self.move is not None

    def to_dict(self) -> dict[str, Any]:
        """Return the hint as plain data (for JSON)."""
        return {
            "verdict": self.verdict,
            "move": None if self.move is None else self.move.notation(),
            "supermove": None if self.supermove is None else self.supermove.notation(),
            "line": None if self.line is None else self.line.notation(None),
            "won_already": self.won_already,
            "most_home": self.most_home,
            "reason": self.reason,
        }


def remembered_hint(board: Board) -> Hint | None:
    """Return the hint for ``board`` that a remembered winning line gives, without a
    search (``result`` None), or None when no remembered line passes through it; a
    server answers these at once and queues only the searches."""
    entry = _LINES.get(board)
    if entry is None:
        return None
    moves, index, compact = entry
    return Hint("win", moves[index], Solution(moves[index + 1:]), False,
                compact or moves[index], board.variant.deck, "", None)


def hint(board: Board, *, limits: Limits | None = None, remember: bool = True,
         method: str | None = None, threads: int = 1,
         progress: Callable[[SearchProgress], object] | None = None) -> Hint:
    """Return a hint for ``board`` (a referee `Board`, any mid-game position; it is not
    modified): the first move of a winning line, a proof that no win is left, or
    "unknown" when ``limits`` (default `DEFAULT_HINT_LIMITS`) end the search first.
    With ``remember`` (the default) a position on a winning line found before gets
    that line's next move (``result`` None), and a new line is remembered. ``method``
    and ``threads`` are `solve`'s (default: the game's search, on one thread).
    ``progress`` is `solve`'s: called with the counts while the search runs; an
    exception it raises stops the search and is raised by `hint` (a server stops the
    search of a client that has gone).

    Raises InvalidOptionError when ``board`` is not a Board, ``limits`` not a Limits, or
    ``method`` or ``threads`` are not `solve`'s, and EngineError if the referee refutes
    the engine's line.
    """
    if not isinstance(board, Board):
        raise InvalidOptionError(
            f"hint() takes a bakers.Board (any position), not {type(board).__name__}")
    limits = limits_or(limits, DEFAULT_HINT_LIMITS)
    # checked here too: a remembered line answers without the search that checks them
    check_method(method, board.variant)
    check_threads(threads, core().MAX_SEARCH_THREADS, SEARCH_THREADS_WHY)
    if board.is_won():
        return Hint("win", None, Solution(), True, None, board.foundation_count(), "", None)
    deck = board.variant.deck
    known = remembered_hint(board) if remember else None
    if known is not None:
        return known
    result = solve(board, limits=limits, method=method, threads=threads, progress=progress)
    verdict = _VERDICTS[result.verdict]
    if verdict != "win":
        return Hint(verdict, None, None, False, None, result.most_home, result.reason, result)
    assert result.solution is not None and result.supermoves is not None
    if remember:
        _LINES.add(board, result)
    first = result.solution[0]
    supermove = result.supermoves[0] if result.supermoves else first
    return Hint("win", first, result.solution[1:], False, supermove, deck, result.reason,
                result)
