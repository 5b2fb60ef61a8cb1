"""Does ``bakers range --max-memory`` keep the process under the cap? Measure it.

Runs ``python -m bakers range GAME FIRST LAST --threads N --max-memory BYTES --out FILE``
as a child process, samples its resident set size (``VmRSS`` of ``/proc/PID/status``)
every ``--interval`` seconds (50 ms), takes its maximum resident set size from
``os.wait4`` when it ends (``ru_maxrss``, which sees peaks between samples), reads the
rows it wrote, and prints one table: the cap, the peak RSS measured, whether the process
stayed under the cap, the engine's own largest search, and the deals decided / unknown.

What the cap covers
-------------------
``--max-memory`` is a limit on the whole process:

* ``bakers range`` measures what the process already holds when the run starts (its
  resident set: Python, the bakers package, rich) and keeps ``RUN_RESERVE`` (16 MiB)
  more for the rows, the progress bar and the allocator; what is left of BYTES goes to
  the searches as ``Limits(memory=...)``, and a cap that leaves nothing is refused with a
  one-line error. The C++ pool ``RangeRun`` (``cpp/core/pool.cpp``) splits that evenly,
  each of the N threads getting its share for the deal it searches.
* A search counts its own bytes: its visited table, its node stores and its open lists
  (``bytes_now`` in ``search.cpp``, the ``peak_bytes`` column), all of which grow in
  steps it knows of (table shards double; nodes and open entries come in chunks and
  slabs). It checks them every 64 expansions and stops that deal as ``unknown``, reason
  ``memory limit``, when they come within a margin (1/16 of its share, at most 4 MiB) of
  its share; a table shard whose growth would pass the share does not grow but fills on,
  and when one passes 15/16 of its slots the search stops at its next check. The run
  goes on.
* The table below shows the engine's figures and the process's (``VmHWM`` and
  ``ru_maxrss``, which see peaks between samples), and says whether the process stayed
  under BYTES.

Examples::

    python bench/memory_cap.py                                   # freecell 1..2000, 200M, 2 threads
    python bench/memory_cap.py --game bakers_dozen --last 50 --max-memory 256M
    python bench/memory_cap.py --game freecell --first 1 --last 200 --max-memory 64M

Exit status: 0 when the run finished (under the cap or not), 1 when ``bakers range``
failed.
"""

from __future__ import annotations

import argparse
import csv
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Sampled:
    """What was seen of the child process."""

    status: int = 0
    wall: float = 0.0
    samples: int = 0
    peak_sampled: int = 0  # the largest VmRSS sampled, bytes
    peak_at: float = 0.0  # seconds after the start
    hwm: int = 0  # the last VmHWM read (the kernel's peak RSS), bytes
    max_rss: int = 0  # ru_maxrss from os.wait4, bytes
    timeline: list[tuple[float, int]] = field(default_factory=list)


def read_status(pid: int) -> dict[str, int]:
    """``VmRSS`` and ``VmHWM`` of process ``pid`` in bytes ({} once it has exited)."""
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return {}
    values = {}
    for line in text.splitlines():
        key, _, rest = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            values[key] = int(rest.split()[0]) * 1024  # kB
    return values


def run_sampled(command: list[str], interval: float, stderr: Path) -> Sampled:
    """Run ``command``, sampling its RSS every ``interval`` seconds until it ends."""
    seen = Sampled()
    with stderr.open("wb") as err:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=err)
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            values = read_status(process.pid)
            now = time.perf_counter() - start
            if "VmRSS" in values:
                seen.samples += 1
                seen.timeline.append((now, values["VmRSS"]))
                if values["VmRSS"] > seen.peak_sampled:
                    seen.peak_sampled, seen.peak_at = values["VmRSS"], now
                seen.hwm = max(seen.hwm, values.get("VmHWM", 0))
            time.sleep(interval)
        seen.wall = time.perf_counter() - start
    process.returncode = seen.status = os.waitstatus_to_exitcode(status)
    seen.max_rss = usage.ru_maxrss * 1024  # KiB on Linux
    return seen


def baseline_rss() -> int:
    """The maximum RSS of a Python process that imports what ``bakers range`` imports
    and does nothing else, in bytes."""
    code = ("import bakers, bakers._core, bakers.cli, bakers.cli.range.run, rich.progress, "
            "rich.table")
    process = subprocess.Popen([sys.executable, "-c", code])
    _, _, usage = os.wait4(process.pid, 0)
    process.returncode = 0
    return usage.ru_maxrss * 1024


def read_rows(path: Path) -> list[dict[str, str]]:
    """The rows ``bakers range`` wrote to the TSV file ``path``."""
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def mb(n: float) -> str:
    return f"{n / 2**20:.1f} MB"


def report(args: argparse.Namespace, cap: int, seen: Sampled, rows: list[dict[str, str]],
           baseline: int) -> list[tuple[str, str]]:
    """The table's lines: (what, value)."""
    verdicts = Counter(row["verdict"] for row in rows)
    reasons = Counter(row["reason"] for row in rows if row["verdict"] == "unknown")
    largest = max((int(row["peak_bytes"]) for row in rows), default=0)
    share = cap // args.threads
    beyond = 100 * (largest - share) / share
    peak = max(seen.peak_sampled, seen.max_rss)
    decided = verdicts["solved"] + verdicts["impossible"]
    over = peak - cap
    return [
        ("run", f"{args.game} {args.first}..{args.last}, {args.threads} thread(s), "
                f"{seen.wall:.1f} s"),
        ("cap (--max-memory)", f"{mb(cap)} ({args.max_memory})"),
        ("cap per thread (per search), at most", mb(share)),
        ("engine: largest search (peak_bytes)",
         f"{mb(largest)}: " + ("under its share" if largest <= share else
                               f"OVER its share by {beyond:.0f}%")),
        ("engine: N largest searches at once, at most", f"{mb(args.threads * largest)}"),
        ("process: peak RSS sampled (VmRSS)",
         f"{mb(seen.peak_sampled)} at {seen.peak_at:.1f} s, {seen.samples} samples"),
        ("process: peak RSS (VmHWM / ru_maxrss)", f"{mb(seen.hwm)} / {mb(seen.max_rss)}"),
        ("baseline: Python + bakers + rich, idle", mb(baseline)),
        ("process stayed under the cap",
         "yes" if peak <= cap else f"NO: {mb(over)} over ({100 * over / cap:.0f}% of it)"),
        ("deals decided", f"{decided} of {len(rows)} ({verdicts['solved']} winnable, "
                          f"{verdicts['impossible']} impossible)"),
        ("deals unknown", f"{verdicts['unknown']}" + (
            " (" + ", ".join(f"{n} {why}" for why, n in reasons.most_common()) + ")"
            if reasons else "")),
    ]


def print_table(lines: list[tuple[str, str]]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title="bakers range --max-memory: the cap against the process",
                  show_header=False)
    table.add_column(justify="left")
    table.add_column(justify="left")
    for what, value in lines:
        table.add_row(what, value)
    (Console() if sys.stdout.isatty() else Console(width=120)).print(table)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Run bakers range with --max-memory and measure the process's RSS "
                    "(see the module docstring for what the cap covers).")
    parser.add_argument("--game", default="freecell")
    parser.add_argument("--first", type=int, default=1, help="first deal (1)")
    parser.add_argument("--last", type=int, default=2000, help="last deal (2000)")
    parser.add_argument("--threads", type=int, default=2, help="worker threads (2)")
    parser.add_argument("--max-memory", default="200M",
                        help="the cap given to bakers range, like 200M or 1G (200M)")
    parser.add_argument("--interval", type=float, default=0.05,
                        help="seconds between RSS samples (0.05)")
    parser.add_argument("--timeline", type=Path,
                        help="also write the samples (seconds, RSS bytes) to this TSV file")
    args = parser.parse_args(argv)

    from bakers.limits import parse_bytes

    cap = parse_bytes(args.max_memory)
    if cap <= 0 or args.threads < 1 or args.interval <= 0:
        parser.error("need --max-memory > 0, --threads >= 1 and --interval > 0")
    with tempfile.TemporaryDirectory(prefix="bakers-memory-cap-") as tmp:
        out = Path(tmp) / "range.tsv"
        command = [sys.executable, "-m", "bakers", "range", args.game, str(args.first),
                   str(args.last), "--threads", str(args.threads), "--max-memory",
                   args.max_memory, "--out", str(out), "--quiet"]
        print("running: " + " ".join(command[1:]), file=sys.stderr, flush=True)
        seen = run_sampled(command, args.interval, Path(tmp) / "stderr.txt")
        if seen.status != 0:
            error = (Path(tmp) / "stderr.txt").read_text(errors="replace").strip()
            print(f"bakers range failed with status {seen.status}: {error[-500:]}",
                  file=sys.stderr)
            return 1
        rows = read_rows(out)
    if args.timeline:
        args.timeline.write_text("seconds\trss_bytes\n" + "".join(
            f"{t:.3f}\t{rss}\n" for t, rss in seen.timeline))
    print_table(report(args, cap, seen, rows, baseline_rss()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
