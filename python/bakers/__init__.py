"""bakers: an exact, fast solver for Baker's Game, FreeCell and their open-solitaire family.

The pure-Python parts (variants, cards, deals, notation and the referee `Board`) work
without the compiled core; solving needs `bakers._core` (built by ``pip install .``).

The names of the API are imported from their modules when first used (`__getattr__`), so
that ``import bakers`` and a command that needs a few of them start without loading the
rest (`python -X importtime -m bakers ...` shows what each command loads).
"""

import importlib as _importlib

from . import _old_names

# typing.TYPE_CHECKING without importing typing, which ``import bakers`` needs nowhere else
# (type checkers take any name TYPE_CHECKING as true).
TYPE_CHECKING = False
if TYPE_CHECKING:
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
del TYPE_CHECKING

__version__ = "0.1.0"

#: The module of each name of the API (imported by `__getattr__` when first used).
_HOMES = {
    "Board": "board", "Outcome": "board",
    "RangeResult": "bulk", "solve_many": "bulk", "solve_range": "bulk",
    "Card": "cards",
    "Deal": "deals",
    "Grade": "difficulty", "grade": "difficulty",
    "ArgumentOrderError": "errors", "AttemptsExhaustedError": "errors",
    "BakersError": "errors", "CardParseError": "errors", "DealParseError": "errors",
    "IllegalMoveError": "errors", "InvalidCheckpointError": "errors",
    "InvalidDealError": "errors", "InvalidMoveError": "errors",
    "InvalidOptionError": "errors", "InvalidVariantError": "errors",
    "NotWinnableError": "errors", "UnknownVariantError": "errors",
    "MinCells": "fewest_cells", "min_cells": "fewest_cells",
    "Generated": "generating", "daily": "generating", "generate": "generating",
    "Hint": "hinting", "hint": "hinting",
    "Limits": "limits",
    "Move": "notation", "Place": "notation",
    "Replay": "solution", "Solution": "solution",
    "SearchProgress": "solving", "SolveResult": "solving", "SolveStats": "solving",
    "solve": "solving",
    "PRESETS": "variants", "Variant": "variants", "find_variant": "variants",
}

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

# The modules' names before 0.2 (``from bakers.solve import METHODS``) import the new
# modules, without a function of the same name (`solve`) giving way to the module.
_old_names.install(__name__)


def __getattr__(name: str) -> object:
    """Return the API's ``name`` from its module, imported now, and keep it here."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(_importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The API alone: the names of `__all__` and the version, not the helper modules."""
    return sorted([*__all__, "__version__"])
