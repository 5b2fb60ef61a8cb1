"""Search limits: how much work a search may do before it answers "unknown"."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import InvalidOptionError

__all__ = ["Limits", "parse_bytes", "limits_or"]

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
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*", str(text))
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

    Raises InvalidOptionError for a negative or non-numeric limit.
    """

    nodes: int | None = None
    states: int | None = None
    memory: int | str | None = None
    seconds: float | None = None
    forget: bool = False

    def __post_init__(self) -> None:
        for name in ("nodes", "states"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)
                                      or value <= 0):
                raise InvalidOptionError(f"limit {name}={value!r} must be a positive integer")
        if self.memory is not None:
            object.__setattr__(self, "memory", parse_bytes(self.memory))
            if self.memory == 0:
                raise InvalidOptionError("limit memory=0 leaves no room to search")
        if self.seconds is not None and (
                isinstance(self.seconds, bool) or not isinstance(self.seconds, int | float)
                or not self.seconds > 0):
            raise InvalidOptionError(f"limit seconds={self.seconds!r} must be a positive number")
        if not isinstance(self.forget, bool):
            raise InvalidOptionError(f"forget={self.forget!r} must be True or False")

    def core_arguments(self) -> dict[str, int | float | bool]:
        """Return the limits as the core's keyword arguments (0 = no limit)."""
        return {"max_nodes": self.nodes or 0, "max_states": self.states or 0,
                "max_bytes": int(self.memory or 0), "max_seconds": float(self.seconds or 0),
                "forget": self.forget}


def limits_or(limits: object, default: Limits) -> Limits:
    """Return ``limits``, or ``default`` when it is None.

    Raises InvalidOptionError when ``limits`` is neither None nor a `Limits`.
    """
    if limits is None:
        return default
    if not isinstance(limits, Limits):
        raise InvalidOptionError(f"limits= takes a bakers.Limits, not {limits!r}")
    return limits
