"""Running the `bakers` command in-process, for the CLI tests."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Interrupted:
    """How a `bakers` child process ended after one Ctrl-C."""

    returncode: int
    stdout: str
    stderr: str
    seconds: float  # from the Ctrl-C to the end of the process


# SIGINT may be ignored in a process started in the background; the child restores
# Python's handler so that it behaves as a program in a terminal.
_CHILD = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
          "from bakers.cli import main; sys.exit(main(sys.argv[1:]))")


def interrupt_cli(argv: list[str], *, ready: Callable[[], bool] | None = None,
                  ready_within: float = 60.0, settle: float = 0.0,
                  answer_within: float = 30.0, cwd: Path | None = None,
                  env: dict[str, str] | None = None) -> Interrupted:
    """Run `bakers ARGV` in a child process and send it Ctrl-C once: when ``ready()``
    holds (or ``ready_within`` seconds have passed) and ``settle`` seconds more. Fails if
    the run ended before the Ctrl-C or did not end ``answer_within`` seconds after it."""
    proc = subprocess.Popen([sys.executable, "-c", _CHILD, *argv], cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True,
                            env=None if env is None else {**os.environ, **env})
    try:
        if ready is not None:
            deadline = time.monotonic() + ready_within
            while time.monotonic() < deadline and proc.poll() is None and not ready():
                time.sleep(0.02)
        time.sleep(settle)
        assert proc.poll() is None, "the run ended before it could be interrupted"
        proc.send_signal(signal.SIGINT)
        started = time.monotonic()
        stdout, stderr = proc.communicate(timeout=answer_within)
        seconds = time.monotonic() - started
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    return Interrupted(proc.returncode, stdout, stderr, seconds)


def interrupt_on_cluster(argv: list[str], client: Any, cwd: Path) -> tuple[int, str]:
    """Run `bakers ARGV` in a child process, send it Ctrl-C once a chunk of the run is
    running on ``client``'s cluster, and return its exit code and standard error."""
    ended = interrupt_cli(argv, ready=lambda: any(client.processing().values()),
                          ready_within=30, settle=1.0, answer_within=40, cwd=cwd)
    return ended.returncode, ended.stderr


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
