"""Where each winnability table stands after the later passes on its open deals.

A table's first pass leaves a list of its impossible and unknown deals,
``GAME_FIRST-LAST.open.tsv`` (or ``.open.tsv.xz``, written by ``bench/tables.py
--deals``); each later pass is a file of ``bakers range --deals`` on its unknown ones,
named ``GAME_FIRST-LAST.KIND.tsv`` (``second-pass``, ``portfolio-pass``,
``longer-search``) in the same folder. For every list in the folder this prints the
table's counts once the passes are counted (won, impossible, unknown, the winnable share
with Wilson's 95% interval, as ``bench/tables.py`` gives it) and, with ``--unknown FILE``,
writes every deal still unknown: its game, its number, the largest search that left it
unknown (positions, and the reason it stopped) and the file of that search.

Verdicts are exact, so a deal that any pass decided is decided whatever the other passes
said. A deal won by one pass and proved impossible by another would be a wrong verdict;
it is an error, as is a pass's row for a deal that the list does not hold as unknown.

    python bench/standing.py bench/results --unknown bench/results/still_unknown.tsv
"""

from __future__ import annotations

import argparse
import lzma
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from tables import rows, wilson

OPEN_LIST = re.compile(r"^(?P<game>[a-z0-9_]+)_(?P<first>\d+)-(?P<last>\d+)\.open\.tsv(\.xz)?$")


@dataclass
class Standing:
    """One table: its first pass's open deals and what the later passes made of them."""

    open_list: str  # the file name of the first pass's list
    game: str
    first: int
    last: int
    impossible_first: int = 0
    unknown_first: set[int] = field(default_factory=set)
    won_later: set[int] = field(default_factory=set)
    impossible_later: set[int] = field(default_factory=set)
    # deal -> (positions, reason, file) of the largest search that left it unknown
    largest_unknown: dict[int, tuple[int, str, str]] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return self.last - self.first + 1

    @property
    def still_unknown(self) -> list[int]:
        return sorted(self.unknown_first - self.won_later - self.impossible_later)

    @property
    def won(self) -> int:
        return (self.total - self.impossible_first - len(self.unknown_first)
                + len(self.won_later))

    @property
    def impossible(self) -> int:
        return self.impossible_first + len(self.impossible_later)

    def row(self) -> str:
        unknown = len(self.still_unknown)
        low, _ = wilson(self.won, self.total)
        _, high = wilson(self.won + unknown, self.total)
        return (f"| {self.game} | {self.first:,}..{self.last:,} | {self.won:,} | "
                f"{self.impossible:,} | {unknown:,} | "
                f"{100 * self.won / self.total:.3f}% [{100 * low:.3f}, {100 * high:.3f}] | "
                f"{len(self.unknown_first):,} | {len(self.won_later):,} | "
                f"{len(self.impossible_later):,} |")


def standing(open_list: Path) -> Standing:
    """Return the standing of the table whose open list is ``open_list``, with every
    later pass beside it counted."""
    match = OPEN_LIST.match(open_list.name)
    if match is None:
        raise SystemExit(f"{open_list}: not a list named GAME_FIRST-LAST.open.tsv[.xz]")
    table = Standing(open_list.name, match["game"], int(match["first"]), int(match["last"]))
    opener = lzma.open if open_list.name.endswith(".xz") else open
    with opener(open_list, "rt", encoding="utf-8") as f:
        lines = f.read().splitlines()
    for number, line in enumerate(lines, 1):
        deal, verdict = line.split("\t")
        if verdict == "impossible":
            table.impossible_first += 1
        elif verdict == "unknown":
            table.unknown_first.add(int(deal))
        else:
            raise SystemExit(f"{open_list} line {number}: verdict {verdict!r}")
    stem = open_list.name.split(".open.")[0]
    for later in sorted(open_list.parent.glob(f"{stem}.*.tsv")):
        if later.name.startswith(f"{stem}.open."):
            continue
        for row in rows(later):
            deal = int(row["deal"])
            game = row.get("game", table.game)  # the older passes' files name no game
            if game != table.game or deal not in table.unknown_first:
                raise SystemExit(f"{later}: {game} deal {deal} is not an unknown "
                                 f"deal of {open_list.name}")
            verdict = row["verdict"]
            if verdict == "solved":
                table.won_later.add(deal)
            elif verdict == "impossible":
                table.impossible_later.add(deal)
            else:
                positions = int(row["expanded"])
                if positions >= table.largest_unknown.get(deal, (-1, "", ""))[0]:
                    table.largest_unknown[deal] = (positions, row["reason"], later.name)
    both = table.won_later & table.impossible_later
    if both:
        raise SystemExit(f"{table.game}: deals won by one pass and impossible by another: "
                         f"{sorted(both)}")
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="the folder of the tables' files")
    parser.add_argument("--unknown", type=Path, metavar="FILE",
                        help="write every deal still unknown to FILE")
    args = parser.parse_args(argv)
    lists = sorted(p for p in args.folder.iterdir() if OPEN_LIST.match(p.name))
    tables = [standing(p) for p in lists]
    print("| game | deals | won | impossible | unknown | winnable [95%] | "
          "unknown after the first pass | won since | impossible since |")
    print("|---|---|---|---|---|---|---|---|---|")
    for table in tables:
        print(table.row())
    if args.unknown is not None:
        lines = ["game\tdeal\tpositions\treason\tfile\n"]
        for table in tables:
            for deal in table.still_unknown:
                # a deal that no later pass reached keeps the first pass's list
                positions, reason, name = table.largest_unknown.get(
                    deal, (0, "", table.open_list))
                lines.append(f"{table.game}\t{deal}\t{positions or ''}\t{reason}\t{name}\n")
        args.unknown.write_text("".join(lines), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
