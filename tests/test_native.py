"""The compiled core: the package imports, and a missing `bakers._core` gives an
ImportError that says how to build it, from `core()` and from `solve()` alike."""

from __future__ import annotations

import sys
from types import ModuleType

import bakers
import pytest
from bakers import _native
from bakers.deals import Deal
from bakers.variants import find_variant

BUILD_HINT = "pip install ."


@pytest.fixture
def without_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make `bakers._core` unimportable, as in a checkout where it was never built."""
    monkeypatch.setitem(sys.modules, "bakers._core", None)
    # `from . import _core` takes an already imported submodule from the package's
    # attributes before it looks at sys.modules.
    monkeypatch.delattr(bakers, "_core", raising=False)


def test_package_imports() -> None:
    assert isinstance(bakers.__version__, str) and bakers.__version__
    for name in bakers.__all__:
        assert hasattr(bakers, name), f"bakers.__all__ names {name!r}, which is missing"


def test_core_is_the_compiled_module() -> None:
    core = _native.core()
    assert isinstance(core, ModuleType) and core.__name__ == "bakers._core"
    for name in ("deal", "solve", "legal_moves"):
        assert callable(getattr(core, name, None)), f"bakers._core has no {name}()"


@pytest.mark.usefixtures("without_core")
def test_missing_core_says_how_to_build() -> None:
    with pytest.raises(ImportError) as info:
        _native.core()
    assert BUILD_HINT in str(info.value), str(info.value)
    assert isinstance(info.value.__cause__, ImportError), "the original error is kept"


@pytest.mark.usefixtures("without_core")
def test_solve_without_core_raises_the_helpful_error() -> None:
    deal = Deal.from_number(find_variant("freecell"), 1)
    with pytest.raises(ImportError) as info:
        bakers.solve(deal)
    assert BUILD_HINT in str(info.value), f"a bare ImportError: {info.value}"


@pytest.mark.usefixtures("without_core")
def test_pure_python_parts_work_without_core() -> None:
    board = bakers.Board(Deal.from_number("freecell", 24))
    replay = bakers.Solution.parse("6a 6b").replay(board)
    assert replay.error is None and replay.applied == 2
    assert "bakers._core" not in sys.modules or sys.modules["bakers._core"] is None


def test_core_is_back_after_the_fixture() -> None:
    assert _native.core().__name__ == "bakers._core"


def test_the_core_owns_the_search_rules() -> None:
    """The method names the command line lists are the core's; the thread bounds, and
    which method takes threads or a checkpoint, are the core's and said in its words."""
    from bakers import _core, solve
    from bakers.bulk import max_threads
    from bakers.errors import InvalidOptionError
    from bakers.solving import METHODS

    assert METHODS == _core.METHODS
    assert max_threads() == _core.MAX_POOL_THREADS >= _core.MAX_SEARCH_THREADS >= 2
    deal = Deal.from_number(find_variant("bakers_game"), 1)
    top = _core.MAX_SEARCH_THREADS
    with pytest.raises(InvalidOptionError, match=rf"threads={top + 1} is out of range \(1 "
                       f"to {top}"):
        solve(deal, threads=top + 1)
    with pytest.raises(InvalidOptionError, match="method='beam' runs on one thread"):
        solve(deal, threads=2, method="beam")
    with pytest.raises(InvalidOptionError, match="checkpoint needs method='depth-first'"):
        solve(deal, method="portfolio", checkpoint="x.ck")
