"""Bulk solving on a Dask cluster: a range of deals sent in chunks to the workers of a
Dask scheduler, each chunk decided there by the threaded run of `bakers.bulk`.

Needs the optional extra ``bakers[cluster]`` (Dask's ``distributed``). `connect` opens a
client to a scheduler's address, or starts a ``LocalCluster`` of worker processes on
this machine for ``'local'`` or ``'local:N'``; `solve_range` yields the same
`RangeResult` rows as `bakers.solve_range` (of a range, or of listed deals);
`write_range` has each worker write its chunk's rows as one file of a Parquet dataset
(`bakers.bulk.dataset`) and yields the chunks' summaries alone, so that the client
reads a few numbers a chunk, not its rows.

A chunk's rows come back together when the chunk finishes, so each row is yielded once:
a chunk whose worker dies before it finishes is run again by the scheduler from its
start, and only the run that finishes returns rows. Ctrl-C sets a Dask event that the
running chunks watch: they stop their searches and return the rows finished by then.
At most a few chunks per worker thread are in flight at a time, so a run of billions
of deals never holds more than that many tasks on the scheduler.

With ``resources`` (Dask's worker resources, like ``{"BIG": 1}``) each chunk asks the
scheduler for them, so it runs only on the workers started with them (``dask worker
ADDRESS --resources "BIG=1"``): the workers with more memory kept for a second pass.
A run whose cluster has no such worker when it starts is refused (`check_workers`)
rather than left waiting for one without a word.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
import uuid
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import replace
from itertools import islice
from pathlib import Path
from typing import Any

from ...errors import BakersError, InvalidOptionError
from ...limits import Limits, limits_or, parse_bytes, resident_bytes
from ...solving import check_method
from ...variants import Variant, find_variant
from .. import settings
from ..checks import deal_numbers, max_threads
from ..dataset import ChunkSummary, Dataset, open_dataset, write_chunk
from ..results import RangeResult
from ..runs import after_interrupt
from ..runs import solve_numbers as solve_on_threads
from .probe import NotAScheduler, check_greeting

__all__ = ["ClusterError", "connect", "solve_range", "solve_numbers", "write_range",
           "write_numbers", "check_resources", "check_workers", "DEFAULT_CHUNK"]

#: Deals in one chunk (one task) by default: FreeCell's deals take well under a
#: millisecond each, so a chunk is about a second of one core, long against Dask's
#: few milliseconds per task and short against the time a lost worker costs.
DEFAULT_CHUNK = 1000
#: Chunks in flight per worker thread: one running, others queued so that no
#: worker waits on the scheduler between two chunks.
IN_FLIGHT_PER_THREAD = 2
#: Seconds between two counts of the workers' threads, which set the chunks in flight.
RECOUNT = 5.0
#: The environment variable that gives a worker's chunks their threads (set for the
#: workers of a local cluster, each its share of this machine's CPUs).
THREADS_VARIABLE = "BAKERS_WORKER_THREADS"
#: Seconds between two looks of a running chunk at the client's stop (each look waits
#: on the scheduler, so it costs one request per worker in that time).
STOP_POLL = 1.0
#: Seconds the client waits, after Ctrl-C, for the chunks in flight to return the rows
#: they finished.
STOP_GRACE = 15.0
#: Bytes a worker keeps out of a process-wide memory cap for its own needs (Dask's
#: bookkeeping, the rows of a chunk) over what it holds when the chunk starts.
WORKER_RESERVE = 16 * 2**20
#: The errors of a chunk whose scheduler is gone (Dask cancels the client's futures
#: when the connection to it closes), not of the chunk itself.
LOST_SCHEDULER = ("FutureCancelledError", "CancelledError", "CommClosedError")


class ClusterError(BakersError):
    """The cluster cannot run the range: no scheduler at the address, no Dask installed,
    or a chunk that failed on every worker it was given to."""


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise ClusterError("running on a cluster needs Dask: pip install 'bakers[cluster]'"
                           ) from None
    return distributed


def _cores() -> int:
    """Return the CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _local_workers(address: str, name: str) -> int | None:
    """Return the worker count of ``'local'`` or ``'local:N'`` (None: not a local one).

    Raises InvalidOptionError for a count that is not a positive integer.
    """
    if address == "local":
        return _cores()
    if not address.startswith("local:"):
        return None
    count = address[len("local:"):]
    if not count.isdigit() or not 1 <= int(count) <= max_threads():
        raise InvalidOptionError(f"{name} {address!r}: give local:N with N worker processes, "
                                 f"1..{max_threads()}")
    return int(count)


def connect(cluster: Any, *, name: str = "cluster",
            resources: dict[str, float] | None = None) -> Any:
    """Return a Dask ``Client`` for ``cluster``: a scheduler's address (``'tcp://host:8786'``),
    ``'local'`` or ``'local:N'`` (a new ``LocalCluster`` of N worker processes with one
    task at a time each; ``'local'``: one per CPU), or a ``Client`` itself, returned as it
    is. The workers of a local cluster split this machine's CPUs between them, and each
    has the worker ``resources`` (`check_resources`) when given; a client made here
    closes its local cluster when it is closed. ``name`` is how messages call the
    argument.

    Raises InvalidOptionError for a value that is none of these (an address names a host
    and a port), ClusterError when no scheduler answers at the address within Dask's
    connect timeout (``distributed.comm.timeouts.connect``: the connection and the
    handshake in all), when the peer there greets as no Dask scheduler does (a TCP
    address's first bytes are read and checked here, never taken as Dask's frame length),
    or when Dask is not installed.
    """
    distributed = _distributed()
    if isinstance(cluster, distributed.Client):
        return cluster
    if not isinstance(cluster, str) or not cluster.strip():
        raise InvalidOptionError(f"{name}={cluster!r} must be a scheduler address, 'local', "
                                 "'local:N' or a dask.distributed Client")
    workers = _local_workers(cluster, name)
    if workers is not None:
        # The client starts the local cluster and closes it with itself. Dask's memory
        # limit is off: the searches keep to bakers' own limits; a chunk's failure comes
        # back to the client, so the cluster's own logs are kept quiet. The scheduler's web
        # server takes any free port (Dask's own 8787 may be another cluster's). The
        # workers load this module first, for `dask_setup`.
        share = max(1, _cores() // workers)
        return distributed.Client(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0",
            memory_limit=0, silence_logs=logging.CRITICAL, env={THREADS_VARIABLE: str(share)},
            preload=[__name__], set_as_default=False, resources=resources or None)
    try:
        distributed.comm.get_address_host_port(cluster)
    except ValueError as exc:
        raise InvalidOptionError(f"{name} {cluster!r} is not a scheduler address ({exc}): give "
                                 "tcp://HOST:PORT, local or local:N") from None
    seconds = connect_timeout()
    try:
        scheme, location = distributed.comm.parse_address(cluster)
        if scheme == "tcp":  # other schemes (tls) cannot be read below Dask's comm
            host, port = distributed.comm.parse_host_port(location)
            check_greeting(host, port, seconds)
        return _bounded_client(distributed)(cluster, timeout=seconds, set_as_default=False)
    except NotAScheduler as exc:
        raise ClusterError(f"{name} {cluster!r} is not a Dask scheduler: {exc}") from None
    except (OSError, ValueError, TypeError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        if isinstance(exc, TimeoutError) and not str(exc):
            reason = f"no handshake within {seconds:g} s"
        raise ClusterError(f"{name} {cluster!r}: no Dask scheduler answers there ({reason})"
                           ) from None


def connect_timeout() -> float:
    """Return Dask's connect timeout in seconds (``distributed.comm.timeouts.connect``),
    which bounds the whole of connecting here: the connection, the scheduler's greeting
    and the client's handshake."""
    import dask

    return float(dask.utils.parse_timedelta(
        dask.config.get("distributed.comm.timeouts.connect"), default="seconds"))


_BOUNDED: list[Any] = []


def _bounded_client(distributed: Any) -> Any:
    """Return a ``Client`` class whose start, handshake included, ends within its
    ``timeout``: Dask's own bounds the connection alone, so a peer that accepts and
    stays silent would hold it until the peer closes. A start that fails closes the
    client at once, so that no half-made client waits in its ``__del__``."""
    if not _BOUNDED:
        import asyncio

        class BoundedClient(distributed.Client):  # type: ignore[misc, name-defined]
            async def _start(self, *args: Any, **kwargs: Any) -> Any:
                timeout = kwargs.get("timeout")
                seconds = (float(timeout) if isinstance(timeout, (int, float))
                           else connect_timeout())
                try:
                    return await asyncio.wait_for(super()._start(*args, **kwargs), seconds)
                except BaseException:
                    await self._close()
                    raise

        _BOUNDED.append(BoundedClient)
    return _BOUNDED[0]


# --------------------------------------------------------------------------- workers


def dask_setup(worker: Any) -> None:
    """Leave Ctrl-C to the client: a terminal sends it to the worker processes of a local
    cluster too, which would otherwise each print a traceback while the client stops
    them and keeps the finished rows (Dask calls this in each worker that preloads
    this module)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def _worker_threads() -> int:
    """Return the threads a chunk takes on this worker: `THREADS_VARIABLE` if set, else
    its CPUs shared between the tasks the worker runs at a time."""
    given = os.environ.get(THREADS_VARIABLE, "")
    if given.isdigit() and 1 <= int(given) <= max_threads():
        return int(given)
    try:
        from distributed import get_worker

        slots = max(1, int(get_worker().state.nthreads))
    except (ImportError, ValueError, AttributeError):
        slots = 1
    return max(1, min(_cores() // slots, max_threads()))


def _solve_chunk(variant: Variant, threads: int | None, limits: Limits,
                 worker_memory: int | None, memory_text: str, ordered: bool,
                 solutions: bool, lines: bool, method: str, numbers: list[int],
                 stop: str) -> list[RangeResult]:
    """Return the results of the chunk of deals ``numbers``, decided on this worker's
    threads (the task that the scheduler runs; ``index`` counts from 0 in the chunk).
    ``worker_memory`` caps the worker process: the searches share what the worker does
    not already hold. With ``lines`` False the solutions' moves are dropped before the
    rows travel back (their lengths stay). Once the Dask event named ``stop`` is set
    (the client was interrupted), the searches stop and the chunk returns the rows
    finished by then.

    Raises InvalidOptionError when ``worker_memory`` leaves nothing for the searches.
    """
    from distributed import Event

    threads = threads or _worker_threads()
    if worker_memory is not None:
        held = resident_bytes() + WORKER_RESERVE
        if worker_memory <= held + 2**20 * threads:
            raise InvalidOptionError(
                f"{memory_text} is too small for a worker: it already holds "
                f"{held / 2**20:.0f} MiB with its reserve; give at least "
                f"{(held + 2**20 * threads) / 2**20 + 1:.0f}M")
        limits = replace(limits, memory=worker_memory - held)
    event = Event(stop)
    if event.is_set():
        return []
    halt, over = threading.Event(), threading.Event()

    def watch() -> None:
        while not over.is_set():
            try:
                if event.wait(timeout=STOP_POLL):
                    halt.set()
                    return
            except Exception:  # the scheduler is gone: the chunk is lost with it anyway
                return

    watcher = threading.Thread(target=watch, name="bakers-stop", daemon=True)
    watcher.start()
    try:
        rows = list(solve_on_threads(variant, numbers, threads=threads, limits=limits,
                                     ordered=ordered, solutions=solutions, method=method,
                                     halt=halt))
    finally:
        over.set()
    if solutions and not lines:
        rows = [replace(row, _line=None) for row in rows]
    return rows


def _write_chunk(directory: str, variant: Variant, threads: int | None, limits: Limits,
                 worker_memory: int | None, memory_text: str, solutions: bool, method: str,
                 record: dict[str, Any] | None, numbers: list[int], stop: str
                 ) -> ChunkSummary:
    """Decide the chunk of deals ``numbers`` as `_solve_chunk` does, write its rows as
    one file of the Parquet dataset ``directory`` (its metadata the run's settings
    ``record``) and return the file's summary (the task of `write_numbers`; a chunk
    stopped by the client writes the rows it finished).

    Raises DatasetError when the file cannot be written (pyarrow missing, a directory
    that this worker does not reach).
    """
    rows = _solve_chunk(variant, threads, limits, worker_memory, memory_text, False, True,
                        solutions, method, numbers, stop)
    return write_chunk(directory, variant, rows, solutions,
                       (min(numbers), max(numbers), len(numbers)), record)


# --------------------------------------------------------------------------- client


def check_resources(resources: object, name: str = "resources=") -> dict[str, float]:
    """Return ``resources`` checked as Dask worker resources that each chunk asks for: a
    mapping of names to positive amounts (None: none). ``name`` says the argument in
    messages.

    Raises InvalidOptionError for anything else.
    """
    if resources is None:
        return {}
    if not isinstance(resources, dict):
        raise InvalidOptionError(f"{name}{resources!r}: give the worker resources as a "
                                 "dict of names and amounts, like {'BIG': 1}")
    checked: dict[str, float] = {}
    for key, amount in resources.items():
        if not isinstance(key, str) or not key.strip() or any(c in key for c in "=, "):
            raise InvalidOptionError(f"{name}{key!r} is not a resource name (a word like BIG)")
        if (isinstance(amount, bool) or not isinstance(amount, (int, float))
                or not 0 < amount < float("inf")):
            raise InvalidOptionError(f"{name}{key}={amount!r}: the amount of a resource is "
                                     "a positive number")
        checked[key] = amount
    return checked


def _slots(workers: dict[str, Any], resources: dict[str, float]) -> int:
    """Return how many chunks asking for ``resources`` the workers of the scheduler's
    ``workers`` (its ``scheduler_info()['workers']``) run at a time."""
    slots = 0
    for worker in workers.values():
        have = worker.get("resources") or {}
        fits = min((int(have.get(key, 0) // amount) for key, amount in resources.items()),
                   default=int(worker.get("nthreads", 0)))
        slots += min(int(worker.get("nthreads", 0)), fits)
    return slots


def check_workers(client: Any, resources: dict[str, float], name: str = "resources=") -> None:
    """Refuse a run whose chunks ask for ``resources`` that no worker of ``client``'s
    cluster has now: its tasks would wait, without a word, for a worker that may never
    come. ``name`` says the argument in messages.

    Raises ClusterError naming the resources.
    """
    if not resources:
        return
    try:
        workers = client.scheduler_info().get("workers", {})
    except (OSError, TimeoutError) as exc:
        raise ClusterError(f"{name}: the scheduler does not say its workers ({exc})") from None
    if _slots(workers, resources) == 0:
        wanted = ",".join(f"{key}={amount:g}" for key, amount in resources.items())
        raise ClusterError(
            f"{name}{wanted}: none of the cluster's {len(workers)} workers has "
            f"{'this resource' if len(resources) == 1 else 'these resources'}; start one "
            f"with: dask worker SCHEDULER --resources \"{wanted}\"")


def _in_flight(client: Any, resources: dict[str, float]) -> int:
    """Return how many chunks to keep submitted: a few per worker thread now (of the
    workers with ``resources``, when the chunks ask for some)."""
    try:
        if resources:
            slots = _slots(client.scheduler_info().get("workers", {}), resources)
        else:
            slots = sum(int(n) for n in client.nthreads().values())
    except (OSError, TimeoutError):
        slots = 0
    return max(4, IN_FLIGHT_PER_THREAD * slots)


def _failure(numbers: list[int], exc: BaseException) -> BakersError:
    """Return the error to raise for a chunk that failed with ``exc``."""
    if isinstance(exc, BakersError):
        return exc
    span = f"{numbers[0]}" if len(numbers) == 1 else f"{numbers[0]}..{numbers[-1]}"
    if type(exc).__name__ == "KilledWorker":
        return ClusterError(
            f"the chunk of deals {span} was lost with every worker that ran it (Dask's "
            "distributed.scheduler.allowed-failures); a deal there may need more memory "
            "than a worker has: try --max-memory")
    reason = str(exc).splitlines()[0] if str(exc) else ""
    if type(exc).__name__ in LOST_SCHEDULER:
        return ClusterError(
            f"the connection to the Dask scheduler was lost while the chunk of deals {span} "
            f"ran ({type(exc).__name__}); the rows handed out before are complete (in a "
            "file: --resume continues it)")
    return ClusterError(f"the chunk of deals {span} failed: {type(exc).__name__}"
                        + (f": {reason}" if reason else ""))


def _run_chunks(client: Any, numbers: Iterable[int], chunk: int, task: Any,
                *arguments: Any, resources: dict[str, float] | None = None
                ) -> Iterator[tuple[int, int, list[int], Any]]:
    """Yield ``(order, offset, deals, result)`` for each chunk of ``chunk`` deals of
    ``numbers`` as it finishes on the workers of ``client``: ``order`` counts the
    chunks from 0, ``offset`` is the place of the chunk's first deal in ``numbers``,
    ``result`` is what ``task(*arguments, deals, stop)`` returned (``stop``: the name
    of the Dask event that asks the chunks to stop). Each task asks the scheduler for
    the worker ``resources``.

    Ctrl-C (raised here, or thrown in at a yield) sets the stop event; the results of
    the chunks that return within `STOP_GRACE` seconds are yielded, the others are
    cancelled, then KeyboardInterrupt is raised. Raises ClusterError for a chunk that
    failed on every worker the scheduler gave it to (Dask's ``allowed-failures``).
    """
    distributed = _distributed()
    resources = resources or {}
    run = uuid.uuid4().hex
    stop = f"bakers-range-stop-{run}"
    it = iter(numbers)
    chunks: dict[Any, tuple[int, int, list[int]]] = {}  # future -> (order, offset, deals)
    submitted = offset = 0
    finished = distributed.as_completed(loop=client.loop)

    def submit() -> bool:
        nonlocal submitted, offset
        deals = list(islice(it, chunk))
        if not deals:
            return False
        future = client.submit(task, *arguments, deals, stop,
                               key=f"bakers-range-{run}-{submitted}", pure=False, retries=0,
                               resources=resources or None)
        chunks[future] = (submitted, offset, deals)
        finished.add(future)
        submitted += 1
        offset += len(deals)
        return True

    def take(future: Any) -> tuple[int, int, list[int], Any]:
        order, start, deals = chunks.pop(future)
        try:
            result = future.result()
        except Exception as exc:  # a worker's error comes back as it was raised there
            raise _failure(deals, exc) from None
        finally:
            future.release()
        return order, start, deals, result

    def cancel() -> None:
        pending = list(chunks)
        if pending:
            client.cancel(pending)
        for future in pending:
            chunks.pop(future, None)

    try:
        try:
            limit, counted = _in_flight(client, resources), time.monotonic()
            while len(chunks) < limit and submit():
                pass
            for future in finished:
                done = take(future)
                if time.monotonic() - counted > RECOUNT:  # workers come and go
                    limit, counted = _in_flight(client, resources), time.monotonic()
                while len(chunks) < limit and submit():
                    pass
                yield done
        except KeyboardInterrupt:
            # Ask the chunks in flight for what they finished, cancel what is left.
            try:
                event = distributed.Event(stop, client=client)
                event.set()
                deadline = time.monotonic() + STOP_GRACE
                while (time.monotonic() < deadline
                       and any(future.status == "pending" for future in chunks)):
                    time.sleep(0.02)
                event.clear()
            except (OSError, TimeoutError):  # the scheduler is gone: keep what came back
                pass
            done_now = [take(future) for future in list(chunks) if future.status == "finished"]
            cancel()
            yield from done_now
            raise
    finally:
        cancel()


def solve_numbers(variant: Variant, numbers: Iterable[int], *, client: Any,
                  threads: int | None, limits: Limits, ordered: bool, solutions: bool,
                  method: str, chunk: int = DEFAULT_CHUNK, lines: bool | None = None,
                  worker_memory: int | None = None, memory_text: str = "--max-memory",
                  resources: dict[str, float] | None = None) -> Iterator[RangeResult]:
    """Yield the results of the numbered deals ``numbers`` (already checked), decided in
    chunks of ``chunk`` deals on the workers of ``client``, as chunks finish or, with
    ``ordered``, in the order of ``numbers`` (``index`` counts from 0 in that order).
    ``threads`` is the threads of one chunk (None: the worker's CPUs over the tasks it
    runs at a time); ``limits`` hold on the worker as in `bakers.bulk.runs.solve_numbers`;
    ``worker_memory`` caps each worker process instead of ``limits.memory``
    (``memory_text`` names it in messages). ``lines`` (default: ``solutions``) sends
    the solutions' moves back, not only their lengths. Each chunk asks the scheduler for
    the worker ``resources`` (checked: `check_resources`, `check_workers`).

    Ctrl-C stops every chunk: the rows finished before it, in chunks done or still
    running (which return them within `STOP_POLL` seconds or so), are yielded, then
    KeyboardInterrupt is raised. Raises ClusterError for a chunk that
    failed on every worker the scheduler gave it to (Dask's ``allowed-failures``).
    """
    lines = solutions if lines is None else lines
    chunks = _run_chunks(client, numbers, chunk, _solve_chunk, variant, threads, limits,
                         worker_memory, memory_text, ordered, solutions, lines, method,
                         resources=resources)
    ready: dict[int, list[RangeResult]] = {}  # finished chunks by order, not yet yielded
    waiting: deque[RangeResult] = deque()  # rows to yield, in order
    next_order = 0

    def keep(order: int, start: int, rows: list[RangeResult]) -> None:
        """Keep the rows of a finished chunk in ``ready``, re-indexed in the run."""
        ready[order] = [replace(row, index=start + row.index) for row in rows]

    def release() -> None:
        """Move the chunks that may be yielded now from ``ready`` to ``waiting``."""
        nonlocal next_order
        if not ordered:
            for order in list(ready):
                waiting.extend(ready.pop(order))
            return
        while next_order in ready:
            waiting.extend(ready.pop(next_order))
            next_order += 1

    try:
        try:
            for order, start, _, rows in chunks:
                keep(order, start, rows)
                release()
                while waiting:
                    yield waiting.popleft()
        except KeyboardInterrupt:
            for order, start, _, rows in after_interrupt(chunks):
                keep(order, start, rows)
            # The order is broken by the stop: hand out every finished row.
            for order in sorted(ready):
                waiting.extend(ready.pop(order))
            while waiting:
                yield waiting.popleft()
            raise
    finally:
        chunks.close()  # type: ignore[attr-defined]


def solve_range(variant: Variant | str, first: int | None = None, last: int | None = None,
                *, cluster: Any, deals: Iterable[int] | None = None,
                threads: int | None = None, limits: Limits | None = None,
                ordered: bool = False, solutions: bool = True, method: str | None = None,
                chunk: int = DEFAULT_CHUNK,
                resources: dict[str, float] | None = None) -> Iterator[RangeResult]:
    """Decide the numbered deals ``first..last`` of a game, or the deals numbered in
    ``deals``, on the Dask cluster ``cluster`` (see `connect`: an address, ``'local'``,
    ``'local:N'`` or a Client) and yield a `RangeResult` for each, as its chunk of
    ``chunk`` deals finishes or, with ``ordered``, in deal order: the same rows as
    `bakers.solve_range`. Each chunk is one threaded run on a worker with ``threads``
    threads (None: the worker's CPUs over its tasks at a time); ``limits`` hold as
    there, ``memory`` for each chunk's run. Each chunk asks for the worker
    ``resources`` (like ``{'BIG': 1}``), which a local cluster made here gives each
    of its workers. The arguments are checked and the cluster connected when the
    function is called; a client or local cluster made here is closed when the rows end.

    Raises UnknownVariantError, InvalidDealError, InvalidOptionError as
    `bakers.solve_range` does, InvalidOptionError for a bad ``cluster``, ``chunk`` or
    ``resources``, ClusterError for a scheduler that does not answer or a cluster
    whose workers have none of ``resources``.
    """
    variant, numbers, limits, method, resources = _checked(
        variant, first, last, deals, threads, chunk, resources, limits, method)
    client = _connected(cluster, resources)
    owned = client is not cluster
    rows = solve_numbers(variant, numbers, client=client, threads=threads,
                         limits=limits, ordered=bool(ordered), solutions=bool(solutions),
                         method=method, chunk=chunk, resources=resources)
    return _closing(rows, client) if owned else rows


def _checked(variant: Variant | str, first: int | None, last: int | None,
             deals: Iterable[int] | None, threads: int | None, chunk: int,
             resources: object, limits: Limits | None, method: str | None
             ) -> tuple[Variant, range | list[int], Limits, str, dict[str, float]]:
    """Return the game, the deals, the limits, the search and the resources of a run of
    `solve_range` or `write_range`, each checked as those functions say."""
    variant = find_variant(variant)
    numbers = deal_numbers(variant, first, last, deals)
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int)
                                or not 1 <= threads <= max_threads()):
        raise InvalidOptionError(f"threads={threads!r} must be an integer 1..{max_threads()}")
    check_chunk(chunk, "chunk=")
    return (variant, numbers, limits_or(limits, Limits()), check_method(method, variant),
            check_resources(resources))


def _connected(cluster: Any, resources: dict[str, float]) -> Any:
    """Return the client of `connect`, checked to have workers with ``resources``."""
    client = connect(cluster, resources=resources)
    try:
        check_workers(client, resources)
    except BaseException:
        if client is not cluster:
            client.close()
        raise
    return client


def _closing(rows: Iterator[Any], client: Any) -> Iterator[Any]:
    try:
        yield from rows
    finally:
        client.close()


def write_numbers(variant: Variant, numbers: Iterable[int], *, client: Any,
                  directory: str | os.PathLike[str], threads: int | None, limits: Limits,
                  solutions: bool, method: str, chunk: int = DEFAULT_CHUNK,
                  worker_memory: int | None = None, memory_text: str = "--max-memory",
                  resources: dict[str, float] | None = None,
                  record: dict[str, Any] | None = None) -> Iterator[ChunkSummary]:
    """Decide the numbered deals ``numbers`` (already checked) in chunks of ``chunk``
    deals on the workers of ``client`` as `solve_numbers` does, but have each worker
    write its chunk's rows as one file of the Parquet dataset ``directory`` (a path that
    every worker reaches; see `bakers.bulk.dataset`), with the solutions' column when
    ``solutions`` and the run's settings ``record`` (`bakers.bulk.settings`) in its
    metadata; yield each chunk's `ChunkSummary` as it finishes, not its rows. Each
    chunk asks for the worker ``resources``.

    Ctrl-C stops every chunk: those running write the rows they finished and their
    summaries are yielded (within `STOP_POLL` seconds or so), then KeyboardInterrupt is
    raised. Raises ClusterError for a chunk that failed on every worker the scheduler
    gave it to, DatasetError for a file a worker cannot write.
    """
    path = str(Path(directory).resolve())
    chunks = _run_chunks(client, numbers, chunk, _write_chunk, path, variant, threads,
                         limits, worker_memory, memory_text, solutions, method, record,
                         resources=resources)
    try:
        try:
            for _, _, _, summary in chunks:
                yield summary
        except KeyboardInterrupt:
            for _, _, _, summary in after_interrupt(chunks):
                yield summary
            raise
    finally:
        chunks.close()  # type: ignore[attr-defined]


def write_range(variant: Variant | str, first: int | None = None, last: int | None = None,
                *, cluster: Any, out: str | os.PathLike[str],
                deals: Iterable[int] | None = None, resume: bool = False,
                resume_any: bool = False, force: bool = False, threads: int | None = None,
                limits: Limits | None = None, solutions: bool = False,
                method: str | None = None, chunk: int = DEFAULT_CHUNK,
                resources: dict[str, float] | None = None) -> Iterator[ChunkSummary]:
    """Decide the numbered deals ``first..last`` of a game, or the deals numbered in
    ``deals``, on the Dask cluster ``cluster`` (see `connect`) and have the workers
    write their rows to the Parquet dataset ``out`` (a directory, made if missing, at
    the same path on every worker: shared storage), one file a chunk of ``chunk`` deals;
    yield the `ChunkSummary` of each file as it is written. With ``resume`` the deals
    already in ``out``'s files are left out (its files must hold deals of this run made
    with the same method and limits, which each file records, unless ``resume_any``);
    with ``force`` its files are removed first; otherwise a directory with files is
    refused. ``solutions`` adds the solutions'
    column; ``threads``, ``limits``, ``method`` and ``resources`` are as in
    `solve_range`. The arguments are checked, the directory opened (and locked while the
    summaries are read) and the cluster connected when the function is called; what was
    opened here is closed when the summaries end.

    Raises what `solve_range` raises, DatasetError without pyarrow, and
    InvalidOptionError for an ``out`` that cannot be written or resumed.
    """
    variant, numbers, limits, method, resources = _checked(
        variant, first, last, deals, threads, chunk, resources, limits, method)
    record = settings.settings(method, nodes=limits.nodes, states=limits.states,
                               memory=None if limits.memory is None
                               else parse_bytes(limits.memory), seconds=limits.seconds,
                               forget=limits.forget)
    dataset = open_dataset(
        out, variant, solutions=bool(solutions), resume=bool(resume), force=bool(force),
        name=f"out={str(out)!r}", deals=numbers if isinstance(numbers, range) else set(numbers),
        record=record, mix=bool(resume_any))
    try:
        client = _connected(cluster, resources)
    except BaseException:
        dataset.close()
        raise
    summaries = write_numbers(variant, dataset.done.not_in(numbers), client=client,
                              directory=dataset.directory, threads=threads, limits=limits,
                              solutions=bool(solutions), method=method, chunk=chunk,
                              resources=resources, record=record)
    return _opened(summaries, dataset, client if client is not cluster else None)


def _opened(summaries: Iterator[ChunkSummary], dataset: Dataset,
            client: Any) -> Iterator[ChunkSummary]:
    try:
        yield from summaries
        dataset.remove_temporary()
    finally:
        dataset.close()
        if client is not None:
            client.close()


def check_chunk(chunk: object, name: str) -> int:
    """Return ``chunk`` checked as a count of deals per task (``name`` as in messages).

    Raises InvalidOptionError for anything but an integer 1..2**20.
    """
    if isinstance(chunk, bool) or not isinstance(chunk, int) or not 1 <= chunk <= 2**20:
        raise InvalidOptionError(f"{name}{chunk!r}: give 1..{2**20} deals per chunk")
    return chunk
