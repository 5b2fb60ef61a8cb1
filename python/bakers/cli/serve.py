"""The `bakers serve` command: the games in a browser at a printed address."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any, TypeVar

from ..errors import InvalidOptionError
from ..limits import MAX_COUNT, parse_bytes
from .common import EXIT_OK, count, seconds

__all__ = ["add_commands", "MAX_WORKERS", "MAX_QUEUE"]

#: The most searches at once (each holds up to --search-memory; more threads than this
#: would only share the cores).
MAX_WORKERS = 64
#: The most requests waiting for a worker (beyond, 503 at once).
MAX_QUEUE = 100_000

T = TypeVar("T")


def _read(flag: str, read: Callable[[str], T], text: str) -> T:
    """Return ``read(text)`` (an argparse type of `common`), its error naming ``flag``."""
    try:
        return read(text)
    except argparse.ArgumentTypeError as exc:
        raise InvalidOptionError(f"{flag} {exc}") from None


def _memory(text: str) -> int:
    try:
        memory = parse_bytes(text)
    except InvalidOptionError as exc:
        raise InvalidOptionError(f"--search-memory: {exc}") from None
    if memory == 0:
        raise InvalidOptionError(f"--search-memory {text} leaves no room to search")
    if memory >= MAX_COUNT:
        raise InvalidOptionError(f"--search-memory {text} is out of range (below 2**64 bytes)")
    return memory


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        from .. import serve
        from ..serve.hosts import check_host_name
    except ImportError as exc:
        raise InvalidOptionError(f"serve needs the serve extra ({exc.name} is missing): "
                                 f"pip install 'bakers[serve]'") from None
    # every limit is checked here, before the socket opens: a value the server started
    # with must never make it refuse requests later
    if not 0 <= args.port <= 65535:
        raise InvalidOptionError(f"--port {args.port} is not a port (0..65535)")
    workers = _read("--workers", count(1, MAX_WORKERS), args.workers)
    queue = _read("--queue", count(0, MAX_QUEUE), args.queue)
    hint_seconds = _read("--hint-seconds", seconds, args.hint_seconds)
    solve_seconds = _read("--solve-seconds", seconds, args.solve_seconds)
    request_seconds = _read("--request-seconds", seconds, args.request_seconds)
    if request_seconds > serve.MAX_REQUEST_SECONDS:
        raise InvalidOptionError(f"--request-seconds {args.request_seconds} is more than "
                                 f"{serve.MAX_REQUEST_SECONDS:g} seconds")
    memory = _memory(args.search_memory)
    connections = (None if args.max_connections is None else
                   _read("--max-connections", count(1), args.max_connections))
    hosts = []
    for name in args.allowed_host:
        try:
            hosts.append(check_host_name(name))
        except ValueError as exc:
            raise InvalidOptionError(f"--allowed-host {exc}") from None
    limits = serve.EngineLimits(workers=workers, queue=queue, hint_seconds=hint_seconds,
                                solve_seconds=solve_seconds, memory=memory)
    try:
        guard = serve.ConnectionLimits(connections, request_seconds)
    except InvalidOptionError as exc:  # the open files this process may have
        raise InvalidOptionError(str(exc).replace("connections=", "--max-connections ")
                                 ) from None
    try:
        sock = serve.listen(args.host, args.port)
    except OSError as exc:
        raise InvalidOptionError(f"cannot listen on --host {args.host} --port {args.port}: "
                                 f"{exc.strerror or exc}") from None
    print(f"bakers: playing at {serve.address(sock)} (Ctrl-C stops)", flush=True)
    with sock:
        serve.run(sock, limits, connections=guard, allowed_hosts=hosts)
    print("bakers: stopped", file=sys.stderr)
    return EXIT_OK


def add_commands(sub: Any) -> None:
    """Add the command serve to ``sub`` (the subparsers of the `bakers` parser)."""
    p = sub.add_parser("serve", help="play every game in a browser, with hints",
                       description="Serve a page where every game can be played, with "
                       "the engine's hints, winnable and daily deals, undo and solve. "
                       "Needs the serve extra: pip install 'bakers[serve]'. For a site, "
                       "put it behind a reverse proxy (docs/serve.md).")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8000, help="the port (default 8000; 0: any)")
    p.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                   help="a name the server answers to besides localhost and IP addresses "
                   "(the site's own name behind a reverse proxy); repeat for several")
    p.add_argument("--workers", default="2", metavar="N",
                   help=f"searches at once (default 2, at most {MAX_WORKERS})")
    p.add_argument("--queue", default="64", metavar="N",
                   help="requests waiting for a worker; beyond, 503 at once (default 64)")
    p.add_argument("--hint-seconds", default="3", metavar="S",
                   help="the longest a hint searches (default 3)")
    p.add_argument("--solve-seconds", default="10", metavar="S",
                   help="the longest a solve searches (default 10)")
    p.add_argument("--search-memory", default="512M", metavar="SIZE",
                   help="the most memory one search holds (default 512M)")
    p.add_argument("--max-connections", metavar="N",
                   help="connections open at once (default 512, or fewer if ulimit -n "
                   "says so); beyond, the one that waited longest for its request closes")
    p.add_argument("--request-seconds", default="10", metavar="S",
                   help="the longest a request may take to arrive, headers and body "
                   "(default 10)")
    p.set_defaults(run=cmd_serve)
