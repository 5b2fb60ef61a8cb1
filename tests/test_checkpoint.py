"""Checkpoints of a long proof: `solve(checkpoint=...)` and `bakers solve --checkpoint`
save a depth-first search and go on with it in a later call, with the same result as a
search that never stopped; a file of another search is refused by name."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from bakers import find_variant, solve
from bakers.deals import Deal
from bakers.errors import InvalidCheckpointError, InvalidOptionError
from bakers.fewest_cells import min_cells
from bakers.limits import Limits
from helpers_cli import Run, interrupt_cli, one_error_line

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
    lines = err.splitlines()
    assert code == 0 and lines[0] == f"bakers: went on from the checkpoint {path}"
    assert lines[1].startswith("solved: freecell deal 27, ")
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
    with pytest.raises(InvalidOptionError,
                       match="method='depth-first' on one thread, not method='beam'"):
        min_cells(deal, method="beam", checkpoint=prefix)


def test_min_cells_stops_at_ctrl_c(tmp_path: Path) -> None:
    # Ctrl-C during a search ends the whole answer there (no beam after it, no other
    # count), and the stopped search is saved. FreeCell 24966 wins with 4, 3 and 2 cells
    # at once; its proof with 1 takes billions of positions.
    prefix = tmp_path / "deal"
    argv = ["min-cells", "freecell", "24966", "--method", "depth-first", "--max-memory", "1G",
            "--checkpoint", str(prefix)]
    ended = interrupt_cli(argv, settle=2.5, answer_within=60)
    stdout, stderr = ended.stdout, ended.stderr
    assert ended.returncode == 3, stderr
    assert stdout.startswith("at most 2 cells, at least 0 (1: unknown, 2: solved"), stdout
    assert ended.seconds < 10  # the beam would have gone on for the count of 1
    saved = tmp_path / "deal-1-cells"
    assert saved.is_file() and saved.stat().st_size > 0


def _saved(path: Path, limits: Limits) -> bytes:
    """Save a stopped search of IMPOSSIBLE at ``path``; return the file's bytes."""
    result = solve(IMPOSSIBLE, limits=limits, checkpoint=path)
    assert result.reason == "node limit"
    return path.read_bytes()


# Both kinds of visited table: the growing one, and the dense one that a 6 MB limit
# switches to (its flag, the byte after the "table kind" section's head, says which).
TABLES = {"growing": Limits(nodes=20_000), "dense": Limits(nodes=100_000, memory="6M")}


@pytest.mark.parametrize("kind", ["growing", pytest.param("dense", marks=pytest.mark.slow)])
def test_a_flipped_byte_anywhere_is_refused(kind: str, tmp_path: Path) -> None:
    # Every byte of the header and the small sections, and 150 spread over the tables and
    # the trailer: each changed one is refused by name, never searched on (no verdict, no
    # crash, no memory error).
    limits = TABLES[kind]
    path = tmp_path / "proof.ck"
    good = _saved(path, limits)
    kind_at = good.index(b"table ki") + 24
    assert good[kind_at] == (kind == "dense")
    spots = sorted({*range(160), *range(len(good) - 40, len(good)),
                    *(160 + i * (len(good) - 200) // 150 for i in range(150))})
    accepted = []
    for number, spot in enumerate(spots):
        damaged = bytearray(good)
        damaged[spot] ^= 1 + number % 255
        path.write_bytes(damaged)
        try:
            result = solve(IMPOSSIBLE, limits=Limits(nodes=limits.nodes + 1, memory=limits.memory),
                           checkpoint=path)
        except InvalidCheckpointError as exc:
            assert str(path) in str(exc)
        else:
            accepted.append((spot, result.verdict))
    assert accepted == []
    path.write_bytes(good)  # the file as saved goes on
    assert solve(IMPOSSIBLE, limits=Limits(nodes=limits.nodes + 1, memory=limits.memory),
                 checkpoint=path).stats.expanded == limits.nodes + 1


def test_a_huge_size_in_a_checkpoint_is_refused_before_it_is_allocated(tmp_path: Path) -> None:
    # The first shard's slot count made 2^56 (it would ask for 800 PB), then 2^28 (3 GB,
    # zero-filled under a 1 GB limit): refused naming the damaged section, at once.
    path = tmp_path / "proof.ck"
    good = _saved(path, Limits(nodes=20_000, memory="1G"))
    # The section's head (tag, length, sum: 24 bytes), the shard bits (4), the load (8).
    size_at = good.index(b"visited ") + 24 + 4 + 8
    for byte, value in ((7, 0x01), (3, 0x10)):
        damaged = bytearray(good)
        damaged[size_at + byte] = value
        path.write_bytes(damaged)
        started = time.monotonic()
        with pytest.raises(InvalidCheckpointError, match=r"is damaged: its visited table section"):
            solve(IMPOSSIBLE, limits=Limits(memory="1G"), checkpoint=path)
        assert time.monotonic() - started < 5


def test_cli_refuses_a_damaged_checkpoint_with_exit_2(bakers: Run, tmp_path: Path) -> None:
    path = tmp_path / "cli.ck"
    code, _, _ = bakers("solve", "freecell", "27", "--checkpoint", str(path), "--max-nodes", "5000",
                        "--quiet")
    assert code == 3
    damaged = bytearray(path.read_bytes())
    damaged[len(damaged) // 2] ^= 0x40
    path.write_bytes(damaged)
    code, out, err = bakers("solve", "freecell", "27", "--checkpoint", str(path), "--quiet")
    assert (code, out) == (2, "")
    line = one_error_line(err)
    assert line.startswith("bakers: error: checkpoint ")
    assert "is damaged: its visited table section" in line
