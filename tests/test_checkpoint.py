"""Checkpoints of a long proof: `solve(checkpoint=...)` and `bakers solve --checkpoint`
save a depth-first search and go on with it in a later call, with the same result as a
search that never stopped; a file of another search is refused by name."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from bakers import find_variant, solve
from bakers.deals import Deal
from bakers.errors import InvalidCheckpointError, InvalidOptionError
from bakers.fewest_cells import min_cells
from bakers.limits import Limits
from helpers_cli import Run, one_error_line

ONE_CELL = find_variant("freecell").replace(cells=1)
# FreeCell with one cell: 27 is impossible (a proof of 234,772 positions), 33 is won.
IMPOSSIBLE = Deal.from_number(ONE_CELL, 27)
WON = Deal.from_number(ONE_CELL, 33)


@pytest.mark.parametrize("deal", [IMPOSSIBLE, WON], ids=["impossible", "won"])
def test_a_resumed_search_is_the_search_that_never_stopped(deal: Deal, tmp_path: Path) -> None:
    plain = solve(deal, method="depth-first")
    path = tmp_path / "proof.ck"
    first = solve(deal, limits=Limits(nodes=50_000), checkpoint=path)
    assert (first.verdict, first.reason) == ("unknown", "node limit")
    assert path.is_file() and path.stat().st_size > 0
    second = solve(deal, limits=Limits(nodes=120_000), checkpoint=str(path))
    assert second.stats.expanded == 120_000  # the counts go on from the saved ones
    last = solve(deal, checkpoint=path)
    assert last.verdict == plain.verdict and last.verdict != "unknown"
    assert (last.stats.expanded, last.stats.stored) == (plain.stats.expanded, plain.stats.stored)
    assert last.most_home == plain.most_home
    if last.solved:  # replayed by the referee inside solve; the same line as without stops
        assert last.solution == plain.solution
    assert not path.exists()  # a verdict removes the file
    assert list(tmp_path.iterdir()) == []


def test_a_checkpoint_of_another_search_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "proof.ck"
    solve(IMPOSSIBLE, limits=Limits(nodes=2_000), checkpoint=path)
    with pytest.raises(InvalidCheckpointError, match="its position"):
        solve(Deal.from_number(ONE_CELL, 28), checkpoint=path)
    with pytest.raises(InvalidCheckpointError, match=r"its memory limit \(saved with 0, now"):
        solve(IMPOSSIBLE, checkpoint=path, limits=Limits(memory="1G"))
    with pytest.raises(InvalidCheckpointError, match="its game"):
        solve(Deal.from_number(find_variant("freecell"), 27), checkpoint=path)
    path.write_bytes(path.read_bytes()[:-10])
    with pytest.raises(InvalidCheckpointError, match="cut short"):
        solve(IMPOSSIBLE, checkpoint=path)
    path.write_text("not a checkpoint\n")
    with pytest.raises(InvalidCheckpointError, match="not a bakers checkpoint"):
        solve(IMPOSSIBLE, checkpoint=path)
    assert issubclass(InvalidCheckpointError, ValueError)


@pytest.mark.parametrize(("options", "message"), [
    ({"checkpoint": ""}, "must be a file path"),
    ({"checkpoint": 5}, "must be a file path"),
    ({"checkpoint": "/no/such/folder/x.ck"}, "folder that can be written"),
    ({"checkpoint": "."}, "folder that can be written"),
    ({"checkpoint": "x.ck", "method": "best-first"}, "method='depth-first' on one thread"),
    ({"checkpoint": "x.ck", "threads": 2}, "on one thread, not threads=2"),
    ({"checkpoint": "x.ck", "checkpoint_every": 0}, "positive number of seconds"),
    ({"checkpoint": "x.ck", "checkpoint_every": float("nan")}, "positive number of seconds"),
])
def test_bad_checkpoint_options(options: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        solve(IMPOSSIBLE, **options)  # type: ignore[arg-type]


def test_cli_checkpoint_goes_on_where_it_stopped(bakers: Run, tmp_path: Path) -> None:
    path = str(tmp_path / "cli.ck")
    code, out, err = bakers("solve", "freecell", "27", "--checkpoint", path, "--max-nodes", "5000",
                            "--format", "json", "--quiet")
    assert code == 3 and json.loads(out)["reason"] == "node limit" and err == ""
    code, out, err = bakers("solve", "freecell", "28", "--checkpoint", path, "--quiet")
    assert code == 2 and "its position" in one_error_line(err)
    code, out, err = bakers("solve", "freecell", "27", "--checkpoint", path, "--quiet",
                            "--checkpoint-every", "60")
    assert code == 0 and out.startswith("solved: freecell deal 27")
    assert one_error_line(err) == f"bakers: went on from the checkpoint {path}"
    assert not Path(path).exists()


def test_cli_checkpoint_every_needs_a_checkpoint(bakers: Run) -> None:
    code, _, err = bakers("solve", "freecell", "27", "--checkpoint-every", "5")
    assert code == 2 and "--checkpoint FILE" in one_error_line(err)


def test_min_cells_goes_on_from_its_checkpoints(tmp_path: Path) -> None:
    # FreeCell 27 wins with 2 cells; with 1 its proof takes 234,772 positions. Stopped at
    # 100,000 a search, the count of 1 is left unknown (an upper bound) and saved; the
    # same call without the limit goes on with it to the proof.
    deal = Deal.from_number(find_variant("freecell"), 27)
    prefix = tmp_path / "deal-27"
    first = min_cells(deal, method="depth-first", limits=Limits(nodes=100_000), checkpoint=prefix)
    assert (first.cells, first.exact, first.verdicts[1]) == (2, False, "unknown")
    saved = tmp_path / "deal-27-1-cells"
    assert sorted(p.name for p in tmp_path.iterdir()) == [saved.name]
    last = min_cells(deal, checkpoint=prefix)  # no method: depth first, as solve picks
    assert (last.cells, last.exact, last.verdicts[1]) == (2, True, "impossible")
    assert last.results[1].stats.expanded == solve(IMPOSSIBLE, method="depth-first").stats.expanded
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(InvalidOptionError, match="method='depth-first', not method='beam'"):
        min_cells(deal, method="beam", checkpoint=prefix)


def test_min_cells_stops_at_ctrl_c(tmp_path: Path) -> None:
    # Ctrl-C during a search ends the whole answer there (no beam after it, no other
    # count), and the stopped search is saved. FreeCell 24966 wins with 4, 3 and 2 cells
    # at once; its proof with 1 takes billions of positions.
    code = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
            "from bakers.cli import main; sys.exit(main(sys.argv[1:]))")
    prefix = tmp_path / "deal"
    argv = ["min-cells", "freecell", "24966", "--method", "depth-first", "--max-memory", "1G",
            "--checkpoint", str(prefix)]
    proc = subprocess.Popen([sys.executable, "-c", code, *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        time.sleep(2.5)
        assert proc.poll() is None, "the run ended before it could be interrupted"
        proc.send_signal(signal.SIGINT)
        started = time.monotonic()
        stdout, stderr = proc.communicate(timeout=60)
        waited = time.monotonic() - started
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 3, stderr
    assert stdout.startswith("at most 2 cells, at least 0 (1: unknown, 2: solved"), stdout
    assert waited < 10  # the beam would have gone on for the count of 1
    saved = tmp_path / "deal-1-cells"
    assert saved.is_file() and saved.stat().st_size > 0
