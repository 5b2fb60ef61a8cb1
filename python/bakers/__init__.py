"""bakers: an exact, fast solver for Baker's Game, FreeCell and their open-solitaire family.

The pure-Python parts (variants, cards, deals, notation and the referee `Board`) work
without the compiled core; solving needs `bakers._core` (built by ``pip install .``).
"""

from __future__ import annotations

from .board import Board
from .cards import Card
from .deals import Deal
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
from .limits import Limits
from .notation import Move, Place
from .solution import Replay, Solution
from .solve import SolveResult, SolveStats, solve
from .variants import PRESETS, Variant, find_variant

__version__ = "0.1.0"

__all__ = [
    "BakersError",
    "Board",
    "Card",
    "Deal",
    "Limits",
    "Move",
    "Place",
    "Replay",
    "Solution",
    "SolveResult",
    "SolveStats",
    "solve",
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
