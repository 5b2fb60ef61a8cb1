"""Shared fixtures: the reference data with known answers (a copy of shared/data)."""

from __future__ import annotations

from pathlib import Path

import pytest

# The in-process `bakers` fixture of the CLI tests.
pytest_plugins = ["helpers_cli"]

DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """The folder of reference boards, solutions and verdicts."""
    return DATA
