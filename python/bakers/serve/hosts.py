"""The names `bakers serve` answers to: a request whose ``Host`` is another name is
refused (400) before the app sees it.

A web page on another site can make the player's browser send requests to the server
(a cross-site form post, or a name of its own that its DNS later points at 127.0.0.1:
"DNS rebinding"); such a request carries that site's name in ``Host``. A request to an
address written as an IP (``127.0.0.1:8000``, ``[::1]:8000``, ``192.168.1.5``) cannot
come from a rebound name, so IP addresses are always answered, as is ``localhost``;
any other name only when the server was started with it (``--allowed-host NAME``, the
site's own name behind its reverse proxy).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable

from starlette.types import ASGIApp, Receive, Scope, Send

from .responses import error

__all__ = ["AllowedHosts", "LOOPBACK_NAMES", "check_host_name", "host_name"]

#: The names answered without --allowed-host (besides every IP address).
LOOPBACK_NAMES = ("localhost",)

# a DNS name: labels of letters, digits and hyphens (a leading '*.' is not taken)
_NAME = re.compile(r"(?=.{1,253}\Z)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}"
                   r"[a-z0-9])?)*\.?", re.ASCII)


def host_name(header: str) -> str:
    """Return the name of a ``Host`` header (its port and an IPv6 address's brackets
    dropped, lower case): ``'[::1]:8000'`` gives ``'::1'``."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:header.find("]")] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def check_host_name(name: str) -> str:
    """Return ``name`` (a DNS name or an IP address) in lower case, its final dot dropped.

    Raises ValueError naming it when it is neither.
    """
    text = name.strip().lower()
    if _is_ip(text):
        return text
    if not _NAME.fullmatch(text):
        raise ValueError(f"{name!r} is not a host name (like play.example.org)")
    return text.rstrip(".")


class AllowedHosts:
    """ASGI middleware: pass on a request whose ``Host`` is an IP address, a name of
    `LOOPBACK_NAMES` or one of ``names``; answer any other with 400."""

    def __init__(self, app: ASGIApp, names: Iterable[str] = ()) -> None:
        self.app = app
        self.names = frozenset((*LOOPBACK_NAMES, *(check_host_name(n) for n in names)))

    def allows(self, header: str) -> bool:
        """Return whether a request with this ``Host`` header is answered."""
        name = host_name(header).rstrip(".")
        return name in self.names or _is_ip(name)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        header = next((value.decode("latin-1") for key, value in scope["headers"]
                       if key == b"host"), "")
        if self.allows(header):
            await self.app(scope, receive, send)
            return
        response = error(400, f"this server does not answer to the host {header[:60]!r}: "
                              f"start it with --allowed-host NAME for a site's own name")
        await response(scope, receive, send)
