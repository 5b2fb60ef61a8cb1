"""``--max-memory`` bounds the whole process, peaks included: each test runs ``bakers`` in
a child process and reads the child's peak resident set (``ru_maxrss``, which the kernel
keeps, so no peak between two samples is missed)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from bakers import notation
from bakers.cli import common
from bakers.errors import InvalidOptionError
from bakers.generating import daily
from helpers_cli import Run, one_error_line

MIB = 2**20


@dataclass(frozen=True)
class Child:
    """How a `bakers` child process ended, and the most memory it held."""

    returncode: int
    stdout: str
    stderr: str
    peak: int  # bytes: the child's largest resident set


# Started by a small fresh interpreter, the child's ``ru_maxrss`` is its own: a child
# forked straight from this test process would report this process's resident set too
# (the kernel keeps the peak of the memory a process had before its exec).
LAUNCHER = """
import os, subprocess, sys
peak, argv = sys.argv[1], sys.argv[2:]
child = subprocess.Popen(argv)
_, status, usage = os.wait4(child.pid, 0)
with open(peak, "w") as f:
    f.write(f"{usage.ru_maxrss * 1024} {os.waitstatus_to_exitcode(status)}")
"""


def run_measured(*argv: str, stdin: str | None = None, timeout: float = 300) -> Child:
    """Run ``python -m bakers ARGV`` (``stdin``: a file to read as its standard input) and
    return its exit code, output and peak resident set (``os.wait4``'s ``ru_maxrss`` of
    the child, taken by a launcher so that it is the child's own)."""
    with tempfile.TemporaryDirectory() as tmp, open(stdin or os.devnull, "rb") as given:
        out, err, peak = (Path(tmp) / name for name in ("out", "err", "peak"))
        with out.open("wb") as o, err.open("wb") as e:
            launcher = subprocess.Popen(
                [sys.executable, "-c", LAUNCHER, str(peak), sys.executable, "-m", "bakers",
                 *argv], stdin=given, stdout=o, stderr=e, start_new_session=True)
            try:
                launcher.wait(timeout)
            except subprocess.TimeoutExpired:
                os.killpg(launcher.pid, signal.SIGKILL)
                launcher.wait()
                raise AssertionError(f"bakers {' '.join(argv)} still ran after "
                                     f"{timeout} s") from None
        peak_bytes, code = map(int, peak.read_text().split())
        return Child(code, out.read_text(), err.read_text(), peak_bytes)


pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="reads the peak resident set as Linux reports it")


@pytest.mark.slow
def test_the_portfolio_stays_under_max_memory() -> None:
    # Baker's Dozen 417 is out of reach: every run of the portfolio goes on to its memory
    # limit, round after round. Nine million positions take the depth-first runs past
    # their move to the dense table; the process once peaked at 234 MiB here (its runs'
    # freed tables kept resident beside the next ones).
    cap = 200
    child = run_measured("solve", "bakers_dozen", "417", "--method", "portfolio",
                         "--max-memory", f"{cap}M", "--max-nodes", "9000000",
                         "--max-seconds", "240")
    assert child.returncode == 3 and "unknown (node limit)" in child.stderr, child.stderr
    assert child.peak <= cap * MIB, f"peak {child.peak / MIB:.1f} MiB over --max-memory {cap}M"


# FreeCell deal 1 with its seventh column emptied onto the eighth and the ten of clubs in
# a cell: "a7 7a" moves the ten to the empty column and back, legal for ever.
SHUTTLE_BOARD = ("Freecells: TC\nJD KD 2S 4C 3S 6D 6S\n2D KC KS 5C TD 8S 9C\n"
                 "9H 9S 9D TS 4S 8D 2H\nJC 5S QD QH TH QS 6H\n5D AD JS 4H 8H 6C\n"
                 "7H QC AS AC 2C 3D\n\n7C KH AH 4D JH 8C 5H 3H 3C 7S 7D\n")


def shuttle(tmp_path: Path, moves: int) -> tuple[Path, Path]:
    """Return a board file and a file of ``moves`` legal moves from it, ten a line."""
    board, line = tmp_path / "shuttle.board", tmp_path / "shuttle.txt"
    board.write_text(SHUTTLE_BOARD)
    with line.open("w") as f:
        f.writelines(" ".join(["a7 7a"] * 5) + "\n" for _ in range(moves // 10))
    return board, line


def test_verify_streams_a_long_move_file(tmp_path: Path) -> None:
    # A million moves (3 MB): the whole line and its replay's record once took 165 MiB
    # (a 60 MB file 1 to 1.6 GB); read and played a chunk at a time it takes the memory
    # of the interpreter and a chunk, about 30 MiB.
    board, line = shuttle(tmp_path, 1_000_000)
    child = run_measured("verify", "freecell", str(board), str(line), "--max-memory", "100M")
    assert child.returncode == 1, child.stderr
    assert child.stdout == "valid but not won: 1,000,000 legal moves leave 0 cards home\n"
    assert child.peak < 80 * MIB, f"peak {child.peak / MIB:.1f} MiB"


def test_verify_reads_long_lines_and_standard_input_in_chunks(
        bakers: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Chunks and pieces far smaller than the text: lines cut anywhere, a line's end
    # "\r\n" cut in two, one line of every move, the moves from a pipe.
    monkeypatch.setattr(common, "CHUNK_BYTES", 7)
    monkeypatch.setattr(notation, "LONGEST_PIECE", 16)
    board, _ = shuttle(tmp_path, 0)
    for text in (" ".join(["a7 7a"] * 500), "a7 7a\r\n" * 500, "# a7\r\n" + "a7\n7a\n" * 500):
        assert bakers("verify", "freecell", str(board), "-", stdin=text) == (
            1, "valid but not won: 1,000 legal moves leave 0 cards home\n", "")
    code, _, err = bakers("verify", "freecell", str(board), "-", stdin="a7 7a " * 300 + "a8")
    assert code == 2 and "move 601 'a8'" in one_error_line(err)


@pytest.mark.parametrize("command", [("verify", "freecell", "24", "-"),
                                     ("daily", "freecell", "2024-01-01")])
def test_verify_and_daily_take_max_memory(bakers: Run, command: tuple[str, ...]) -> None:
    out = " ".join(bakers(command[0], "--help")[1].split())
    assert "--max-memory BYTES memory of the whole process at most" in out
    solution = bakers("solve", "freecell", "24")[1]
    code, out, _ = bakers(*command, "--max-memory", "1G", stdin=solution)
    assert code == 0 and out
    assert bakers(*command, stdin=solution)[1] == out  # the same answer as without it
    for size, words in (("20M", "--max-memory 20M is too small"),
                        ("lots", "not a memory size: 'lots'")):
        code, out, err = bakers(*command, "--max-memory", size, stdin=solution)
        assert code == 2 and not out and words in one_error_line(err)


def test_daily_refuses_a_memory_limit_that_would_change_the_deal() -> None:
    # A search stopped on the memory limit could pass over the day's deal: an error,
    # never the next deal.
    assert daily("bakers_dozen", "2024-01-01", memory="1G") == \
        daily("bakers_dozen", "2024-01-01")
    with pytest.raises(InvalidOptionError, match="too small for the daily deal's searches"):
        daily("bakers_dozen", "2024-01-01", memory="64K")
