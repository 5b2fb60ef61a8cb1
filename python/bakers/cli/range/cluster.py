"""The cluster side of `bakers range --cluster`: the per-deal limits, the ``--worker-
resources``, connecting to the Dask scheduler (the optional extra, imported only when
used), and sending the deals to its workers in chunks.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ...bulk.dataset import ChunkSummary
from ...bulk.results import RangeResult
from ...errors import InvalidOptionError
from ...limits import Limits, parse_bytes
from ...solving import check_method
from ...variants import Variant


def cluster_limits(args: argparse.Namespace) -> Limits:
    """Return the per-deal limits of a run on a cluster: ``--max-memory`` is not among
    them, as it caps each worker process (see `cluster_rows`)."""
    if args.max_memory is not None:
        parse_bytes(args.max_memory)
    return Limits(nodes=args.max_nodes, states=args.max_states, seconds=args.max_seconds,
                  forget=args.forget)


def _worker_resources(text: str | None) -> dict[str, float]:
    """Return the resources of ``--worker-resources NAME=N[,NAME=N]``.

    Raises InvalidOptionError for a text of another form.
    """
    from ...bulk import cluster

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


def connect_cluster(args: argparse.Namespace) -> Any:
    """Return a Dask client for ``--cluster`` (the optional extra, imported only here),
    whose workers have the ``--worker-resources`` (a local cluster's are given them)."""
    from ...bulk import cluster

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


def cluster_rows(args: argparse.Namespace, client: Any, variant: Variant,
                 todo: Iterator[int], limits: Limits) -> Iterator[RangeResult]:
    """Return the rows of deals ``todo`` decided in chunks on the workers of ``client``;
    ``--max-memory`` caps each worker process, ``--threads`` is each chunk's threads."""
    from ...bulk import cluster

    return cluster.solve_numbers(
        variant, todo, client=client, threads=args.threads, limits=limits,
        ordered=args.ordered, solutions=True, lines=args.solutions,
        method=check_method(args.method, variant),
        chunk=args.chunk or cluster.DEFAULT_CHUNK,
        worker_memory=None if args.max_memory is None else parse_bytes(args.max_memory),
        memory_text=f"--max-memory {args.max_memory}",
        resources=_worker_resources(args.worker_resources))


def cluster_files(args: argparse.Namespace, client: Any, variant: Variant,
                  todo: Iterator[int], limits: Limits, directory: Path,
                  chunk: int, record: dict[str, Any]) -> Iterator[ChunkSummary]:
    """Return the summaries of the files that the workers of ``client`` write to the
    dataset ``directory``, a chunk of deals ``todo`` each, recording the run's settings
    ``record``."""
    from ...bulk import cluster

    return cluster.write_numbers(
        variant, todo, client=client, directory=directory, threads=args.threads,
        limits=limits, solutions=args.solutions, method=check_method(args.method, variant),
        chunk=chunk,
        worker_memory=None if args.max_memory is None else parse_bytes(args.max_memory),
        memory_text=f"--max-memory {args.max_memory}",
        resources=_worker_resources(args.worker_resources), record=record)
