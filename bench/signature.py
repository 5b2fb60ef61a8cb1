"""The bench signature: a fixed amount of search whose size changes when the search does.

Decides Baker's Game MS 1..200 and FreeCell MS 1..200 with ``_core.solve_numbers`` on one
thread and without limits, and prints the total number of positions expanded and stored
over all 400 deals as the line

    signature: <expanded> <stored>

followed by the verdict counts of each game and the time (the median of ``--runs`` runs).
The search is deterministic, so the two numbers are the same on every machine and every
run; any change to move generation, pruning, the heuristic or the table shows up as a
changed signature, while a pure speed-up leaves it alone and only moves the time. With
``--runs`` above 1 every run must give the same signature (and the same verdicts), or the
script exits with status 1.

    python bench/signature.py            # one run
    python bench/signature.py --runs 3   # median time of three runs, determinism checked
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter

from bakers import _core, find_variant

#: The fixed work: (game, first deal, last deal).
WORK = (("bakers_game", 1, 200), ("freecell", 1, 200))


def run_once() -> tuple[int, int, dict[str, Counter[str]], float]:
    """Decide the fixed deals once; return (expanded, stored, verdicts by game, seconds)."""
    expanded = stored = 0
    verdicts: dict[str, Counter[str]] = {}
    start = time.perf_counter()
    for game, first, last in WORK:
        rows, interrupted = _core.solve_numbers(find_variant(game).rules(), first, last)
        if interrupted:
            raise KeyboardInterrupt
        expanded += sum(row[3] for row in rows)
        stored += sum(row[4] for row in rows)
        verdicts[game] = Counter(row[1] for row in rows)
    return expanded, stored, verdicts, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1,
                        help="runs to make; the time is their median (default 1)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")

    results = [run_once() for _ in range(args.runs)]
    expanded, stored, verdicts, _ = results[0]
    print(f"signature: {expanded} {stored}")
    for game, first, last in WORK:
        counts = ", ".join(f"{verdict} {count}" for verdict, count in sorted(
            verdicts[game].items()))
        print(f"  {game} {first}..{last}: {counts}")
    times = [seconds for *_, seconds in results]
    spread = f" (runs: {', '.join(f'{t:.2f}' for t in times)})" if len(times) > 1 else ""
    print(f"time: {statistics.median(times):.2f} s, median of {len(times)}{spread}")
    differing = [i + 1 for i, result in enumerate(results) if result[:3] != results[0][:3]]
    if differing:
        print(f"NOT DETERMINISTIC: runs {differing} differ from run 1: "
              + "; ".join(f"{r[0]} {r[1]}" for r in results), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
