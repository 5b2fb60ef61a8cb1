"""Writing the rows of a `bakers range` run as they come: a line each to the output
stream, or a Parquet file for each chunk of rows; each row whole and once, also when
Ctrl-C ends the run.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from ...bulk import dataset
from ...bulk.batches import RowBatch, RowBatches
from ...bulk.results import RangeResult
from ...bulk.rows import values
from ...bulk.runs import after_interrupt
from ...variants import Variant
from .formats import Format
from .progress import Tally


class RowWriter:
    """Write result rows, each whole and once: Ctrl-C during a write takes effect after
    it (when `deferring` holds the signal), and a row already written is not written
    again. Subclasses say where a row goes (`_put`)."""

    def __init__(self, solutions: bool, tally: Tally, progress: Any) -> None:
        self.solutions, self.tally, self.progress = solutions, tally, progress
        self.last: RangeResult | None = None
        self._busy = self._pending = False

    def write(self, result: RangeResult) -> None:
        """Write the row of ``result`` unless it was the last one written."""
        with self._whole():
            if result is not self.last:
                self._put(result)
                self.last = result
                self.tally.add(result)
                self.progress.update(self.progress.task_ids[0], advance=1,
                                     **self.tally.counts)

    def _put(self, result: RangeResult) -> None:
        raise NotImplementedError

    @contextmanager
    def _whole(self) -> Iterator[None]:
        """Mark a write under way; a Ctrl-C that came during it is raised after it."""
        self._busy = True
        try:
            yield
        finally:
            self._busy = False
        if self._pending:
            self._pending = False
            raise KeyboardInterrupt

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


class Writer(RowWriter):
    """Write result rows to a stream, a line each in the format ``fmt``."""

    def __init__(self, stream: IO[str], fmt: Format, solutions: bool, tally: Tally,
                 progress: Any) -> None:
        super().__init__(solutions, tally, progress)
        self.stream, self.fmt = stream, fmt

    def _put(self, result: RangeResult) -> None:
        line = self.fmt.line(values(result, self.solutions))
        self.stream.write(line)
        self.stream.flush()


class GivenChunks:
    """The deals of a run cut into chunks of ``size`` as they are handed out (iterate
    over it in place of ``deals``): which chunk each deal went to, and each chunk's
    smallest and largest deal and count, which name its file."""

    def __init__(self, deals: Iterable[int], size: int) -> None:
        self._deals, self.size = deals, size
        self.of: dict[int, int] = {}  # deal handed out, not yet written -> its chunk
        self.given: dict[int, list[int]] = {}  # chunk -> [first, last, count]
        self.taking = 0  # the chunk that the next deal joins (or the one after the last)

    def __iter__(self) -> Iterator[int]:
        for i, deal in enumerate(self._deals):
            self.taking = index = i // self.size
            self.of[deal] = index
            given = self.given.setdefault(index, [deal, deal, 0])
            given[0], given[1], given[2] = min(given[0], deal), max(given[1], deal), given[2] + 1
            if given[2] == self.size:
                self.taking = index + 1
            yield deal
        self.taking = len(self.given) + 1

    def complete(self, index: int, rows: int) -> bool:
        """Return whether chunk ``index`` has every row it was given, ``rows``."""
        return index < self.taking and rows >= self.given[index][2]


class ChunkWriter(RowWriter):
    """Write result rows to a Parquet dataset, a file for each chunk of deals of
    ``chunks`` (as its last row comes, and for the rows left when the run ends:
    `flush`), named for the deals that the chunk was given, each recording the run's
    settings ``record``."""

    def __init__(self, directory: Path, variant: Variant, solutions: bool,
                 chunks: GivenChunks, record: dict[str, Any], tally: Tally,
                 progress: Any) -> None:
        super().__init__(solutions, tally, progress)
        self.directory, self.variant, self.chunks = directory, variant, chunks
        self.record = record
        self.rows: dict[int, list[RangeResult]] = {}

    def _put(self, result: RangeResult) -> None:
        index = self.chunks.of.pop(result.number or 0)
        rows = self.rows.setdefault(index, [])
        rows.append(result)
        if self.chunks.complete(index, len(rows)):
            self._write_file(index)

    def _write_file(self, index: int) -> None:
        rows = self.rows.pop(index)
        first, last, count = self.chunks.given.pop(index)
        dataset.write_chunk(self.directory, self.variant, rows, self.solutions,
                                  (first, last, count), self.record)

    def flush(self) -> None:
        """Write the rows not yet in a file (Ctrl-C waits for the files)."""
        with self.deferring(), self._whole():
            for index in sorted(self.rows):
                self._write_file(index)


def write_all(rows: Iterator[RangeResult], writer: RowWriter) -> bool:
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


def write_batches(batches: RowBatches, stream: IO[str], tally: Tally, progress: Any) -> bool:
    """Write the rows of a run made by the core in batches, each batch's whole lines at
    once and flushed (a run killed at any moment leaves whole rows, but for the last
    line of a write cut short, which ``--resume`` drops); return False when Ctrl-C ended
    it (after writing the rows that had finished). Ctrl-C only stops the searches: the
    batch under way is written whole."""
    task = progress.task_ids[0]

    def put(batch: RowBatch) -> None:
        stream.write(batch.text)
        stream.flush()
        tally.add_batch(batch)
        progress.update(task, advance=batch.rows, **tally.counts)

    def on_sigint(signum: int, frame: Any) -> None:
        batches.stop()

    own_handler = (threading.current_thread() is threading.main_thread()
                   and signal.getsignal(signal.SIGINT) is signal.default_int_handler)
    previous = signal.signal(signal.SIGINT, on_sigint) if own_handler else None
    it = iter(batches)
    try:
        try:
            for batch in it:
                put(batch)
        except KeyboardInterrupt:  # another handler's: stop, and write what had finished
            batches.stop()
            for batch in it:
                put(batch)
    finally:
        if own_handler:
            signal.signal(signal.SIGINT, previous)
    return not batches.stopped
