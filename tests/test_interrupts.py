"""Ctrl-C is an interrupt everywhere: a command that searches stops with no answer (in
Python: KeyboardInterrupt, or a result marked interrupted), never with another answer
(the next attempt's deal, another score, another deal of the day)."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Iterator

import pytest
from bakers import generating, grade, hint
from bakers.board import Board
from bakers.deals import Deal
from bakers.generating import daily, generate
from bakers.limits import Limits
from helpers_cli import interrupt_cli

# Long runs, whatever the machine: 10,000 playouts take minutes (each with a search of
# up to 5,000 positions), and Baker's Dozen 417 is never decided.
UNDECIDED = Deal.from_number("bakers_dozen", 417)
PLAYOUTS = 10_000


@pytest.fixture(autouse=True)
def _ctrl_c_raises() -> Iterator[None]:
    """Make SIGINT raise KeyboardInterrupt here, as at a terminal, even when the test run
    was started with SIGINT ignored (a background job of a shell, nohup): Python then
    leaves it ignored, and no search would ever see the signal."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _interrupted_after(seconds: float, call: Callable[[], object]) -> object:
    """Return what ``call`` returns, or "interrupted" when the SIGINT sent to this
    process ``seconds`` after the start raises KeyboardInterrupt."""
    timer = threading.Timer(seconds, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        return call()
    except KeyboardInterrupt:
        return "interrupted"
    finally:
        timer.cancel()


def test_generate_raises_at_ctrl_c() -> None:
    made = _interrupted_after(0.5, lambda: generate("bakers_dozen", seed=145, difficulty="hard",
                                                    playouts=PLAYOUTS))
    assert made == "interrupted"


def test_grade_raises_at_ctrl_c() -> None:
    assert _interrupted_after(0.5, lambda: grade(Deal.from_number("freecell", 617),
                                                 playouts=PLAYOUTS)) == "interrupted"


def test_hint_marks_its_answer_interrupted() -> None:
    answer = _interrupted_after(0.5, lambda: hint(Board(UNDECIDED), remember=False,
                                                  limits=Limits(seconds=60, memory="1G")))
    if answer != "interrupted":  # (the signal may land between two searches' polls)
        assert answer.verdict == "unknown" and answer.reason == "interrupted"  # type: ignore[attr-defined]


def test_daily_never_takes_the_next_attempt(monkeypatch: pytest.MonkeyPatch) -> None:
    # The daily deal goes through generate: a search stopped by Ctrl-C ends it, where it
    # once counted as a failed attempt and gave the next attempt's deal.
    real = generating.solve

    def stopped(*args, **kwargs):  # type: ignore[no-untyped-def]
        result = real(*args, **kwargs)
        return result.__class__(**{**result.__dict__, "verdict": "unknown",
                                   "reason": "interrupted", "solution": None})

    monkeypatch.setattr(generating, "solve", stopped)
    with pytest.raises(KeyboardInterrupt):
        daily("freecell", "2024-05-17")


@pytest.mark.parametrize("argv", [
    ("generate", "bakers_dozen", "--seed", "145", "--difficulty", "hard", "--playouts", "10000"),
    ("grade", "freecell", "617", "--playouts", "10000"),
    ("hint", "bakers_dozen", "417", "--max-seconds", "60", "--max-memory", "1G"),
], ids=lambda argv: argv[0])
def test_cli_stops_with_no_answer_at_ctrl_c(argv: tuple[str, ...]) -> None:
    ended = interrupt_cli(list(argv), settle=1.5)  # the import and the start of the search
    stdout, stderr = ended.stdout, ended.stderr
    assert ended.returncode == 3, (stdout, stderr)
    assert "Traceback" not in stderr
    if argv[0] == "hint":
        assert stdout.startswith("unknown (interrupted)")
    else:
        assert stdout == "" and stderr == "bakers: interrupted: no answer\n"
