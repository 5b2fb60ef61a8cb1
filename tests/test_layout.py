"""The layout: no attribute of a package hides one of its modules, no module imports
another in a circle (nor a core header includes one), the old module names still import
for one release, and docs/architecture.md names every file."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
from pathlib import Path

import bakers
import pytest

ROOT = Path(bakers.__file__).parent


def _modules() -> dict[str, Path]:
    """Return every module of the package by its dotted name, with its source file."""
    found = {"bakers": ROOT / "__init__.py"}
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Return the package's modules that module ``name`` imports anywhere in its text."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            for alias in node.names:  # `from . import x` names a module, or a name of `.`
                full = f"{base}.{alias.name}"
                out.add(full if full in known else base)
    return {m for m in out if m in known and m != name}


def test_no_module_imports_in_a_circle() -> None:
    modules = _modules()
    graph = {name: _imports(name, path, set(modules)) for name, path in modules.items()}
    state: dict[str, int] = {}  # 1 on the current path, 2 done

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for other in sorted(graph[name]):
            if state.get(other) == 1:
                cycle = path[path.index(other):] + [other]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if other not in state:
                visit(other, path + [other])
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])


def test_no_package_attribute_hides_a_module() -> None:
    for info in pkgutil.walk_packages(bakers.__path__, "bakers."):
        if info.name in ("bakers._core", "bakers.__main__"):  # __main__ runs the command
            continue
        try:
            module = importlib.import_module(info.name)
        except ModuleNotFoundError as exc:  # an optional extra (serve, cluster) not installed
            if exc.name and not exc.name.startswith("bakers"):
                continue
            raise
        parent, _, leaf = info.name.rpartition(".")
        value = getattr(importlib.import_module(parent), leaf)
        assert value is module, f"{parent}.{leaf} is {value!r}, not the module {info.name}"


def test_the_functions_keep_their_names() -> None:
    assert callable(bakers.solve) and bakers.solve.__module__ == "bakers.solving"
    assert bakers.hint.__module__ == "bakers.hinting"
    assert bakers.generate.__module__ == "bakers.generating"
    assert bakers.min_cells.__module__ == "bakers.fewest_cells"


def test_the_old_module_names_still_import() -> None:
    from bakers import fewest_cells, solving
    from bakers.min_cells import with_cells
    from bakers.solve import METHODS, default_method

    assert default_method is solving.default_method and METHODS == solving.METHODS
    assert with_cells is fewest_cells.with_cells


def test_the_architecture_page_names_every_file() -> None:
    """docs/architecture.md says what every file of the package and of the core holds."""
    repo = Path(__file__).resolve().parent.parent  # the checkout the tests belong to
    text = (repo / "docs" / "architecture.md").read_text(encoding="utf-8")
    files = [p for top in ("python/bakers", "cpp") for p in (repo / top).rglob("*")
             if p.is_file() and p.suffix in (".py", ".pyi", ".hpp", ".cpp", ".typed")
             and "__pycache__" not in p.parts]
    missing = [str(p.relative_to(repo)) for p in files
               if not re.search(rf"(?<!\w){re.escape(p.name)}", text)
               and f"{p.stem}.hpp/.cpp" not in text and f"`{p.stem}`" not in text]
    assert not missing, f"docs/architecture.md does not name {missing}"


def test_no_core_header_includes_itself_in_a_circle() -> None:
    core = Path(__file__).resolve().parent.parent / "cpp" / "core"
    graph = {p.name: set(re.findall(r'^#include "([^"]+)"', p.read_text(encoding="utf-8"), re.M))
             for p in core.glob("*.?pp")}
    state: dict[str, int] = {}

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for other in sorted(graph.get(name, ())):
            if state.get(other) == 1:
                pytest.fail("include cycle: " + " -> ".join(path[path.index(other):] + [other]))
            if other not in state:
                visit(other, path + [other])
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
