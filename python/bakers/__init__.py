"""bakers: an exact, fast solver for Baker's Game, FreeCell and their open-solitaire family.

The pure-Python parts (variants, cards, deals, notation and the referee `Board`) work
without the compiled core; solving needs `bakers._core` (built by ``pip install .``).
"""

import sys as _sys

from .board import Board, Outcome
from .bulk import RangeResult, solve_many, solve_range
from .cards import Card
from .deals import Deal
from .difficulty import Grade, grade
from .errors import (
    ArgumentOrderError,
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
from .fewest_cells import MinCells, min_cells
from .generating import Generated, daily, generate
from .hinting import Hint, hint
from .limits import Limits
from .notation import Move, Place
from .solution import Replay, Solution
from .solving import SearchProgress, SolveResult, SolveStats, solve
from .variants import PRESETS, Variant, find_variant

__version__ = "0.1.0"

# The modules' names before 0.2, kept for one release so that ``from bakers.solve import
# METHODS`` still imports: the functions `solve`, `hint`, `generate` and `min_cells` hid
# the modules of those names, which are now `solving`, `hinting`, `generating` and
# `fewest_cells`.
for _old, _new in (("solve", "solving"), ("hint", "hinting"), ("generate", "generating"),
                   ("min_cells", "fewest_cells")):
    _sys.modules.setdefault(f"{__name__}.{_old}", _sys.modules[f"{__name__}.{_new}"])
del _old, _new

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
    "ArgumentOrderError",
    "NotWinnableError",
    "Outcome",
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


def __dir__() -> list[str]:
    """The API alone: the names of `__all__` and the version, not the helper modules."""
    return sorted([*__all__, "__version__"])
