"""Bulk solving on a Dask cluster (the optional extra ``bakers[cluster]``): `runs` sends
a range in chunks to the workers of a scheduler, `probe` checks that an address is a
scheduler before Dask reads from it, `log` keeps Dask's log off the terminal.

``preload`` a worker with this package (or `runs`) for `dask_setup`.
"""

from __future__ import annotations

from .runs import (
    DEFAULT_CHUNK,
    THREADS_VARIABLE,
    ClusterError,
    check_chunk,
    check_resources,
    check_workers,
    connect,
    dask_setup,
    solve_numbers,
    solve_range,
    write_numbers,
    write_range,
)

__all__ = ["ClusterError", "connect", "solve_range", "solve_numbers", "write_range",
           "write_numbers", "check_resources", "check_workers", "check_chunk", "DEFAULT_CHUNK",
           "THREADS_VARIABLE", "dask_setup"]
