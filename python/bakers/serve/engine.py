"""The engine's work for the page: every search bounded in time and memory, run on
worker threads so that the event loop keeps answering while a search runs (the core
releases the GIL), and no more searches at once than there are workers.

A request beyond the workers waits its turn; beyond ``queue`` waiting requests the
server answers 503 at once instead of piling up work it would finish too late.
"""

from __future__ import annotations

import datetime
import functools
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import anyio
import anyio.to_thread

from ..board import Board
from ..deals import Deal
from ..difficulty import Grade, grade
from ..errors import InvalidOptionError
from ..generating import Generated, daily, generate
from ..hinting import Hint, hint
from ..limits import Limits, parse_bytes
from ..solving import SolveResult, solve
from ..variants import Variant

__all__ = ["EngineLimits", "Engine", "BusyError"]

T = TypeVar("T")


@dataclass(frozen=True)
class EngineLimits:
    """The bounds of the engine's work for the page: ``hint_seconds`` and
    ``solve_seconds`` of wall-clock time a search, ``memory`` bytes a search (an int or
    ``'512M'``), ``nodes`` positions for a new deal's and a grade's searches (a node
    limit keeps a seed's deal and grade the same on every machine), ``attempts`` deals
    tried for a new deal, ``workers`` searches at once and ``queue`` requests waiting.

    Raises InvalidOptionError for a value out of range.
    """

    hint_seconds: float = 3.0
    solve_seconds: float = 10.0
    memory: int | str = "512M"
    nodes: int = 200_000
    attempts: int = 30
    workers: int = 2
    queue: int = 64

    def __post_init__(self) -> None:
        object.__setattr__(self, "memory", parse_bytes(self.memory))
        for name in ("hint_seconds", "solve_seconds"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
                raise InvalidOptionError(f"{name}={value!r} must be a positive number")
        for name in ("nodes", "attempts", "workers", "memory"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InvalidOptionError(f"{name}={value!r} must be a positive integer")
        if isinstance(self.queue, bool) or not isinstance(self.queue, int) or self.queue < 0:
            raise InvalidOptionError(f"queue={self.queue!r} must be an integer >= 0")


class BusyError(RuntimeError):
    """Every worker is busy and the queue of waiting requests is full."""


class Engine:
    """Runs the engine's calls for the page within `EngineLimits`."""

    #: How many daily deals are kept (they never change, and every player asks for them).
    DAILY_CACHE = 64

    def __init__(self, limits: EngineLimits | None = None) -> None:
        self.limits = limits or EngineLimits()
        self._limiter: anyio.CapacityLimiter | None = None
        self._pending = 0
        self._daily: OrderedDict[tuple[str, datetime.date], Deal] = OrderedDict()
        self._daily_lock = threading.Lock()

    async def run(self, call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Return ``call(*args, **kwargs)`` run on a worker thread.

        Raises BusyError at once when ``workers + queue`` calls are already pending.
        """
        if self._limiter is None:  # made inside the event loop that uses it
            self._limiter = anyio.CapacityLimiter(self.limits.workers)
        if self._pending >= self.limits.workers + self.limits.queue:
            raise BusyError(f"the engine is busy ({self._pending} requests pending); "
                            f"try again in a moment")
        self._pending += 1
        try:
            return await anyio.to_thread.run_sync(
                functools.partial(call, *args, **kwargs), limiter=self._limiter)
        finally:
            self._pending -= 1

    # -- the calls, each bounded --------------------------------------------------

    def search_limits(self, seconds: float) -> Limits:
        """Return the limits of one search of at most ``seconds``."""
        return Limits(seconds=seconds, memory=self.limits.memory)

    def hint(self, board: Board) -> Hint:
        """Return `bakers.hint` for ``board`` within ``hint_seconds`` and ``memory``."""
        return hint(board, limits=self.search_limits(self.limits.hint_seconds))

    def solve(self, board: Board) -> SolveResult:
        """Return `bakers.solve` of ``board`` within ``solve_seconds`` and ``memory``."""
        return solve(board, limits=self.search_limits(self.limits.solve_seconds))

    def generate(self, variant: Variant, difficulty: str | None) -> Generated:
        """Return a new winnable deal (of ``difficulty`` if given) within ``attempts``
        deals, each searched within ``nodes`` and ``memory``."""
        return generate(variant, difficulty=difficulty, max_attempts=self.limits.attempts,
                        limits=Limits(nodes=self.limits.nodes, memory=self.limits.memory))

    def grade(self, deal: Deal) -> Grade:
        """Return `bakers.grade` of ``deal`` with its search within ``nodes`` and ``memory``."""
        return grade(deal, limits=Limits(nodes=self.limits.nodes, memory=self.limits.memory))

    def daily(self, variant: Variant, date: datetime.date) -> Deal:
        """Return `bakers.daily` of ``variant`` for ``date``, remembered. Its searches
        keep the fixed node limit that makes the day's deal the same everywhere
        (`bakers.generating.DAILY_LIMITS`), which bounds their time and memory too."""
        key = (variant.name, date)
        with self._daily_lock:
            if key in self._daily:
                self._daily.move_to_end(key)
                return self._daily[key]
        deal = daily(variant, date)
        with self._daily_lock:
            self._daily[key] = deal
            while len(self._daily) > self.DAILY_CACHE:
                self._daily.popitem(last=False)
        return deal
