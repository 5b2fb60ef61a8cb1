"""Bulk solving: decide many deals of one game on worker threads.

`solve_range` deals and decides a range of numbered deals in C++; `solve_many` decides
given deals or boards. Both yield a `RangeResult` per position as it finishes (or in
input order), with the search running on ``threads`` threads and the GIL released.

Solutions are not replayed by the referee here (at millions of deals that would cost
more than the searches): each one is built from the engine's moves only when
`RangeResult.solution` is read. `bakers.solve` is the checked single-deal path.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from itertools import islice
from typing import Any

from .._native import core
from ..board import Board
from ..deals import Deal, number_range
from ..errors import InvalidDealError, InvalidOptionError
from ..limits import Limits, check_threads, limits_or
from ..notation import CELL, COLUMN, FOUNDATION, Move, Place
from ..solution import Solution
from ..solving import SolveStats, Verdict, _core_position, check_method
from ..variants import Variant, find_variant

__all__ = ["RangeResult", "solve_range", "solve_many", "check_range", "check_deal",
           "deal_numbers", "max_threads", "default_threads", "worker_threads"]

#: How many jobs one core run holds at a time; longer inputs go through in chunks.
CHUNK = 1 << 14


def max_threads() -> int:
    """Return the most worker threads one run takes: the core's `_core.MAX_POOL_THREADS`."""
    return int(core().MAX_POOL_THREADS)


def default_threads() -> int:
    """Return the worker threads of a run when none are asked for: one per CPU."""
    return max(1, min(os.cpu_count() or 1, max_threads()))


_KINDS = (COLUMN, CELL, FOUNDATION)
# The core's position: (columns, cells, foundation heights) as card codes.
_Position = tuple[list[list[int]], list[int], list[int]]


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
    _position: _Position | None = field(default=None, repr=False, compare=False)
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


def _solution(variant: Variant, position: _Position, line: list[Any]) -> Solution:
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


# --------------------------------------------------------------------------- checks


def worker_threads(threads: object) -> int:
    """Return the worker threads of a run: ``threads``, or one per CPU for None.

    Raises InvalidOptionError for a count out of 1..`max_threads()` (`check_threads`).
    """
    return default_threads() if threads is None else check_threads(threads, max_threads())


def check_range(variant: Variant, first: object, last: object) -> tuple[int, int]:
    """Return ``(first, last)`` checked against the deal numbers of ``variant``.

    Raises InvalidDealError for a number that is not an integer of the game's range,
    InvalidOptionError when ``first > last``.
    """
    for name, value in (("first", first), ("last", last)):
        check_deal(variant, value, f"{name} deal")
    if first > last:  # type: ignore[operator]
        raise InvalidOptionError(f"the range {first}..{last} is empty: first > last")
    return first, last  # type: ignore[return-value]


def check_deal(variant: Variant, value: object, name: str = "deal") -> int:
    """Return ``value`` checked as a deal number of ``variant`` (``name``: what messages
    call it).

    Raises InvalidDealError for anything but an integer of the game's numbering.
    """
    low, high = number_range(variant)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        # (repr() refuses an int of 4,300 digits or more: such a number is told by its size)
        shown = repr(value) if not isinstance(value, int) or abs(value) < 10**40 else (
            f"of about {value.bit_length() * 30103 // 100000 + 1:,} digits")
        raise InvalidDealError(
            f"{name} {shown} is out of range: {variant.name} deals are numbered "
            f"{low}..{high} ({variant.numbering!r} numbering)")
    return value


def deal_numbers(variant: Variant, first: object, last: object,
                 deals: Iterable[int] | None) -> range | list[int]:
    """Return the deals of a run: ``first..last``, or the numbers of ``deals``, each
    checked (`check_deal`), the repeats of a number dropped (the first kept), in their
    order. Exactly one of the two forms is given.

    Raises InvalidOptionError for neither form or both, or a ``deals`` that is not an
    iterable of numbers; InvalidDealError and InvalidOptionError as `check_range`.
    """
    if deals is None:
        if first is None or last is None:
            raise InvalidOptionError("give the deals first and last, or deals=[numbers]")
        first, last = check_range(variant, first, last)
        return range(first, last + 1)
    if first is not None or last is not None:
        raise InvalidOptionError("give the deals first and last, or deals=[numbers], "
                                 "not both")
    if isinstance(deals, (str, bytes)) or not isinstance(deals, Iterable):
        raise InvalidOptionError(f"deals= takes an iterable of deal numbers, not a "
                                 f"{type(deals).__name__} (read a file with "
                                 f"bakers.bulk.deal_lists.read_deals)")
    seen: set[int] = set()
    numbers: list[int] = []
    for place, value in enumerate(deals):
        number = check_deal(variant, value, f"deals[{place}]")
        if number not in seen:
            seen.add(number)
            numbers.append(number)
    return numbers


# --------------------------------------------------------------------------- runs


def _results(run: Any, variant: Variant, offset: int, solutions: bool,
             sources: list[Any] | None = None,
             positions: list[_Position] | None = None) -> Iterator[RangeResult]:
    """Yield the rows of a core run as results; on Ctrl-C, stop the run, yield the rows
    that had already finished, then raise KeyboardInterrupt."""

    def result(row: tuple[Any, ...]) -> RangeResult:
        (index, number, verdict, moves, _compact, expanded, generated, stored, peak,
         seconds, most_home, reason) = row
        if verdict != "solved" or not solutions:
            moves = None
        stats = SolveStats(expanded, generated, stored, peak, seconds)
        return RangeResult(
            offset + index, None if sources is not None else number, verdict,
            None if moves is None else len(moves), stats, most_home, reason, variant,
            None if sources is None else sources[index],
            None if positions is None else positions[index], moves)

    row, handed = None, True
    try:
        try:
            for row in run:
                handed = False
                item = result(row)
                handed = True
                yield item
        except KeyboardInterrupt:
            run.stop()
            if not handed and row is not None:  # taken from the run, not yet handed out
                yield result(row)
            for row in run:  # rows finished before the stop
                yield result(row)
            raise
    finally:
        run.stop()


def _run(variant: Variant, numbers: list[int], positions: list[_Position], threads: int,
         limits: Limits, ordered: bool, solutions: bool, method: str) -> Any:
    jobs = len(numbers) or len(positions)
    return core().RangeRun(variant.rules(), numbers, positions, threads=min(threads, jobs),
                           ordered=ordered, keep_moves=solutions, method=method,
                           **limits.core_arguments())


def solve_numbers(variant: Variant, numbers: Iterable[int], *, threads: int, limits: Limits,
                  ordered: bool, solutions: bool, method: str | None = None,
                  halt: threading.Event | None = None) -> Iterator[RangeResult]:
    """Yield the results of the numbered deals ``numbers`` (already checked), ``CHUNK``
    deals to a core run; ``index`` counts from 0 in the order of ``numbers``. Setting
    ``halt`` (from any thread) stops the searches as Ctrl-C does: the results finished
    before it are yielded, then the rows end, without an exception."""
    method = check_method(method, variant)
    it = iter(numbers)
    offset = 0
    while not (halt is not None and halt.is_set()) and (chunk := list(islice(it, CHUNK))):
        run = _run(variant, chunk, [], threads, limits, ordered, solutions, method)
        watcher = None if halt is None else _stop_on(halt, run)
        try:
            yield from _results(run, variant, offset, solutions)
        finally:
            if watcher is not None:
                watcher.set()
        offset += len(chunk)


def _stop_on(halt: threading.Event, run: Any) -> threading.Event:
    """Stop ``run`` when ``halt`` is set; return the event that ends the watch (set it
    once the run is over)."""
    over = threading.Event()

    def watch() -> None:
        while not over.is_set():
            if halt.wait(0.05):
                run.stop()
                return

    threading.Thread(target=watch, name="bakers-halt", daemon=True).start()
    return over


def after_interrupt(results: Iterator[Any]) -> Iterator[Any]:
    """Stop the generator ``results`` of a run that Ctrl-C interrupted outside it (it is
    thrown KeyboardInterrupt) and yield what it hands out before it ends: the rows or
    chunks that had finished."""
    try:
        item = results.throw(KeyboardInterrupt())  # type: ignore[attr-defined]
        while True:
            yield item
            item = next(results)
    except (KeyboardInterrupt, StopIteration):
        return


def solve_range(variant: Variant | str, first: int | None = None, last: int | None = None, *,
                deals: Iterable[int] | None = None, threads: int | None = None,
                limits: Limits | None = None, ordered: bool = False,
                solutions: bool = True, method: str | None = None) -> Iterator[RangeResult]:
    """Decide the numbered deals ``first..last`` of a game, or the deals numbered in
    ``deals`` (a repeat decided once; ``index`` counts in their order), on ``threads``
    worker threads (default: one per CPU) and yield a `RangeResult` for each, as they
    finish or, with ``ordered``, in deal order (the order of ``deals``). ``limits``
    holds for each deal, except ``memory``, which holds for the whole run. With
    ``solutions=False`` the engine keeps no lines (``solution`` and ``solution_length``
    are None), which saves memory and time.
    Ctrl-C stops every search: the results finished before it are yielded, then
    KeyboardInterrupt is raised. Each deal is one search on one thread, of ``method``
    (see `solve`; None: the game's `default_method`). Arguments are checked when the
    function is called.

    Raises UnknownVariantError for an unknown game, InvalidDealError for a deal number
    out of the game's range, InvalidOptionError for ``first > last``, both forms or
    neither, a bad ``threads`` or ``method``, or ``limits`` that are not a `Limits`.
    """
    variant = find_variant(variant)
    numbers = deal_numbers(variant, first, last, deals)
    threads, limits = worker_threads(threads), limits_or(limits, Limits())
    method = check_method(method, variant)
    return solve_numbers(variant, numbers, threads=threads, limits=limits,
                         ordered=bool(ordered), solutions=bool(solutions), method=method)


def _many(variant: Variant, items: list[Deal | Board], threads: int, limits: Limits,
          ordered: bool, solutions: bool, method: str) -> Iterator[RangeResult]:
    for offset in range(0, len(items), CHUNK):
        sources: list[Any] = []
        positions: list[_Position] = []
        for item in items[offset:offset + CHUNK]:
            board = item if isinstance(item, Board) else Board(item)
            sources.append(item)
            positions.append(_core_position(board))
        run = _run(variant, [], positions, threads, limits, ordered, solutions, method)
        yield from _results(run, variant, offset, solutions, sources, positions)


def solve_many(deals_or_boards: Iterable[Deal | Board], *, threads: int | None = None,
               limits: Limits | None = None, ordered: bool = False,
               solutions: bool = True, method: str | None = None) -> Iterator[RangeResult]:
    """Decide positions of one game, each a `Deal` or a referee `Board` (any mid-game
    position), on ``threads`` worker threads and yield a `RangeResult` for each
    (``index`` its place in the input, ``number`` None), as they finish or, with
    ``ordered``, in input order. ``limits``, ``solutions``, ``method`` and Ctrl-C work as in
    `solve_range`. The input is read, and its types and game checked, when the function
    is called; boards are copied then.

    Raises InvalidOptionError for an item that is not a Deal or a Board, positions of
    different games, a bad ``threads`` or ``method``, or ``limits`` that are not a `Limits`;
    InvalidDealError for a deal that is not a position of its game.
    """
    threads, limits = worker_threads(threads), limits_or(limits, Limits())
    if method is not None:
        check_method(method, None)
    if isinstance(deals_or_boards, (str, bytes, Deal, Board)):
        raise InvalidOptionError("solve_many() takes an iterable of Deal or Board values, "
                                 f"not a single {type(deals_or_boards).__name__}")
    items: list[Deal | Board] = []
    variant: Variant | None = None
    for number, item in enumerate(deals_or_boards):
        if not isinstance(item, (Deal, Board)):
            raise InvalidOptionError(f"solve_many() takes Deal or Board values; item {number} "
                                     f"is a {type(item).__name__}")
        if variant is None:
            variant = item.variant
        elif item.variant != variant:
            raise InvalidOptionError(
                f"solve_many() decides one game at a time: item {number} is "
                f"{item.variant.name}, item 0 is {variant.name}")
        items.append(item.copy(stack=False) if isinstance(item, Board) else item)
    if variant is None:
        return iter(())
    method = check_method(method, variant)
    return _many(variant, items, threads, limits, bool(ordered), bool(solutions), method)
