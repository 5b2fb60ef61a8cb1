"""Access to the compiled core `bakers._core`, with a clear message when it is not built."""

from __future__ import annotations

import importlib
from types import ModuleType

_BUILD_HINT = (
    "the compiled core bakers._core is not built in this checkout. Build and install it "
    "with `pip install .` (or `pip install -e . --no-build-isolation` for development) "
    "from the repository root; it needs a C++20 compiler and CMake >= 3.21."
)


def core() -> ModuleType:
    """Return the compiled module `bakers._core`; raise ImportError saying how to build it."""
    try:
        return importlib.import_module("bakers._core")
    except ImportError as exc:
        raise ImportError(_BUILD_HINT) from exc
