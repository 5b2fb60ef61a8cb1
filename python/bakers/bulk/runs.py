"""Bulk solving: decide many deals of one game on worker threads.

`solve_range` deals and decides a range of numbered deals in C++; `solve_many` decides
given deals or boards. Both yield a `RangeResult` per position as it finishes (or in
input order), with the search running on ``threads`` threads and the GIL released.

A result's solution is built from the engine's moves when it is read (`results`); the
arguments are checked by `checks` when the function is called.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import Any

from .._native import core
from ..board import Board
from ..deals import Deal
from ..errors import InvalidOptionError
from ..limits import Limits, limits_or
from ..solving import SolveStats, _core_position, check_method
from ..variants import Variant, find_variant
from .checks import deal_numbers, worker_threads
from .results import CorePosition, RangeResult

__all__ = ["solve_range", "solve_many", "solve_numbers", "after_interrupt"]

#: How many jobs one core run holds at a time; longer inputs go through in chunks.
CHUNK = 1 << 14


def _results(run: Any, variant: Variant, offset: int, solutions: bool,
             sources: list[Any] | None = None,
             positions: list[CorePosition] | None = None) -> Iterator[RangeResult]:
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


def _run(variant: Variant, numbers: list[int], positions: list[CorePosition], threads: int,
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
        positions: list[CorePosition] = []
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
