"""`bakers range GAME FIRST LAST`: decide a range of numbered deals on worker threads and
write one row per deal (or `bakers range GAME --deals FILE`: the deals that a file lists,
such as the unknown ones of an earlier run, `bakers.deal_lists`), as TSV, CSV or JSON
lines (by the extension of ``--out``), or as a Parquet dataset (an ``--out`` directory
named ``*.parquet``, one file a chunk of deals, written by the workers of ``--cluster``:
`bakers.range_dataset`).

Rows are flushed as they come, so an interrupted run keeps every finished row and
``--resume`` continues it: it reads the deals already in the file (a truncated last
line is dropped and rewritten) and appends the rest (in a dataset: the deals of its
files, and the rest in new files). A progress bar and a closing summary go to
standard error.
"""

from __future__ import annotations

import argparse
import csv
import fcntl
import io
import json
import os
import resource
import signal
import sys
import threading
import time
from array import array
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from .. import range_dataset
from ..bulk import (
    RangeResult,
    after_interrupt,
    check_range,
    default_threads,
    max_threads,
    solve_numbers,
)
from ..deal_lists import VERDICTS, read_deals
from ..errors import InvalidOptionError
from ..limits import Limits, parse_bytes
from ..range_dataset import ChunkSummary
from ..range_rows import COLUMNS, columns
from ..range_rows import values as _values
from ..solving import METHODS, check_method
from ..variants import Variant, find_variant
from .common import (
    DEFAULT_METHOD_HELP,
    EXIT_INTERRUPTED,
    EXIT_OK,
    RUN_RESERVE,
    add_forget_option,
    count,
    number,
    resident_bytes,
    seconds,
)

__all__ = ["add_commands", "cmd_range", "COLUMNS", "OUTPUT_FORMATS"]

#: Output formats by file extension (a ``.parquet`` --out is a dataset's directory).
OUTPUT_FORMATS = (".tsv", ".csv", ".jsonl", range_dataset.EXTENSION)


# --------------------------------------------------------------------------- rows


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.6f}"
    return str(value)


class _Format:
    """How rows are written and read back: TSV (the default)."""

    def __init__(self, columns: tuple[str, ...]) -> None:
        self.columns = columns

    def header(self) -> str | None:
        """Return the header line, or None for a format without one."""
        return "\t".join(self.columns) + "\n"

    def line(self, row: dict[str, Any]) -> str:
        """Return a row as one line."""
        return "\t".join(_text(row[c]) for c in self.columns) + "\n"

    def fields(self, line: str) -> list[str]:
        """Return the fields of a line."""
        return line.rstrip("\n").split("\t")

    def read(self, line: str) -> tuple[str, int]:
        """Return the game and deal number of a row; raise ValueError if it is not one."""
        fields = self.fields(line)
        if len(fields) != len(self.columns):
            raise ValueError(f"{len(fields)} fields, not {len(self.columns)}")
        return fields[0], int(fields[1])


class _Csv(_Format):
    def header(self) -> str | None:
        return self._join(list(self.columns))

    def line(self, row: dict[str, Any]) -> str:
        return self._join([_text(row[c]) for c in self.columns])

    def fields(self, line: str) -> list[str]:
        return next(csv.reader([line.rstrip("\n")]), [])

    @staticmethod
    def _join(fields: list[str]) -> str:
        out = io.StringIO()
        csv.writer(out, lineterminator="\n").writerow(fields)
        return out.getvalue()


class _Jsonl(_Format):
    def header(self) -> str | None:
        return None

    def line(self, row: dict[str, Any]) -> str:
        return json.dumps({c: row[c] for c in self.columns}, ensure_ascii=False) + "\n"

    def read(self, line: str) -> tuple[str, int]:
        obj = json.loads(line)
        if not isinstance(obj, dict) or set(obj) != set(self.columns):
            raise ValueError("not an object with the keys " + ", ".join(self.columns))
        deal = obj["deal"]
        if isinstance(deal, bool) or not isinstance(deal, int):
            raise ValueError(f"deal {deal!r} is not a number")
        return str(obj["game"]), deal


_FORMATS = {".tsv": _Format, ".csv": _Csv, ".jsonl": _Jsonl}


def _format(out: str | None, columns: tuple[str, ...]) -> _Format:
    """Return the format that the extension of ``out`` names (TSV for standard output).

    Raises InvalidOptionError for an unknown extension.
    """
    if out is None:
        return _Format(columns)
    suffix = Path(out).suffix.lower()
    if suffix not in _FORMATS:
        raise InvalidOptionError(
            f"--out {out!r}: unknown output format {suffix or '(no extension)'!r} "
            f"(name the file .tsv, .csv or .jsonl, or a directory .parquet)")
    return _FORMATS[suffix](columns)


# --------------------------------------------------------------------------- resume


def _done_deals(path: Path, fmt: _Format, variant: Variant, solutions: bool) -> set[int]:
    """Return the deals already in the file ``path`` of an earlier run, read line by
    line, then cut off a truncated last line (an interrupted write) so that appending
    continues the file.

    Raises InvalidOptionError for a file that is not such a run of the same game and
    columns (the file is left as it was).
    """
    done: set[int] = set()
    twice: list[int] = []  # deals of a row already read (a file written by two runs)
    complete = 0  # bytes of complete lines
    header = fmt.header()
    with open(path, "rb") as f:
        for number, raw in enumerate(f, start=1):
            if not raw.endswith(b"\n"):
                break
            complete += len(raw)
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise InvalidOptionError(f"{str(path)!r} line {number} is not UTF-8 text; "
                                         "resume only the output of bakers range") from None
            if number == 1 and header is not None:
                if line != header:
                    raise InvalidOptionError(_header_mismatch(path, fmt.fields(line), fmt,
                                                              solutions))
                continue
            deal = _deal_of(path, number, line, fmt, variant, solutions)
            if deal in done:
                twice.append(deal)
            done.add(deal)
    if complete < path.stat().st_size:
        os.truncate(path, complete)
    if twice:
        shown = ", ".join(map(str, sorted(set(twice))[:5])) + (", ..." if len(set(twice)) > 5
                                                                else "")
        print(f"bakers: warning: {str(path)!r} holds {len(twice):,} duplicate "
              f"row{'s' * (len(twice) != 1)} (deals {shown}); each deal counts once and "
              f"is not decided again", file=sys.stderr)
    return done


def _deal_of(path: Path, number: int, line: str, fmt: _Format, variant: Variant,
             solutions: bool) -> int:
    """Return the deal of row ``line`` (line ``number`` of ``path``).

    Raises InvalidOptionError for a line that is not a row of ``fmt`` and ``variant``.
    """
    try:
        game, deal = fmt.read(line)
    except ValueError as exc:
        if isinstance(fmt, _Jsonl) and number == 1 and _other_columns(line, fmt):
            raise InvalidOptionError(_solutions_hint(path, solutions)) from None
        raise InvalidOptionError(f"{str(path)!r} line {number} is not a row of bakers "
                                 f"range ({exc}); resume only its own output") from None
    if game != variant.name:
        raise InvalidOptionError(f"{str(path)!r} line {number} is a {game!r} deal, not "
                                 f"{variant.name!r}: resume with the same game")
    return deal


def _other_columns(line: str, fmt: _Format) -> bool:
    """Return whether a JSON row differs from ``fmt``'s columns by the solution alone."""
    try:
        keys = set(json.loads(line))
    except (ValueError, TypeError):
        return False
    return keys ^ set(fmt.columns) == {"solution"}


def _header_mismatch(path: Path, found: list[str], fmt: _Format, solutions: bool) -> str:
    if set(found) ^ set(fmt.columns) == {"solution"}:
        return _solutions_hint(path, solutions)
    return (f"{str(path)!r} does not start with the header of bakers range "
            f"({', '.join(fmt.columns)}); resume only its own output")


def _solutions_hint(path: Path, solutions: bool) -> str:
    return (f"{str(path)!r} was written {'without' if solutions else 'with'} --solutions; "
            f"resume it {'without' if solutions else 'with'} --solutions too")


# --------------------------------------------------------------------------- display


class _Tally:
    """Counts, times and memory of the rows of a run, for the progress bar and summary:
    the rows' own times, or a histogram of them for the chunks of a dataset written by
    a cluster's workers, which send their summaries alone."""

    def __init__(self) -> None:
        self.counts = {"solved": 0, "impossible": 0, "unknown": 0}
        self.seconds = array("d")
        self.histogram: Counter[int] = Counter()
        self.slowest = 0.0
        self.done = 0
        self.peak = 0
        self.start = time.perf_counter()

    def add(self, result: RangeResult) -> None:
        self.counts[result.verdict] = self.counts.get(result.verdict, 0) + 1
        self.seconds.append(result.stats.seconds)
        self.slowest = max(self.slowest, result.stats.seconds)
        self.peak = max(self.peak, result.stats.peak_bytes)
        self.done += 1

    def add_summary(self, summary: ChunkSummary) -> None:
        for verdict, n in summary.counts.items():
            self.counts[verdict] = self.counts.get(verdict, 0) + n
        self.histogram.update(summary.histogram)
        self.slowest = max(self.slowest, summary.slowest)
        self.peak = max(self.peak, summary.peak_bytes)
        self.done += summary.deals

    def spread(self) -> tuple[float, float, float] | None:
        """Return the median, p99 and largest of the deals' seconds (None: no deal), the
        first two from the histogram (to its bins' width) when it holds any."""
        if not self.done:
            return None
        median, p99 = self.done // 2, max(0, -(-99 * self.done // 100) - 1)
        if not self.histogram:
            ordered = sorted(self.seconds)
            return ordered[median], ordered[p99], ordered[-1]
        bins = self.histogram + Counter(map(range_dataset.seconds_bin, self.seconds))
        return (range_dataset.nth_seconds(bins, median), range_dataset.nth_seconds(bins, p99),
                self.slowest)


def _progress(enabled: bool, total: int) -> Any:
    """Return a rich progress bar on standard error (a disabled one unless ``enabled``)."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        TextColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class Rate(ProgressColumn):
        def render(self, task: Any) -> Text:
            speed = task.finished_speed or task.speed
            return Text("- deals/s" if speed is None else f"{speed:,.1f} deals/s",
                        style="progress.data.speed")

    progress = Progress(
        TextColumn("[progress.description]{task.description}"), BarColumn(bar_width=24),
        MofNCompleteColumn(), Rate(),
        TextColumn("[green]{task.fields[solved]} winnable[/] [red]{task.fields[impossible]}"
                   " impossible[/] [yellow]{task.fields[unknown]} unknown[/]"),
        TimeRemainingColumn(), console=Console(file=sys.stderr), disable=not enabled)
    progress.add_task("deals", total=total, solved=0, impossible=0, unknown=0)
    return progress


def _summary(tally: _Tally, requested: int, already: int) -> None:
    """Print the closing table of a run on standard error."""
    from rich.console import Console
    from rich.table import Table

    counts, done = tally.counts, tally.done
    decided = counts["solved"] + counts["impossible"]
    table = Table(title="bakers range", show_header=False)
    table.add_column(justify="left")
    table.add_column()
    table.add_row("deals searched", f"{done:,} of {requested:,}"
                  + (f" ({already:,} already in the file)" if already else ""))
    for verdict, label in (("solved", "winnable"), ("impossible", "impossible"),
                           ("unknown", "unknown")):
        share = f" ({100 * counts[verdict] / done:.1f}%)" if done else ""
        table.add_row(label, f"{counts[verdict]:,}{share}")
    table.add_row("share winnable", "-" if not decided else
                  f"{100 * counts['solved'] / decided:.2f}% of the {decided:,} decided")
    spread = tally.spread()
    if spread is not None:
        table.add_row("seconds per deal", f"median {spread[0]:.4f}  p99 {spread[1]:.4f}  "
                      f"max {spread[2]:.4f}")
    table.add_row("total time", f"{time.perf_counter() - tally.start:.2f} s")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # KiB on Linux
    table.add_row("peak memory", f"{tally.peak / 2**20:.1f} MiB largest search, "
                  f"{rss / 2**20:.0f} MiB process")
    Console(file=sys.stderr, highlight=False).print(table)


# --------------------------------------------------------------------------- command


def _limits(args: argparse.Namespace, threads: int) -> Limits:
    """Return the per-deal limits; ``--max-memory`` covers the whole process, so the
    searches get what is left of it after the memory the process already holds and
    `RUN_RESERVE`.

    Raises InvalidOptionError when --max-memory leaves nothing for the searches.
    """
    memory = None
    if args.max_memory is not None:
        cap = parse_bytes(args.max_memory)
        held = resident_bytes() + RUN_RESERVE
        if cap <= held + 2**20 * threads:
            raise InvalidOptionError(
                f"--max-memory {args.max_memory} is too small: the process already holds "
                f"{held / 2**20:.0f} MiB with its reserve; give at least "
                f"{(held + 2**20 * threads) / 2**20 + 1:.0f}M")
        memory = cap - held
    return Limits(nodes=args.max_nodes, states=args.max_states, memory=memory,
                  seconds=args.max_seconds, forget=args.forget)


def _open(args: argparse.Namespace, fmt: _Format, variant: Variant) -> tuple[IO[str], set[int]]:
    """Return the output stream (positioned to append) and the deals it already holds.

    Raises InvalidOptionError for an existing file without --resume or --force, a file
    that cannot be resumed, or one that cannot be written.
    """
    if args.out is None:
        if args.resume:
            raise InvalidOptionError("--resume needs --out FILE (the file to continue)")
        header = fmt.header()
        if header:
            sys.stdout.write(header)
        return sys.stdout, set()
    path = Path(args.out)
    if path.is_dir():
        raise InvalidOptionError(f"--out {args.out!r} is a directory")
    if path.exists() and not (args.resume or args.force):
        raise InvalidOptionError(f"--out {args.out!r} exists: add --resume to continue it "
                                 "or --force to overwrite it")
    try:
        # Opened to append (never emptied before the lock is held), then locked for the
        # run: a second run on the file is refused before it reads or writes a byte.
        stream = open(path, "a", encoding="utf-8")  # noqa: SIM115
    except OSError as exc:
        raise InvalidOptionError(f"cannot write {args.out!r}: {exc.strerror}") from None
    try:
        _lock(stream, args.out)
        done: set[int] = set()
        if args.resume:
            done = _done_deals(path, fmt, variant, args.solutions)
        else:
            stream.truncate(0)
        stream.seek(0, os.SEEK_END)
    except BaseException:
        stream.close()
        raise
    header = fmt.header()
    if header and stream.tell() == 0:
        stream.write(header)
        stream.flush()
    return stream, done


def _lock(stream: IO[str], name: str) -> None:
    """Take an exclusive lock on the open file ``stream`` for as long as it is open.

    Raises InvalidOptionError naming the process that holds it already.
    """
    try:
        fcntl.flock(stream.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = _lock_holder(os.fstat(stream.fileno()))
        who = f"process {holder}" if holder is not None else "another process"
        raise InvalidOptionError(f"--out {name!r} is being written by {who} (another "
                                 f"bakers range): wait for it to finish, or stop it and "
                                 f"--resume") from None


def _lock_holder(st: os.stat_result) -> int | None:
    """Return the id of the process holding a lock on the file of ``st`` (Linux's
    /proc/locks), or None when it cannot be told."""
    want = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    try:
        with open("/proc/locks", encoding="ascii") as locks:
            for line in locks:
                fields = line.split()
                if len(fields) > 5 and fields[1] == "FLOCK" and fields[5] == want:
                    return int(fields[4])
    except (OSError, ValueError):
        pass
    return None


class _Writer:
    """Write result rows to a stream, each whole and once: Ctrl-C during a write takes
    effect after it (when `deferring` holds the signal), and a row already written is
    not written again."""

    def __init__(self, stream: IO[str], fmt: _Format, solutions: bool, tally: _Tally,
                 progress: Any) -> None:
        self.stream, self.fmt, self.solutions = stream, fmt, solutions
        self.tally, self.progress = tally, progress
        self.last: RangeResult | None = None
        self._busy = self._pending = False

    def write(self, result: RangeResult) -> None:
        """Write the row of ``result`` unless it was the last one written."""
        self._busy = True
        try:
            if result is not self.last:
                self._put(result)
                self.last = result
                self.tally.add(result)
                self.progress.update(self.progress.task_ids[0], advance=1,
                                     **self.tally.counts)
        finally:
            self._busy = False
        if self._pending:
            self._pending = False
            raise KeyboardInterrupt

    def _put(self, result: RangeResult) -> None:
        line = self.fmt.line(_values(result, self.solutions))
        self.stream.write(line)
        self.stream.flush()

    def _on_sigint(self, signum: int, frame: Any) -> None:
        if not self._busy:
            raise KeyboardInterrupt
        self._pending = True

    @contextmanager
    def deferring(self) -> Iterator[None]:
        """Hold Ctrl-C during writes, when Python's own handler has SIGINT (in the main
        thread); otherwise leave the signal as it is."""
        if (threading.current_thread() is not threading.main_thread()
                or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
            yield
            return
        previous = signal.signal(signal.SIGINT, self._on_sigint)
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, previous)


class _ChunkWriter(_Writer):
    """Write result rows to a Parquet dataset, a file for each ``chunk`` rows (and one
    for the rows left when the run ends: `flush`), each row whole and once."""

    def __init__(self, directory: Path, variant: Variant, solutions: bool, chunk: int,
                 tally: _Tally, progress: Any) -> None:
        self.directory, self.variant, self.solutions = directory, variant, solutions
        self.chunk, self.tally, self.progress = chunk, tally, progress
        self.rows: list[RangeResult] = []
        self.last: RangeResult | None = None
        self._busy = self._pending = False

    def _put(self, result: RangeResult) -> None:
        self.rows.append(result)
        if len(self.rows) >= self.chunk:
            self._write_file()

    def _write_file(self) -> None:
        rows, self.rows = self.rows, []
        range_dataset.write_chunk(self.directory, self.variant, rows, self.solutions)

    def flush(self) -> None:
        """Write the rows not yet in a file (Ctrl-C waits for the file)."""
        with self.deferring():
            self._busy = True
            try:
                self._write_file()
            finally:
                self._busy = False
        if self._pending:
            self._pending = False
            raise KeyboardInterrupt


def _write_all(rows: Iterator[RangeResult], writer: _Writer) -> bool:
    """Write every row of a run; return False when Ctrl-C ended it (after writing the
    rows that had finished)."""
    result = None
    with writer.deferring():
        try:
            for result in rows:
                writer.write(result)
        except KeyboardInterrupt:
            if result is not None:
                writer.write(result)  # handed out just before Ctrl-C, maybe not written
            for result in after_interrupt(rows):
                writer.write(result)
            return False
    return True


def cmd_range(args: argparse.Namespace) -> int:
    """Run `bakers range`; return the exit code (0 done, 130 interrupted).

    Raises the BakersError of a bad game, range or option before anything is written.
    """
    variant = find_variant(args.game)
    if args.worker_resources is not None and args.cluster is None:
        raise InvalidOptionError("--worker-resources needs --cluster (it sends the chunks "
                                 "to the workers that have those resources)")
    numbers = _deals(args, variant)
    if args.threads is not None and not 1 <= args.threads <= max_threads():
        raise InvalidOptionError(f"--threads {args.threads}: give 1..{max_threads()} threads")
    threads = args.threads or default_threads()
    dataset = range_dataset.is_dataset(args.out)
    if args.chunk is not None and args.cluster is None and not dataset:
        raise InvalidOptionError("--chunk needs --cluster or a .parquet --out (it sets the "
                                 "deals of one task or file)")
    if args.forget and args.max_memory is None:
        raise InvalidOptionError("--forget needs --max-memory (it forgets under that limit)")
    limits = _limits(args, threads) if args.cluster is None else _cluster_limits(args)
    if dataset:
        return _cmd_dataset(args, variant, numbers, threads, limits)
    fmt = _format(args.out, columns(args.solutions))
    client = None if args.cluster is None else _connect(args)
    try:
        stream, done = _open(args, fmt, variant)
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
    if client is None:
        rows = solve_numbers(variant, todo, threads=threads, limits=limits,
                             ordered=args.ordered, method=args.method, solutions=True)
    else:
        rows = _cluster_rows(args, client, variant, todo, limits)
    tally = _Tally()
    show = not args.quiet and (args.progress or sys.stderr.isatty())
    try:
        with _progress(show, requested - already) as progress:
            finished = _write_all(rows, _Writer(stream, fmt, args.solutions, tally, progress))
    except KeyboardInterrupt:
        finished = False
    finally:
        rows.close()  # type: ignore[attr-defined]
        if stream is not sys.stdout:
            stream.close()
        if client is not None:
            client.close()
    return _finish(args, tally, requested, already, finished)


def _finish(args: argparse.Namespace, tally: _Tally, requested: int, already: int,
            finished: bool) -> int:
    """Print the summary, and the line of an interrupted run; return the exit code."""
    if not args.quiet:
        _summary(tally, requested, already)
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
    from .. import cluster

    range_dataset.load_pyarrow()  # missing: said before a cluster starts
    chunk = cluster.DEFAULT_CHUNK if args.chunk is None else cluster.check_chunk(
        args.chunk, "--chunk ")
    client = None if args.cluster is None else _connect(args)
    try:
        dataset = range_dataset.open_dataset(args.out, variant, solutions=args.solutions,
                                             resume=args.resume, force=args.force,
                                             name=f"--out {args.out!r}")
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
    tally = _Tally()
    show = not args.quiet and (args.progress or sys.stderr.isatty())
    try:
        with _progress(show, requested - already) as progress:
            if client is None:
                rows = solve_numbers(variant, todo, threads=threads, limits=limits,
                                     ordered=args.ordered, method=args.method, solutions=True)
                writer = _ChunkWriter(dataset.directory, variant, args.solutions, chunk,
                                      tally, progress)
                try:
                    finished = _write_all(rows, writer)
                finally:
                    rows.close()  # type: ignore[attr-defined]
                    writer.flush()
            else:
                summaries = _cluster_files(args, client, variant, todo, limits,
                                           dataset.directory, chunk)
                try:
                    finished = _add_all(summaries, tally, progress)
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


def _add_all(summaries: Iterator[ChunkSummary], tally: _Tally, progress: Any) -> bool:
    """Count the chunks of a run by their summaries; return False when Ctrl-C ended it
    (after counting the chunks that wrote their files)."""

    def add(summary: ChunkSummary) -> None:
        tally.add_summary(summary)
        progress.update(progress.task_ids[0], advance=summary.deals, **tally.counts)

    try:
        for summary in summaries:
            add(summary)
    except KeyboardInterrupt:
        for summary in after_interrupt(summaries):
            add(summary)
        return False
    return True


def _cluster_limits(args: argparse.Namespace) -> Limits:
    """Return the per-deal limits of a run on a cluster: ``--max-memory`` is not among
    them, as it caps each worker process (see `_cluster_rows`)."""
    if args.max_memory is not None:
        parse_bytes(args.max_memory)
    return Limits(nodes=args.max_nodes, states=args.max_states, seconds=args.max_seconds,
                  forget=args.forget)


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


def _worker_resources(text: str | None) -> dict[str, float]:
    """Return the resources of ``--worker-resources NAME=N[,NAME=N]``.

    Raises InvalidOptionError for a text of another form.
    """
    from .. import cluster

    if text is None:
        return {}
    resources: dict[str, float] = {}
    for item in text.split(","):
        key, equals, amount = item.partition("=")
        try:
            value = float(amount)
        except ValueError:
            value = None
        if not equals or not key.strip() or value is None:
            raise InvalidOptionError(f"--worker-resources {text!r}: give NAME=N[,NAME=N], "
                                     f"like BIG=1 (not {item!r})")
        resources[key.strip()] = int(value) if value.is_integer() else value
    return cluster.check_resources(resources, "--worker-resources ")


def _connect(args: argparse.Namespace) -> Any:
    """Return a Dask client for ``--cluster`` (the optional extra, imported only here),
    whose workers have the ``--worker-resources`` (a local cluster's are given them)."""
    from .. import cluster

    if args.chunk is not None:
        cluster.check_chunk(args.chunk, "--chunk ")
    resources = _worker_resources(args.worker_resources)
    client = cluster.connect(args.cluster, name="--cluster", resources=resources)
    try:
        cluster.check_workers(client, resources, "--worker-resources ")
    except BaseException:
        client.close()
        raise
    return client


def _cluster_rows(args: argparse.Namespace, client: Any, variant: Variant,
                  todo: Iterator[int], limits: Limits) -> Iterator[RangeResult]:
    """Return the rows of deals ``todo`` decided in chunks on the workers of ``client``;
    ``--max-memory`` caps each worker process, ``--threads`` is each chunk's threads."""
    from .. import cluster

    return cluster.solve_numbers(
        variant, todo, client=client, threads=args.threads, limits=limits,
        ordered=args.ordered, solutions=True, lines=args.solutions,
        method=check_method(args.method, variant),
        chunk=args.chunk or cluster.DEFAULT_CHUNK,
        worker_memory=None if args.max_memory is None else parse_bytes(args.max_memory),
        memory_text=f"--max-memory {args.max_memory}",
        resources=_worker_resources(args.worker_resources))


def _cluster_files(args: argparse.Namespace, client: Any, variant: Variant,
                   todo: Iterator[int], limits: Limits, directory: Path,
                   chunk: int) -> Iterator[ChunkSummary]:
    """Return the summaries of the files that the workers of ``client`` write to the
    dataset ``directory``, a chunk of deals ``todo`` each."""
    from .. import cluster

    return cluster.write_numbers(
        variant, todo, client=client, directory=directory, threads=args.threads,
        limits=limits, solutions=args.solutions, method=check_method(args.method, variant),
        chunk=chunk,
        worker_memory=None if args.max_memory is None else parse_bytes(args.max_memory),
        memory_text=f"--max-memory {args.max_memory}",
        resources=_worker_resources(args.worker_resources))


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
    p.add_argument("--threads", type=int, metavar="N",
                   help="worker threads (default: one per CPU)")
    p.add_argument("--out", metavar="FILE",
                   help="write rows to FILE (.tsv, .csv, .jsonl), or to the Parquet dataset "
                   "FILE.parquet (a directory)")
    again = p.add_mutually_exclusive_group()
    again.add_argument("--resume", action="store_true",
                       help="skip the deals already in FILE and append the rest")
    again.add_argument("--force", action="store_true", help="overwrite an existing FILE")
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

