"""The progress of one long search on standard error, for `bakers solve` and
`bakers min-cells`: a live line on a terminal (gone when the search ends), or, asked for
with ``--progress`` where standard error is not a terminal (a log file), a plain line
every `LINE_SECONDS` seconds.
"""

from __future__ import annotations

import argparse
import sys
from types import TracebackType
from typing import Any

from ..solving import SearchProgress

#: Seconds between two plain progress lines (standard error not a terminal).
LINE_SECONDS = 10.0


def add_progress_option(p: argparse.ArgumentParser) -> None:
    """Add ``--progress`` and ``--quiet`` to a command that runs long searches."""
    p.add_argument("--progress", action="store_true",
                   help="show the search's progress even when standard error is not a "
                   f"terminal (a line every {LINE_SECONDS:g} s)")
    p.add_argument("--quiet", action="store_true", help="no progress display")


def describe(p: SearchProgress, what: str = "searching",
             since: SearchProgress | None = None) -> str:
    """Return one line of a search's counts: expanded, stored, rate, time and the most
    cards home so far. The rate is
    the expansions a second since `since` (an earlier report of the same search), or since
    the start; a search that goes on from a checkpoint counts the saved expansions in
    ``p.expanded`` but only this run's seconds, so its rate needs `since`."""
    base = since if since is not None and p.seconds > since.seconds else SearchProgress(0, 0, 0.0)
    elapsed = p.seconds - base.seconds
    rate = (p.expanded - base.expanded) / elapsed if elapsed > 0 else 0.0
    minutes, seconds = divmod(int(p.seconds), 60)
    return (f"{what}: {p.expanded:,} positions expanded, {p.stored:,} stored, "
            f"{rate:,.0f}/s, {minutes // 60}:{minutes % 60:02d}:{seconds:02d}, "
            f"most cards home {p.most_home}")


class SearchMeter:
    """A `solve` ``progress`` callback that shows the counts on standard error: a live
    line (``live``) or a plain line every ``every`` seconds (``every`` > 0; the lines'
    labels begin with ``prefix``). Use it as a context manager around the search."""

    def __init__(self, *, live: bool = False, every: float = 0.0, prefix: str = "") -> None:
        self.live = live
        self.every = every
        self.prefix = prefix
        self.label = "searching"
        self._display: Any = None
        self._next_line = every
        self._seconds = 0.0  # the last count of seconds seen
        self._first: SearchProgress | None = None  # the search's first report: the rate's base

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> SearchMeter:
        """The meter of a command with `add_progress_option`'s options."""
        terminal = sys.stderr.isatty()
        lines = not args.quiet and args.progress and not terminal
        return cls(live=not args.quiet and terminal, every=LINE_SECONDS if lines else 0.0)

    @property
    def callback(self) -> Any:
        """The callback to give `solve`, or None when nothing is shown."""
        return self if (self.live or self.every) else None

    @property
    def min_cells_callback(self) -> Any:
        """The callback to give `min_cells` (each count of cells a search of its own,
        labelled with it), or None when nothing is shown."""
        if self.callback is None:
            return None

        def show(cells: int, p: SearchProgress) -> None:
            label = f"{cells} cells"
            if label != self.label:  # the next search: its seconds start from 0
                self.label, self._next_line, self._first = label, self.every, None
            self(p)

        return show

    def __call__(self, p: SearchProgress) -> None:
        if p.seconds < self._seconds:  # another search (min_cells' beam after depth first)
            self._next_line, self._first = self.every, None
        self._seconds = p.seconds
        # The first report comes a fraction of a second into the search (the engine
        # reports every 50 ms): the rate counts from it, so that the expansions a search
        # resumed from a checkpoint starts with are not taken for this run's.
        if self._first is None:
            self._first = p
        if self.live and self._display is not None:
            self._display.update(describe(p, self.prefix + self.label, self._first))
        elif self.every and p.seconds >= self._next_line:
            self._next_line = p.seconds + self.every
            print(describe(p, self.prefix + self.label, self._first), file=sys.stderr, flush=True)

    def __enter__(self) -> SearchMeter:
        if self.live:
            from rich.console import Console
            from rich.live import Live

            self._display = Live("", console=Console(stderr=True), transient=True,
                                 refresh_per_second=4)
            self._display.__enter__()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._display is not None:
            self._display.__exit__(kind, exc, tb)
            self._display = None
