"""Fewest free cells: the smallest number of cells with which a deal is still winnable.

`min_cells` plays the same layout with other counts of cells (``variant.replace(cells=k)``,
the columns and foundations unchanged). Each answer is backed by a win with that count
and by a proof that one cell fewer does not win.

Why one proof suffices: fewer cells are a restriction. A win with ``k`` cells is a win
with ``k + 1``: the same moves stay legal, the extra cell staying empty (a move to a cell
needs some free cell; a multi-card move's limit ``(free cells + 1) * 2 ** (empty
columns)`` only grows with a free cell; no rule forbids anything because a cell is
free). So "no win with ``k - 1`` cells" implies "no win with fewer", and the answer
``k`` is exact once ``k - 1`` is proved impossible.

Each count gets the search ``method`` asked for (the game's default when None) and, when
that one ends on its limits, the beam search (``method='beam'``) with the same limits:
with few cells the lines of the other searches go astray where the beam's do not
(FreeCell MS 14497 and 13599 with one cell: no win from depth first within 500 million
positions; the beam wins within 0.1 and 40 seconds). Either search's win is a win and
either's "impossible" a proof.

The order of the searches follows from that. The first is with the game's own count of
cells (within the range asked). When it wins, the counts below are tried one by one
downwards until one does not win: a proof there makes the answer exact, a search cut
short by its limits leaves the answer an upper bound. When it does not win, the counts
above are tried upwards until one wins. So the one proof an answer needs is searched,
and the smaller counts, whose proofs it implies, are not (on FreeCell MS 11982: 4
cells proved impossible, 5 win, and the searches with 0..3 cells are never needed).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from .board import Board
from .deals import Deal
from .errors import InvalidOptionError
from .limits import Limits, limits_or
from .solution import Solution
from .solving import SearchProgress, SolveResult, check_progress, solve
from .variants import MAX_CELLS, Variant

__all__ = ["MinCells", "min_cells", "MIN_CELLS_LIMITS", "with_cells"]

#: The limits of each search when none are given.
MIN_CELLS_LIMITS = Limits(nodes=1_000_000)


@dataclass(frozen=True)
class MinCells:
    """The answer of `min_cells`.

    ``cells`` is the fewest cells with which a win was found (None when none was found
    with up to ``max_cells``), ``solution`` that win (moves of the game with ``cells``
    cells) and ``variant`` that game. ``exact`` is True when the count one below was
    proved impossible (so every smaller one is); else ``cells`` is an upper bound and
    ``lower_bound`` one more than the largest count proved impossible. ``verdicts``
    maps each count tried (see the module documentation for which) to the verdict of
    its search, ``results`` to the search's full answer.
    """

    cells: int | None
    exact: bool
    lower_bound: int
    solution: Solution | None
    variant: Variant | None
    verdicts: dict[int, str] = field(default_factory=dict)
    results: dict[int, SolveResult] = field(default_factory=dict, repr=False)

    @property
    def no_win(self) -> bool:
        """True when every count tried was proved impossible (no win with any of them)."""
        return self.cells is None and all(v == "impossible" for v in self.verdicts.values())

    def to_dict(self) -> dict[str, Any]:
        """Return the answer as plain data (for JSON; ``verdicts`` keyed by count)."""
        return {
            "cells": self.cells,
            "exact": self.exact,
            "lower_bound": self.lower_bound,
            "verdicts": {str(k): v for k, v in self.verdicts.items()},
            "moves": None if self.solution is None else len(self.solution),
            "solution": None if self.solution is None else self.solution.notation(None),
            "expanded": sum(r.stats.expanded for r in self.results.values()),
        }


def with_cells(deal: Deal, cells: int) -> Deal:
    """Return ``deal`` laid out the same in its game with ``cells`` cells: the cards in
    cells keep their order in the first cells.

    Raises InvalidOptionError when the deal holds more cards in cells than ``cells``,
    InvalidVariantError for a count out of range.
    """
    held = [card for card in deal.cells if card is not None]
    if len(held) > cells:
        raise InvalidOptionError(
            f"the position holds {len(held)} cards in cells; it cannot have {cells} cells")
    variant = deal.variant.replace(cells=cells)
    return Deal(variant=variant, columns=deal.columns,
                cells=tuple(held) + (None,) * (cells - len(held)),
                foundations=deal.foundations)


def min_cells(deal: Deal | Board, *, limits: Limits | None = None,
              max_cells: int = MAX_CELLS, method: str | None = None,
              progress: Callable[[int, SearchProgress], object] | None = None,
              checkpoint: str | os.PathLike[str] | None = None) -> MinCells:
    """Return the fewest free cells with which ``deal`` (a `Deal`, or a `Board` for a
    position in play) is winnable, with ``first..max_cells`` cells (``first``: the cards
    already in cells), starting from the game's own count, with ``limits`` on each search (default
    `MIN_CELLS_LIMITS`) and the search ``method`` of `solve` (None: the game's default;
    ``'depth-first'`` holds several times the positions in the same memory: for the
    proofs of big games), then the beam search for a count that ``method`` left
    unknown; see the module documentation for what backs the answer. ``progress``, if
    given, is called as `solve` calls its own, with the count of cells searched first:
    ``progress(cells, search_progress)``. ``checkpoint`` (a path; the depth-first
    search, which it picks when ``method`` is None, as `solve` does) saves the search of
    each count k to the file ``f"{checkpoint}-{k}-cells"`` and goes on from there in a
    later call, as `solve`'s ``checkpoint`` does (a proof of hours survives its process). A search
    stopped by Ctrl-C ends the whole answer there (an upper bound, or no win found).

    Raises InvalidOptionError for a bad argument, EngineError if the referee refutes
    the engine.
    """
    if isinstance(deal, Board):
        deal = deal.to_deal()
    elif not isinstance(deal, Deal):
        raise InvalidOptionError(
            f"min_cells() takes a Deal or a Board, not {type(deal).__name__}")
    limits = limits_or(limits, MIN_CELLS_LIMITS)
    check_progress(progress)
    if (isinstance(max_cells, bool) or not isinstance(max_cells, int)
            or not 0 <= max_cells <= MAX_CELLS):
        raise InvalidOptionError(f"max_cells={max_cells!r} must be an int in 0..{MAX_CELLS}")
    first = sum(card is not None for card in deal.cells)
    if first > max_cells:
        raise InvalidOptionError(
            f"the position holds {first} cards in cells, more than max_cells={max_cells}")
    if checkpoint is not None and method is None:
        method = "depth-first"  # the one search that saves itself
    if checkpoint is not None and not isinstance(checkpoint, str | os.PathLike):
        raise InvalidOptionError(f"checkpoint={checkpoint!r} must be a file path")
    verdicts: dict[int, str] = {}
    results: dict[int, SolveResult] = {}

    def run(k: int) -> SolveResult:
        position = with_cells(deal, k)
        report = None if progress is None else partial(progress, k)
        saving: dict[str, Any] = {} if checkpoint is None else {
            "checkpoint": f"{os.fspath(checkpoint)}-{k}-cells"}
        result = solve(position, limits=limits, method=method, progress=report, **saving)
        if result.verdict == "unknown" and method != "beam" and result.reason != "interrupted":
            # the beam finds wins with few cells that the other searches miss (see the
            # module documentation); its answer is taken when it decides
            second = solve(position, limits=limits, method="beam", progress=report)
            if second.verdict != "unknown":
                result = second
        verdicts[k], results[k] = result.verdict, result
        return result

    lower = first  # every count below `lower` is proved impossible
    best: SolveResult | None = None  # the win with the fewest cells
    start = min(max(deal.variant.cells, first), max_cells)
    result = run(start)
    if result.solved:
        best = result
        for k in range(start - 1, first - 1, -1):
            result = run(k)
            if not result.solved:
                if result.impossible:  # no win with k cells: none with fewer either
                    lower = k + 1
                break
            best = result
    elif result.reason != "interrupted":  # Ctrl-C ends the whole answer, not one search
        if result.impossible:
            lower = start + 1
        for k in range(start + 1, max_cells + 1):
            result = run(k)
            if result.reason == "interrupted":
                break
            if result.solved:
                best = result
                break
            if result.impossible:
                lower = k + 1
    tried = dict(sorted(verdicts.items())), dict(sorted(results.items()))
    if best is None:
        return MinCells(None, False, lower, None, None, *tried)
    cells = best.start.variant.cells
    return MinCells(cells, lower == cells, lower, best.solution, best.start.variant, *tried)
