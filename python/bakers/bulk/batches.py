"""The rows of a range of deals as text, made by the core in batches: what `bakers
range` writes when it needs no Python object per deal (TSV, CSV or JSON lines without
the solutions column).

`RowBatches` decides numbered deals on worker threads, as `bakers.bulk.runs.solve_numbers`
does, but hands out `RowBatch` values: the lines of every deal finished in about the
last `BATCH_SECONDS` (each line byte for byte what `bakers.cli.range.formats` writes
for the row) with the counts a progress bar and a summary need. The Python cost of a
run is then a few calls a second, not one a deal.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import Any

from .._native import core
from ..limits import Limits
from ..solving import VERDICTS  # in the order of the core's counts
from ..variants import Variant

__all__ = ["BATCH_SECONDS", "FORMATS", "RowBatch", "RowBatches"]

#: How long a batch gathers rows at the most: the output is written and the progress
#: shown about this often (and a Ctrl-C is seen within it).
BATCH_SECONDS = 0.1
#: The most rows of one batch (a bound on its text when deals finish very fast).
BATCH_ROWS = 8192
#: Deals given to one core run at a time: large, so that the worker threads rarely wait
#: for a run's last deal before the next run starts (8 bytes a deal in the run).
RUN_DEALS = 1 << 20
#: The formats the core writes, by the extension of the output file.
FORMATS = {".tsv": "tsv", ".csv": "csv", ".jsonl": "jsonl"}


@dataclass(frozen=True)
class RowBatch:
    """Rows finished together: their ``text`` (whole lines), how many (``rows``), the
    ``counts`` of each verdict, each row's ``seconds`` and the largest ``peak_bytes``."""

    text: str
    rows: int
    counts: dict[str, int]
    seconds: array[float]
    peak_bytes: int


class RowBatches:
    """Decide the numbered deals ``numbers`` (already checked) of ``variant`` on
    ``threads`` threads and iterate over their rows in batches, written in ``fmt``
    (``'tsv'``, ``'csv'`` or ``'jsonl'``). `stop` (Ctrl-C's handler may call it) ends
    the searches; the batches of the rows finished before it still come, then the
    iteration ends."""

    def __init__(self, variant: Variant, numbers: Iterable[int], *, threads: int,
                 limits: Limits, ordered: bool, method: str, fmt: str) -> None:
        self._variant, self._numbers = variant, iter(numbers)
        self._threads, self._limits, self._ordered = threads, limits, ordered
        self._method, self._fmt = method, fmt
        self._run: Any = None
        self.stopped = False

    def stop(self) -> None:
        """Stop every search; the rows finished before are still handed out."""
        self.stopped = True
        if self._run is not None:
            self._run.stop()

    def __iter__(self) -> Iterator[RowBatch]:
        game, exact = self._variant.name, not self._variant.cuts_dead_ends
        ms = round(BATCH_SECONDS * 1000)
        while not self.stopped and (chunk := list(islice(self._numbers, RUN_DEALS))):
            self._run = core().RangeRun(
                self._variant.rules(), chunk, [], threads=min(self._threads, len(chunk)),
                ordered=self._ordered, keep_moves=False, method=self._method,
                **self._limits.core_arguments())
            try:
                while True:
                    try:
                        text, rows, counts, seconds, peak = self._run.take_text(
                            self._fmt, game, exact, BATCH_ROWS, ms)
                    except KeyboardInterrupt:  # seen by the core's wait: stop, then drain
                        self.stop()
                        continue
                    if rows:
                        times = array("d")
                        times.frombytes(seconds)
                        yield RowBatch(text, rows, dict(zip(VERDICTS, counts, strict=True)),
                                       times, peak)
                    elif self._run.done():
                        break
            finally:
                self._run.stop()
