"""The wins of a `bakers range` file replayed by the referee: each deal the file says is
solved is solved again with the file's own search and limits (its header line), the line
written out in the standard notation, read back and replayed from the deal by the
referee (`bakers.solution.replay_text`, what `bakers verify` runs); the positions
expanded must be the row's again, and the replay must win with every card home.

    python bench/replay_wins.py bench/results/good_measure_1-100000.restricted-pass.tsv
    python bench/replay_wins.py FILE --deals 25956 26042   # only these deals of the file

A win is a line the referee accepts whatever search found it, so a row whose search does
not find it again (another engine's positions) is reported as such, not as a failure of
the line. Exit status 0 when every win replayed, 1 otherwise.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from pathlib import Path

from bakers import Deal, Limits, solve
from bakers.board import Board
from bakers.solution import replay_text

HEADER_MARK = "# bakers range "


def read_file(path: Path) -> tuple[dict, list[dict[str, str]]]:
    """Return the file's search settings (its header line) and its rows."""
    with path.open(encoding="utf-8") as handle:
        first = handle.readline()
        if not first.startswith(HEADER_MARK):
            raise SystemExit(f"{path}: no '{HEADER_MARK.strip()}' header on its first line")
        settings = json.loads(first[len(HEADER_MARK):])
        rows = list(csv.DictReader((line for line in handle if not line.startswith("#")),
                                   delimiter="\t"))
    return settings, rows


def replay_win(game: str, number: int, settings: dict, expanded: int) -> str:
    """Solve the deal again as the row was and replay the line; return "" or the fault."""
    deal = Deal.from_number(game, number)
    limits = Limits(nodes=settings.get("max_nodes"), states=settings.get("max_states"),
                    memory=settings.get("max_memory"), seconds=settings.get("max_seconds"),
                    forget=bool(settings.get("forget")))
    result = solve(deal, limits=limits, method=settings.get("method"))
    if result.solution is None:
        return f"not solved again ({result.verdict})"
    if result.stats.expanded != expanded:
        return f"solved after {result.stats.expanded} positions, the row says {expanded}"
    moves, replay = replay_text(result.solution.notation(), Board(deal))
    if replay.error is not None:
        return f"move {replay.failed_move} refused: {replay.error}"
    if not replay.won or len(moves) != len(result.solution):
        return f"the replay ends without a win after {replay.applied} moves"
    return ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", type=Path, help="a bakers range file (TSV)")
    parser.add_argument("--deals", type=int, nargs="+", metavar="N",
                        help="only these deals of the file (all its wins by default)")
    args = parser.parse_args(argv)
    settings, rows = read_file(args.file)
    wanted = set(args.deals) if args.deals else None
    wins = [row for row in rows if row["verdict"] == "solved"
            and (wanted is None or int(row["deal"]) in wanted)]
    faults = 0
    start = time.perf_counter()
    for row in wins:
        fault = replay_win(row["game"], int(row["deal"]), settings, int(row["expanded"]))
        if fault:
            faults += 1
            print(f"{row['game']} {row['deal']}: {fault}", flush=True)
    print(f"{len(wins) - faults} of {len(wins)} wins replayed as wins by the referee "
          f"({time.perf_counter() - start:.0f} s)")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
