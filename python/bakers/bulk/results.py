"""The answer for one deal of a bulk run: `RangeResult`, its deal and its solution built
when first read.

Solutions are not replayed by the referee here (at millions of deals that would cost
more than the searches): each one is built from the engine's moves only when
`RangeResult.solution` is read. `bakers.solve` is the checked single-deal path.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from .._native import core
from ..board import Board
from ..deals import Deal
from ..notation import CELL, COLUMN, FOUNDATION, Move, Place
from ..solution import Solution
from ..solving import SolveStats, Verdict
from ..variants import Variant

_KINDS = (COLUMN, CELL, FOUNDATION)
#: The core's position: (columns, cells, foundation heights) as card codes.
CorePosition = tuple[list[list[int]], list[int], list[int]]


@dataclass(frozen=True)
class RangeResult(Verdict):
    """The answer for one position of a bulk run.

    ``index`` is the position's place in the input (0-based), ``number`` its deal number
    (None for `solve_many`). ``verdict`` is ``'solved'``, ``'impossible'`` (a complete
    search found no win) or ``'unknown'`` (a limit was hit: ``reason`` says which).
    ``solution_length`` counts the single-card moves of the win (None unless solved, or
    when the run was asked for no solutions). ``most_home`` is the most cards on the
    foundations in any position reached: exact when ``most_home_exact``.
    ``variant`` is the game. ``deal`` and ``solution`` are built when first read.
    """

    index: int
    number: int | None
    verdict: str
    solution_length: int | None
    stats: SolveStats
    most_home: int
    reason: str
    variant: Variant = field(repr=False)
    _source: Deal | Board | None = field(default=None, repr=False, compare=False)
    _position: CorePosition | None = field(default=None, repr=False, compare=False)
    _line: list[Any] | None = field(default=None, repr=False, compare=False)

    @property
    def _rules(self) -> Variant:
        return self.variant

    @cached_property
    def deal(self) -> Deal:
        """The position that was solved, as a `Deal` (a numbered deal for `solve_range`,
        the current position of a `Board` given to `solve_many`)."""
        if isinstance(self._source, Deal):
            return self._source
        if isinstance(self._source, Board):
            return self._source.to_deal()
        assert self.number is not None  # a numbered deal's result
        return Deal.from_number(self.variant, self.number)

    @cached_property
    def solution(self) -> Solution | None:
        """The win as single-card moves (None unless solved with solutions kept), built
        from the engine's moves without a replay by the referee."""
        if self._line is None:
            return None
        position = self._position
        if position is None:
            position = core().deal(self.variant.rules(), self.number)
        return _solution(self.variant, position, self._line)


def _solution(variant: Variant, position: CorePosition, line: list[Any]) -> Solution:
    """Return the engine's ``line`` from ``position`` as moves in the canonical form of
    `Board.canonical`: a one-card move between columns keeps its count (``x1``) only
    where a move without a count would mean more cards (to an empty column)."""
    columns = [list(column) for column in position[0]]
    cells = list(position[1])
    auto = variant.auto_aces
    if auto:
        _auto_aces(columns)
    moves = Solution()
    for src_kind, src, dst_kind, dst, count in line:
        keep = count != 1 or (src_kind == dst_kind == 0 and not columns[dst]
                              and _implied_count(variant, columns, cells, src) != 1)
        if src_kind == 0:
            cards = columns[src][-count:]
            del columns[src][-count:]
        else:
            cards, cells[src] = [cells[src]], 0
        if dst_kind == 0:
            columns[dst].extend(cards)
        elif dst_kind == 1:
            cells[dst] = cards[0]
        moves.append(Move(Place(_KINDS[src_kind], src), Place(_KINDS[dst_kind], dst),
                          count if keep else None))
        if auto:
            _auto_aces(columns)
    return moves


def _fits(variant: Variant, card: int, onto: int) -> bool:
    """Return whether the card of code ``card`` builds on ``onto`` in a column."""
    return variant.builds(card & 15, card >> 4, onto & 15, onto >> 4)


def _implied_count(variant: Variant, columns: list[list[int]], cells: list[int],
                   src: int) -> int:
    """Return how many cards a move from column ``src`` to an empty column takes when
    its count is left implied: the most that may move and that the column takes."""
    if variant.moves == "single":
        return 1
    column = columns[src]
    run = 1
    while run < len(column) and _fits(variant, column[-run], column[-run - 1]):
        run += 1
    if variant.moves == "supermove":
        limit = cells.count(0) + 1
        if variant.empty == "any":
            limit <<= max(sum(1 for c in columns if not c) - 1, 0)
        run = min(run, limit)
    if variant.empty == "any":
        return run
    return next((n for n in range(run, 0, -1) if column[-n] & 15 == 13), 1)


def _auto_aces(columns: list[list[int]]) -> None:
    """Send exposed aces home, as the games with ``auto_aces`` do after every move."""
    found = True
    while found:
        found = False
        for column in columns:
            if column and column[-1] & 15 == 1:
                column.pop()
                found = True
