"""Summarise files of `bakers range` as rows of the winnability tables in docs/tables.md.

For each file (.tsv, .csv or .jsonl, each optionally compressed as .xz, or the directory
of a Parquet dataset, DIR.parquet, which needs pyarrow): the game, the
deals, how many are won, impossible and unknown, the winnable share with its 95%
interval (Wilson's; the unknown deals counted as lost for the lower end and as won
for the upper, so the interval holds whatever they turn out to be), the mean solution
length in single-card moves, the engine's seconds in all and per deal (median, p99,
max). ``--deals FILE`` writes the number and verdict of every impossible and unknown
deal, one a line. A row that appears twice (a deal in two files) is an error.

    python bench/tables.py bench/results/freecell_1-1000000.tsv.xz --deals open.tsv
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import lzma
import math
import sys
from collections.abc import Iterator
from pathlib import Path

Z95 = 1.959963984540054


def wilson(won: int, total: int) -> tuple[float, float]:
    """Return Wilson's 95% interval of the share ``won / total``."""
    if total == 0:
        return 0.0, 1.0
    p = won / total
    centre = (p + Z95**2 / (2 * total)) / (1 + Z95**2 / total)
    half = (Z95 / (1 + Z95**2 / total)) * math.sqrt(
        p * (1 - p) / total + Z95**2 / (4 * total**2))
    return max(0.0, centre - half), min(1.0, centre + half)


def parquet_rows(path: Path) -> Iterator[dict[str, str]]:
    """Yield the rows of a Parquet dataset of `bakers range` (its files in name order),
    each as a dict of strings as in a TSV file (``seconds``, kept in 32 bits, rounded
    to the TSV's 6 decimals)."""
    import pyarrow.parquet as pq

    wanted = ["game", "deal", "verdict", "moves", "seconds"]
    for file in sorted(path.glob("*.parquet")):
        if file.name.startswith("."):  # a file being written
            continue
        for row in pq.read_table(file, columns=wanted).to_pylist():
            yield {"game": row["game"], "deal": str(row["deal"]), "verdict": row["verdict"],
                   "moves": "" if row["moves"] is None else str(row["moves"]),
                   "seconds": f"{row['seconds']:.6f}"}


def rows(path: Path) -> Iterator[dict[str, str]]:
    """Yield the rows of a file of `bakers range` (or of a Parquet dataset), each as a
    dict of strings."""
    if path.is_dir():
        yield from parquet_rows(path)
        return
    name = path.name[:-3] if path.name.endswith(".xz") else path.name
    opener = lzma.open if path.name.endswith(".xz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        if name.endswith(".jsonl"):
            for line in f:
                row = json.loads(line)
                if "deal" in row:  # not the first line's record of the run's settings
                    yield {k: "" if v is None else str(v) for k, v in row.items()}
        else:
            # The comment line before the header records the run's settings.
            text = "".join(line for line in f if not line.startswith("#"))
            delimiter = "," if name.endswith(".csv") else "\t"
            yield from csv.DictReader(io.StringIO(text), delimiter=delimiter)


def summary(paths: list[Path], open_deals: list[tuple[int, str]]) -> str:
    """Return the table row of the rows in ``paths``; add the impossible and unknown
    deals to ``open_deals``."""
    counts = {"solved": 0, "impossible": 0, "unknown": 0}
    games: set[str] = set()
    seen: set[int] = set()
    seconds: list[float] = []
    moves: list[int] = []
    for path in paths:
        for row in rows(path):
            deal = int(row["deal"])
            if deal in seen:
                raise SystemExit(f"deal {deal} appears twice ({path})")
            seen.add(deal)
            games.add(row["game"])
            counts[row["verdict"]] += 1
            seconds.append(float(row["seconds"]))
            if row["verdict"] == "solved" and row["moves"]:
                moves.append(int(row["moves"]))
            if row["verdict"] != "solved":
                open_deals.append((deal, row["verdict"]))
    total = len(seen)
    low, _ = wilson(counts["solved"], total)
    _, high = wilson(counts["solved"] + counts["unknown"], total)
    seconds.sort()
    p99 = seconds[max(0, -(-99 * total // 100) - 1)] if seconds else 0.0
    span = f"{min(seen):,}..{max(seen):,}" if seen else "-"
    return (f"| {', '.join(sorted(games))} | {span} | {total:,} | {counts['solved']:,} | "
            f"{counts['impossible']:,} | {counts['unknown']:,} | "
            f"{100 * counts['solved'] / max(total, 1):.4f}% [{100 * low:.4f}, {100 * high:.4f}] | "
            f"{sum(moves) / max(len(moves), 1):.1f} | {sum(seconds):,.1f} | "
            f"{seconds[total // 2] * 1000 if seconds else 0:.2f}, {p99 * 1000:.2f}, "
            f"{seconds[-1] if seconds else 0:.2f} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path,
                        help="files (or Parquet directories) of one game's run")
    parser.add_argument("--deals", type=Path, metavar="FILE",
                        help="write the impossible and unknown deals to FILE")
    args = parser.parse_args(argv)
    open_deals: list[tuple[int, str]] = []
    print("| game | deals | count | won | impossible | unknown | winnable [95%] | "
          "mean moves | engine s | per deal: median, p99 (ms), max (s) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    print(summary(args.files, open_deals))
    if args.deals is not None:
        args.deals.write_text("".join(f"{deal}\t{verdict}\n"
                                      for deal, verdict in sorted(open_deals)),
                              encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
