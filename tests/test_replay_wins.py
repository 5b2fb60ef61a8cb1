"""bench/replay_wins.py: the wins of a `bakers range` file solved again with the file's
own settings and replayed by the referee; a row whose positions the search does not
give again is reported, and a file without the range header is refused."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

import pytest
from bakers.cli import main as cli_main

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def replay_wins(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(REPO / "bench"))
    return importlib.import_module("replay_wins")


@pytest.fixture
def rows(tmp_path: Path) -> Path:
    # FreeCell 1..3 (all won) and 11982 (impossible), as `bakers range` writes them.
    deals = tmp_path / "deals.txt"
    deals.write_text("1\n2\n3\n11982\n", encoding="utf-8")
    out = tmp_path / "rows.tsv"
    assert cli_main(["range", "freecell", "--deals", str(deals), "--threads", "1", "--quiet",
                     "--max-nodes", "200000", "--out", str(out)]) == 0
    return out


def test_every_win_replays(replay_wins: ModuleType, rows: Path,
                           capsys: pytest.CaptureFixture[str]) -> None:
    assert replay_wins.main([str(rows)]) == 0
    assert "3 of 3 wins replayed as wins by the referee" in capsys.readouterr().out


def test_a_row_with_other_positions_is_reported(replay_wins: ModuleType, rows: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    lines = rows.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("freecell\t2\t"))
    fields = lines[at].split("\t")
    fields[6] = str(int(fields[6]) + 1)  # expanded
    lines[at] = "\t".join(fields)
    rows.write_text("".join(lines), encoding="utf-8")
    assert replay_wins.main([str(rows), "--deals", "2", "3"]) == 1
    out = capsys.readouterr().out
    assert "freecell 2: solved after" in out and "1 of 2 wins replayed" in out


def test_a_file_without_the_header_is_refused(replay_wins: ModuleType, tmp_path: Path) -> None:
    plain = tmp_path / "plain.tsv"
    plain.write_text("game\tdeal\tverdict\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="no '# bakers range' header"):
        replay_wins.main([str(plain)])
