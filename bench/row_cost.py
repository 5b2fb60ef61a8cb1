"""What a deal of ``bakers range`` costs outside its search: measure it.

Three things are timed, each ``--repeat`` times, and the medians are printed:

* ``run``: ``python -m bakers range GAME FIRST LAST --threads 1 --max-nodes 1 --out FILE
  --quiet``, a whole process reaped with ``os.wait4``: CPU time is user + system of the
  process, every thread counted. One expansion a deal keeps the searches as small as a
  search can be, so that what is left is the per-deal path: dealing, the row made, written
  and counted, the hand-over between the worker thread and the writer.
* ``start``: the same command for the one deal FIRST: the interpreter, the imports, the
  output file and the summary.
* ``engine``: ``_core.solve_numbers`` on the same deals with the same one-expansion limit
  and method, timed in-process with ``time.process_time`` around the call alone: dealing
  and searching in C++, no rows (the call also makes its list of result tuples, about a
  microsecond a deal, so the figure below errs low by about that much).

Outside the search, per deal = (run - start - engine) / deals.

    python bench/row_cost.py --game freecell --first 1 --last 64000 --repeat 5
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ENGINE = """
import sys, time
from bakers._native import core
from bakers.solving import default_method
from bakers.variants import find_variant
v = find_variant(sys.argv[1])
t = time.process_time()
core().solve_numbers(v.rules(), int(sys.argv[2]), int(sys.argv[3]), max_nodes=1,
                     method=default_method(v))
print(time.process_time() - t)
"""


def process_cpu(argv: list[str]) -> float:
    """Run ``argv`` to its end; return its CPU seconds (user + system, every thread)."""
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(argv)} failed: exit {os.waitstatus_to_exitcode(status)}")
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="freecell")
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, default=64000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    deals = args.last - args.first + 1
    with tempfile.TemporaryDirectory() as tmp:
        out = str(Path(tmp) / "rows.tsv")
        command = [sys.executable, "-m", "bakers", "range", args.game, str(args.first)]
        tail = ["--threads", "1", "--max-nodes", "1", "--out", out, "--force", "--quiet"]
        runs, starts, engines = [], [], []
        for _ in range(args.repeat):
            runs.append(process_cpu([*command, str(args.last), *tail]))
            starts.append(process_cpu([*command, str(args.first), *tail]))
            engine = subprocess.run([sys.executable, "-c", ENGINE, args.game, str(args.first),
                                     str(args.last)], capture_output=True, text=True,
                                    check=True)
            engines.append(float(engine.stdout))
    run, start, engine = (statistics.median(x) for x in (runs, starts, engines))
    print(f"{args.game} {args.first}..{args.last} ({deals:,} deals), medians of "
          f"{args.repeat} ({time.strftime('%Y-%m-%d')}):")
    print(f"  run {run:.3f} s CPU, start {start:.3f} s, engine {engine:.3f} s")
    print(f"  outside the search: {(run - start - engine) / deals * 1e6:.2f} us of CPU a deal")


if __name__ == "__main__":
    main()
