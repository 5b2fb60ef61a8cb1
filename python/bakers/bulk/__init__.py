"""Bulk solving: many deals of one game decided on worker threads, and what a range's
rows pass through on their way to a file, a dataset or a cluster.

`runs` decides the deals (`solve_range`, `solve_many`); `results` holds the answer for
one deal (`RangeResult`); `checks` checks a run's threads and deal numbers; `batches`
has the core make the rows' text in batches; `rows` holds a row's columns and values;
`settings` the method and limits an output records; `dataset` the Parquet dataset of a
run; `deal_lists` reads the deals a file lists; `cluster` runs a range on the workers
of a Dask scheduler.
"""

from __future__ import annotations

from .checks import (
    check_deal,
    check_range,
    deal_numbers,
    default_threads,
    max_threads,
    worker_threads,
)
from .results import RangeResult
from .runs import solve_many, solve_range

__all__ = ["RangeResult", "solve_range", "solve_many", "check_range", "check_deal",
           "deal_numbers", "max_threads", "default_threads", "worker_threads"]


def __getattr__(name: str) -> int:
    # ``MAX_THREADS`` before 0.2, kept for one release: `max_threads()` reads the core's.
    if name == "MAX_THREADS":
        return max_threads()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
