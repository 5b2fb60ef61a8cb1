"""Winnable deals and the daily deal: reshuffle until the solver proves a deal winnable.

`generate` deals seeded deals one attempt after another, attempt ``i`` (1-based) being
``Deal.from_seed(variant, derive_seed(seed, i))`` where::

    derive_seed(seed, i) = int.from_bytes(
        sha256(f"bakers-generate:{seed}:{i}".encode("ascii")).digest()[:8], "big")

and keeps the first that the solver proves winnable (``winnable=True``, the default)
and, when ``difficulty`` is asked, that `bakers.difficulty` grades so. Searches stop at
`GENERATE_LIMITS` (a node limit, not a time limit, so that a given ``seed`` gives the
same deal on every machine); a deal left unknown counts as a failed attempt.

`daily` gives everyone the same deal for a date::

    daily_seed(game, date) = int.from_bytes(
        sha256(f"bakers-daily:{game}:{date:%Y-%m-%d}".encode("utf-8")).digest()[:8], "big")

``game`` being the variant's name, and the deal is ``generate(variant,
seed=daily_seed(...)).deal`` with the fixed `DAILY_LIMITS` and `DAILY_ATTEMPTS`. Seeded
deals never change (see `bakers.deals`); nor does whether a deal is winnable. So a
date's deal can change only if a future engine decides within the limit a candidate
that this one leaves unknown, and only when such a candidate comes before the chosen
one; the tests pin the deals of fixed dates to catch any change.
"""

from __future__ import annotations

import datetime
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from .board import Board
from .deals import Deal
from .difficulty import DEFAULT_PLAYOUTS, GRADES, Grade, measure
from .errors import AttemptsExhaustedError, InvalidOptionError, NotWinnableError
from .limits import Limits, limits_or
from .solution import Solution
from .solving import SearchProgress, SolveResult, solve
from .variants import Variant, find_variant

__all__ = ["Generated", "generate", "daily", "daily_seed", "derive_seed", "parse_date",
           "GENERATE_LIMITS", "DAILY_LIMITS", "DAILY_ATTEMPTS"]

#: The limits of each attempt's search when none are given.
GENERATE_LIMITS = Limits(nodes=200_000)
#: The limits of each search of `daily` (fixed: the daily deal must not depend on them).
DAILY_LIMITS = Limits(nodes=200_000)
#: The attempts `daily` makes before it gives up (it never has to in practice).
DAILY_ATTEMPTS = 100


@dataclass(frozen=True)
class Generated:
    """A generated deal: the ``deal`` (``deal.seed`` is its derived seed), its
    ``solution`` (None when not asked to be winnable), the ``seed`` the attempts were
    derived from, the number of ``attempts`` made (the last one gave ``deal``), its
    ``grade`` when a difficulty was asked, and the search's ``result``."""

    deal: Deal
    solution: Solution | None
    seed: int
    attempts: int
    grade: Grade | None = None
    result: SolveResult | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return the generated deal as plain data (for JSON)."""
        return {
            "game": self.deal.variant.name,
            "seed": self.seed,
            "deal_seed": self.deal.seed,
            "attempts": self.attempts,
            "grade": None if self.grade is None else self.grade.grade,
            "score": None if self.grade is None else self.grade.score,
            "moves": None if self.solution is None else len(self.solution),
            "solution": None if self.solution is None else self.solution.notation(None),
            "deal": self.deal.to_text(),
        }


def _sha_seed(text: str) -> int:
    import hashlib  # here: loading OpenSSL's hashes costs every command that imports this

    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def _check_seed(seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InvalidOptionError(f"seed={seed!r} must be an int >= 0")
    return seed


def derive_seed(seed: int, attempt: int) -> int:
    """Return the seed of attempt ``attempt`` (1-based) of `generate` from ``seed``: the
    first 8 bytes, big-endian, of SHA-256 of ``"bakers-generate:<seed>:<attempt>"``.

    Raises InvalidOptionError for a seed that is not an int >= 0 or an attempt < 1.
    """
    seed = _check_seed(seed)
    if isinstance(attempt, bool) or not isinstance(attempt, int) or attempt < 1:
        raise InvalidOptionError(f"attempt={attempt!r} must be an int >= 1")
    return _sha_seed(f"bakers-generate:{seed}:{attempt}")


def generate(variant: Variant | str, *, winnable: bool = True, difficulty: str | None = None,
             seed: int | None = None, max_attempts: int = 100, limits: Limits | None = None,
             playouts: int = DEFAULT_PLAYOUTS,
             progress: Callable[[SearchProgress], object] | None = None) -> Generated:
    """Return a deal of ``variant`` that the solver proves winnable (when ``winnable``)
    and that grades ``difficulty`` (``'easy'``, ``'medium'``, ``'hard'`` or None for
    any; graded with ``playouts`` playouts and seed 0), dealing attempt after attempt
    as the module documentation says from ``seed`` (an int >= 0; None draws one from
    the system's entropy, kept in the result). ``limits`` bound each attempt's search
    (default `GENERATE_LIMITS`). With ``winnable=False`` the first deal is returned
    unsolved. ``progress`` is `solve`'s, given to every search (what it raises stops
    the generation: a server gives up the deal of a client that has gone).

    Raises UnknownVariantError for an unknown game, InvalidOptionError for a bad
    argument (a difficulty with ``winnable=False`` among them), AttemptsExhaustedError
    when ``max_attempts`` deals all failed (the message counts why), EngineError if
    the referee refutes the engine, KeyboardInterrupt when Ctrl-C stops a search (an
    interrupted attempt is no failed one: the deal of a seed never depends on it).
    """
    variant = find_variant(variant)
    if difficulty is not None and difficulty not in GRADES:
        raise InvalidOptionError(
            f"difficulty={difficulty!r} is not one of {', '.join(map(repr, GRADES))}")
    if difficulty is not None and not winnable:
        raise InvalidOptionError("a difficulty is graded on winnable deals only: "
                                 "drop winnable=False or difficulty")
    if (isinstance(max_attempts, bool) or not isinstance(max_attempts, int)
            or max_attempts < 1):
        raise InvalidOptionError(f"max_attempts={max_attempts!r} must be an int >= 1")
    limits = limits_or(limits, GENERATE_LIMITS)
    seed = random.SystemRandom().getrandbits(64) if seed is None else _check_seed(seed)
    failures = {"impossible": 0, "unknown": 0, "other grade": 0}
    for attempt in range(1, max_attempts + 1):
        deal = Deal.from_seed(variant, derive_seed(seed, attempt))
        if not winnable:
            return Generated(deal, None, seed, attempt)
        board = Board(deal)
        result = _search(board, limits, progress)
        if not result.solved:
            failures[result.verdict] += 1
            continue
        graded = None
        if difficulty is not None:
            try:
                graded = measure(board, result, playouts=playouts, progress=progress)
            except NotWinnableError:  # pragma: no cover - the deal was just solved
                failures["impossible"] += 1
                continue
            if graded.grade != difficulty:
                failures["other grade"] += 1
                continue
        return Generated(deal, result.solution, seed, attempt, graded, result)
    why = ", ".join(f"{n} {what}" for what, n in failures.items() if n)
    if failures["unknown"]:
        why += f"; unknown: the search hit its limit {_describe(limits)}"
    wanted = "winnable" if difficulty is None else f"winnable {difficulty!r}"
    raise AttemptsExhaustedError(
        f"no {wanted} {variant.name} deal in {max_attempts} attempt"
        f"{'s' * (max_attempts != 1)} from seed {seed} ({why})")


def _describe(limits: Limits) -> str:
    parts = [f"{name}={value}" for name, value in (
        ("nodes", limits.nodes), ("states", limits.states), ("memory", limits.memory),
        ("seconds", limits.seconds)) if value is not None]
    return ", ".join(parts) or "(none)"


def parse_date(date: datetime.date | str) -> datetime.date:
    """Return ``date`` as a `datetime.date`: a date (a datetime gives its date) or a
    ``'YYYY-MM-DD'`` text.

    Raises InvalidOptionError for anything else, or a day that does not exist.
    """
    if isinstance(date, datetime.datetime):
        return date.date()
    if isinstance(date, datetime.date):
        return date
    if isinstance(date, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", date.strip()):
        try:
            return datetime.date.fromisoformat(date.strip())
        except ValueError as exc:
            raise InvalidOptionError(f"date {date!r} does not exist: {exc}") from None
    if isinstance(date, str):  # the words of the command line, which passes a text
        shown = repr(date) if len(date) <= 40 else f"{date[:20]!r}... ({len(date)} characters)"
        raise InvalidOptionError(f"date {shown} is not a day written YYYY-MM-DD, like "
                                 f"2024-01-31")
    raise InvalidOptionError(f"a date is a datetime.date or a text YYYY-MM-DD, "
                             f"not {date!r}")


def daily_seed(variant: Variant | str, date: datetime.date | str) -> int:
    """Return the seed of ``variant``'s daily deal for ``date``: the first 8 bytes,
    big-endian, of SHA-256 of ``"bakers-daily:<game>:<YYYY-MM-DD>"`` (UTF-8).

    Raises UnknownVariantError for an unknown game, InvalidOptionError for a bad date.
    """
    variant = find_variant(variant)
    day = parse_date(date)
    return _sha_seed(f"bakers-daily:{variant.name}:{day.isoformat()}")


def daily(variant: Variant | str, date: datetime.date | str, *,
          memory: int | str | None = None,
          progress: Callable[[SearchProgress], object] | None = None) -> Deal:
    """Return ``variant``'s deal of the day for ``date`` (a `datetime.date` or
    ``'YYYY-MM-DD'``): the first deal of ``generate(variant, seed=daily_seed(variant,
    date))`` that is proved winnable under `DAILY_LIMITS`; the same for everyone.
    ``memory`` (bytes, an int or ``'512M'`` as `Limits` reads it) bounds each search's
    memory besides: the day's deal must not depend on it, so a search that stops on it
    is an error, never a reason to go on to another deal.

    Raises UnknownVariantError for an unknown game, InvalidOptionError for a bad date
    or a ``memory`` too small for a search, AttemptsExhaustedError if `DAILY_ATTEMPTS`
    deals in a row fail, KeyboardInterrupt when Ctrl-C stops a search. ``progress`` is
    `solve`'s, given to every search.
    """
    seed = daily_seed(variant, date)
    if memory is None:
        return generate(variant, seed=seed, max_attempts=DAILY_ATTEMPTS,
                        limits=DAILY_LIMITS, progress=progress).deal
    limits = replace(DAILY_LIMITS, memory=memory)
    variant = find_variant(variant)
    for attempt in range(1, DAILY_ATTEMPTS + 1):
        deal = Deal.from_seed(variant, derive_seed(seed, attempt))
        result = _search(Board(deal), limits, progress)
        if result.solved:
            return deal
        if result.reason == "memory limit":
            raise InvalidOptionError(
                f"the memory limit is too small for the daily deal's searches (attempt "
                f"{attempt} stopped on it; the day's deal must not depend on it)")
    raise AttemptsExhaustedError(f"no winnable {variant.name} deal in {DAILY_ATTEMPTS} "
                                 f"attempts from seed {seed}")


def _search(board: Board, limits: Limits,
            progress: Callable[[SearchProgress], object] | None = None) -> SolveResult:
    """Return the search of one attempt of `generate` and `daily`.

    Raises KeyboardInterrupt when Ctrl-C stopped it: no answer, never the next attempt's.
    """
    # best-first, whatever the game's default: the deal of a seed (and of a day) and
    # its grade (calibrated on best-first searches) must not change with that default
    result = solve(board, limits=limits, method="best-first", progress=progress)
    if result.reason == "interrupted":
        raise KeyboardInterrupt
    return result
