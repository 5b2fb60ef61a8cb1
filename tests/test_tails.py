"""bench/tails.py: which tables are first passes, which deals are the slowest share, and
a contradiction between the engines named (the runs themselves are the benchmark's)."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def tails(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(REPO / "bench"))
    return importlib.import_module("tails")


def write_table(path: Path, seconds: dict[int, float]) -> None:
    lines = ["game\tdeal\tverdict\tmoves\tseconds\treason"]
    lines += [f"citadel\t{deal}\tsolved\t90\t{s}\t" for deal, s in seconds.items()]
    path.write_text("\n".join(lines) + "\n")


def test_first_passes_only(tails: ModuleType, tmp_path: Path) -> None:
    for name in ("citadel_1-100000.tsv.xz", "citadel_1-100000.open.tsv.xz",
                 "citadel_1-100000.second-pass.tsv", "citadel_1-100000.longer-search.tsv",
                 "good_measure_1-50000.tsv.xz", "good_measure_50001-100000.tsv.xz",
                 "grades_freecell_1-100000.tsv.xz", "min_cells_freecell_1-32000.tsv",
                 "still_unknown.tsv"):
        (tmp_path / name).write_text("")
    found = tails.first_pass_tables(tmp_path)
    assert sorted(found) == ["citadel", "good_measure"]
    assert [p.name for p in found["good_measure"]] == ["good_measure_1-50000.tsv.xz",
                                                      "good_measure_50001-100000.tsv.xz"]
    assert [p.name for p in found["citadel"]] == ["citadel_1-100000.tsv.xz"]


def test_slowest_share_and_take(tails: ModuleType, tmp_path: Path) -> None:
    first, second = tmp_path / "citadel_1-100.tsv", tmp_path / "citadel_101-200.tsv"
    write_table(first, {deal: deal / 1000 for deal in range(1, 101)})
    write_table(second, {deal: deal / 1000 for deal in range(101, 201)})
    assert tails.slowest([first, second], 0.05, None) == [200, 199, 198, 197, 196, 195, 194,
                                                          193, 192, 191]
    assert tails.slowest([first, second], 0.05, 5) == [200, 198, 196, 194, 192]
    assert tails.slowest([first], 0.001, None) == [100]  # at least one deal


def test_contradiction_named(tails: ModuleType) -> None:
    new = tails.Side({1: "solved", 2: "unknown", 3: "impossible"}, 1.0, 1.0)
    agreeing = tails.Side({1: "unknown", 2: "solved", 3: "impossible"}, 1.0, 1.0)
    assert tails.contradiction("citadel", new, agreeing) is None
    clashing = tails.Side({1: "impossible", 2: "unknown", 3: "impossible"}, 1.0, 1.0)
    assert tails.contradiction("citadel", new, clashing) == (
        "citadel 1: solved by this build, impossible by the other")


def test_bad_options_name_the_flag(tails: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    for args, flag in ((["--share", "0"], "--share 0.0"), (["--take", "0"], "--take 0"),
                       (["--engine", "/no/such.so"], "--engine /no/such.so")):
        with pytest.raises(SystemExit) as stop:
            tails.main(args)
        assert stop.value.code == 2
        assert flag in capsys.readouterr().err
