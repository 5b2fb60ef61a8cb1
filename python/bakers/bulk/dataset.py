"""The output of `bakers range` as a Parquet dataset: a directory named ``*.parquet``
holding one Parquet file for each chunk of deals, with the columns of
`bakers.bulk.rows` (their Arrow types are `_types`).

A file is named for the first and last deal its chunk was given, zero-padded so that
the names sort (``freecell-000000000001-000000001000.parquet``): the chunks of a run
are given disjoint runs of deals, so their names do not overlap, whatever order the
deals finish in. It is written under a temporary name in the same directory (a
dot-file, which Parquet readers skip) and renamed when complete, so a file under its
final name is whole. A chunk written again (run again after its worker died) gives the
same rows the same name and replaces its own file. A chunk stopped by Ctrl-C writes
the deals it finished, fewer than it was given, under a name marked ``.part-`` and a
mark of its own (``freecell-000000000001-000000001000.part-1f2e3d4c.parquet``); a
resumed run gives the others to chunks of their own, which may start and end at the
same deals.

`write_chunk` writes one file and returns its `ChunkSummary` (counts, the sums of the
progress bar and the closing summary, the impossible and unknown deals), which is all
that a cluster's worker sends back. `open_dataset` opens the directory of a run:
refuses a directory with files unless resumed or forced, reads the deals done from
the files' ``deal`` columns, and locks the directory for the run (a lock file, removed
when the run ends).

Needs the optional extra ``bakers[parquet]`` (pyarrow), imported only when a file is
written or read.
"""

from __future__ import annotations

import bisect
import fcntl
import math
import os
import stat
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..deals import number_range
from ..errors import DatasetError, InvalidOptionError
from ..variants import Variant
from . import settings
from .results import RangeResult
from .rows import SOLUTION, VERDICTS, columns, values

__all__ = ["EXTENSION", "ChunkSummary", "Dataset", "DealRanges", "is_dataset",
           "load_pyarrow", "dataset_files", "schema", "file_name", "write_chunk", "summarize",
           "open_dataset", "nth_seconds", "seconds_bin"]

#: The extension of a dataset's directory and of its files.
EXTENSION = ".parquet"
#: The file that a run holds locked in its directory (a dot-file: readers skip it),
#: removed when the run ends.
LOCK_NAME = ".bakers-range.lock"
#: Opens of the lock file before giving up: each open that finds the file removed
#: under it means that another run ended or began meanwhile.
LOCK_TRIES = 20
#: The end of a file's temporary name, before the rename that completes it.
TEMPORARY = ".tmp"
#: Bins per decade of seconds in a summary's histogram: one bin spans 2.3%, so the
#: median and p99 that the closing summary prints from it are that close.
BINS_PER_DECADE = 100
#: The compression of every column.
COMPRESSION = "zstd"
#: Digits of a deal number in a file's name at least (FreeCell Pro's reach 10).
NAME_DIGITS = 12


def load_pyarrow() -> tuple[Any, Any]:
    """Return the modules ``pyarrow`` and ``pyarrow.parquet``.

    Raises DatasetError when pyarrow is not installed.
    """
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as exc:
        # An installed pyarrow can fail to import too (one built for another NumPy).
        broken = exc.name != "pyarrow" and str(exc)
        raise DatasetError("a Parquet --out needs pyarrow: pip install 'bakers[parquet]'"
                           + (f" (the one installed does not import: "
                              f"{broken.splitlines()[0]})" if broken else "")) from None
    return pa, pq


def is_dataset(out: str | os.PathLike[str] | None) -> bool:
    """Return whether ``out`` names a Parquet dataset (a path ending in ``.parquet``)."""
    return out is not None and Path(out).suffix.lower() == EXTENSION


def _types(pa: Any) -> dict[str, Any]:
    """Return the Arrow type of each column: deal numbers of 64 bits (FreeCell Pro's
    exceed 2^32), the few words of ``game``, ``verdict`` and ``reason`` as dictionaries,
    ``moves`` in 16 bits (null without a solution), ``seconds`` in 32."""
    words = pa.dictionary(pa.int8(), pa.string())
    return {"game": words, "deal": pa.uint64(), "verdict": words, "moves": pa.uint16(),
            "most_home": pa.uint8(), "most_home_exact": pa.bool_(),
            "expanded": pa.uint64(), "stored": pa.uint64(), "peak_bytes": pa.uint64(),
            "seconds": pa.float32(), "reason": words, SOLUTION: pa.large_string()}


def schema(solutions: bool) -> Any:
    """Return the Arrow schema of a file: the columns of a row, in their order."""
    pa, _ = load_pyarrow()
    types = _types(pa)
    return pa.schema([pa.field(name, types[name], nullable=name in ("moves", SOLUTION))
                      for name in columns(solutions)])


def file_name(variant: Variant, first: int, last: int, part: str | None = None) -> str:
    """Return the name of the file of the chunk given deals ``first..last``: zero-padded
    numbers, wide enough for the game's numbering, so that names sort as the deals do;
    ``part`` marks a chunk stopped before it finished them all."""
    width = max(NAME_DIGITS, len(str(number_range(variant)[1])))
    stopped = "" if part is None else f".part-{part}"
    return f"{variant.name}-{first:0{width}d}-{last:0{width}d}{stopped}{EXTENSION}"


# --------------------------------------------------------------------------- summaries


def seconds_bin(seconds: float) -> int:
    """Return the histogram bin of a time: ``BINS_PER_DECADE`` bins a decade, times of
    a nanosecond or less in one."""
    return math.floor(math.log10(max(seconds, 1e-9)) * BINS_PER_DECADE)


def nth_seconds(histogram: dict[int, int], n: int) -> float:
    """Return the ``n``-th smallest time (from 0) of a histogram, as its bin's middle."""
    seen = 0
    for b in sorted(histogram):
        seen += histogram[b]
        if seen > n:
            return float(10 ** ((b + 0.5) / BINS_PER_DECADE))
    raise IndexError(f"the histogram holds {seen} times, not {n + 1}")


@dataclass(frozen=True)
class ChunkSummary:
    """What a written chunk tells the run: ``file`` (its name in the directory; None
    when the chunk finished no deal), ``deals`` decided, ``first`` and ``last`` of
    them, ``counts`` by verdict (``'solved'``, ``'impossible'``, ``'unknown'``), the
    engine's ``seconds`` in all, the ``slowest`` deal's, a ``histogram`` of the
    deals' seconds (`seconds_bin` to count), the largest search's ``peak_bytes``, the
    solved deals' ``moves`` in all over ``solutions`` of them (those with a length),
    and the numbers of the ``impossible`` and ``unknown`` deals, in order."""

    file: str | None
    deals: int
    first: int | None
    last: int | None
    counts: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    slowest: float = 0.0
    histogram: dict[int, int] = field(default_factory=dict)
    peak_bytes: int = 0
    moves: int = 0
    solutions: int = 0
    impossible: tuple[int, ...] = ()
    unknown: tuple[int, ...] = ()


def summarize(results: list[RangeResult], file: str | None) -> ChunkSummary:
    """Return the summary of the numbered ``results`` written to ``file``."""
    numbers = [r.number for r in results if r.number is not None]
    lengths = [r.solution_length for r in results if r.solution_length is not None]
    times = [r.stats.seconds for r in results]
    return ChunkSummary(
        file=file, deals=len(results), first=min(numbers, default=None),
        last=max(numbers, default=None),
        counts=dict(Counter(r.verdict for r in results)), seconds=math.fsum(times),
        slowest=max(times, default=0.0), histogram=dict(Counter(map(seconds_bin, times))),
        peak_bytes=max((r.stats.peak_bytes for r in results), default=0),
        moves=sum(lengths), solutions=len(lengths),
        impossible=_numbers(results, "impossible"), unknown=_numbers(results, "unknown"))


def _numbers(results: list[RangeResult], verdict: str) -> tuple[int, ...]:
    return tuple(sorted(r.number for r in results
                        if r.verdict == verdict and r.number is not None))


# --------------------------------------------------------------------------- writing


def _table(results: list[RangeResult], solutions: bool) -> Any:
    pa, _ = load_pyarrow()
    names = columns(solutions)
    rows = [values(r, solutions) for r in results]
    types = _types(pa)
    return pa.Table.from_arrays([pa.array([row[c] for row in rows], type=types[c])
                                 for c in names], schema=schema(solutions))


def write_chunk(directory: str | os.PathLike[str], variant: Variant,
                results: Iterable[RangeResult], solutions: bool,
                given: tuple[int, int, int] | None = None,
                record: dict[str, Any] | None = None) -> ChunkSummary:
    """Write the rows of the numbered ``results`` (one game's, each deal once) as one
    file of the dataset ``directory``, in deal order, with the solutions' column when
    ``solutions``; return its summary. No rows: no file. ``given`` is the smallest and
    largest deal the chunk was given and how many (None: the rows', all of them), which
    name the file; a chunk with fewer rows than that (stopped by Ctrl-C) is marked
    ``.part-`` and a mark of its own, since a resumed run may give the deals it lacks to
    a chunk of the same first and last deal. ``record`` is the run's settings
    (`bakers.bulk.settings`), kept in the file's schema metadata.

    Raises DatasetError when pyarrow is missing or the file cannot be written.
    """
    import uuid  # here: it loads `platform`, which a run into a text file does not need

    _, pq = load_pyarrow()
    rows = sorted(results, key=lambda r: r.number or 0)
    if not rows:
        return summarize(rows, None)
    first, last, count = given or (rows[0].number or 0, rows[-1].number or 0, len(rows))
    name = file_name(variant, first, last,
                     None if len(rows) >= count else uuid.uuid4().hex[:8])
    final = Path(directory) / name
    temporary = final.with_name(f".{name}.{uuid.uuid4().hex}{TEMPORARY}")
    table = _table(rows, solutions)
    if record is not None:
        table = table.replace_schema_metadata(settings.metadata(record))
    try:
        try:
            # The deals, in order, take a few bits each as deltas; the rest of the
            # columns compress as dictionaries of their few values and runs.
            pq.write_table(table, temporary, compression=COMPRESSION,
                           use_dictionary=[c for c in table.column_names if c != "deal"],
                           column_encoding={"deal": "DELTA_BINARY_PACKED"})
            os.replace(temporary, final)
        finally:
            if temporary.exists():
                temporary.unlink()
    except OSError as exc:
        raise DatasetError(f"cannot write {str(final)!r}: {exc.strerror or exc} (on a "
                           "cluster, every worker must reach --out at the same path)"
                           ) from None
    return summarize(rows, name)


# --------------------------------------------------------------------------- reading


class DealRanges:
    """A set of deal numbers kept as sorted, disjoint ranges (a run of billions of deals
    is some thousands of files, each one range or a few)."""

    def __init__(self, ranges: Iterable[tuple[int, int]] = ()) -> None:
        merged: list[tuple[int, int]] = []
        self.duplicates = 0  #: deals given in more than one range
        for low, high in sorted(ranges):
            if merged and low <= merged[-1][1] + 1:
                self.duplicates += max(0, min(high, merged[-1][1]) - low + 1)
                merged[-1] = (merged[-1][0], max(high, merged[-1][1]))
            else:
                merged.append((low, high))
        self.ranges = merged
        self._lows = [low for low, _ in merged]

    def __contains__(self, deal: object) -> bool:
        if not isinstance(deal, int):
            return False
        i = bisect.bisect_right(self._lows, deal) - 1
        return i >= 0 and deal <= self.ranges[i][1]

    def __len__(self) -> int:
        return sum(high - low + 1 for low, high in self.ranges)

    def count(self, first: int, last: int) -> int:
        """Return how many of the deals ``first..last`` are in the set."""
        return sum(max(0, min(high, last) - max(low, first) + 1) for low, high in self.ranges)

    def count_in(self, deals: range | list[int]) -> int:
        """Return how many of ``deals`` (a range of step 1, or distinct numbers) are in
        the set."""
        if isinstance(deals, range):
            return self.count(deals.start, deals.stop - 1) if deals else 0
        return sum(1 for deal in deals if deal in self)

    def not_in(self, deals: range | list[int]) -> Iterator[int]:
        """Yield the deals of ``deals`` (a range of step 1, or numbers) that are not in
        the set, in their order."""
        if isinstance(deals, range):
            return self.missing(deals.start, deals.stop - 1)
        return (deal for deal in deals if deal not in self)

    def missing(self, first: int, last: int) -> Iterator[int]:
        """Yield the deals of ``first..last`` that are not in the set, in order."""
        n = first
        i = max(0, bisect.bisect_right(self._lows, first) - 1)
        while n <= last:
            while i < len(self.ranges) and self.ranges[i][1] < n:
                i += 1
            if i < len(self.ranges) and self.ranges[i][0] <= n:
                n = self.ranges[i][1] + 1
                continue
            stop = last if i == len(self.ranges) else min(last, self.ranges[i][0] - 1)
            yield from range(n, stop + 1)
            n = stop + 1


def _ranges(deals: Any) -> list[tuple[int, int]]:
    """Return the deals of an Arrow column as ranges: one when they are a run in order
    (as `write_chunk` writes them)."""
    import pyarrow.compute as pc

    if len(deals) == 0:
        return []
    low, high = pc.min_max(deals).values()
    low, high = low.as_py(), high.as_py()
    if high - low + 1 == len(deals) and (len(deals) == 1 or pc.all(
            pc.less(deals.slice(0, len(deals) - 1), deals.slice(1))).as_py()):
        return [(low, high)]
    return [(n, n) for n in deals.to_pylist()]


def _files(directory: Path) -> tuple[list[Path], list[Path]]:
    """Return the dataset's files and the temporary ones left by an interrupted write."""
    files, temporary = [], []
    for entry in sorted(directory.iterdir()):
        if entry.name.startswith(".") and entry.name.endswith(TEMPORARY):
            temporary.append(entry)
        elif entry.suffix == EXTENSION and not entry.name.startswith("."):
            files.append(entry)
    return files, temporary


def dataset_files(directory: str | os.PathLike[str]) -> list[Path]:
    """Return the files of the dataset ``directory``, in the order of their names."""
    return _files(Path(directory))[0]


def _done(directory: Path, variant: Variant, solutions: bool, name: str,
          deals: range | set[int] | None, record: dict[str, Any] | None,
          mix: bool) -> DealRanges:
    """Return the deals in the files of the dataset ``directory``, read from their
    ``deal`` column, after checking that each is a file of the same game and columns
    (of the types the writer gives them), of known verdicts and of ``deals`` (None:
    any), made with the settings ``record`` (None or ``mix``: any).

    Raises InvalidOptionError for a file that is not.
    """
    pa, pq = load_pyarrow()

    expected = schema(solutions)
    wanted = None if deals is None or isinstance(deals, range) else pa.array(
        sorted(deals), type=pa.uint64())
    ranges: list[tuple[int, int]] = []
    for path in _files(directory)[0]:
        where = f"{name}: {path.name!r}"
        try:
            found = pq.read_schema(path)
            if found.names == expected.names and found.remove_metadata().equals(expected):
                table = pq.read_table(path, columns=["game", "deal", "verdict"])
        except (OSError, ValueError) as exc:  # pyarrow's errors are of these kinds
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise InvalidOptionError(f"{where} is not a Parquet file of bakers range "
                                     f"({reason}); resume only its own output") from None
        if found.names != expected.names:
            if set(found.names) ^ set(expected.names) == {SOLUTION}:
                raise InvalidOptionError(
                    f"{name} was written {'without' if solutions else 'with'} --solutions; "
                    f"resume it {'without' if solutions else 'with'} --solutions too")
            raise InvalidOptionError(f"{where} does not have the columns of bakers range; "
                                     "resume only its own output")
        if not found.remove_metadata().equals(expected):
            raise InvalidOptionError(f"{where} does not have the column types of bakers "
                                     "range; resume only its own output")
        games = set(table.column("game").unique().to_pylist()) if table.num_rows else set()
        if games - {variant.name}:
            other = sorted(map(str, games - {variant.name}))[0]
            raise InvalidOptionError(f"{where} holds {other!r} deals, not "
                                     f"{variant.name!r}: resume with the same game")
        verdicts = set(table.column("verdict").unique().to_pylist()) if table.num_rows \
            else set()
        if verdicts - set(VERDICTS):
            raise InvalidOptionError(f"{where} holds the verdict "
                                     f"{sorted(map(str, verdicts - set(VERDICTS)))[0]!r}, "
                                     "which bakers range never writes")
        column = table.column("deal").combine_chunks()
        _check_deals(column, deals, wanted, where)
        if record is not None:
            settings.check_same(settings.from_metadata(found.metadata), record,
                                      where, mix)
        ranges.extend(_ranges(column))
    return DealRanges(ranges)


def _check_deals(column: Any, deals: range | set[int] | None, wanted: Any, where: str) -> None:
    """Refuse a file whose ``column`` of deals holds one that is not among ``deals``
    (``wanted``: the same as an Arrow array, for a list).

    Raises InvalidOptionError naming a deal outside.
    """
    import pyarrow.compute as pc

    if deals is None or len(column) == 0:
        return
    if isinstance(deals, range):
        low, high = (v.as_py() for v in pc.min_max(column).values())
        outside = low if low not in deals else high if high not in deals else None
        span = f"{deals.start}..{deals.stop - 1}"
    else:
        missing = column.filter(pc.invert(pc.is_in(column, value_set=wanted)))
        outside = missing[0].as_py() if len(missing) else None
        span = "those --deals lists"
    if outside is not None:
        raise InvalidOptionError(f"{where} holds deal {outside}, not among the deals of this "
                                 f"run ({span}): resume with the deals it was made with")


class Dataset:
    """The directory of a run, locked for as long as it is open: ``done`` holds the
    deals already in its files."""

    def __init__(self, directory: Path, lock: int, done: DealRanges) -> None:
        self.directory, self._lock, self.done = directory, lock, done

    def remove_temporary(self) -> None:
        """Remove the temporary files of writes that never finished (a worker killed as
        it wrote): call it once every chunk of the run has returned, when none is
        being written."""
        for stale in _files(self.directory)[1]:
            stale.unlink(missing_ok=True)

    def close(self) -> None:
        """Unlock the directory, and remove its lock file (once)."""
        if self._lock < 0:
            return
        fd, self._lock = self._lock, -1
        try:
            # Removed while still held: a run that opened the file before this and locks
            # it after sees that the name no longer leads to it, and starts again.
            if _names(self.directory / LOCK_NAME, fd):
                (self.directory / LOCK_NAME).unlink(missing_ok=True)
        except OSError:
            pass  # a lock file left behind is harmless: the next run takes it
        finally:
            os.close(fd)

    def __enter__(self) -> Dataset:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_dataset(directory: str | os.PathLike[str], variant: Variant, *, solutions: bool,
                 resume: bool = False, force: bool = False, name: str | None = None,
                 deals: range | set[int] | None = None, record: dict[str, Any] | None = None,
                 mix: bool = False) -> Dataset:
    """Open the directory of a run (made if missing) and lock it for the run. With
    ``resume`` the deals of its files are done (each file checked to hold deals of
    ``deals`` alone, when given, and to be made with the settings ``record``, when
    given, unless ``mix``), and temporary files of interrupted writes are removed;
    with ``force`` its files are removed; otherwise a directory with any file is
    refused. ``name`` is how messages call it (default: the path).

    Raises DatasetError without pyarrow, InvalidOptionError for a directory that holds
    files (without ``resume`` or ``force``), a path that is a file, a file of the
    dataset of another game or columns, or a directory that cannot be written or that
    another run holds.
    """
    load_pyarrow()
    path = Path(directory)
    name = name or repr(str(path))
    if path.exists() and not path.is_dir():
        raise InvalidOptionError(f"{name} is a file; a Parquet --out is a directory")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InvalidOptionError(f"cannot write {name}: {exc.strerror or exc}") from None
    lock = _lock(path / LOCK_NAME, name)
    try:
        files, temporary = _files(path)
        others = [e for e in path.iterdir() if e.name != LOCK_NAME]
        if others and not (resume or force):
            raise InvalidOptionError(f"{name} holds files: add --resume to continue it or "
                                     "--force to overwrite it")
        if resume or force:
            for stale in temporary:
                stale.unlink(missing_ok=True)
        if force:
            for old in files:
                old.unlink()
        done = (_done(path, variant, solutions, name, deals, record, mix) if resume
                else DealRanges())
    except BaseException:
        Dataset(path, lock, DealRanges()).close()
        raise
    return Dataset(path, lock, done)


def _names(path: Path, fd: int) -> bool:
    """Return whether ``path`` names the file open as ``fd`` now."""
    try:
        named, held = os.stat(path, follow_symlinks=False), os.fstat(fd)
    except FileNotFoundError:
        return False
    return (named.st_dev, named.st_ino) == (held.st_dev, held.st_ino)


def _lock(path: Path, name: str) -> int:
    """Return the lock file ``path`` open (made if missing) and locked for this run.

    A run removes its lock file as it ends, still holding it, so a lock taken on a file
    that the name no longer leads to is let go and taken again on the file there now.

    Raises InvalidOptionError when another run holds it, or it cannot be opened.
    """
    for _ in range(LOCK_TRIES):
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK
                         | os.O_CLOEXEC, 0o666)
        except OSError as exc:
            raise InvalidOptionError(f"cannot write {name}: {exc.strerror or exc} "
                                     f"({LOCK_NAME})") from None
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise InvalidOptionError(f"{name}: its {LOCK_NAME} is not a regular file; "
                                         "remove it")
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise InvalidOptionError(f"{name} is being written by another bakers range: "
                                     "wait for it to finish, or stop it and --resume") from None
        except BaseException:
            os.close(fd)
            raise
        if _names(path, fd):
            return fd
        os.close(fd)  # removed by the run that held it as this one opened it
    raise InvalidOptionError(f"{name} is being written by another bakers range: wait for "
                             "it to finish, or stop it and --resume")
