"""bakers: an exact, fast solver for Baker's Game, FreeCell and their open-solitaire family.

The pure-Python parts (variants, cards, deals, notation and the referee `Board`) work
without the compiled core; solving needs `bakers._core` (built by ``pip install .``).
"""

from __future__ import annotations

from .board import Board
from .bulk import RangeResult, solve_many, solve_range
from .cards import Card
from .deals import Deal
from .difficulty import Grade, grade
from .errors import (
    AttemptsExhaustedError,
    BakersError,
    CardParseError,
    DealParseError,
    IllegalMoveError,
    InvalidCheckpointError,
    InvalidDealError,
    InvalidMoveError,
    InvalidOptionError,
    InvalidVariantError,
    NotWinnableError,
    UnknownVariantError,
)
from .generate import Generated, daily, generate
from .hint import Hint, hint
from .limits import Limits
from .min_cells import MinCells, min_cells
from .notation import Move, Place
from .solution import Replay, Solution
from .solve import SearchProgress, SolveResult, SolveStats, solve
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
    "RangeResult",
    "Replay",
    "Solution",
    "SolveResult",
    "SolveStats",
    "SearchProgress",
    "solve",
    "solve_many",
    "solve_range",
    "CardParseError",
    "DealParseError",
    "IllegalMoveError",
    "InvalidCheckpointError",
    "InvalidDealError",
    "InvalidMoveError",
    "InvalidOptionError",
    "InvalidVariantError",
    "PRESETS",
    "UnknownVariantError",
    "Variant",
    "find_variant",
    "AttemptsExhaustedError",
    "NotWinnableError",
    "Hint",
    "hint",
    "Generated",
    "generate",
    "daily",
    "Grade",
    "grade",
    "MinCells",
    "min_cells",
]
