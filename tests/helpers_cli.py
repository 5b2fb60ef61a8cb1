"""Running the `bakers` command in-process, for the CLI tests."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from bakers.cli import main

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def bakers(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Run:
    """Return a function that runs `bakers ARGS` in-process (``stdin=`` text for '-')
    and returns its exit code, standard output and standard error (never a traceback)."""

    def run(*argv: str, stdin: str | None = None) -> tuple[int, str, str]:
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        try:
            code = main(list(argv))
        except SystemExit as exc:  # argparse's own exits (usage errors, --version)
            code = exc.code
        out, err = capsys.readouterr()
        assert "Traceback" not in err, f"bakers {' '.join(argv)} printed a traceback:\n{err}"
        return code, out, err

    return run


def one_error_line(err: str) -> str:
    """Return the single line of ``err``, failing unless there is exactly one."""
    lines = err.splitlines()
    assert len(lines) == 1 and err.endswith("\n"), f"expected one line on stderr, got {err!r}"
    return lines[0]


def interrupt_on_cluster(argv: list[str], client: Any, cwd: Path) -> tuple[int, str]:
    """Run `bakers ARGV` in a child process, send it Ctrl-C once a chunk of the run is
    running on ``client``'s cluster, and return its exit code and standard error."""
    # SIGINT may be ignored in a process started in the background; restore Python's
    # handler so that the child behaves as a program in a terminal.
    code = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
            "from bakers.cli import main; sys.exit(main(sys.argv[1:]))")
    proc = subprocess.Popen([sys.executable, "-c", code, *argv], cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not any(client.processing().values()):
            time.sleep(0.02)
        time.sleep(1.0)
        assert proc.poll() is None, "the run ended before it could be interrupted"
        proc.send_signal(signal.SIGINT)
        _, stderr = proc.communicate(timeout=40)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    return proc.returncode, stderr


def kill_a_busy_worker(client: Any, pids: dict[str, int]) -> str:
    """Kill (SIGKILL) a worker of ``client``'s cluster that is running a chunk now and
    return its address; ``pids`` maps the workers' addresses to their process ids."""
    victim = None
    deadline = time.monotonic() + 10
    while victim is None and time.monotonic() < deadline:
        busy = [address for address, keys in client.processing().items() if keys]
        victim = busy[0] if busy else None
    assert victim is not None, "no worker was running a chunk"
    os.kill(pids[victim], signal.SIGKILL)
    return victim
