"""bench/pysolfc_limit.py: PySolFC's reading of a verdict, the rows kept and skipped on a
second run, and `bakers-fc-solve` called in the script deciding as its process does (the
runs themselves are the benchmark's; its command lines and boards against PySolFC's own
client are in test_pysolfc.py)."""

from __future__ import annotations

import importlib
import shutil
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parent.parent
needs_fc_solve = pytest.mark.skipif(shutil.which("fc-solve") is None,
                                    reason="fc-solve is not installed")


@pytest.fixture
def bench(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(REPO / "bench"))
    return importlib.import_module("pysolfc_limit")


def test_verdicts_read_as_pysolfc_reads_them(bench: ModuleType) -> None:
    assert bench.verdict("Iterations count exceeded.\nTotal number of states checked is "
                         "100000.\n") == "intractable"
    assert bench.verdict("I could not solve this game.\n") == "unsolved"
    assert bench.verdict("-=-=\nMove a card from stack 1 to the foundations\n\n"
                         "This game is solveable.\nTotal number of states checked is 7.\n"
                         ) == "solved"
    assert bench.iterations("Total number of states checked is 7.\n") == 7
    with pytest.raises(SystemExit, match="unexpected solver output"):
        bench.verdict("Segmentation fault")


@needs_fc_solve
def test_rows_appended_and_skipped(bench: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "rows.tsv"
    argv = ["--games", "citadel", "--first", "1", "--last", "2", "--out", str(out)]
    assert bench.main(argv) == 0
    rows = list(bench.read_rows(out))
    assert [(r.game, r.deal) for r in rows] == [("citadel", 1), ("citadel", 2)]
    assert all(r.fcs in ("solved", "unsolved", "intractable") for r in rows)
    assert bench.main([*argv[:-3], "3", "--out", str(out)]) == 0  # deals 1..3: one more
    assert [r.deal for r in bench.read_rows(out)] == [1, 2, 3]
    assert out.read_text().count("game\t") == 1


@needs_fc_solve
def test_thirteen_stacks_refused_by_fc_solve(bench: ModuleType) -> None:
    row = bench.decide("spanish_patience_ii", 1, bench.pysolfc_arguments("spanish_patience_ii"),
                       "fc-solve", False, "x")
    assert row.fcs == "refused" and row.bakers in ("solved", "unsolved", "intractable")


@needs_fc_solve
@pytest.mark.parametrize(("game", "number"), [("beleaguered_castle", 5), ("penguin", 1)])
def test_call_decides_as_the_process(bench: ModuleType, game: str, number: int) -> None:
    args = bench.pysolfc_arguments(game)
    called = bench.decide(game, number, args, "fc-solve", False, "x")
    process = bench.decide(game, number, args, "fc-solve", True, "x")
    assert (called.bakers, called.bakers_iterations) == (process.bakers,
                                                         process.bakers_iterations)
    assert called.bakers == "solved"


def test_forecell_290_won_within_pysolfc_limit(bench: ModuleType) -> None:
    # Freecell Solver wins PySol's ForeCell 290 within PySolFC's 100,000 iterations; best
    # first alone needs 717,303 positions after the dive, its depth-first lead 5,816 in all.
    output, _ = bench.run_in_process(bench.pysolfc_arguments("forecell"),
                                     bench.pysolfc_board("forecell", 290))
    assert bench.verdict(output) == "solved"
    assert bench.iterations(output) <= bench.MAX_ITERS
