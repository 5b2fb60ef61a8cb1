"""The progress of a long search: `solve`'s ``progress`` callback and the display of
`bakers solve` (a plain line every few seconds with ``--progress`` in a log)."""

from __future__ import annotations

import pytest
from bakers import SearchProgress, find_variant, solve
from bakers.cli import progress as cli_progress
from bakers.deals import Deal
from bakers.errors import InvalidOptionError
from bakers.fewest_cells import min_cells
from bakers.limits import Limits
from helpers_cli import Run

# Baker's Dozen 417: undecided after billions of positions (a long search).
HARD = Deal.from_number(find_variant("bakers_dozen"), 417)


@pytest.mark.parametrize(("method", "threads"), [("depth-first", 1), ("depth-first", 2),
                                                 ("best-first", 1), ("best-first", 2),
                                                 ("portfolio", 1), ("portfolio", 2),
                                                 ("beam", 1)])
def test_progress_sees_the_search_grow(method: str, threads: int) -> None:
    seen: list[SearchProgress] = []
    result = solve(HARD, limits=Limits(seconds=0.6), method=method, threads=threads,
                   progress=seen.append)
    assert result.verdict == "unknown" and result.reason == "time limit"
    assert len(seen) >= 3  # about every 50 ms
    assert all(isinstance(p, SearchProgress) for p in seen)
    for before, after in zip(seen, seen[1:], strict=False):
        assert after.expanded >= before.expanded and after.seconds > before.seconds
    assert 0 < seen[-1].expanded <= result.stats.expanded
    assert seen[-1].stored > 0
    assert seen[-1].seconds <= 0.6 + 0.2
    # The most cards home so far: the deal's aces that go home at once, then more, never
    # past what the search reports at its end.
    assert all(before.most_home <= after.most_home for before, after in zip(seen, seen[1:],
                                                                            strict=False))
    assert seen[0].most_home >= 1 and seen[-1].most_home <= result.most_home
    assert seen[-1].most_home > 4


def test_progress_that_raises_stops_the_search() -> None:
    calls = []

    def stop_now(p: SearchProgress) -> None:
        calls.append(p)
        raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        solve(HARD, limits=Limits(seconds=20), progress=stop_now)
    assert len(calls) == 1


def test_progress_must_be_callable() -> None:
    with pytest.raises(InvalidOptionError, match=r"progress=3 must be a callable"):
        solve(HARD, progress=3)  # type: ignore[arg-type]


def test_a_quick_search_may_report_nothing() -> None:
    seen: list[SearchProgress] = []
    result = solve(Deal.from_number(find_variant("bakers_game"), 617), progress=seen.append)
    assert result.verdict == "solved" and len(seen) <= 2


def test_cli_progress_lines_in_a_log(bakers: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli_progress, "LINE_SECONDS", 0.1)
    code, out, err = bakers("solve", "bakers_dozen", "417", "--max-seconds", "0.6", "--progress")
    # The progress lines, then the verdict and the counts (standard output: the moves).
    assert code == 3 and out == ""
    *lines, verdict, counts = err.splitlines()
    assert verdict.startswith("unknown (time limit)") and counts.startswith("expanded ")
    assert len(lines) >= 3
    assert all(line.startswith("searching: ") and "positions expanded" in line for line in lines)
    # Not a terminal and no --progress (or --quiet): no progress lines.
    for extra in ([], ["--progress", "--quiet"]):
        code, out, err = bakers("solve", "bakers_dozen", "417", "--max-seconds", "0.3", *extra)
        assert code == 3 and [line.split()[0] for line in err.splitlines()] == [
            "unknown", "expanded"]


def test_describe_reads_well() -> None:
    line = cli_progress.describe(SearchProgress(1_234_567, 2_000_000, 3725.5, 28))
    assert line == ("searching: 1,234,567 positions expanded, 2,000,000 stored, 331/s, "
                    "1:02:05, most cards home 28")


def test_meter_rate_leaves_out_resumed_expansions(capsys: pytest.CaptureFixture[str]) -> None:
    # A search resumed from a checkpoint reports the saved expansions (a billion) with
    # this run's seconds: the rate counts from the first report, not from zero.
    meter = cli_progress.SearchMeter(every=10.0)
    reports = ((0.05, 1_000_000_000), (10.05, 1_006_000_000), (20.05, 1_012_500_000))
    for seconds, expanded in reports:
        meter(SearchProgress(expanded, expanded, seconds))
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(", ")[2] for line in lines] == ["600,000/s", "625,000/s"]
    assert "1,000/s" in cli_progress.describe(
        SearchProgress(21_000, 0, 20.0), since=SearchProgress(1_000, 0, 0.0))


def test_min_cells_progress_names_the_cells(bakers: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[int, SearchProgress]] = []
    deal = Deal.from_number(find_variant("freecell"), 982)  # needs three cells
    answer = min_cells(deal, limits=Limits(seconds=0.3), max_cells=2,
                       progress=lambda cells, p: seen.append((cells, p)))
    assert answer.cells is None and not answer.no_win  # two cells: unknown in 0.3 s
    assert seen and {cells for cells, _ in seen} == {2}
    with pytest.raises(InvalidOptionError, match=r"progress='x' must be a callable"):
        min_cells(deal, progress="x")  # type: ignore[arg-type]
    monkeypatch.setattr(cli_progress, "LINE_SECONDS", 0.1)
    code, out, err = bakers("min-cells", "freecell", "982", "--max-cells", "2",
                            "--max-seconds", "0.4", "--progress")
    assert code == 3 and "no win found" in out  # unknown: a limit
    assert err and all(line.startswith("2 cells: ") for line in err.splitlines())


def test_meter_lines_restart_with_each_search(capsys: pytest.CaptureFixture[str]) -> None:
    # A search after another (min_cells runs the beam after an unknown depth-first
    # search, under the same label) counts its seconds from 0: its first line comes
    # `every` seconds into it, not after the first search's last line time.
    meter = cli_progress.SearchMeter(every=10.0, prefix="deal 1, ")
    for seconds in (4.0, 10.5, 12.0, 20.7, 1.0, 9.9, 10.2):
        meter(SearchProgress(int(seconds * 100), int(seconds * 100), seconds))
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(", ")[-2] for line in lines] == ["0:00:10", "0:00:20", "0:00:10"]
    assert all(line.startswith("deal 1, searching: ") for line in lines)
