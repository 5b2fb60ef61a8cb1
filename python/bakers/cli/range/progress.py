"""What `bakers range` shows on standard error: the progress bar of its deals, the
tally of their verdicts, times and memory, and the closing summary. (The progress of one
long search, for `bakers solve` and `bakers min-cells`, is `progress`'s.)
"""

from __future__ import annotations

import resource
import sys
import time
from array import array
from collections import Counter
from collections.abc import Iterator
from typing import Any

from ...bulk.batches import RowBatch
from ...bulk.dataset import ChunkSummary, nth_seconds, seconds_bin
from ...bulk.results import RangeResult
from ...bulk.runs import after_interrupt


class Tally:
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
        """Count the row of one deal."""
        self.counts[result.verdict] = self.counts.get(result.verdict, 0) + 1
        self.seconds.append(result.stats.seconds)
        self.slowest = max(self.slowest, result.stats.seconds)
        self.peak = max(self.peak, result.stats.peak_bytes)
        self.done += 1

    def add_batch(self, batch: RowBatch) -> None:
        """Count the rows of a batch made by the core."""
        for verdict, n in batch.counts.items():
            self.counts[verdict] = self.counts.get(verdict, 0) + n
        self.seconds.extend(batch.seconds)
        self.slowest = max(self.slowest, max(batch.seconds, default=0.0))
        self.peak = max(self.peak, batch.peak_bytes)
        self.done += batch.rows

    def add_summary(self, summary: ChunkSummary) -> None:
        """Count the deals of a chunk by its summary."""
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
        bins = self.histogram + Counter(map(seconds_bin, self.seconds))
        return (nth_seconds(bins, median), nth_seconds(bins, p99),
                self.slowest)


class NoBar:
    """The progress bar of a run that shows none: the calls of rich's `Progress` that the
    run makes, doing nothing (rich is imported only for a bar that is shown)."""

    task_ids = (0,)

    def __enter__(self) -> NoBar:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def update(self, task: int, **fields: Any) -> None:
        """Nothing to show."""


def progress_bar(enabled: bool, total: int) -> Any:
    """Return a rich progress bar on standard error, or `NoBar` unless ``enabled``."""
    if not enabled:
        return NoBar()
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
        TimeRemainingColumn(), console=Console(file=sys.stderr))
    progress.add_task("deals", total=total, solved=0, impossible=0, unknown=0)
    return progress


def print_summary(tally: Tally, requested: int, already: int) -> None:
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


def add_all(summaries: Iterator[ChunkSummary], tally: Tally, progress: Any) -> bool:
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
