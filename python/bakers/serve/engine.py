"""The engine's work for the page: every search bounded in time and memory, and every
replay of a request's moves, run on worker threads so that the event loop keeps
answering while they run (the core releases the GIL), and no more at once than there
are workers.

A request beyond the workers waits its turn; beyond ``queue`` waiting requests the
server answers 503 at once instead of piling up work it would finish too late. A call
whose client has gone is given up: a waiting one leaves the queue, a running search
stops at its next poll (the core polls about 20 times a second). When the server
stops (`Engine.stop`), every call is given up the same way and its client gets 503.
"""

from __future__ import annotations

import datetime
import math
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable
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
from ..solving import SearchProgress, SolveResult, solve
from ..variants import Variant

__all__ = ["EngineLimits", "Engine", "BusyError", "StoppingError", "GoneError", "POLL_SECONDS"]

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
            if (isinstance(value, bool) or not isinstance(value, int | float)
                    or not (value > 0 and math.isfinite(value))):
                raise InvalidOptionError(f"{name}={value!r} must be a positive number")
            # a search's own limits must take it too (the one owner of their ranges),
            # else every request would be refused for a value the server started with
            Limits(seconds=value, memory=self.memory)
        for name in ("nodes", "attempts", "workers", "memory"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InvalidOptionError(f"{name}={value!r} must be a positive integer")
        if isinstance(self.queue, bool) or not isinstance(self.queue, int) or self.queue < 0:
            raise InvalidOptionError(f"queue={self.queue!r} must be an integer >= 0")


class BusyError(RuntimeError):
    """Every worker is busy and the queue of waiting requests is full."""


class StoppingError(RuntimeError):
    """The server is stopping: the call was given up (its client gets 503)."""


class GoneError(RuntimeError):
    """The client of the call has gone: the call was given up."""


class _Stopped(Exception):
    """Raised by a search's progress callback to stop it (see `Engine.run`)."""


_STOPPING = "the server is stopping; try again when it is back"

#: How often a pending call checks whether its client has gone or the server stops.
POLL_SECONDS = 0.1

#: The stop of the call that a worker thread runs now (see `Engine.run`).
_CURRENT = threading.local()


class Engine:
    """Runs the engine's calls for the page within `EngineLimits`."""

    #: How many daily deals are kept (they never change, and every player asks for them).
    DAILY_CACHE = 64

    def __init__(self, limits: EngineLimits | None = None) -> None:
        self.limits = limits or EngineLimits()
        self._limiter: anyio.CapacityLimiter | None = None
        self._pending = 0
        self._stopping = threading.Event()
        self._daily: OrderedDict[tuple[str, datetime.date], Deal] = OrderedDict()
        self._daily_lock = threading.Lock()

    def stop(self) -> None:
        """Give up every call, pending or to come: the server is stopping. Safe to call
        from a signal handler or any thread."""
        self._stopping.set()

    @property
    def stopping(self) -> bool:
        """Whether `stop` was called."""
        return self._stopping.is_set()

    async def run(self, call: Callable[..., T], *args: Any,
                  gone: Callable[[], Awaitable[bool]] | None = None) -> T:
        """Return ``call(*args)`` run on a worker thread.

        ``gone``, if given, says whether the request's client has gone (Starlette's
        ``request.is_disconnected``); it is polled every `POLL_SECONDS` while the call
        waits or runs.

        Raises BusyError at once when ``workers + queue`` calls are already pending,
        StoppingError when the server stops, GoneError when ``gone`` says so (a
        waiting call leaves the queue; a running search stops at its next poll), and
        what ``call`` raises.
        """
        if self._limiter is None:  # made inside the event loop that uses it
            self._limiter = anyio.CapacityLimiter(self.limits.workers)
        if self.stopping:
            raise StoppingError(_STOPPING)
        if self._pending >= self.limits.workers + self.limits.queue:
            raise BusyError(f"the engine is busy ({self._pending} requests pending); "
                            f"try again in a moment")
        stop = threading.Event()
        outcome: list[tuple[bool, Any]] = []

        def work() -> None:  # never raises: an exception must not cross the task group
            _CURRENT.stop = stop
            try:
                outcome.append((True, call(*args)))
            except BaseException as exc:  # noqa: BLE001 - raised again on the event loop
                outcome.append((False, exc))
            finally:
                _CURRENT.stop = None

        self._pending += 1
        try:
            async with anyio.create_task_group() as group:
                group.start_soon(self._watch, stop, gone, group.cancel_scope)
                # waiting for a worker can be cancelled; a running call is waited for
                # (it ends at once: its stop is set before the cancel)
                await anyio.to_thread.run_sync(work, limiter=self._limiter)
                group.cancel_scope.cancel()
        finally:
            self._pending -= 1
        if outcome:
            done, value = outcome[0]
            if done:  # (finished before its stop took effect: the answer stands)
                return value  # type: ignore[no-any-return]
            if not isinstance(value, _Stopped):
                raise value
        if self.stopping:
            raise StoppingError(_STOPPING)
        raise GoneError("the client has gone")

    async def _watch(self, stop: threading.Event, gone: Callable[[], Awaitable[bool]] | None,
                     scope: anyio.CancelScope) -> None:
        """Set ``stop`` and cancel ``scope`` once the server stops or ``gone()`` holds."""
        while not (self.stopping or (gone is not None and await gone())):
            await anyio.sleep(POLL_SECONDS)
        stop.set()
        scope.cancel()

    @staticmethod
    def _progress() -> Callable[[SearchProgress], None] | None:
        """Return the progress callback that stops the search of the calling worker's
        call when that call is given up (None outside `run`)."""
        stop: threading.Event | None = getattr(_CURRENT, "stop", None)
        if stop is None:
            return None

        def check(_: SearchProgress) -> None:
            if stop.is_set():
                raise _Stopped

        return check

    # -- the calls, each bounded --------------------------------------------------

    def search_limits(self, seconds: float) -> Limits:
        """Return the limits of one search of at most ``seconds``."""
        return Limits(seconds=seconds, memory=self.limits.memory)

    def hint(self, board: Board) -> Hint:
        """Return `bakers.hint` for ``board`` within ``hint_seconds`` and ``memory``."""
        return hint(board, limits=self.search_limits(self.limits.hint_seconds),
                    progress=self._progress())

    def solve(self, board: Board) -> SolveResult:
        """Return `bakers.solve` of ``board`` within ``solve_seconds`` and ``memory``."""
        return solve(board, limits=self.search_limits(self.limits.solve_seconds),
                     progress=self._progress())

    def generate(self, variant: Variant, difficulty: str | None) -> Generated:
        """Return a new winnable deal (of ``difficulty`` if given) within ``attempts``
        deals, each searched within ``nodes`` and ``memory``."""
        return generate(variant, difficulty=difficulty, max_attempts=self.limits.attempts,
                        limits=Limits(nodes=self.limits.nodes, memory=self.limits.memory),
                        progress=self._progress())

    def grade(self, deal: Deal) -> Grade:
        """Return `bakers.grade` of ``deal`` with its search within ``nodes`` and ``memory``."""
        return grade(deal, limits=Limits(nodes=self.limits.nodes, memory=self.limits.memory),
                     progress=self._progress())

    def daily(self, variant: Variant, date: datetime.date) -> Deal:
        """Return `bakers.daily` of ``variant`` for ``date``, remembered. Its searches
        keep the fixed node limit that makes the day's deal the same everywhere
        (`bakers.generating.DAILY_LIMITS`), which bounds their time and memory too."""
        key = (variant.name, date)
        with self._daily_lock:
            if key in self._daily:
                self._daily.move_to_end(key)
                return self._daily[key]
        deal = daily(variant, date, progress=self._progress())
        with self._daily_lock:
            self._daily[key] = deal
            while len(self._daily) > self.DAILY_CACHE:
                self._daily.popitem(last=False)
        return deal
