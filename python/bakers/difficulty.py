"""Difficulty: grade a winnable deal easy, medium or hard by how easy a win is to find.

The definition (see ``docs/difficulty.md`` for the reasons and the calibration):

1. **Search effort.** A plain `solve` of the deal under ``limits`` (default
   `DEFAULT_GRADE_LIMITS`, a node limit, so the grade is the same on every machine).
   ``effort = min(1, log10(1 + expanded) / 6)``: 0 for a deal solved at once, 1 for a
   million positions expanded or more (or a search that hit its limit).
2. **Forgiveness.** ``playouts`` random playouts from the deal, drawn from
   ``random.Random(seed)``: each makes up to `PLAYOUT_STEPS` legal moves; at each step,
   when a move to the foundations is legal and ``rng.random() < 0.5``, one of those
   (``moves[int(rng.random() * len(moves))]`` among them), else one of all legal moves
   but the one that undoes the previous move, drawn the same way (moves in the order of
   ``Board.legal_moves``). After each playout a search of at most `CHECK_NODES` nodes
   asks whether a win is still reachable. ``share`` is the fraction of playouts after
   which it found one ("on easy, almost any reasonable order of moves wins").
3. **Score** ``= 80 * (1 - share) + 20 * effort``, from 0 (easiest) to 100, rounded to
   two decimals. The grade is ``'easy'`` below the preset's first threshold,
   ``'hard'`` at or above its second, else ``'medium'`` (`THRESHOLDS`, calibrated so
   that about a third of winnable deals of each preset falls in each grade by
   ``bench/calibrate_difficulty.py``); a custom variant takes the thresholds of the
   preset with the same rules, else `DEFAULT_THRESHOLDS`.

The grade is deterministic for a given deal, ``playouts``, ``seed`` and ``limits``; it
depends on the engine's search order through ``expanded`` and the node-limited checks,
so a new engine can move a deal near a threshold to the next grade.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .board import Board
from .deals import Deal
from .errors import InvalidOptionError, NotWinnableError
from .limits import Limits, limits_or
from .notation import FOUNDATION, Move
from .solving import SearchProgress, SolveResult, solve
from .variants import PRESETS, Variant

__all__ = ["Grade", "grade", "GRADES", "THRESHOLDS", "DEFAULT_THRESHOLDS",
           "DEFAULT_GRADE_LIMITS", "DEFAULT_PLAYOUTS", "PLAYOUT_STEPS", "CHECK_NODES"]

#: The grades, easiest first.
GRADES = ("easy", "medium", "hard")
#: The limits of the plain solve when none are given (nodes: the same on every machine).
DEFAULT_GRADE_LIMITS = Limits(nodes=200_000)
#: How many random playouts a grade makes by default.
DEFAULT_PLAYOUTS = 16
#: The most moves of one playout.
PLAYOUT_STEPS = 8
#: The node limit of the search after each playout.
CHECK_NODES = 5_000
#: Per preset, the scores that start 'medium' and 'hard' (from bench/calibrate_difficulty.py).
THRESHOLDS: dict[str, tuple[float, float]] = {
    "bakers_game": (68.88, 82.56),
    "freecell": (16.53, 30.95),
    "freecell36": (47.65, 71.83),
    "bulochnik": (47.76, 67.38),
    "bakers_dozen": (17.84, 37.09),
    # The games of docs/presets.md, from their first 60 winnable deals.
    "eight_off": (19.68, 31.09),
    "seahaven_towers": (46.08, 70.47),
    "relaxed_seahaven_towers": (22.02, 50.38),
    "forecell": (31.83, 53.45),
    "good_measure": (48.08, 80.35),
    "king_only_bakers_game": (78.34, 86.34),
    "relaxed_freecell": (7.95, 16.14),
    "beleaguered_castle": (55.96, 77.76),
    "citadel": (29.94, 56.28),
    "streets_and_alleys": (67.04, 78.88),
    "stronghold": (25.96, 54.23),
    "portuguese_solitaire": (36.92, 61.18),
    "spanish_patience_ii": (6.06, 7.28),
    "tuxedo": (11.79, 29.35),
    "penguin": (11.3, 36.94),
    "opus": (61.42, 84.36),
}
#: The thresholds of a variant that is no preset.
DEFAULT_THRESHOLDS = (40.0, 60.0)


@dataclass(frozen=True)
class Grade:
    """The difficulty of one deal: ``score`` (0 easiest .. 100), ``grade`` (``'easy'``,
    ``'medium'`` or ``'hard'``) and what it was measured from: ``share`` of the
    ``playouts`` after which a win was still found (``playouts_won`` of them),
    ``effort`` (0..1) from the ``expanded`` positions of the plain solve, whose
    ``verdict`` is ``'solved'`` (with ``solution_length`` single-card moves) or
    ``'unknown'`` (a limit: the effort counts as 1), the ``thresholds`` used and the
    ``seconds`` the grade took."""

    score: float
    grade: str
    share: float
    playouts: int
    playouts_won: int
    effort: float
    expanded: int
    verdict: str
    solution_length: int | None
    thresholds: tuple[float, float]
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        """Return the grade as plain data (for JSON)."""
        return {"grade": self.grade, "score": self.score, "share": self.share,
                "playouts": self.playouts, "playouts_won": self.playouts_won,
                "effort": round(self.effort, 4), "expanded": self.expanded,
                "verdict": self.verdict, "solution_length": self.solution_length,
                "thresholds": list(self.thresholds), "seconds": round(self.seconds, 4)}


def thresholds_for(variant: Variant) -> tuple[float, float]:
    """Return the (medium, hard) score thresholds of ``variant``: its preset's, or those
    of the preset with the same rules, else `DEFAULT_THRESHOLDS`."""
    if variant.name in THRESHOLDS and PRESETS.get(variant.name) == variant:
        return THRESHOLDS[variant.name]
    for name, preset in PRESETS.items():
        if preset.rules() == variant.rules() and name in THRESHOLDS:
            return THRESHOLDS[name]
    return DEFAULT_THRESHOLDS


def grade_of(score: float, thresholds: tuple[float, float]) -> str:
    """Return the grade of ``score`` under (medium, hard) ``thresholds``."""
    return "easy" if score < thresholds[0] else "hard" if score >= thresholds[1] else "medium"


def _pick(moves: list[Move], rng: random.Random) -> Move:
    return moves[int(rng.random() * len(moves))]


def playout(start: Board, rng: random.Random, steps: int = PLAYOUT_STEPS) -> Board:
    """Return the position after one random playout of at most ``steps`` moves from
    ``start`` (not modified), drawn from ``rng`` as the module documentation says."""
    board = start.copy(stack=False)
    last: Move | None = None
    for _ in range(steps):
        moves = list(iter(board.legal_moves))  # iter: list() would call len(), a second pass
        if not moves:
            break
        home = [m for m in moves if m.dst.kind == FOUNDATION]
        if home and rng.random() < 0.5:
            move = _pick(home, rng)
        else:
            others = moves if last is None else [
                m for m in moves if not (m.src == last.dst and m.dst == last.src)]
            move = _pick(others or moves, rng)
        last = board.push(move)
    return board


def _check(playouts: object, seed: object) -> tuple[int, int]:
    if isinstance(playouts, bool) or not isinstance(playouts, int) or not 1 <= playouts <= 10_000:
        raise InvalidOptionError(f"playouts={playouts!r} must be an int in 1..10000")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InvalidOptionError(f"seed={seed!r} must be an int >= 0")
    return playouts, seed


def measure(start: Board, result: SolveResult, *, playouts: int = DEFAULT_PLAYOUTS,
            seed: int = 0, started: float | None = None,
            progress: Callable[[SearchProgress], object] | None = None) -> Grade:
    """Return the grade of ``start`` given ``result``, a plain solve of it that did not
    prove it impossible (`grade` does that solve; `bakers.generate` passes its own).

    Raises InvalidOptionError for bad ``playouts`` or ``seed``, NotWinnableError when
    ``result`` is impossible, KeyboardInterrupt when Ctrl-C stops a playout's search.
    ``progress`` is `solve`'s, given to each playout's search (what it raises stops
    the measure).
    """
    playouts, seed = _check(playouts, seed)
    started = time.perf_counter() if started is None else started
    if result.impossible:
        raise NotWinnableError(
            f"this {start.variant.name} position has no win (proved by a complete "
            f"search of {result.stats.expanded:,} positions): only winnable deals are graded")
    solved = result.solved
    expanded = result.stats.expanded
    effort = min(1.0, math.log10(1 + expanded) / 6) if solved else 1.0
    rng = random.Random(seed)
    won = 0
    check = Limits(nodes=CHECK_NODES)
    for _ in range(playouts):
        after = playout(start, rng)
        checked = solve(after, limits=check, check=False, method="best-first",
                        progress=progress)
        if checked.reason == "interrupted":  # Ctrl-C: no grade, never another score
            raise KeyboardInterrupt
        won += checked.solved
    share = won / playouts
    score = round(80 * (1 - share) + 20 * effort, 2)
    thresholds = thresholds_for(start.variant)
    length = len(result.solution) if result.solution is not None else None
    return Grade(score, grade_of(score, thresholds), share, playouts, won, effort, expanded,
                 result.verdict, length, thresholds, time.perf_counter() - started)


def grade(deal: Deal | Board, *, playouts: int = DEFAULT_PLAYOUTS, seed: int = 0,
          limits: Limits | None = None,
          progress: Callable[[SearchProgress], object] | None = None) -> Grade:
    """Grade ``deal`` (a `Deal`, or a `Board` for a position in play) easy, medium or
    hard as the module documentation defines: a plain solve under ``limits`` (default
    `DEFAULT_GRADE_LIMITS`), then ``playouts`` random playouts drawn from ``seed``.

    Raises InvalidOptionError for a bad argument, NotWinnableError when the deal is
    proved to have no win, EngineError if the referee refutes the engine,
    KeyboardInterrupt when Ctrl-C stops a search. A deal the search leaves undecided
    (no win found, none ruled out) is graded with ``verdict='unknown'``. ``progress``
    is `solve`'s, given to every search (what it raises stops the grade: a server gives
    up the grade of a client that has gone).
    """
    started = time.perf_counter()
    playouts, seed = _check(playouts, seed)
    if isinstance(deal, Deal):
        start = Board(deal)
    elif isinstance(deal, Board):
        start = deal.copy(stack=False)
    else:
        raise InvalidOptionError(f"grade() takes a Deal or a Board, not {type(deal).__name__}")
    limits = limits_or(limits, DEFAULT_GRADE_LIMITS)
    # the calibrated search
    result = solve(start, limits=limits, method="best-first", progress=progress)
    if result.reason == "interrupted":
        raise KeyboardInterrupt
    return measure(start, result, playouts=playouts, seed=seed, started=started,
                   progress=progress)
