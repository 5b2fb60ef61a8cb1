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
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

from ...bulk import settings
from ...bulk.batches import FORMATS, RowBatches
from ...bulk.checks import check_range, worker_threads
from ...bulk.dataset import EXTENSION, is_dataset, load_pyarrow, open_dataset
from ...bulk.deal_lists import VERDICTS, read_deals
from ...bulk.rows import COLUMNS, columns
from ...bulk.runs import solve_numbers
from ...errors import InvalidOptionError
from ...limits import Limits, parse_bytes
from ...solving import METHODS, check_method
from ...variants import Variant, find_variant
from ..common import (
    DEFAULT_METHOD_HELP,
    EXIT_INTERRUPTED,
    EXIT_OK,
    RUN_RESERVE,
    add_forget_option,
    count,
    number,
    process_share,
    resident_bytes,
    seconds,
    whole,
)
from .cluster import cluster_files, cluster_limits, cluster_rows, connect_cluster
from .formats import format_for
from .output import open_output
from .progress import Tally, add_all, print_summary, progress_bar
from .writers import ChunkWriter, GivenChunks, Writer, write_all, write_batches

__all__ = ["add_commands", "cmd_range", "COLUMNS", "OUTPUT_FORMATS"]

#: Output formats by file extension (a ``.parquet`` --out is a dataset's directory).
OUTPUT_FORMATS = (".tsv", ".csv", ".jsonl", EXTENSION)


def _limits(args: argparse.Namespace, threads: int) -> Limits:
    """Return the per-deal limits; ``--max-memory`` covers the whole process, so the
    searches get what is left of it after the memory the process already holds and
    `RUN_RESERVE`.

    Raises InvalidOptionError when --max-memory leaves nothing for the searches.
    """
    memory = None
    if args.max_memory is not None:
        memory = process_share(args.max_memory, resident_bytes() + RUN_RESERVE, 2**20 * threads)
    return Limits(nodes=args.max_nodes, states=args.max_states, memory=memory,
                  seconds=args.max_seconds, forget=args.forget)


def cmd_range(args: argparse.Namespace) -> int:
    """Run `bakers range`; return the exit code (0 done, 130 interrupted). With
    ``--cluster``, Dask's own log is kept off the terminal (`bakers.bulk.cluster.log`).

    Raises the BakersError of a bad game, range or option before anything is written.
    """
    if args.cluster is None:
        return _run(args)
    from ...bulk.cluster.log import kept_log

    with kept_log():
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    """Run `bakers range` as `cmd_range` says."""
    variant = find_variant(args.game)
    if args.worker_resources is not None and args.cluster is None:
        raise InvalidOptionError("--worker-resources needs --cluster (it sends the chunks "
                                 "to the workers that have those resources)")
    numbers = _deals(args, variant)
    threads = worker_threads(args.threads)
    dataset = is_dataset(args.out)
    if args.chunk is not None and args.cluster is None and not dataset:
        raise InvalidOptionError("--chunk needs --cluster or a .parquet --out (it sets the "
                                 "deals of one task or file)")
    if args.forget and args.max_memory is None:
        raise InvalidOptionError("--forget needs --max-memory (it forgets under that limit)")
    limits = _limits(args, threads) if args.cluster is None else cluster_limits(args)
    if args.resume_any and not args.resume:
        raise InvalidOptionError("--resume-any needs --resume (it resumes a file made "
                                 "under other settings)")
    if dataset:
        return _cmd_dataset(args, variant, numbers, threads, limits)
    fmt = format_for(args.out, columns(args.solutions))
    client = None if args.cluster is None else connect_cluster(args)
    try:
        stream, done = open_output(args, fmt, variant, _container(numbers),
                                   _record(args, variant))
    except BaseException:
        if client is not None:
            client.close()
        raise
    if isinstance(numbers, range):
        already = sum(1 for n in done if n in numbers)
    else:
        already = sum(1 for n in numbers if n in done)
    requested = len(numbers)
    todo = (n for n in numbers if n not in done)
    if client is None and not args.solutions:
        return _run_batches(args, variant, todo, threads, limits, stream,
                            requested, already)
    if client is None:
        rows = solve_numbers(variant, todo, threads=threads, limits=limits,
                             ordered=args.ordered, method=args.method, solutions=True)
    else:
        rows = cluster_rows(args, client, variant, todo, limits)
    tally = Tally()
    try:
        with progress_bar(_shows_progress(args), requested - already) as progress:
            finished = write_all(rows, Writer(stream, fmt, args.solutions, tally, progress))
    except KeyboardInterrupt:
        finished = False
    finally:
        rows.close()  # type: ignore[attr-defined]
        if stream is not sys.stdout:
            stream.close()
        if client is not None:
            client.close()
    return _finish(args, tally, requested, already, finished)


def _run_batches(args: argparse.Namespace, variant: Variant, todo: Iterable[int],
                 threads: int, limits: Limits, stream: IO[str], requested: int,
                 already: int) -> int:
    """Decide the deals on this machine's threads with the rows made by the core in
    batches (no Python per deal), write them to ``stream`` and return the exit code."""
    batches = RowBatches(variant, todo, threads=threads, limits=limits, ordered=args.ordered,
                         method=check_method(args.method, variant),
                         fmt=FORMATS[_extension(args.out)])
    tally = Tally()
    try:
        with progress_bar(_shows_progress(args), requested - already) as progress:
            finished = write_batches(batches, stream, tally, progress)
    finally:
        batches.stop()
        if stream is not sys.stdout:
            stream.close()
    return _finish(args, tally, requested, already, finished)


def _extension(out: str | None) -> str:
    """Return the lower-case extension of ``--out`` (standard output: TSV's)."""
    return ".tsv" if out is None else Path(out).suffix.lower()


def _record(args: argparse.Namespace, variant: Variant) -> dict[str, Any]:
    """Return the record of the run's method and limits, as its output keeps them."""
    return settings.settings(
        check_method(args.method, variant), nodes=args.max_nodes, states=args.max_states,
        memory=None if args.max_memory is None else parse_bytes(args.max_memory),
        seconds=args.max_seconds, forget=args.forget)


def _container(numbers: range | list[int]) -> range | set[int]:
    """Return the deals of the run as a container that answers ``in`` at once."""
    return numbers if isinstance(numbers, range) else set(numbers)


def _shows_progress(args: argparse.Namespace) -> bool:
    """Whether the run shows its progress bar: on a terminal, or when asked, unless
    ``--quiet``."""
    return not args.quiet and (args.progress or sys.stderr.isatty())


def _finish(args: argparse.Namespace, tally: Tally, requested: int, already: int,
            finished: bool) -> int:
    """Print the summary, and the line of an interrupted run; return the exit code."""
    if not args.quiet:
        print_summary(tally, requested, already)
    if finished:
        return EXIT_OK
    where = "standard output" if args.out is None else repr(args.out)
    hint = "" if args.out is None else "; --resume continues"
    print(f"bakers: interrupted: {already + tally.done:,} of {requested:,} deals done, "
          f"in {where}{hint}", file=sys.stderr)
    return EXIT_INTERRUPTED


def _cmd_dataset(args: argparse.Namespace, variant: Variant, numbers: range | list[int],
                 threads: int, limits: Limits) -> int:
    """Run `bakers range` into the Parquet dataset ``--out``: with ``--cluster`` each
    worker writes the file of its chunk and sends back its summary; without, this
    process writes a file for each ``--chunk`` rows as they come."""
    from ...bulk import cluster

    load_pyarrow()  # missing: said before a cluster starts
    chunk = cluster.DEFAULT_CHUNK if args.chunk is None else cluster.check_chunk(
        args.chunk, "--chunk ")
    record = _record(args, variant)
    client = None if args.cluster is None else connect_cluster(args)
    try:
        dataset = open_dataset(args.out, variant, solutions=args.solutions,
                                             resume=args.resume, force=args.force,
                                             name=f"--out {args.out!r}",
                                             deals=_container(numbers), record=record,
                                             mix=args.resume_any)
    except BaseException:
        if client is not None:
            client.close()
        raise
    if dataset.done.duplicates:
        print(f"bakers: warning: --out {args.out!r} holds {dataset.done.duplicates:,} deals "
              "in more than one file; each counts once and is not decided again",
              file=sys.stderr)
    already = dataset.done.count_in(numbers)
    requested = len(numbers)
    todo = dataset.done.not_in(numbers)
    tally = Tally()
    try:
        with progress_bar(_shows_progress(args), requested - already) as progress:
            if client is None:
                given = GivenChunks(todo, chunk)
                rows = solve_numbers(variant, iter(given), threads=threads, limits=limits,
                                     ordered=args.ordered, method=args.method, solutions=True)
                writer = ChunkWriter(dataset.directory, variant, args.solutions, given,
                                     record, tally, progress)
                try:
                    finished = write_all(rows, writer)
                finally:
                    rows.close()  # type: ignore[attr-defined]
                    writer.flush()
            else:
                summaries = cluster_files(args, client, variant, todo, limits,
                                          dataset.directory, chunk, record)
                try:
                    finished = add_all(summaries, tally, progress)
                finally:
                    summaries.close()  # type: ignore[attr-defined]
        if finished:  # every chunk has returned: a temporary file is a dead worker's
            dataset.remove_temporary()
    except KeyboardInterrupt:
        finished = False
    finally:
        dataset.close()
        if client is not None:
            client.close()
    return _finish(args, tally, requested, already, finished)


def _deals(args: argparse.Namespace, variant: Variant) -> range | list[int]:
    """Return the deals to decide: FIRST..LAST, or those that --deals FILE lists (the
    rows of --verdict alone, when it is given).

    Raises InvalidOptionError for neither form or both, the errors of `read_deals` for
    a bad file, and those of `check_range` for a bad range.
    """
    if args.deals is None:
        if args.verdict:
            raise InvalidOptionError("--verdict needs --deals FILE (it keeps the rows of "
                                     "FILE with those verdicts)")
        if args.first is None or args.last is None:
            raise InvalidOptionError("give the deals to decide: FIRST LAST, or --deals FILE")
        first, last = check_range(variant, args.first, args.last)
        return range(first, last + 1)
    if args.first is not None:
        raise InvalidOptionError("give FIRST LAST or --deals FILE, not both")
    verdicts = [word.strip() for item in args.verdict or [] for word in item.split(",")]
    return read_deals(variant, args.deals, verdicts=verdicts or None, name="--deals ",
                      verdict_name="--verdict ")


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
