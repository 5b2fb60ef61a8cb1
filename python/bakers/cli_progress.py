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

from .solve import SearchProgress

#: Seconds between two plain progress lines (standard error not a terminal).
LINE_SECONDS = 10.0


def add_progress_option(p: argparse.ArgumentParser) -> None:
    """Add ``--progress`` and ``--quiet`` to a command that runs long searches."""
    p.add_argument("--progress", action="store_true",
                   help="show the search's progress even when standard error is not a "
                   f"terminal (a line every {LINE_SECONDS:g} s)")
    p.add_argument("--quiet", action="store_true", help="no progress display")


def describe(p: SearchProgress, what: str = "searching") -> str:
    """Return one line of a search's counts: expanded, stored, rate and time."""
    rate = p.expanded / p.seconds if p.seconds > 0 else 0.0
    minutes, seconds = divmod(int(p.seconds), 60)
    return (f"{what}: {p.expanded:,} positions expanded, {p.stored:,} stored, "
            f"{rate:,.0f}/s, {minutes // 60}:{minutes % 60:02d}:{seconds:02d}")


class SearchMeter:
    """A `solve` ``progress`` callback that shows the counts on standard error; use it
    as a context manager around the search. ``label`` (settable) names the search."""

    def __init__(self, args: argparse.Namespace, label: str = "searching") -> None:
        terminal = sys.stderr.isatty()
        self.live = not args.quiet and terminal
        self.lines = not args.quiet and args.progress and not terminal
        self.label = label
        self._display: Any = None
        self._next_line = LINE_SECONDS

    @property
    def callback(self) -> Any:
        """The callback to give `solve`, or None when nothing is shown."""
        return self if (self.live or self.lines) else None

    def __call__(self, p: SearchProgress) -> None:
        if self.live and self._display is not None:
            self._display.update(describe(p, self.label))
        elif self.lines and p.seconds >= self._next_line:
            self._next_line = p.seconds + LINE_SECONDS
            print(describe(p, self.label), file=sys.stderr, flush=True)

    def restart(self, label: str) -> None:
        """Name the next search (its seconds count from 0 again)."""
        self.label = label
        self._next_line = LINE_SECONDS

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
