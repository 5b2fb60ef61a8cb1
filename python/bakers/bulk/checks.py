"""The checks of a bulk run's arguments: its worker threads and its deal numbers, each
against the game's numbering, with one message for every caller (the API, the command,
a cluster, a list of deals).
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from .._native import core
from ..deals import number_range
from ..errors import InvalidDealError, InvalidOptionError
from ..limits import check_threads
from ..variants import Variant


def max_threads() -> int:
    """Return the most worker threads one run takes: the core's `_core.MAX_POOL_THREADS`."""
    return int(core().MAX_POOL_THREADS)


def default_threads() -> int:
    """Return the worker threads of a run when none are asked for: one per CPU."""
    return max(1, min(os.cpu_count() or 1, max_threads()))



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
