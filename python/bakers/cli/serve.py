"""The `bakers serve` command: the games in a browser at a printed address."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import InvalidOptionError
from ..limits import parse_bytes

__all__ = ["add_commands"]


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        from .. import serve
    except ImportError as exc:
        raise InvalidOptionError(f"serve needs the serve extra ({exc.name} is missing): "
                                 f"pip install 'bakers[serve]'") from None
    if not 0 <= args.port <= 65535:
        raise InvalidOptionError(f"--port {args.port} is not a port (0..65535)")
    for flag, value in (("--workers", args.workers), ("--hint-seconds", args.hint_seconds),
                        ("--solve-seconds", args.solve_seconds)):
        if not value > 0:
            raise InvalidOptionError(f"{flag} {value} must be more than 0")
    try:
        memory = parse_bytes(args.search_memory)
    except InvalidOptionError as exc:
        raise InvalidOptionError(f"--search-memory: {exc}") from None
    if memory == 0:
        raise InvalidOptionError("--search-memory 0 leaves no room to search")
    limits = serve.EngineLimits(
        workers=args.workers, hint_seconds=args.hint_seconds,
        solve_seconds=args.solve_seconds, memory=memory)
    try:
        sock = serve.listen(args.host, args.port)
    except OSError as exc:
        raise InvalidOptionError(f"cannot listen on --host {args.host} --port {args.port}: "
                                 f"{exc.strerror or exc}") from None
    print(f"bakers: playing at {serve.address(sock)} (Ctrl-C stops)", flush=True)
    with sock:
        serve.run(sock, limits)
    return 0


def add_commands(sub: Any) -> None:
    """Add the command serve to ``sub`` (the subparsers of the `bakers` parser)."""
    p = sub.add_parser("serve", help="play every game in a browser, with hints",
                       description="Serve a page where every game can be played, with "
                       "the engine's hints, winnable and daily deals, undo and solve. "
                       "Needs the serve extra: pip install 'bakers[serve]'.")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8000, help="the port (default 8000; 0: any)")
    p.add_argument("--workers", type=int, default=2, metavar="N",
                   help="searches at once (default 2)")
    p.add_argument("--hint-seconds", type=float, default=3.0, metavar="S",
                   help="the longest a hint searches (default 3)")
    p.add_argument("--solve-seconds", type=float, default=10.0, metavar="S",
                   help="the longest a solve searches (default 10)")
    p.add_argument("--search-memory", default="512M", metavar="SIZE",
                   help="the most memory one search holds (default 512M)")
    p.set_defaults(run=cmd_serve)
