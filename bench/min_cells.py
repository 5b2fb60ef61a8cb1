"""Count a game's deals by the fewest free cells they need, as `bakers.min_cells` finds.

``--game`` names the game (default FreeCell); its numbered deals ``--first``..``--last``
are decided, each with every count of cells from 0 to 8 that the answer needs (a deal
with no win even with 8 cells counts as "no win"). ``--method`` is the first search of
each count (default: the game's own, as `bakers min-cells` picks it); the FreeCell
figures below were made with best first, then this script's only search
(``--method best-first``).

FreeCell: the published counts for Microsoft deals 1..32000 are: 69 need no cell,
6,220 one, 19,092 two, 6,420 three, 198 four and one (11982) five. The script decides
each deal with `min_cells` (each search limited to ``--max-nodes`` positions), prints
how many need each count, how many answers are only upper bounds (a smaller count left
unknown), the deals that need four or more cells, and the time; for FreeCell's full
range it compares the counts with the published ones. ``--retry-nodes`` decides the
deals left with an upper bound again with a larger limit (on ``--jobs`` processes too).

Measured on deals 1..32000 (2 processes, 2,000,000 positions a search; the 227 deals
left with an upper bound retried with 10,000,000): 69 need no cell, 6,207 one, 19,097
two, 6,427 three, 199 four, 1 five (11982), of which 75 answers are upper bounds only (a
search with one cell fewer stayed unknown). The exact answers agree with the published
table: the published counts follow if 13 of the upper bounds at two are one, 8 at three
are two and 1 at four is three. On a 2-core machine the first pass took about 40
minutes, the retries 31 (2.8 billion positions expanded in all). Every answer is in
``bench/results/min_cells_freecell_1-32000.tsv`` (``exact`` 0 marks an upper bound).
Then the upper bounds again with the depth-first search (``--out`` that file
``--resume --retry-nodes 100000000 --retry-method depth-first --retry-memory 10G
--jobs 1``, 1 to 3 minutes a deal; rows are appended, a later row replacing an earlier
one on resume), then with ``--retry-nodes 500000000 --retry-memory 20G`` (5 to 15 minutes
a deal): 70 of the 75 decided, the counts now 69 / 6,218 / 19,094 / 6,420 / 198 / 1 with
5 upper bounds (13599, 14497, 20410, 24966 at 2; 982 at 3); the published counts follow
if 2 of those at 2 are 1 and 982 is 3. (24966 again with ``--retry-nodes 1000000000
--retry-memory 14G``: 555 million positions with one cell, then the memory limit.)
Then 14497 and 13599 with the beam search (``--first N --last N --resume --retry-nodes
600000000 --retry-method beam --retry-memory 2G``): both win with one cell (0.5 s and
36 s) and are proved impossible without cells, so the counts are now the published ones,
69 / 6,220 / 19,092 / 6,420 / 198 / 1, with 3 upper bounds left (20410 and 24966 at 2,
982 at 3), which the published counts say are exact. Then 20410 with ``--first 20410
--last 20410 --resume --retry-nodes 1000000000 --retry-method depth-first --retry-memory
16G --jobs 1``: impossible with one cell (652.7 million positions, 25 minutes), so two
is exact; 2 upper bounds are left (24966 at 2: 2.11 billion positions with one cell in
21 GB and still open; 982 at 3: with two cells depth first filled 21 GB in 80 minutes
with ``--retry-nodes 3000000000 --retry-memory 21G``, still open, and the beam won
nothing in the next 10). ``--retry-forget`` lets a depth-first retry forget positions
under its memory limit and go on (slower, as exact); ``--progress-every 60`` prints each
retry search's counts every minute, for the runs of hours. With it, 24966 is proved
impossible with one cell (``--first 24966 --last 24966 --resume --retry-nodes
10000000000 --retry-method depth-first --retry-memory 20G --retry-forget --jobs 1``: 3.18
billion positions expanded, 91 minutes, 19.8 GB peak), so two is exact for it; then 982
the same way (``--first 982 --last 982``): impossible with two cells (4.21 billion
positions expanded, 123 minutes, 19.0 GB peak), so three is exact and every
answer of the file is exact. (`min_cells` now runs the beam
on any count its first search leaves unknown, so a run from scratch finds 14497's win
within 2,000,000 positions and 13599's once the retries allow about 20 million.)
Earlier, on deals 1..500: for the 492 with an exact answer, the count one below it was
also refused by Freecell Solver's complete atomic scan (``fc-solve -g freecell
--freecells-num K -to 01ABCDE``), none contradicting.

Examples::

    python bench/min_cells.py --first 1 --last 500 --retry-nodes 8000000
    python bench/min_cells.py --first 1 --last 32000 --jobs 2
    python bench/min_cells.py --last 32000 --out mc.tsv --resume   # go on after a stop
    python bench/min_cells.py --game bakers_game --last 32000 --jobs 1 --out bg.tsv --resume

With ``--out FILE`` each answer is also written to a TSV file (deal, cells, exact,
positions expanded) as it comes, and ``--resume`` decides only the deals not yet in it
(the summary counts the deals of the file too).
"""

from __future__ import annotations

import argparse
import csv
import multiprocessing
import time
from collections import Counter
from pathlib import Path
from typing import IO

from bakers import PRESETS, Deal, Limits, find_variant
from bakers.cli.progress import SearchMeter
from bakers.fewest_cells import min_cells
from bakers.solving import METHODS

PUBLISHED = {0: 69, 1: 6220, 2: 19092, 3: 6420, 4: 198, 5: 1}


# game, deal, node limit, search method (None: the game's own), memory limit, forget,
# seconds between progress lines, checkpoint folder ("" for none)
Job = tuple[str, int, int, str | None, str, bool, float, str]


def _decide(job: Job) -> tuple[int, int | None, bool, int]:
    """Return (deal, cells or None, exact, positions expanded) for one deal."""
    game, number, nodes, method, memory, forget, every, folder = job
    meter = SearchMeter(every=every, prefix=f"deal {number}, ")  # lines on standard error
    answer = min_cells(Deal.from_number(find_variant(game), number),
                       limits=Limits(nodes=nodes, memory=memory, forget=forget), method=method,
                       progress=meter.min_cells_callback,
                       checkpoint=str(Path(folder) / f"deal-{number}") if folder else None)
    expanded = sum(r.stats.expanded for r in answer.results.values())
    return number, answer.cells, answer.exact, expanded


def _decide_all(jobs: list[Job], processes: int, chunksize: int,
                answers: dict[int, int | None], bounds: list[int], out: IO[str] | None) -> int:
    """Decide the jobs on ``processes`` processes, recording each
    answer in ``answers``, each upper bound in ``bounds`` and each row in ``out``;
    return the positions expanded."""
    expanded = 0
    with multiprocessing.Pool(processes) as pool:
        for number, cells, exact, work in pool.imap(_decide, jobs, chunksize=chunksize):
            answers[number] = cells
            expanded += work
            if not exact:
                bounds.append(number)
            if out:
                out.write(f"{number}\t{'' if cells is None else cells}\t{int(exact)}\t{work}\n")
                out.flush()
    return expanded


def main() -> None:
    """Decide the range and print the counts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(PRESETS), default="freecell",
                        help="the game whose numbered deals are decided (default freecell)")
    parser.add_argument("--method", choices=METHODS, default=None,
                        help="the first search of each count (default: the game's own)")
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, default=500)
    parser.add_argument("--jobs", type=int, default=2, help="processes")
    parser.add_argument("--max-nodes", type=int, default=2_000_000,
                        help="positions a search may expand")
    parser.add_argument("--retry-nodes", type=int, default=0, metavar="N",
                        help="decide again, with this limit, the deals left with an upper "
                        "bound (one at a time); with --resume, not those whose last row "
                        "already spent N")
    parser.add_argument("--retry-method", choices=METHODS,
                        default="best-first", help="the search of the retries (depth-first "
                        "holds several times the positions in the same memory; beam finds wins in "
                        "tight games that the others miss)")
    parser.add_argument("--retry-memory", default="8G", metavar="BYTES",
                        help="memory of one retry search (default 8G)")
    parser.add_argument("--retry-forget", action="store_true",
                        help="depth-first retries forget positions to go on under "
                        "--retry-memory (Limits.forget) instead of stopping")
    parser.add_argument("--retry-checkpoint", metavar="FOLDER", default="",
                        help="depth-first retries save their searches in FOLDER now and then "
                        "and when stopped, and the same command goes on from there "
                        "(`solve`'s checkpoint)")
    parser.add_argument("--progress-every", type=float, default=0, metavar="SECONDS",
                        help="print the counts of each retry search every SECONDS to "
                        "standard error (for "
                        "the long proofs; default: no progress lines)")
    parser.add_argument("--out", metavar="FILE", help="also write each answer to this TSV file")
    parser.add_argument("--resume", action="store_true",
                        help="skip the deals already in --out FILE")
    args = parser.parse_args()
    started = time.perf_counter()
    answers: dict[int, int | None] = {}
    bounds: list[int] = []
    settled: list[int] = []  # bounds already retried with --retry-nodes
    expanded = 0
    out = None
    if args.out:
        path = Path(args.out)
        if args.resume and path.exists():
            exact_of: dict[int, bool] = {}
            spent: dict[int, int] = {}
            with path.open(encoding="utf-8") as old:
                for row in csv.DictReader(old, delimiter="\t"):
                    number = int(row["deal"])
                    if args.first <= number <= args.last:  # a later row replaces an earlier
                        answers[number] = int(row["cells"]) if row["cells"] else None
                        exact_of[number] = row["exact"] == "1"
                        spent[number] = int(row["expanded"])
                        expanded += spent[number]
            bounds = sorted(n for n, exact in exact_of.items() if not exact)
            # a bound whose last row already spent the retry limit was retried with it
            settled = [n for n in bounds if args.retry_nodes and spent[n] >= args.retry_nodes]
        elif path.exists():
            parser.error(f"{args.out} exists: add --resume to go on with it")
        new = not path.exists()
        out = path.open("a", encoding="utf-8")
        if new:
            out.write("deal\tcells\texact\texpanded\n")
    jobs = [(args.game, n, args.max_nodes, args.method, "8G", False, 0.0, "")
            for n in range(args.first, args.last + 1) if n not in answers]
    expanded += _decide_all(jobs, args.jobs, 8, answers, bounds, out)
    first_bounds = list(bounds)
    if args.retry_nodes and bounds:
        retried = [n for n in bounds if n not in settled]
        bounds = [n for n in bounds if n in settled]
        # a later row for the same deal replaces the earlier one on resume
        expanded += _decide_all([(args.game, n, args.retry_nodes, args.retry_method,
                                  args.retry_memory, args.retry_forget, args.progress_every,
                                  args.retry_checkpoint) for n in retried],
                                args.jobs, 1, answers, bounds, out)
        bounds.sort()
    seconds = time.perf_counter() - started
    counts = Counter(answers.values())
    many = [(n, c) for n, c in sorted(answers.items()) if c is None or c >= 4]
    total = args.last - args.first + 1
    full = total == 32000 and args.first == 1 and args.game == "freecell"
    print(f"{args.game} deals {args.first}..{args.last} ({total} deals), "
          f"searches of at most {args.max_nodes:,} positions ({args.method or 'default'})"
          + (f", upper bounds retried with {args.retry_nodes:,} ({args.retry_method})"
             if args.retry_nodes else ""))
    print("| cells | deals |" + (" published |" if full else ""))
    print("|---|---|" + ("---|" if full else ""))
    for cells in sorted(k for k in counts if k is not None):
        extra = f" {PUBLISHED.get(cells, 0):,} |" if full else ""
        print(f"| {cells} | {counts[cells]:,} |{extra}")
    if counts[None]:
        print(f"| no win found with up to 8 | {counts[None]:,} |")
    if args.retry_nodes:
        print(f"upper bounds before the retry: {len(first_bounds)} {first_bounds[:20]}")
    print(f"upper bounds only (a smaller count unknown): {len(bounds)} {bounds[:20]}")
    print(f"deals needing 4 or more cells or with no win found: {len(many)} {many[:40]}")
    print(f"{seconds:.1f} s wall, {seconds / total * 1000:.1f} ms a deal, "
          f"{expanded:,} positions expanded")
    if full:
        same = all(counts[k] == n for k, n in PUBLISHED.items())
        print("matches the published counts" if same else "DIFFERS from the published counts")


if __name__ == "__main__":
    main()
