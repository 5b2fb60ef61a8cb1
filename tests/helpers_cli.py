"""Running the `bakers` command in-process, for the CLI tests."""

from __future__ import annotations

import io
import sys
from collections.abc import Callable

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
