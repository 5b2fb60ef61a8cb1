"""The tails of the tables: the slowest deals of each game's first pass, decided again
by this build's default search and by another engine, side by side.

    python bench/tails.py --engine OLD/_core.so                  # every game, all of the 1%
    python bench/tails.py --games beleaguered_castle streets_and_alleys --take 20 \\
        --engine OLD/_core.so --max-nodes 2000000

For each game with a first-pass table in ``bench/results`` (``GAME_FIRST-LAST.tsv.xz``,
the rows of ``bakers range`` over a range; not the ``.open``, ``.second-pass``,
``.portfolio-pass`` or ``.longer-search`` lists), the deals are the slowest 1% by the
table's ``seconds`` (``--share``); ``--take N`` keeps N of them, evenly spread from the
slowest to the fastest of that 1%. Each engine decides them as the command a user runs,
``bakers range GAME --deals FILE --threads 1`` with the limits given, one process a game
timed whole (``os.wait4``: CPU is user + system of every thread, wall from start to
end), on a copy of the package (compare.py's `snapshot_package`), so a rebuild while it
runs changes nothing. The table gives per game how many deals each engine won and proved
impossible, and its CPU and wall seconds; a verdict of one engine that the other
contradicts (won against impossible) ends the run with the deal named.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from compare import Package, check_status, run_measured, snapshot_package
from rich.console import Console
from rich.table import Table
from tables import rows

RESULTS = Path(__file__).resolve().parent / "results"
#: A first pass's table: the game and its range, nothing after (the other lists of a
#: game carry a second suffix).
FIRST_PASS = re.compile(r"^(?P<game>[a-z0-9_]+?)_(?P<first>\d+)-(?P<last>\d+)\.tsv(\.xz)?$")
#: The games whose table holds a grade or a fewest-cells count, not a verdict.
NOT_TABLES = ("grades_", "min_cells_")


@dataclass
class Side:
    """One engine's run over one game's deals."""

    verdicts: dict[int, str]
    cpu: float
    wall: float


def first_pass_tables(results: Path = RESULTS) -> dict[str, list[Path]]:
    """The first-pass tables in ``results``, by game (a game's range may be in parts)."""
    tables: dict[str, list[Path]] = {}
    for path in sorted(results.iterdir()):
        match = FIRST_PASS.match(path.name)
        if match and not path.name.startswith(NOT_TABLES):
            tables.setdefault(match["game"], []).append(path)
    return tables


def slowest(paths: list[Path], share: float, take: int | None) -> list[int]:
    """The deals of the slowest ``share`` of the rows in ``paths`` by ``seconds`` (at
    least one), the slowest first; with ``take``, that many of them evenly spread."""
    timed = sorted(((float(row["seconds"]), int(row["deal"]))
                    for path in paths for row in rows(path)), reverse=True)
    tail = timed[:max(1, round(len(timed) * share))]
    if take is not None and take < len(tail):
        tail = [tail[i * len(tail) // take] for i in range(take)]
    return [deal for _, deal in tail]


def run_side(package: Package, game: str, deals: list[int], options: list[str],
             scratch: Path) -> Side:
    """``bakers range GAME --deals FILE`` on one thread with the engine of ``package``."""
    listing = scratch / f"{game}-deals.txt"
    listing.write_text("".join(f"{deal}\n" for deal in deals))
    out = scratch / f"{game}-rows.tsv"
    out.unlink(missing_ok=True)
    command = [sys.executable, "-m", "bakers", "range", game, "--deals", str(listing),
               "--threads", "1", "--out", str(out), "--quiet", *options]
    status, wall, cpu, _ = run_measured(command, scratch / f"{game}-range.txt", package.env(),
                                        package.root)
    if status == 130:
        raise KeyboardInterrupt
    check_status(status, command, scratch / f"{game}-range.txt")
    verdicts = {int(row["deal"]): row["verdict"] for row in rows(out)}
    if sorted(verdicts) != sorted(deals):
        raise SystemExit(f"bakers range wrote {len(verdicts)} rows for {game}, not one a deal")
    return Side(verdicts, cpu, wall)


def contradiction(game: str, new: Side, old: Side) -> str | None:
    """Name the first deal that one engine won and the other proved impossible."""
    for deal, verdict in new.verdicts.items():
        if {verdict, old.verdicts[deal]} == {"solved", "impossible"}:
            return f"{game} {deal}: {verdict} by this build, {old.verdicts[deal]} by the other"
    return None


def limit_options(args: argparse.Namespace) -> list[str]:
    options = ["--max-nodes", str(args.max_nodes)]
    if args.max_seconds:
        options += ["--max-seconds", repr(args.max_seconds)]
    if args.max_memory:
        options += ["--max-memory", args.max_memory]
    return options


def tail_parser(doc: str) -> tuple[argparse.ArgumentParser, dict]:
    """Return a parser described by ``doc`` with the options that choose the tail deals
    (--games, --share, --take), and the first-pass tables they choose from."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    tables = first_pass_tables()
    parser.add_argument("--games", nargs="+", choices=sorted(tables), default=sorted(tables),
                        metavar="GAME", help="games with a first-pass table (all of them)")
    parser.add_argument("--share", type=float, default=0.01,
                        help="the slowest share of each table (0.01: the slowest 1%%)")
    parser.add_argument("--take", type=int, default=None,
                        help="at most this many deals a game, spread over the share")
    return parser, tables


def main(argv: list[str] | None = None) -> int:
    parser, tables = tail_parser(__doc__)
    parser.add_argument("--engine", type=Path, default=None,
                        help="the other build's _core*.so (none: this build alone)")
    parser.add_argument("--max-nodes", type=int, default=2_000_000,
                        help="positions a deal, as the first pass (2000000)")
    parser.add_argument("--max-seconds", type=float, default=None, help="seconds a deal")
    parser.add_argument("--max-memory", default="1500M", help="as bakers range (1500M)")
    args = parser.parse_args(argv)
    if not 0 < args.share <= 1:
        parser.error(f"--share {args.share} must be above 0 and at most 1")
    if args.take is not None and args.take < 1:
        parser.error(f"--take {args.take} must be at least 1")
    if args.engine is not None and not args.engine.is_file():
        parser.error(f"--engine {args.engine}: no such file")
    options = limit_options(args)
    table = Table(title=f"The slowest {args.share:.0%} of each table, {' '.join(options)}")
    for column in ("game", "deals", "engine", "decided", "won", "impossible", "unknown", "CPU s",
                   "wall s"):
        table.add_column(column, justify="left" if column in ("game", "engine") else "right")
    with tempfile.TemporaryDirectory(prefix="bakers-tails-") as tmp:
        scratch = Path(tmp)
        engines = [("this build", snapshot_package(scratch / "new"))]
        if args.engine is not None:
            engines.append(("other", snapshot_package(scratch / "old", args.engine)))
        for game in args.games:
            deals = slowest(tables[game], args.share, args.take)
            sides = [run_side(package, game, deals, options, scratch) for _, package in engines]
            if len(sides) == 2 and (clash := contradiction(game, *sides)):
                raise SystemExit(f"the engines contradict each other: {clash}")
            for (name, _), side in zip(engines, sides, strict=True):
                count = Counter(side.verdicts.values())
                table.add_row(game, str(len(deals)), name,
                              str(count["solved"] + count["impossible"]), str(count["solved"]),
                              str(count["impossible"]), str(count["unknown"]),
                              f"{side.cpu:.1f}", f"{side.wall:.1f}")
    Console(width=120).print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
