"""bench/tails_vs_fc_solve.py: Freecell Solver's settings for each game's rules, the games
it cannot state, and its verdicts read (the runs themselves are the benchmark's)."""

from __future__ import annotations

import importlib
import shutil
from pathlib import Path
from types import ModuleType

import pytest
from bakers import PRESETS, Deal
from bakers.fc_solve.games import _moves_class, to_variant
from bakers.fc_solve.options import parse_options

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def bench(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(REPO / "bench"))
    return importlib.import_module("tails_vs_fc_solve")


def test_settings_state_each_games_rules(bench: ModuleType) -> None:
    """bakers-fc-solve reads the settings back to the preset's rules: the same deck,
    columns, cells, building and empty columns, and moves that reach the same positions."""
    stated = 0
    for variant in PRESETS.values():
        try:
            settings = bench.fcs_settings(variant)
        except ValueError:
            continue
        stated += 1
        back = to_variant(parse_options(settings).game)
        for field in ("deck", "columns", "cells", "build", "empty"):
            assert getattr(back, field) == getattr(variant, field), (variant.name, field)
        if variant.moves == "single":  # a limited move without cells: single moves chained
            assert variant.cells == 0 and back.moves in ("single", "supermove")
        else:
            assert _moves_class(back) == _moves_class(variant), variant.name
    assert stated == len(PRESETS) - 4


@pytest.mark.parametrize(("game", "why"), [
    ("freecell36", "a deck of 36 cards"), ("tuxedo", "round the corner"),
    ("penguin", "round the corner"), ("opus", "round the corner")])
def test_rules_fc_solve_cannot_state(bench: ModuleType, game: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        bench.fcs_settings(PRESETS[game])


def test_verdicts_read(bench: ModuleType) -> None:
    assert bench.fcs_verdict("...\nThis game is solveable.\nTotal ...") == "solved"
    assert bench.fcs_verdict("I could not solve this game.\n") == "impossible"
    assert bench.fcs_verdict("Iterations count exceeded.\n") == "unknown"


@pytest.mark.skipif(shutil.which("fc-solve") is None, reason="fc-solve is not installed")
def test_fc_solve_runs_and_refuses(bench: ModuleType) -> None:
    citadel = PRESETS["citadel"]
    command = ["fc-solve", *bench.fcs_settings(citadel)]
    board = Deal.from_number(citadel, 1).to_text()
    assert bench.fcs_refusal(command, board) == ""
    assert bench.run_fcs(command, board, 10, 2_000_000_000, False).verdict == "solved"
    # Baker's Game 436339 has a win that fc-solve's default scan misses: its "I could not
    # solve" counts only from the scan that proves.
    bakers_game = PRESETS["bakers_game"]
    command = ["fc-solve", *bench.fcs_settings(bakers_game)]
    board = Deal.from_number(bakers_game, 436339).to_text()
    assert bench.run_fcs(command, board, 10, 2_000_000_000, False).verdict == "unknown"
    dozen = PRESETS["bakers_dozen"]
    refusal = bench.fcs_refusal(["fc-solve", *bench.fcs_settings(dozen)],
                                Deal.from_number(dozen, 1).to_text())
    assert "stacks" in refusal  # the packaged build holds at most 10
