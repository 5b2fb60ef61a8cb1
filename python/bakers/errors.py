"""The errors of bakers: every one is a ``ValueError`` subclass split by kind.

Each message quotes the offending token with ``!r`` and says where it was
(line, column, move number) whenever the input had such a place.
"""

from __future__ import annotations

__all__ = [
    "BakersError",
    "UnknownVariantError",
    "InvalidVariantError",
    "CardParseError",
    "DealParseError",
    "InvalidDealError",
    "InvalidMoveError",
    "IllegalMoveError",
    "InvalidOptionError",
    "InvalidCheckpointError",
    "AttemptsExhaustedError",
    "NotWinnableError",
    "DatasetError",
    "ArgumentOrderError",
]


class BakersError(ValueError):
    """Base class of every error that bakers raises for bad input."""


class UnknownVariantError(BakersError):
    """No game of that name or alias exists."""


class InvalidVariantError(BakersError):
    """A custom variant has a field out of range or fields that contradict each other."""


class CardParseError(BakersError):
    """A card token does not parse (``'1X'``, ``'ZZ'``, a rank not in the deck)."""


class DealParseError(BakersError):
    """A board text or JSON deal is malformed (a bad line, a bad card, a bad key)."""


class InvalidDealError(BakersError):
    """A deal parses but is not a position of its game: a duplicate or missing card,
    the wrong number of columns or cells, foundations that contradict the cards."""


class InvalidMoveError(BakersError):
    """A move token does not parse (syntax only, independent of any position)."""


class IllegalMoveError(BakersError):
    """A move parses but the rules do not allow it in the current position."""


class InvalidOptionError(BakersError):
    """An option or limit has a value out of its range."""


class InvalidCheckpointError(BakersError):
    """A checkpoint file (``solve(checkpoint=...)``) is not one, is damaged, or was saved
    by a search of another position or with other settings."""


class AttemptsExhaustedError(BakersError):
    """No deal met the request (winnable, of a difficulty) within the attempts allowed;
    the message says how many attempts were made and why each failed."""


class NotWinnableError(BakersError):
    """A position that has to be winnable (to be graded, for instance) is proved not to be."""


class DatasetError(BakersError):
    """A Parquet dataset of `bakers range` cannot be written: pyarrow (the extra
    ``bakers[parquet]``) is not installed, or a file of it cannot be written."""


class ArgumentOrderError(BakersError):
    """A call gave its arguments in the order of an earlier release, the text before the
    game (``Deal.parse(text, game)``); the message spells the order of this one, the
    game first."""
