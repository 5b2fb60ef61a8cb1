"""Shared fixtures of the benchmarks: the reference data with known answers.

The benchmarks live outside ``testpaths`` (see ``pyproject.toml``), so a plain
``python -m pytest`` never collects them; run them with
``python -m pytest bench -q --benchmark-only``.
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"


def load_verdicts(name: str) -> dict[int, str]:
    """Return ``{deal: verdict}`` from a ``deal verdict ...`` file of tests/data."""
    with (DATA / name).open(newline="") as handle:
        return {int(row["deal"]): row["verdict"]
                for row in csv.DictReader(handle, delimiter="\t")}


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """The folder of reference boards, solutions and verdicts."""
    return DATA


@pytest.fixture(scope="session")
def verdicts() -> Callable[[str], dict[int, str]]:
    """``verdicts('bakers_game_ms_1-1000.tsv')`` gives that file's verdicts by deal."""
    return load_verdicts
