"""The connections of `bakers serve`: how many may be open, and how long a request may
take to arrive.

A client that opens a connection and sends its request slowly, or never finishes it,
holds a socket and a file descriptor while it lasts; enough of them would use up the
process's descriptors and shut every other client out ("Too many open files"). So
`GuardedH11Protocol` (uvicorn's HTTP/1.1 protocol with two limits):

* gives every request `ConnectionLimits.request_seconds` to arrive whole, headers and
  body, from the moment the connection opens or its previous answer was sent; a
  request still arriving then has its connection closed (the app, if reading its body,
  sees the client gone);
* keeps at most `ConnectionLimits.connections` open: a connection beyond them closes
  the one that has waited longest for its request to arrive (an idle or slow client),
  or, when every one is being answered, is itself answered 503 and closed. A client
  that sends its requests promptly is never shut out by slow ones.
"""

from __future__ import annotations

import asyncio
import resource
from dataclasses import dataclass
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from ..errors import InvalidOptionError

__all__ = ["ConnectionLimits", "GuardedH11Protocol", "descriptor_limit", "DESCRIPTOR_RESERVE",
           "ACCEPT_BACKLOG", "LISTEN_BACKLOG", "IN_FLIGHT", "MAX_REQUEST_SECONDS"]

#: File descriptors kept for the process besides its connections: the listening socket,
#: the event loop's, the standard streams, files the page is served from, a log.
DESCRIPTOR_RESERVE = 64
#: The longest a request may be given to arrive (`ConnectionLimits.request_seconds`).
MAX_REQUEST_SECONDS = 3600.0
#: The connections the event loop accepts at a time (uvicorn's ``backlog``, which
#: asyncio takes as its batch). A connection is counted
#: (`GuardedH11Protocol.connection_made`), and one closed to make room for it gives its
#: descriptor back, a few turns of the loop after it was accepted, each turn accepting
#: up to this many more: so `IN_FLIGHT` descriptors are kept besides the connections'
#: limit.
ACCEPT_BACKLOG = 16
#: The listening socket's own backlog, set after asyncio's (connections the kernel
#: holds until they are accepted cost the process no descriptor): a burst of new
#: clients waits there instead of having its connections dropped and tried again.
LISTEN_BACKLOG = 1024
#: Descriptors taken for a moment by connections accepted but not counted yet: four
#: turns of the loop (accepted; transport made; counted, another closed; closed).
IN_FLIGHT = 4 * ACCEPT_BACKLOG

_BUSY = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
         b"content-length: 36\r\nconnection: close\r\n\r\n"
         b"too many connections; try it again\n\n")


def descriptor_limit() -> int:
    """Return the most connections this process can hold open: its soft limit of open
    files (``ulimit -n``) less `DESCRIPTOR_RESERVE` and `IN_FLIGHT` (0 when that
    leaves none)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return 2**20
    return max(0, soft - DESCRIPTOR_RESERVE - IN_FLIGHT)


@dataclass(frozen=True)
class ConnectionLimits:
    """``connections``: the most open at once (default: 512, or what ``ulimit -n``
    allows if less); ``request_seconds``: the longest a request may take to arrive.

    Raises InvalidOptionError for a value out of range, or more connections than the
    process may open files.
    """

    connections: int | None = None
    request_seconds: float = 10.0

    def __post_init__(self) -> None:
        room = descriptor_limit()
        if room < 1:
            raise InvalidOptionError(
                f"this process may open too few files to serve (ulimit -n "
                f"{room + DESCRIPTOR_RESERVE + IN_FLIGHT}); raise it above "
                f"{DESCRIPTOR_RESERVE + IN_FLIGHT}")
        if self.connections is None:
            object.__setattr__(self, "connections", min(512, room))
        value = self.connections
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise InvalidOptionError(f"connections={value!r} must be a positive integer")
        if value > room:
            raise InvalidOptionError(
                f"connections={value} needs more open files than this process may have "
                f"(ulimit -n {room + DESCRIPTOR_RESERVE + IN_FLIGHT}): give at most "
                f"{room}")
        seconds = self.request_seconds
        if (isinstance(seconds, bool) or not isinstance(seconds, int | float)
                or not 0 < seconds <= MAX_REQUEST_SECONDS):
            raise InvalidOptionError(f"request_seconds={seconds!r} must be a positive "
                                     f"number of seconds, at most {MAX_REQUEST_SECONDS:g}")


class GuardedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol under `ConnectionLimits` (given as ``limits``)."""

    limits: ConnectionLimits

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.waiting_since: float | None = None  # None while a request is answered
        self._arrival: asyncio.TimerHandle | None = None

    def _wait_for_request(self) -> None:
        """Start the time a request has to arrive."""
        self._stop_waiting()
        self.waiting_since = self.loop.time()
        self._arrival = self.loop.call_later(self.limits.request_seconds, self._too_slow)

    def _stop_waiting(self) -> None:
        self.waiting_since = None
        if self._arrival is not None:
            self._arrival.cancel()
            self._arrival = None

    def _arriving(self) -> bool:
        """Whether a request is on its way: none answered yet, or its body is unread."""
        cycle = self.cycle
        return cycle is None or cycle.response_complete or cycle.more_body

    def _too_slow(self) -> None:
        self._arrival = None
        if self._arriving() and not self.transport.is_closing():
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._wait_for_request()
        if len(self.connections) > (self.limits.connections or 1):
            self._make_room()

    def _make_room(self) -> None:
        """Close the connection that has waited longest for its request, else this one."""
        waiting = [c for c in self.connections
                   if c is not self and isinstance(c, GuardedH11Protocol)
                   and c.waiting_since is not None and not c.transport.is_closing()]
        if waiting:
            min(waiting, key=lambda c: c.waiting_since or 0.0).transport.close()
            return
        self.transport.write(_BUSY)
        self.transport.close()

    def handle_events(self) -> None:
        super().handle_events()
        if self.cycle is not None and not self._arriving():
            self._stop_waiting()  # the request is whole: the app has it now

    def on_response_complete(self) -> None:
        if not self.transport.is_closing():
            self._wait_for_request()
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_waiting()
        super().connection_lost(exc)

    def shutdown(self) -> None:
        # a request still arriving would hold the stop up to request_seconds
        if self.cycle is not None and not self.cycle.response_complete and self.cycle.more_body:
            self.transport.close()
            return
        super().shutdown()
