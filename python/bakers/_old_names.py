"""The modules' names before 0.2, kept for one release: ``from bakers.solve import
METHODS`` imports `bakers.solving`. The functions `solve`, `hint`, `generate` and
`min_cells` took those names, so the modules became `solving`, `hinting`, `generating`
and `fewest_cells`.

The old name is resolved when it is imported (a finder on `sys.meta_path`), not when the
package is, so that ``import bakers`` loads none of the four. The import system then sets
the module as an attribute of its package; the package's class keeps the function there.
"""

from __future__ import annotations

import importlib
import sys
from importlib.machinery import ModuleSpec
from types import ModuleType

#: The new module of each old name, under the package.
MOVED = {"solve": "solving", "hint": "hinting", "generate": "generating",
         "min_cells": "fewest_cells"}


class _Package(ModuleType):
    """The package `bakers`: a module set on it under an old name (by the import system,
    after ``import bakers.solve``) leaves the function of that name in place."""

    def __setattr__(self, name: str, value: object) -> None:
        if name in MOVED and isinstance(value, ModuleType):
            return
        super().__setattr__(name, value)


class _Finder:
    """Finds ``PACKAGE.OLD`` (an old name of `MOVED`) and loads it as ``PACKAGE.NEW``, the
    module itself (one module under two names, as `sys.modules` held them before)."""

    def __init__(self, package: str) -> None:
        self.package = package

    def find_spec(self, fullname: str, path: object = None,
                  target: object = None) -> ModuleSpec | None:
        parent, _, leaf = fullname.rpartition(".")
        if parent != self.package or leaf not in MOVED:
            return None
        # A loader by its two methods: importlib.abc.Loader would import typing.
        return ModuleSpec(fullname, self)  # type: ignore[arg-type]

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        leaf = spec.name.rpartition(".")[2]
        return importlib.import_module(f"{self.package}.{MOVED[leaf]}")

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the module is the new one, imported by `create_module`."""


def install(package: str) -> None:
    """Let ``package``'s old module names import (once per process)."""
    if not any(isinstance(f, _Finder) and f.package == package for f in sys.meta_path):
        sys.meta_path.append(_Finder(package))
    sys.modules[package].__class__ = _Package
