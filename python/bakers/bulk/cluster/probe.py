"""Telling a Dask scheduler from any other peer before Dask's client talks to it.

A Dask scheduler greets each connection at once with its handshake: a frame of a few
dozen bytes (an 8-byte little-endian length, then Dask's packed frames: their count and
lengths, then the msgpack of its settings). Dask's own client reads the first 8 bytes
of any peer as a length and allocates it before reading on (an HTTP reply reads as
exabytes), and waits for the greeting with no timeout (a silent peer holds it until the
peer closes). `check_greeting` reads the greeting itself, within the connect timeout and
at most `GREETING_BYTES`, and checks its frames; it answers with the scheduler's own
greeting as its handshake, so that the scheduler logs nothing about the short visit.
"""

from __future__ import annotations

import socket
import struct
import time
from contextlib import suppress

from ...errors import BakersError

__all__ = ["NotAScheduler", "GREETING_BYTES", "check_greeting"]

#: The longest greeting accepted, in bytes: a scheduler's is under a hundred.
GREETING_BYTES = 64 * 1024
#: The most frames in a greeting (a scheduler sends one).
GREETING_FRAMES = 16


class NotAScheduler(BakersError):
    """The peer is not a Dask scheduler (its message says what it did instead)."""


def _read(sock: socket.socket, count: int, deadline: float, seconds: float) -> bytes:
    """Return exactly ``count`` bytes from ``sock`` read before ``deadline``.

    Raises NotAScheduler when the peer closes or stays silent until then.
    """
    data = bytearray()
    while len(data) < count:
        left = deadline - time.monotonic()
        if left <= 0:
            raise NotAScheduler(f"it accepted the connection but sent no Dask greeting "
                                f"within {seconds:g} s")
        sock.settimeout(left)
        try:
            more = sock.recv(count - len(data))
        except TimeoutError:
            continue
        if not more:
            raise NotAScheduler("it closed the connection without a Dask greeting")
        data += more
    return bytes(data)


def _shown(data: bytes) -> str:
    return repr(data[:16]) + ("..." if len(data) > 16 else "")


def check_greeting(host: str, port: int, seconds: float) -> None:
    """Connect to ``host:port`` and check, within ``seconds`` in all, that the peer greets
    as a Dask scheduler does.

    Raises NotAScheduler for a peer that is silent, closes, or sends other bytes; OSError
    when the connection cannot be made.
    """
    deadline = time.monotonic() + seconds
    with socket.create_connection((host, port), timeout=max(seconds, 0.001)) as sock:
        head = _read(sock, 8, deadline, seconds)
        (length,) = struct.unpack("<Q", head)
        if not 16 <= length <= GREETING_BYTES:
            raise NotAScheduler(f"it answered {_shown(head)}, not a Dask greeting")
        body = _read(sock, length, deadline, seconds)
        (frames,) = struct.unpack_from("<Q", body)
        if not 1 <= frames <= GREETING_FRAMES or 8 * (1 + frames) > length:
            raise NotAScheduler(f"it answered {_shown(head + body)}, not a Dask greeting")
        sizes = struct.unpack_from(f"<{frames}Q", body, 8)
        if sum(sizes) != length - 8 * (1 + frames):
            raise NotAScheduler(f"it answered {_shown(head + body)}, not a Dask greeting")
        # The scheduler's own settings are a handshake it accepts: it then sees the
        # connection close as a client leaving, not as a handshake cut short.
        sock.settimeout(max(deadline - time.monotonic(), 0.001))
        with suppress(OSError):
            sock.sendall(head + body)
