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
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .board import Board
from .errors import InvalidOptionError
from .limits import Limits
from .notation import Move
from .solution import Solution
from .solve import SolveResult, solve

__all__ = ["Hint", "hint", "DEFAULT_HINT_LIMITS", "HINT_VERDICTS"]

#: The limits of a hint's search when none are given: a few seconds and 2 GiB at most.
DEFAULT_HINT_LIMITS = Limits(seconds=3.0, memory="2G")
#: The answers of `hint`.
HINT_VERDICTS = ("win", "no_win", "unknown")

_VERDICTS = {"solved": "win", "impossible": "no_win", "unknown": "unknown"}


@dataclass(frozen=True)
class Hint:
    """The answer of `hint` for one position.

    ``verdict`` is ``'win'``, ``'no_win'`` or ``'unknown'``. For ``'win'``, ``move`` is
    the first single-card move of a winning line (None when ``won_already``),
    ``supermove`` the first move of the same line written as the compact multi-card
    move it belongs to (equal to ``move`` in most positions) and ``line`` the moves that
    win after ``move``. ``most_home`` is the most cards home in any position the search
    reached (exact unless ``'unknown'``); ``result`` is the search's full answer.
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


def hint(board: Board, *, limits: Limits | None = None) -> Hint:
    """Return a hint for ``board`` (a referee `Board`, any mid-game position; it is not
    modified): the first move of a winning line, a proof that no win is left, or
    "unknown" when ``limits`` (default `DEFAULT_HINT_LIMITS`) end the search first.

    Raises InvalidOptionError when ``board`` is not a Board or ``limits`` not a Limits,
    and EngineError if the referee refutes the engine's line.
    """
    if not isinstance(board, Board):
        raise InvalidOptionError(
            f"hint() takes a bakers.Board (any position), not {type(board).__name__}")
    if limits is None:
        limits = DEFAULT_HINT_LIMITS
    elif not isinstance(limits, Limits):
        raise InvalidOptionError(f"limits= takes a bakers.Limits, not {limits!r}")
    if board.is_won():
        return Hint("win", None, Solution(), True, None, board.foundation_count(), "", None)
    result = solve(board, limits=limits)
    verdict = _VERDICTS[result.verdict]
    if verdict != "win":
        return Hint(verdict, None, None, False, None, result.most_home, result.reason, result)
    assert result.solution is not None and result.supermoves is not None
    first = result.solution[0]
    supermove = result.supermoves[0] if result.supermoves else first
    return Hint("win", first, result.solution[1:], False, supermove, result.most_home,
                result.reason, result)
