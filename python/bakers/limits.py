"""Search limits: how much work a search may do before it answers "unknown"."""

from __future__ import annotations

import math
import os
import re
import resource
from dataclasses import dataclass

from .errors import InvalidOptionError

__all__ = ["Limits", "parse_bytes", "limits_or", "check_threads", "SEARCH_THREADS_WHY",
           "resident_bytes"]

#: The engine counts positions and bytes in 64 bits: every count limit is below this.
MAX_COUNT = 2**64


def _short(value: int) -> str:
    """Return an int for a message: whole when short, else its first digits and length."""
    text = str(value) if value < 10**30 else f"{str(value)[:12]}... ({len(str(value))} digits)"
    return text


_UNITS = {"": 1, "b": 1, "k": 2**10, "kb": 2**10, "kib": 2**10, "m": 2**20, "mb": 2**20,
          "mib": 2**20, "g": 2**30, "gb": 2**30, "gib": 2**30, "t": 2**40, "tb": 2**40,
          "tib": 2**40}


def parse_bytes(text: str | int) -> int:
    """Return a byte count from ``'512M'``, ``'2GiB'``, ``'1.5g'`` or an int.

    Raises InvalidOptionError for anything else.
    """
    if isinstance(text, int) and not isinstance(text, bool):
        if text < 0:
            raise InvalidOptionError(f"a memory size is not negative: {text!r}")
        return text
    match = re.fullmatch(r"\s*(\d{1,30}(?:\.\d{1,30})?)\s*([a-zA-Z]*)\s*", str(text), re.ASCII)
    if match is None or match.group(2).lower() not in _UNITS:
        raise InvalidOptionError(
            f"not a memory size: {text!r} (write a number with K, M or G, like '512M')")
    return int(float(match.group(1)) * _UNITS[match.group(2).lower()])


@dataclass(frozen=True)
class Limits:
    """Limits of one search; ``None`` means no limit. ``nodes``: positions expanded;
    ``states``: positions stored; ``memory``: bytes held (an int or ``'4G'``);
    ``seconds``: wall-clock time. ``forget``: under ``memory``, the depth-first search
    forgets positions (the cheapest to search again) and goes on, where it would stop
    with "memory limit": slower, never less exact; other searches ignore it.

    Raises InvalidOptionError for a limit out of range (``nodes``, ``states`` and
    ``memory`` are below 2**64, the engine's counters), TypeError for one of the wrong type.
    """

    nodes: int | None = None
    states: int | None = None
    memory: int | str | None = None
    seconds: float | None = None
    forget: bool = False

    def __post_init__(self) -> None:
        for name in ("nodes", "states"):
            value = getattr(self, name)
            if value is None:
                continue
            if not isinstance(value, int) or isinstance(value, bool):
                raise TypeError(f"limit {name}= is an int, not {type(value).__name__} "
                                f"({value!r})")
            if not 0 < value < MAX_COUNT:
                raise InvalidOptionError(f"limit {name}={_short(value)} is out of range "
                                         f"(1 or more, below 2**64)")
        if self.memory is not None:
            if isinstance(self.memory, bool) or not isinstance(self.memory, int | str):
                raise TypeError(f"limit memory= is an int or a str like '4G', not "
                                f"{type(self.memory).__name__}")
            memory = parse_bytes(self.memory)
            object.__setattr__(self, "memory", memory)
            if memory == 0:
                raise InvalidOptionError("limit memory=0 leaves no room to search")
            if memory >= MAX_COUNT:
                raise InvalidOptionError(f"limit memory={_short(memory)} is out of range "
                                         f"(below 2**64 bytes)")
        if self.seconds is not None:
            if isinstance(self.seconds, bool) or not isinstance(self.seconds, int | float):
                raise TypeError(f"limit seconds= is a number, not "
                                f"{type(self.seconds).__name__} ({self.seconds!r})")
            if isinstance(self.seconds, int) and self.seconds >= MAX_COUNT:
                raise InvalidOptionError(f"limit seconds={_short(self.seconds)} must be a "
                                         f"positive number below 2**64")
            if not (self.seconds > 0 and math.isfinite(self.seconds)):
                raise InvalidOptionError(f"limit seconds={self.seconds!r} must be a positive "
                                         f"number")
        if not isinstance(self.forget, bool):
            raise TypeError(f"forget= is True or False, not {self.forget!r}")

    def core_arguments(self) -> dict[str, int | float | bool]:
        """Return the limits as the core's keyword arguments (0 = no limit)."""
        return {"max_nodes": self.nodes or 0, "max_states": self.states or 0,
                "max_bytes": int(self.memory or 0), "max_seconds": float(self.seconds or 0),
                "forget": self.forget}


#: Why one search takes few threads, said with its bound.
SEARCH_THREADS_WHY = "the threads of one search share its visited set"


def check_threads(threads: object, most: int, why: str = "") -> int:
    """Return ``threads`` when it is an int from 1 to ``most``: the one check, and the
    one wording, of every count of threads (one search's, a run's), which the command
    line says as ``--threads N``.

    Raises InvalidOptionError for anything else, ``why`` said with the bound.
    """
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise InvalidOptionError(f"threads={threads!r} is not a whole number of threads")
    if not 1 <= threads <= most:
        shown = _short(abs(threads)) if threads >= 0 else f"-{_short(-threads)}"
        because = f": {why}" if why else ""
        raise InvalidOptionError(f"threads={shown} is out of range (1 to {most}{because})")
    return threads


def limits_or(limits: object, default: Limits) -> Limits:
    """Return ``limits``, or ``default`` when it is None.

    Raises InvalidOptionError when ``limits`` is neither None nor a `Limits`.
    """
    if limits is None:
        return default
    if not isinstance(limits, Limits):
        raise InvalidOptionError(f"limits= takes a bakers.Limits, not {limits!r}")
    return limits


def resident_bytes() -> int:
    """Return the process's resident set size now (its peak where /proc is missing)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # KiB on Linux
