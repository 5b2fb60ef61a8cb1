"""``--max-memory`` bounds the whole process, peaks included: each test runs ``bakers`` in
a child process and reads the child's peak resident set (``ru_maxrss``, which the kernel
keeps, so no peak between two samples is missed)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

import pytest

MIB = 2**20


@dataclass(frozen=True)
class Child:
    """How a `bakers` child process ended, and the most memory it held."""

    returncode: int
    stdout: str
    stderr: str
    peak: int  # bytes: the child's largest resident set


def run_measured(*argv: str, stdin: str | None = None, timeout: float = 300) -> Child:
    """Run ``python -m bakers ARGV`` (``stdin``: a file to read as its standard input) and
    return its exit code, output and peak resident set (``os.wait4``'s ``ru_maxrss``: the
    child's own, never another child's)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            open(stdin or os.devnull, "rb") as given:
        process = subprocess.Popen([sys.executable, "-m", "bakers", *argv], stdin=given,
                                   stdout=out, stderr=err)
        deadline = time.monotonic() + timeout
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                process.kill()
                process.wait()
                raise AssertionError(f"bakers {' '.join(argv)} still ran after {timeout} s")
            time.sleep(0.05)
        process.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        out.seek(0)
        err.seek(0)
        return Child(process.returncode, out.read().decode(), err.read().decode(),
                     usage.ru_maxrss * 1024)  # KiB on Linux


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
