"""bench/standing.py: a table's counts once the later passes on its unknown deals are
counted, the deals still unknown with their largest search, and the errors that a wrong
verdict or a stray row would be; then the same over the committed results."""

from __future__ import annotations

import importlib
import lzma
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parent.parent
HEADER = "game\tdeal\tverdict\tmoves\texpanded\tseconds\treason\n"


@pytest.fixture
def standing(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(REPO / "bench"))
    return importlib.import_module("standing")


def write_table(folder: Path) -> None:
    # Deals 1..100: 3 impossible and 4 unknown after the first pass.
    (folder / "opus_1-100.open.tsv.xz").write_bytes(lzma.compress(
        b"5\timpossible\n9\tunknown\n17\tunknown\n40\timpossible\n41\tunknown\n"
        b"77\timpossible\n90\tunknown\n"))
    (folder / "opus_1-100.second-pass.tsv").write_text(
        HEADER + "opus\t9\tsolved\t80\t1000\t0.1\t\n"
        "opus\t17\tunknown\t\t2000\t0.2\tnode limit\n"
        "opus\t41\tunknown\t\t2000\t0.2\tnode limit\n"
        "opus\t90\tunknown\t\t2000\t0.2\tnode limit\n", encoding="utf-8")
    (folder / "opus_1-100.longer-search.tsv").write_text(
        HEADER + "opus\t17\timpossible\t\t9000\t1.0\t\n"
        "opus\t41\tunknown\t\t7000\t1.5\tmemory limit\n", encoding="utf-8")


def test_counts_and_the_deals_still_unknown(standing: ModuleType, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    write_table(tmp_path)
    table = standing.standing(tmp_path / "opus_1-100.open.tsv.xz")
    assert (table.won, table.impossible, table.still_unknown) == (94, 4, [41, 90])
    out = tmp_path / "still_unknown.tsv"
    assert standing.main([str(tmp_path), "--unknown", str(out)]) == 0
    row = capsys.readouterr().out.splitlines()[2].split(" | ")
    assert row[:5] == ["| opus", "1..100", "94", "4", "2"]
    assert row[5].startswith("94.000% [")
    # Each still unknown with its largest search: 41's is the longer one, 90 had one.
    assert out.read_text(encoding="utf-8").splitlines()[1:] == [
        "opus\t41\t7000\tmemory limit\topus_1-100.longer-search.tsv",
        "opus\t90\t2000\tnode limit\topus_1-100.second-pass.tsv"]


def test_a_deal_no_pass_reached_keeps_the_first_pass(standing: ModuleType,
                                                      tmp_path: Path) -> None:
    (tmp_path / "tuxedo_1-10.open.tsv").write_text("3\tunknown\n", encoding="utf-8")
    out = tmp_path / "u.tsv"
    standing.main([str(tmp_path), "--unknown", str(out)])
    assert out.read_text(encoding="utf-8").splitlines()[1] == (
        "tuxedo\t3\t\t\ttuxedo_1-10.open.tsv")


def test_won_and_impossible_is_an_error(standing: ModuleType, tmp_path: Path) -> None:
    write_table(tmp_path)
    (tmp_path / "opus_1-100.third-pass.tsv").write_text(
        HEADER + "opus\t9\timpossible\t\t5\t0.1\t\n", encoding="utf-8")
    with pytest.raises(SystemExit, match=r"opus: deals won by one pass and impossible "
                                         r"by another: \[9\]"):
        standing.standing(tmp_path / "opus_1-100.open.tsv.xz")


@pytest.mark.parametrize("row", ["opus\t5\tsolved\t80\t1\t0.1\t\n",  # impossible before
                                 "opus\t6\tsolved\t80\t1\t0.1\t\n",  # won before
                                 "tuxedo\t9\tsolved\t80\t1\t0.1\t\n"])  # another game
def test_a_row_for_no_unknown_deal_is_an_error(standing: ModuleType, tmp_path: Path,
                                               row: str) -> None:
    write_table(tmp_path)
    (tmp_path / "opus_1-100.third-pass.tsv").write_text(HEADER + row, encoding="utf-8")
    with pytest.raises(SystemExit, match="is not an unknown deal of opus_1-100.open"):
        standing.standing(tmp_path / "opus_1-100.open.tsv.xz")


def test_the_committed_tables_agree(standing: ModuleType, tmp_path: Path) -> None:
    # Every pass of bench/results is on its table's unknown deals, no deal is won by
    # one and impossible by another, and the list of deals still unknown is current.
    results = REPO / "bench" / "results"
    out = tmp_path / "still_unknown.tsv"
    assert standing.main([str(results), "--unknown", str(out)]) == 0
    committed = results / "still_unknown.tsv"
    assert out.read_text(encoding="utf-8") == committed.read_text(encoding="utf-8")
