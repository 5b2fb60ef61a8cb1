"""`bakers serve`: the games in a browser, with the engine's hints (the ``serve`` extra).

`create_app` returns the ASGI app (Starlette); `listen` opens its socket and `run`
serves the app on it with uvicorn until Ctrl-C (or SIGTERM) stops it.
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Iterable
from types import FrameType

from .app import MAX_BODY, create_app
from .connections import LISTEN_BACKLOG, MAX_REQUEST_SECONDS, ConnectionLimits
from .engine import EngineLimits

__all__ = ["create_app", "listen", "run", "address", "EngineLimits", "ConnectionLimits",
           "MAX_BODY", "MAX_REQUEST_SECONDS", "STOP_SECONDS"]

#: The longest the server waits, once told to stop, for its answers to go out (every
#: search is stopped at once and every waiting request answered 503, so they are quick);
#: what is still running then is cancelled.
STOP_SECONDS = 1


def listen(host: str = "127.0.0.1", port: int = 8000) -> socket.socket:
    """Return a socket listening on ``host``:``port`` (port 0: any free port).

    Raises OSError when the address cannot be bound (in use, not this machine's).
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    return socket.create_server((host, port), family=family, backlog=LISTEN_BACKLOG)


def address(sock: socket.socket) -> str:
    """Return the page's address on ``sock``: ``http://127.0.0.1:8000/``."""
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def run(sock: socket.socket, limits: EngineLimits | None = None,
        log_level: str = "warning", *, connections: ConnectionLimits | None = None,
        allowed_hosts: Iterable[str] = ()) -> None:
    """Serve the page and the API on ``sock`` (from `listen`) until Ctrl-C or SIGTERM:
    then stop every search, answer the waiting requests 503 and return, within about
    `STOP_SECONDS`. ``connections`` bounds the open connections and how long a request
    may take to arrive; ``allowed_hosts`` are the names answered besides localhost and
    IP addresses (`hosts.AllowedHosts`).
    """
    import uvicorn

    from .connections import ACCEPT_BACKLOG, GuardedH11Protocol

    app = create_app(limits, allowed_hosts=allowed_hosts)
    guarded = type("Protocol", (GuardedH11Protocol,),
                   {"limits": connections or ConnectionLimits()})
    config = uvicorn.Config(app, log_level=log_level, http=guarded, lifespan="off",
                            backlog=ACCEPT_BACKLOG, timeout_graceful_shutdown=STOP_SECONDS)

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            for listening in sockets or []:  # asyncio set the batch as the backlog
                listening.listen(LISTEN_BACKLOG)

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            app.state.engine.stop()  # the searches end and the queue empties at once
            super().handle_exit(sig, frame)

    # uvicorn raises the Ctrl-C again once it has stopped: stopping is what was asked
    with contextlib.suppress(KeyboardInterrupt):
        Server(config).run(sockets=[sock])
