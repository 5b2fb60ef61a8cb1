"""Typed edges: mypy accepts the package's source, and the stub of the compiled core
(`bakers/_core.pyi`) matches the module that the build made (mypy's stubtest)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
pytest.importorskip("mypy", reason="mypy comes with the test extra")


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=300, check=False)


def test_mypy_accepts_the_package(tmp_path: Path) -> None:
    done = _run(["mypy", "--config-file", str(REPO / "pyproject.toml"), "--cache-dir",
                 str(tmp_path / "cache"), "-p", "bakers"], REPO / "python")
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_stub_matches_the_compiled_core(tmp_path: Path) -> None:
    # Run outside the checkout, so that the installed package (with its _core) is found.
    done = _run(["mypy.stubtest", "bakers._core", "--mypy-config-file",
                 str(REPO / "pyproject.toml"), "--allowlist",
                 str(REPO / "tests" / "stubtest_allowlist.txt")], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
