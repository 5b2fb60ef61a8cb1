"""Grade a game's numbered deals in bulk and count them by difficulty grade.

Each deal of ``--first``..``--last`` is graded as `bakers.difficulty.grade` (and so
`bakers grade`) grades it, with the default playouts, seed and limits unless
``--playouts`` and ``--seed`` say otherwise: a best-first solve of at most 200,000
positions, then the random playouts. A deal that solve proves impossible gets no grade
(its row says ``impossible``); one it leaves undecided is graded all the same (its
effort counts as 1) and its row says ``unknown``. Every deal's row (deal, verdict,
grade, score, playouts won, positions expanded, seconds) is written to ``--out`` as it
comes, so the run can be stopped at any moment (Ctrl-C, or a signal) and ``--resume``
grades only the deals not yet in the file. The summary counts the rows of the file
within the range: easy, medium and hard, with the share of each among the graded
deals, then the impossible ones; ``--summary`` prints it without grading (the file may
be compressed, ``.xz``).

Examples::

    python bench/grades.py --game freecell --first 1 --last 100000 \\
        --out bench/results/grades_freecell_1-100000.tsv --resume
    python bench/grades.py --game freecell --first 1 --last 100000 --summary \\
        --out bench/results/grades_freecell_1-100000.tsv.xz
"""

from __future__ import annotations

import argparse
import csv
import io
import lzma
import sys
import time
from collections import Counter
from pathlib import Path
from typing import IO

from bakers import PRESETS, Deal, find_variant
from bakers.board import Board
from bakers.difficulty import DEFAULT_GRADE_LIMITS, DEFAULT_PLAYOUTS, GRADES, measure
from bakers.solving import solve

HEADER = ("deal", "verdict", "grade", "score", "playouts_won", "expanded", "seconds")


def grade_row(game: str, number: int, playouts: int, seed: int) -> tuple[str, ...]:
    """Return the row of deal ``number`` of ``game``: graded as `difficulty.grade` does,
    or marked impossible when the grade's solve proves it so."""
    started = time.perf_counter()
    board = Board(Deal.from_number(find_variant(game), number))
    # the search `difficulty.grade` makes, so the grades are the same as `bakers grade`'s
    result = solve(board, limits=DEFAULT_GRADE_LIMITS, method="best-first")
    if result.reason == "interrupted":
        raise KeyboardInterrupt
    if result.impossible:
        return (str(number), "impossible", "", "", "", str(result.stats.expanded),
                f"{time.perf_counter() - started:.4f}")
    graded = measure(board, result, playouts=playouts, seed=seed, started=started)
    return (str(number), graded.verdict, graded.grade, f"{graded.score:.2f}",
            str(graded.playouts_won), str(graded.expanded), f"{graded.seconds:.4f}")


def read_rows(path: Path) -> list[dict[str, str]]:
    """Return the complete rows of a file of this script (plain or ``.xz``)."""
    opener = lzma.open if path.name.endswith(".xz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        text = f.read()
    if text and not text.endswith("\n"):  # a row cut short by a stop: not a row
        text = text[:text.rfind("\n") + 1]
    return list(csv.DictReader(io.StringIO(text), delimiter="\t"))


def open_for_append(path: Path) -> IO[str]:
    """Open ``path`` to append rows, dropping a last row cut short by a stop and
    writing the header to a new file."""
    if path.exists():
        with path.open("rb+") as f:
            data = f.read()
            if data and not data.endswith(b"\n"):
                f.truncate(data.rfind(b"\n") + 1)
    new = not path.exists() or path.stat().st_size == 0
    out = path.open("a", encoding="utf-8")
    if new:
        out.write("\t".join(HEADER) + "\n")
    return out


def summary(game: str, first: int, last: int, rows: list[dict[str, str]]) -> str:
    """Return the distribution of the grades of ``rows`` within ``first..last`` as
    Markdown lines."""
    inside = {int(r["deal"]): r for r in rows if first <= int(r["deal"]) <= last}
    grades = Counter(r["grade"] for r in inside.values() if r["grade"])
    verdicts = Counter(r["verdict"] for r in inside.values())
    graded = sum(grades.values())
    seconds = sum(float(r["seconds"]) for r in inside.values())
    lines = [f"{game} deals {first}..{last}: {len(inside):,} of {last - first + 1:,} in the "
             f"file, {graded:,} graded ({verdicts['unknown']:,} of them left undecided by the "
             f"grade's solve), {verdicts['impossible']:,} impossible, {seconds:.1f} s",
             "| " + " | ".join(GRADES) + " | impossible |",
             "|---" * (len(GRADES) + 1) + "|"]
    cells = [f"{grades[g]:,} ({100 * grades[g] / graded:.1f}%)" if graded else "0"
             for g in GRADES]
    lines.append("| " + " | ".join(cells) + f" | {verdicts['impossible']:,} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Grade the range (unless ``--summary``) and print the distribution."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(PRESETS), required=True)
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, required=True)
    parser.add_argument("--playouts", type=int, default=DEFAULT_PLAYOUTS,
                        help=f"random playouts a deal (default {DEFAULT_PLAYOUTS})")
    parser.add_argument("--seed", type=int, default=0, help="seed of the playouts")
    parser.add_argument("--out", type=Path, required=True, metavar="FILE",
                        help="the TSV file of the rows")
    parser.add_argument("--resume", action="store_true",
                        help="grade only the deals not yet in --out FILE")
    parser.add_argument("--summary", action="store_true",
                        help="only print the distribution of the rows of --out FILE")
    args = parser.parse_args(argv)
    if args.first < 1 or args.last < args.first:
        parser.error("--first and --last must give a range 1 <= first <= last")
    if args.summary:
        if not args.out.exists():
            parser.error(f"--out {args.out} does not exist")
        print(summary(args.game, args.first, args.last, read_rows(args.out)))
        return 0
    if args.out.name.endswith(".xz"):
        parser.error("--out must be a plain .tsv file to write to (compress it when done)")
    if args.out.exists() and not args.resume:
        parser.error(f"--out {args.out} exists: add --resume to go on with it")
    done = {int(r["deal"]) for r in read_rows(args.out)} if args.out.exists() else set()
    code = 0
    with open_for_append(args.out) as out:
        try:
            for number in range(args.first, args.last + 1):
                if number not in done:
                    out.write("\t".join(grade_row(args.game, number, args.playouts,
                                                  args.seed)) + "\n")
                    out.flush()
        except KeyboardInterrupt:
            print("interrupted: the rows written so far are complete; --resume goes on",
                  file=sys.stderr)
            code = 130
    print(summary(args.game, args.first, args.last, read_rows(args.out)))
    return code


if __name__ == "__main__":
    sys.exit(main())
