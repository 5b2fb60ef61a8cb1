"""Running `bakers range` (`cmd_range`): the deals decided on this machine's threads or
on a cluster, their rows written to a file or to a Parquet dataset, the summary. Its
options are the package's (`bakers.cli.range`), which imports this module when the
command runs.
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
from ...bulk.deal_lists import read_deals
from ...bulk.rows import COLUMNS, columns
from ...bulk.runs import solve_numbers
from ...errors import InvalidOptionError
from ...limits import Limits, parse_bytes
from ...solving import check_method
from ...variants import Variant, find_variant
from ..common import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    RUN_RESERVE,
    process_share,
    resident_bytes,
)
from .cluster import cluster_files, cluster_limits, cluster_rows, connect_cluster
from .formats import format_for
from .output import open_output
from .progress import Tally, add_all, print_summary, progress_bar
from .writers import ChunkWriter, GivenChunks, Writer, write_all, write_batches

__all__ = ["cmd_range", "COLUMNS", "OUTPUT_FORMATS"]

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
