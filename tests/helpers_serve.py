"""A real `bakers serve` in a child process on a free loopback port, for the tests that
need real sockets (slow and vanishing clients, Ctrl-C)."""

from __future__ import annotations

import os
import re
import resource
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

# as in helpers_cli: Ctrl-C raises KeyboardInterrupt in the child even when the tests
# were started with SIGINT ignored (a background job)
_CHILD = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
          "from bakers.cli import main; sys.exit(main(sys.argv[1:]))")


@dataclass
class Served:
    """A running server: its process, port and what it has written on standard error."""

    process: subprocess.Popen[str]
    port: int
    _err: list[str] = field(default_factory=list)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stderr(self) -> str:
        """Return what the server has written on standard error so far."""
        return "".join(self._err)

    def connect(self) -> socket.socket:
        return socket.create_connection(("127.0.0.1", self.port), timeout=10)

    def interrupt(self, within: float = 30.0) -> float:
        """Send Ctrl-C; return the seconds until the process ended (at most ``within``)."""
        started = time.monotonic()
        self.process.send_signal(signal.SIGINT)
        self.process.wait(timeout=within)
        return time.monotonic() - started


@contextmanager
def served(*argv: str, open_files: int | None = None) -> Iterator[Served]:
    """Run `bakers serve --port 0 ARGV` (with at most ``open_files`` descriptors) until
    the block ends, then stop it (Ctrl-C, else kill)."""
    def limit() -> None:
        if open_files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, open_files))

    process = subprocess.Popen([sys.executable, "-c", _CHILD, "serve", "--port", "0", *argv],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True, preexec_fn=limit,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert process.stdout is not None and process.stderr is not None
    line = process.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if match is None:
        process.kill()
        raise AssertionError(f"the server did not start: {line!r} {process.stderr.read()!r}")
    server = Served(process, int(match.group(1)))
    reader = threading.Thread(target=lambda: server._err.extend(iter(process.stderr.readline, "")),
                              daemon=True)
    reader.start()
    try:
        yield server
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        reader.join(timeout=5)
        process.stdout.close()
        process.stderr.close()


def hold_hints(engine: object) -> tuple[threading.Event, threading.Event]:
    """Make every hint of ``engine`` (a `bakers serve` app's engine) wait, holding its
    worker, until the second event returned is set (10 s at most); the first is set when
    a hint has begun waiting."""
    entered, release = threading.Event(), threading.Event()
    real_hint = engine.hint  # type: ignore[attr-defined]

    def held_hint(board: object) -> object:
        entered.set()
        release.wait(10)
        return real_hint(board)

    engine.hint = held_hint  # type: ignore[attr-defined]
    return entered, release
