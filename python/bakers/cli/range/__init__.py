"""`bakers range GAME FIRST LAST`: decide a range of numbered deals on worker threads and
write one row per deal (or `bakers range GAME --deals FILE`: the deals that a file lists,
such as the unknown ones of an earlier run, `bakers.bulk.deal_lists`), as TSV, CSV or JSON
lines (by the extension of ``--out``), or as a Parquet dataset (an ``--out`` directory
named ``*.parquet``, one file a chunk of deals, written by the workers of ``--cluster``:
`bakers.bulk.dataset`).

Rows are flushed as they come, so an interrupted run keeps every finished row and
``--resume`` continues it: it reads the deals already in the file (a truncated last
line is dropped and rewritten) and appends the rest (in a dataset: the deals of its
files, and the rest in new files). A progress bar and a closing summary go to
standard error.
"""

from __future__ import annotations

import argparse
from typing import Any

from ...solving import METHODS, VERDICTS
from ..common import DEFAULT_METHOD_HELP, add_forget_option, count, number, seconds, whole

__all__ = ["add_commands", "cmd_range"]


def cmd_range(args: argparse.Namespace) -> int:
    """Run `bakers range` (`run.cmd_range`, imported now: building the parser of `bakers`
    for another command loads none of the bulk path)."""
    from .run import cmd_range as run

    return run(args)


def add_commands(subparsers: Any) -> None:
    """Add the `range` command to the subparsers of the `bakers` command."""
    p = subparsers.add_parser(
        "range", help="decide numbered deals FIRST..LAST (or those a file lists) on worker "
        "threads",
        description="Decide deals FIRST..LAST of GAME, or the deals that --deals FILE "
        "lists, and write a row per deal (game, "
        "deal, verdict, moves, most_home, most_home_exact, expanded, stored, peak_bytes, "
        "seconds, reason, and with --solutions the solution) as TSV, CSV or JSON lines "
        "by the extension of --out (.tsv, .csv, .jsonl; standard output: TSV), or as a "
        "Parquet dataset: a directory DIR.parquet of one file a chunk of deals, which "
        "with --cluster the workers write (needs bakers[parquet]). Exit 0: done; 2: bad "
        "input; 130: interrupted (the rows written so far are complete).")
    p.add_argument("game", help="a game name or alias, like bakers_game or fc")
    p.add_argument("first", type=number, nargs="?", help="the first deal number")
    p.add_argument("last", type=number, nargs="?", help="the last deal number (included)")
    p.add_argument("--deals", metavar="FILE",
                   help="decide the deals that FILE lists instead of FIRST..LAST ('-': "
                   "standard input): one number a line, or the rows of an earlier run "
                   "(.tsv, .csv, .jsonl, maybe .xz, or a .parquet directory)")
    p.add_argument("--verdict", action="append", metavar="VERDICT",
                   help=f"with --deals, keep the rows of FILE with this verdict "
                   f"({', '.join(VERDICTS)}; repeat it or give a comma list), as in "
                   "--verdict unknown for a second pass")
    p.add_argument("--threads", type=whole, metavar="N",
                   help="worker threads (default: one per CPU)")
    p.add_argument("--out", metavar="FILE",
                   help="write rows to FILE (.tsv, .csv, .jsonl), or to the Parquet dataset "
                   "FILE.parquet (a directory)")
    again = p.add_mutually_exclusive_group()
    again.add_argument("--resume", action="store_true",
                       help="skip the deals already in FILE and append the rest")
    again.add_argument("--force", action="store_true", help="overwrite an existing FILE")
    p.add_argument("--resume-any", action="store_true",
                   help="with --resume, continue FILE even when it was made with another "
                   "--method or other limits, or does not say (rows of both are mixed)")
    p.add_argument("--ordered", action="store_true",
                   help="write rows in deal order (default: as they finish)")
    p.add_argument("--solutions", action="store_true",
                   help="add a column with each solution in standard notation")
    p.add_argument("--quiet", action="store_true", help="no progress bar and no summary")
    p.add_argument("--progress", action="store_true",
                   help="show the progress bar even when standard error is not a terminal")
    p.add_argument("--method", choices=METHODS,
                   help=f"the search of each deal (default: {DEFAULT_METHOD_HELP})")
    p.add_argument("--max-nodes", type=count(1), metavar="N", help="positions to expand per deal")
    p.add_argument("--max-states", type=count(1), metavar="N", help="positions to store per deal")
    p.add_argument("--max-memory", metavar="BYTES",
                   help="memory for the whole process, like 4G or 512M: the searches share what "
                   "the process does not already hold (split between threads)")
    p.add_argument("--max-seconds", type=seconds, metavar="S", help="seconds per deal")
    add_forget_option(p)
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="decide the deals in chunks on a Dask cluster: a scheduler's address "
                   "(tcp://host:8786), or local or local:N for N worker processes on this "
                   "machine; --threads and --max-memory then hold for each worker (needs "
                   "bakers[cluster])")
    p.add_argument("--chunk", type=int, metavar="N",
                   help="deals per task with --cluster, and per file of a .parquet --out "
                   "(default 1000)")
    p.add_argument("--worker-resources", metavar="NAME=N[,NAME=N]",
                   help="with --cluster, run each task only on the workers started with "
                   "these resources (dask worker ADDRESS --resources \"BIG=1\"), such as the "
                   "ones with more memory for a second pass; with local:N, its workers get "
                   "them")
    p.set_defaults(run=cmd_range)
