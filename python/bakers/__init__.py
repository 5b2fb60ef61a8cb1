"""bakers: an exact, fast solver for Baker's Game, FreeCell and their open-solitaire family.

The pure-Python parts (variants, cards, deals, notation and the referee `Board`) work
without the compiled core; solving needs `bakers._core` (built by ``pip install .``).
"""

from __future__ import annotations

from .cards import Card
from .errors import (
    BakersError,
    CardParseError,
    DealParseError,
    IllegalMoveError,
    InvalidDealError,
    InvalidMoveError,
    InvalidOptionError,
    InvalidVariantError,
    UnknownVariantError,
)
from .variants import PRESETS, Variant, find_variant

__version__ = "0.1.0"

__all__ = [
    "BakersError",
    "Card",
    "CardParseError",
    "DealParseError",
    "IllegalMoveError",
    "InvalidDealError",
    "InvalidMoveError",
    "InvalidOptionError",
    "InvalidVariantError",
    "PRESETS",
    "UnknownVariantError",
    "Variant",
    "find_variant",
]
