"""`bakers serve`: the games in a browser, with the engine's hints (the ``serve`` extra).

`create_app` returns the ASGI app (Starlette); `listen` opens its socket and `run`
serves the app on it with uvicorn.
"""

from __future__ import annotations

import socket

from .app import MAX_BODY, create_app
from .engine import EngineLimits

__all__ = ["create_app", "listen", "run", "address", "EngineLimits", "MAX_BODY"]


def listen(host: str = "127.0.0.1", port: int = 8000) -> socket.socket:
    """Return a socket listening on ``host``:``port`` (port 0: any free port).

    Raises OSError when the address cannot be bound (in use, not this machine's).
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    return socket.create_server((host, port), family=family, backlog=512)


def address(sock: socket.socket) -> str:
    """Return the page's address on ``sock``: ``http://127.0.0.1:8000/``."""
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def run(sock: socket.socket, limits: EngineLimits | None = None,
        log_level: str = "warning") -> None:
    """Serve the page and the API on ``sock`` (from `listen`) until interrupted."""
    import uvicorn

    config = uvicorn.Config(create_app(limits), log_level=log_level)
    uvicorn.Server(config).run(sockets=[sock])
