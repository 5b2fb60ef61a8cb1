"""Solving: `solve` decides a position with the C++ core and checks its answer.

Every solution the core returns is replayed by the referee (`bakers.board.Board`) before
it is handed out; a solution the referee rejects raises `EngineError` instead of being
returned.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ._native import core
from .board import Board
from .cards import Card
from .deals import Deal
from .errors import BakersError, InvalidCheckpointError, InvalidOptionError
from .limits import SEARCH_THREADS_WHY, Limits, check_threads, limits_or
from .notation import Move
from .solution import Solution
from .variants import Variant

__all__ = ["solve", "SolveResult", "SolveStats", "SearchProgress", "EngineError", "VERDICTS",
           "METHODS", "default_method", "check_method", "check_progress"]

VERDICTS = ("solved", "impossible", "unknown")
#: The searches `solve` can run (see its ``method``): the core's names (`_core.METHODS`,
#: their owner), written here too so that the command line lists them without loading the
#: core; tests/test_native.py checks that the two agree.
METHODS = ("best-first", "depth-first", "portfolio", "beam", "dive")


class SearchProgress(NamedTuple):
    """The counts of a search under way, as `solve` gives them to its ``progress``."""

    expanded: int  #: positions expanded so far
    stored: int  #: positions stored so far (a portfolio: its runs' sum)
    seconds: float  #: since the search started
    most_home: int = 0  #: the most cards home in any position seen so far


def check_progress(progress: object) -> None:
    """Raise InvalidOptionError unless ``progress`` (of `solve`, `min_cells`) is None or
    a callable."""
    if progress is not None and not callable(progress):
        raise InvalidOptionError(f"progress={progress!r} must be a callable or None")


def default_method(variant: Variant, threads: int = 1) -> str:
    """Return the search a game gets when none is asked for (the same on any number of
    ``threads``): ``'portfolio'`` for games that build regardless of suit, ``'dive'`` for
    games with free cells that build by suit or by alternating colours, ``'depth-first'``
    for the other games that build by suit, else ``'best-first'``.

    Why: the dive's scans (purposeful moves only, nothing scored) win most deals with
    free cells in a few dozen positions; behind them, where cards build by suit, the
    heuristic's order of the children leads depth first to a win about as surely as best
    first, at a lower cost a position, and where they alternate colours depth first
    wanders, so best first decides the rest; where they ignore suits some wins only a
    depth-first order, the rollouts or the restricted pass find at once, so the portfolio
    runs them all. The measurements: docs/benchmarks.md, "The searches' defaults", "The
    dive", "The dive before depth first" and "Restricted passes".
    """
    if variant.build == "any":
        return "portfolio"
    if variant.cells > 0:
        return "dive"
    return "depth-first" if variant.build == "suit" else "best-first"


def check_method(method: str | None, variant: Variant | None) -> str:
    """Return ``method``, or the game's `default_method` for None (``variant`` may be None
    only when ``method`` is given). Which method takes threads or a checkpoint is the
    core's rule: `solve` passes its error on.

    Raises InvalidOptionError for an unknown method, in the core's words.
    """
    if method is None:
        if variant is None:
            raise InvalidOptionError("no game to choose a method for")
        return default_method(variant)
    if method not in METHODS:
        raise InvalidOptionError(f"method={method!r} must be one of {', '.join(METHODS)}")
    return method


class EngineError(RuntimeError):
    """The engine gave an answer that the referee refutes (a bug, never bad input)."""


@dataclass(frozen=True)
class SolveStats:
    """What a search cost: positions ``expanded``, child positions ``generated``,
    distinct positions ``stored`` (with ``Limits(forget=True)``, a position forgotten and
    stored again counts again), the most bytes held (``peak_bytes``) and ``seconds``."""

    expanded: int = 0
    generated: int = 0
    stored: int = 0
    peak_bytes: int = 0
    seconds: float = 0.0


class Verdict:
    """The questions every result with a ``verdict`` answers."""

    verdict: str

    @property
    def solved(self) -> bool:
        """True when a win was found."""
        return self.verdict == "solved"

    @property
    def impossible(self) -> bool:
        """True when no win exists (proved by a complete search)."""
        return self.verdict == "impossible"

    @property
    def most_home_exact(self) -> bool:
        """True when ``most_home`` is exact: a win, or a proof that saw every position
        the rules reach (not in games that cut dead ends: `Variant.cuts_dead_ends`)."""
        if self.verdict == "solved":
            return True
        return self.verdict == "impossible" and not self._rules.cuts_dead_ends

    @property
    def _rules(self) -> Variant:
        raise NotImplementedError


@dataclass(frozen=True)
class SolveResult(Verdict):
    """The answer for one position.

    ``verdict`` is ``'solved'`` (``solution`` wins from ``start``, every move one the
    rules allow at once), ``'impossible'`` (the complete search found no win: a proof) or
    ``'unknown'`` (a limit was hit or the search was interrupted: ``reason`` says which).
    ``most_home`` is the most cards on the foundations in any position the search reached:
    exact for a win and most proofs, a lower bound when ``most_home_exact`` is False.
    """

    verdict: str
    start: Board
    solution: Solution | None
    stats: SolveStats
    most_home: int
    reason: str = ""
    supermoves: Solution | None = field(default=None, repr=False)

    @property
    def _rules(self) -> Variant:
        return self.start.variant

    def to_dict(self) -> dict[str, Any]:
        """Return the result as plain data (for JSON)."""
        return {
            "game": self.start.variant.name,
            "verdict": self.verdict,
            "reason": self.reason,
            "moves": None if self.solution is None else len(self.solution),
            "solution": None if self.solution is None else self.solution.notation(None),
            "most_home": self.most_home,
            "most_home_exact": self.most_home_exact,
            "expanded": self.stats.expanded,
            "stored": self.stats.stored,
            "peak_bytes": self.stats.peak_bytes,
            "seconds": round(self.stats.seconds, 6),
        }


def _start_board(position: Any, game: Any) -> Board:
    if isinstance(position, Board):
        return position.copy()
    if isinstance(position, Deal):
        return Board(position)
    if isinstance(position, str):
        if game is None:
            raise InvalidOptionError("a board text needs game= to say which game it is")
        return Board(Deal.parse(game, position))
    raise InvalidOptionError(
        f"solve() takes a Deal, a Board or a board text, not {type(position).__name__}")


def _core_position(board: Board) -> tuple[list[list[int]], list[int], list[int]]:
    """Return the position as the core takes it: card codes and foundation heights. A
    game whose foundations start at another rank than the ace goes relabelled, the base
    rank reading as the ace (the core's rules, cpp/core/rules.hpp: ``base_from_deal``);
    the core's moves name places, not cards, so they need no relabelling back."""
    ranks = board.variant.foundation_ranks(board.base_rank)
    heights = [0 if top == 0 else ranks.index(top) + 1 for top in board.foundations]

    def code(card: Card) -> int:
        return card.code if board.base_rank == 1 else card.suit * 16 + ranks.index(card.rank) + 1

    return ([[code(c) for c in column] for column in board.columns],
            [0 if c is None else code(c) for c in board.cells], heights)


def _checked_line(start: Board, line: list[tuple[int, int, int, int, int]],
                  what: str) -> Solution:
    """Replay the core's moves on a copy of ``start``; return them in canonical form."""
    board = start.copy()
    moves = Solution()
    for number, raw in enumerate(line, start=1):
        try:
            move = Move.from_core(raw, board)
            board.push(move)
        except BakersError as exc:
            raise EngineError(f"the engine's {what} fails the referee at move {number}: {exc}"
                              ) from exc
        moves.append(move)
    if not board.is_won():
        raise EngineError(f"the engine's {what} does not win ({board.foundation_count()} home)")
    return moves


def _checkpoint_arguments(checkpoint: str | os.PathLike[str] | None,
                          every: float) -> dict[str, Any]:
    """Return the core's checkpoint arguments; raise InvalidOptionError for bad ones (the
    core says which searches take a checkpoint)."""
    if checkpoint is None:
        return {}
    if not isinstance(checkpoint, (str, os.PathLike)) or not os.fspath(checkpoint):
        raise InvalidOptionError(f"checkpoint={checkpoint!r} must be a file path")
    if isinstance(every, bool) or not isinstance(every, (int, float)) or not (
            math.isfinite(every) and every > 0):
        raise InvalidOptionError(f"checkpoint_every={every!r} must be a positive number of seconds")
    path = os.path.abspath(os.fspath(checkpoint))
    folder = os.path.dirname(path)
    if os.path.isdir(path) or not os.path.isdir(folder) or not os.access(folder, os.W_OK):
        raise InvalidOptionError(f"checkpoint={os.fspath(checkpoint)!r}: not a file in a folder "
                                 f"that can be written")
    return {"checkpoint": path, "checkpoint_seconds": float(every)}


def solve(position: Deal | Board | str, *, limits: Limits | None = None, game: Any = None,
          check: bool = True, threads: int = 1, method: str | None = None,
          progress: Callable[[SearchProgress], object] | None = None,
          checkpoint: str | os.PathLike[str] | None = None,
          checkpoint_every: float = 900.0) -> SolveResult:
    """Decide a position: find a win, prove there is none, or say "unknown" when a limit
    (``limits``, a `Limits`) ends the search first. ``position`` is a `Deal`, a referee
    `Board` (any mid-game position) or a board text with ``game=``. The search runs in C++
    with the GIL released; Ctrl-C ends it within a second with ``'unknown'``
    (reason ``'interrupted'``). With ``check`` (the default) the solution is replayed by
    the referee before it is returned. ``threads`` (1..16: `_core.MAX_SEARCH_THREADS`)
    searches the one position on that many threads (best first and depth first: sharing
    one visited set; the portfolio: its runs at once, one a thread): the verdict is as
    exact as on one thread.
    ``method`` is ``'best-first'`` (short lines), ``'depth-first'`` (the same verdicts
    in a fraction of the memory a stored position, for proofs too big for the best-first
    search; longer lines; on one thread its table gets denser and, with
    ``Limits(forget=True)``, forgets under the memory limit), ``'portfolio'`` (best
    first, a restricted pass where the suits are interchangeable, nested rollouts and two
    depth-first orders in turn, with budgets growing 4x a round from 10,000 positions,
    until a complete search decides or a run wins: the restricted pass (every card that
    can go home goes home at once, positions told apart by their ranks alone) and the
    rollouts only ever win; on several threads the runs go at once, memory split evenly
    between them)
    , ``'beam'`` (one thread: breadth first keeping the best 1,000, 4,000, 16,000, ...
    new positions a level, a round each, until one wins or a round that kept every
    position proves there is no win; finds wins in tight games, FreeCell with one cell,
    that the others miss) or ``'dive'`` (cheap depth-first scans that only look for a
    win, a few hundred or thousand positions in all, then the exact search for the
    verdict: depth first where cards build by suit, else best first, its first 1,000
    positions on one thread taken depth first; where cards build by suit and the scans
    spent their budget, 2,000 positions of scans that also park cards in cells come
    before depth first; the fastest with free cells); None picks
    the game's `default_method`. ``progress``, if given, is called about 20 times a second
    with a `SearchProgress` (positions expanded and stored, seconds) on the calling thread
    while the search runs, for a progress display; an exception it raises stops the search
    and is raised by `solve`.

    ``checkpoint`` (a file path; the depth-first search, which it picks when ``method``
    is None) makes a long proof survive its process: the search goes on from the file
    if there is one, saves itself there every ``checkpoint_every`` seconds and when a
    limit or Ctrl-C stops it (not the memory limit: the same limit would stop it again),
    and removes the file once it has a verdict. A resumed search expands the same
    positions in the same order as one that never stopped; its counts go on from the
    saved ones (``limits.nodes`` and ``limits.states`` count the whole search,
    ``limits.seconds`` this run), and its ``limits.memory`` and ``limits.forget`` must be
    those it was saved with. The file holds the whole visited set: about as many bytes
    as the search holds in memory.

    Raises InvalidOptionError for a bad argument, InvalidCheckpointError for a checkpoint
    of another position or other settings, or a damaged one, OSError when the checkpoint
    cannot be written or read, the errors of `Deal.parse` for a bad
    board text, and EngineError if the referee refutes the engine.
    """
    limits = limits_or(limits, Limits())
    native = core()
    check_threads(threads, native.MAX_SEARCH_THREADS, SEARCH_THREADS_WHY)
    check_progress(progress)
    start = _start_board(position, game)
    saving = _checkpoint_arguments(checkpoint, checkpoint_every)
    if method is None and saving:
        method = "depth-first"  # the one search that saves itself
    method = check_method(method, start.variant)
    columns, cells, heights = _core_position(start)
    report = None if progress is None else (
        lambda expanded, stored, seconds, most_home: progress(
            SearchProgress(expanded, stored, seconds, most_home)))
    try:
        raw = native.solve(start.variant.rules(), columns, cells, heights, threads=threads,
                           method=method, progress=report, **limits.core_arguments(), **saving)
    except native.CheckpointMismatch as exc:
        raise InvalidCheckpointError(str(exc)) from None
    except ValueError as exc:  # the core's rules of threads, methods and checkpoints
        raise InvalidOptionError(str(exc)) from None
    stats = SolveStats(raw["expanded"], raw["generated"], raw["stored"], raw["peak_bytes"],
                       raw["seconds"])
    solution = supermoves = None
    if raw["verdict"] == "solved":
        if check:
            solution = _checked_line(start, raw["moves"], "solution")
            supermoves = _checked_line(start, raw["compact"], "supermove solution")
        else:
            solution = Solution(Move.from_core(tuple(m)) for m in raw["moves"])
            supermoves = Solution(Move.from_core(tuple(m)) for m in raw["compact"])
    return SolveResult(raw["verdict"], start, solution, stats, raw["most_home"], raw["reason"],
                       supermoves)
