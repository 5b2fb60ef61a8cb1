"""Dask's own log kept off the terminal of a command that runs on a cluster.

Dask logs to standard error from its event loop, with tracebacks: a lost scheduler
prints some thirty lines before the command's own one-line error. While `kept_log` is
open, the records of Dask's loggers (and of the Tornado and asyncio loops it runs on)
are held in memory instead, the last `KEPT_RECORDS` of them; when the block ends with a
`ClusterError`, they are written to a new file named in the error's message, so that
nothing Dask said is lost and the terminal shows one line.
"""

from __future__ import annotations

import logging
import tempfile
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager, suppress

__all__ = ["LOGGERS", "KEPT_RECORDS", "kept_log"]

#: The loggers whose records are kept (with those below them): Dask's, its dashboard's,
#: and the loops' it runs on.
LOGGERS = ("distributed", "tornado", "asyncio", "bokeh")
#: Records kept at most (the last ones): the cause of a failure comes just before it.
KEPT_RECORDS = 2000


class _Keeper(logging.Handler):
    """Hold the formatted records, the last `KEPT_RECORDS` of them."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.setFormatter(logging.Formatter("%(asctime)s - %(name)s - %(levelname)s - "
                                            "%(message)s"))
        self.lines: deque[str] = deque(maxlen=KEPT_RECORDS)

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.lines.append(self.format(record))
        except Exception:  # a record that cannot be formatted is dropped, as logging does
            self.handleError(record)

    def save(self) -> str:
        """Write the records to a new file; return its path."""
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", prefix="bakers-dask-",
                                         suffix=".log", delete=False) as f:
            f.write("\n".join(self.lines) + "\n")
        return f.name


@contextmanager
def kept_log() -> Iterator[None]:
    """Keep the records of `LOGGERS` in memory for the block, not on standard error;
    a ClusterError that ends the block is raised again with the file of the records
    named in its message (no file when there is none).

    Raises ClusterError (of the block) naming the file.
    """
    from .runs import ClusterError

    with suppress(ImportError):  # Dask sets its loggers' handlers when it is imported
        import distributed  # noqa: F401
    keeper = _Keeper()
    saved = []
    # Dask's configuration gives some of its loggers (distributed.client, ...) their own
    # handler to standard error, not only the top ones.
    names = {name for name in logging.root.manager.loggerDict
             if name.split(".")[0] in LOGGERS} | set(LOGGERS)
    for name in sorted(names):
        logger = logging.getLogger(name)
        if name in LOGGERS or logger.handlers:
            saved.append((logger, logger.handlers[:], logger.propagate))
            logger.handlers = [keeper]
            logger.propagate = False
    try:
        yield
    except ClusterError as exc:
        if not keeper.lines:
            raise
        try:
            path = keeper.save()
        except OSError:
            raise exc from None
        raise ClusterError(f"{exc} (Dask's log: {path})") from None
    finally:
        for logger, handlers, propagate in saved:
            logger.handlers = handlers
            logger.propagate = propagate

