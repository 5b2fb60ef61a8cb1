"""`bakers-fc-solve` against hostile input and Ctrl-C, and fc-solve's everyday options:
huge numbers, boards too big to be boards, lines that would make a scan quadratic, an
interrupted search, the options that tune fc-solve's own search, -mss, -sn and -snx."""

from __future__ import annotations

import io
import os
import resource
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from bakers import Board, Deal, find_variant
from bakers.cli.common import EXIT_INTERRUPTED, MAX_BOARD_BYTES
from bakers.fc_solve.command import EXIT_REFUSED, main
from bakers.fc_solve.output import listed_moves, plain_board, write_run
from bakers.notation import parse_fcs_verbose
from bakers.solution import Solution

MS24 = Deal.from_number("freecell", 24).to_text()
BAKERS_GAME_5 = Deal.from_number("bakers_game", 5).to_text()
HUGE = "9" * 5000

# The command in a child process, with Python's Ctrl-C handler restored (a test run
# started in the background inherits SIGINT ignored).
_CHILD = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
          "from bakers.fc_solve.command import main; sys.exit(main(sys.argv[1:]))")


def _child_env() -> dict[str, str]:
    import bakers

    package = str(Path(bakers.__file__).resolve().parents[1])
    return {**os.environ, "PYTHONPATH": os.pathsep.join(
        [package, *filter(None, [os.environ.get("PYTHONPATH")])])}


@pytest.fixture
def fcs(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch):
    """Run `bakers-fc-solve ARGS` in-process with ``stdin`` (bytes, text or a binary
    stream); return (code, out, err)."""

    def run(*argv: str, stdin: bytes | str | io.RawIOBase = b"") -> tuple[int, str, str]:
        buffer: io.BufferedIOBase
        if isinstance(stdin, io.RawIOBase):
            buffer = io.BufferedReader(stdin)
        else:
            buffer = io.BytesIO(stdin.encode() if isinstance(stdin, str) else stdin)
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(buffer))
        code = main(list(argv))
        out, err = capsys.readouterr()
        assert "Traceback" not in err
        return code, out, err

    return run


def _refused(code: int, out: str, err: str) -> str:
    """Return the one line of a refusal, failing unless it is one."""
    assert code == EXIT_REFUSED and out == ""
    assert err.count("\n") == 1 and err.startswith("bakers-fc-solve: error: "), err
    return err


# --- Huge numbers ------------------------------------------------------------------


@pytest.mark.parametrize("option", ["-mi", "--max-iters", "--iter-output-step",
                                    "--stacks-num", "--freecells-num", "--decks-num", "-mss",
                                    "--max-stored-states"])
def test_a_5000_digit_number_is_refused_naming_its_option(fcs, option: str) -> None:
    line = _refused(*fcs("-m", option, HUGE, stdin=MS24))
    assert f"argument {option}: " in line and "out of range" in line
    assert len(line) < 200  # the number is shown by its start and length


@pytest.mark.parametrize(("option", "value"), [
    ("-mi", "18446744073709551616"),  # 2**64: the engine's counters stop below it
    ("-mss", "0"),
    ("--max-memory", "99999999999999999999T"),
])
def test_numbers_out_of_the_engines_range_name_the_option(fcs, option: str,
                                                           value: str) -> None:
    line = _refused(*fcs("-m", option, value, stdin=MS24))
    assert f"argument {option}: " in line and "limit" not in line


# --- Board size -------------------------------------------------------------------


class _Endless(io.RawIOBase):
    """A stream of ``4C `` without end, like ``/dev/zero``, that counts what is read."""

    def __init__(self) -> None:
        self.given = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        view = memoryview(buffer).cast("B")
        chunk = (b"4C " * (len(view) // 3 + 1))[:len(view)]
        view[:] = chunk
        self.given += len(chunk)
        if self.given > 8 * MAX_BOARD_BYTES:  # stop a reader that reads it all (the test fails)
            return 0
        return len(chunk)


def test_a_board_on_standard_input_is_read_to_the_cap_and_no_further(fcs) -> None:
    stream = _Endless()
    line = _refused(*fcs("-m", "-", stdin=stream))
    assert "board '-' is longer than any board" in line
    # Read through a text wrapper's buffer: at most the cap and one byte, and the
    # buffer's one read ahead.
    assert stream.given <= MAX_BOARD_BYTES + 1 + io.DEFAULT_BUFFER_SIZE


def test_a_board_file_over_the_cap_is_refused_before_it_is_read(fcs, tmp_path: Path) -> None:
    big = tmp_path / "big.board"
    big.write_bytes(MS24.encode() + b"\n" * MAX_BOARD_BYTES)
    line = _refused(*fcs("-m", str(big)))
    assert f"board '{big}' is longer than any board" in line


def _limit_memory() -> None:
    # Under 1 GiB of address space a reader that reads /dev/zero whole fails quickly
    # instead of taking the machine's memory.
    resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))


def test_dev_zero_on_standard_input_is_refused_at_once() -> None:
    with open(os.devnull if not os.path.exists("/dev/zero") else "/dev/zero", "rb") as zero:
        done = subprocess.run([sys.executable, "-c", _CHILD, "-m", "-"], stdin=zero,
                              capture_output=True, text=True, env=_child_env(), timeout=60,
                              preexec_fn=_limit_memory)
    assert done.returncode == EXIT_REFUSED and done.stdout == ""
    assert done.stderr.startswith("bakers-fc-solve: error: board '-' is ")
    assert done.stderr.count("\n") == 1


# --- Linear-time reading -----------------------------------------------------------


def test_a_long_line_of_angle_brackets_is_refused_in_linear_time() -> None:
    # 60,000 '<' under the cap: a scan for face-down cards that goes on past the next '<'
    # from every '<' does 1.8 billion steps (about half a minute); in linear time the
    # run is over as soon as Python has started.
    line = "<" * 60_000 + "\n"
    done = subprocess.run([sys.executable, "-c", _CHILD, "-m"], input=line,
                          capture_output=True, text=True, env=_child_env(), timeout=20)
    assert done.returncode == EXIT_REFUSED and done.stdout == ""
    assert done.stderr.startswith("bakers-fc-solve: error: line 1, column 1: ")
    assert done.stderr.count("\n") == 1 and len(done.stderr) < 200  # the token's start


def test_face_down_cards_between_others_are_still_found(fcs) -> None:
    text = MS24.replace("5H QH 3C", "5H <<QH> 3C", 1)
    line = _refused(*fcs("-m", stdin=text))
    assert "line 2, column 5: face-down card '<QH>'" in line


# --- Ctrl-C ------------------------------------------------------------------------


def test_ctrl_c_during_a_search_prints_no_verdict_and_exits_130() -> None:
    # Baker's Dozen 417 is never decided: the search runs until the Ctrl-C.
    text = Deal.from_number("bakers_dozen", 417).to_text()
    lines: list[str] = []
    searching = threading.Event()
    with subprocess.Popen([sys.executable, "-c", _CHILD, "-m", "-g", "bakers_dozen", "-i",
                           "--iter-output-step", "1", "--max-memory", "1G"],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, env=_child_env(),
                          start_new_session=True) as proc:
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None

        def read() -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                lines.append(line)
                # The first progress lines come before the search, the later ones from it.
                if sum(x.startswith("Iteration: ") for x in lines) >= 2:
                    searching.set()

        reader = threading.Thread(target=read, daemon=True)
        try:
            proc.stdin.write(text)
            proc.stdin.close()
            reader.start()
            assert searching.wait(120), "the search did not start"
            assert proc.poll() is None, "the search ended before the Ctrl-C"
            proc.send_signal(signal.SIGINT)
            proc.wait(60)
            reader.join(10)
            err = proc.stderr.read()
        finally:
            if proc.poll() is None:
                proc.kill()
    assert proc.returncode == EXIT_INTERRUPTED, err
    out = "".join(lines)
    assert "could not solve" not in out and "exceeded" not in out and "solveable" not in out
    assert err == "bakers-fc-solve: interrupted: no answer\n"


# --- fc-solve's everyday options ---------------------------------------------------

#: fc-solve 5.0.0's options that tune its own search, with a value (its man page and
#: the names in libfreecell-solver), and without.
SEARCH_OPTIONS = (
    "-md", "--max-depth", "-tmss", "--trim-max-stored-states",
    "-to", "--tests-order", "-dto", "--depth-tests-order", "-dto2", "--depth-tests-order2",
    "-me", "--method", "-asw", "--a-star-weight", "--a-star-weights", "-seed",
    "-sp", "--set-pruning", "-opt-to", "--optimization-tests-order",
    "--patsolve-x-param", "--patsolve-y-param", "-step", "--soft-thread-step", "--st-name",
    "--prelude", "--scans-synergy", "--flare-name", "--flares-plan", "--flares-choice",
    "-fif", "--flares-iters-factor", "--cache-limit")
SEARCH_FLAGS = ("-c", "--canonized-order-output", "-pi", "--display-parent-iter",
                "--reparent-states", "--calc-real-depth", "-nst", "--next-soft-thread",
                "-nht", "--next-hard-thread", "-nf", "--next-flare", "-ni", "--next-instance")
#: A value of fc-solve's own kind for each option set aside.
_VALUES = {"-to": "01ABCDE", "--tests-order": "[01][23456789]", "-dto": "30,0123",
           "-dto2": "10,[012357]=asw(1)", "-me": "soft-dfs", "--method": "a-star",
           "-asw": "0.5,0,0.3,0,0.2,0", "-seed": "24", "-sp": "r:tf", "--set-pruning": "",
           "-step": "500", "--prelude": "500@foo,1590@bar", "--flares-plan":
           "Run:500@MyFlare,Run:2000@FooFlare", "-fif": "0.5", "-md": "100"}


@pytest.mark.parametrize("option", SEARCH_OPTIONS)
def test_search_tuning_options_are_taken_with_their_value_and_set_aside(fcs,
                                                                        option: str) -> None:
    value = _VALUES.get(option, "name")
    code, out, err = fcs("-m", "-p", option, value, "-sel", stdin=MS24)
    assert code == 0 and out.splitlines()[-3] == "This game is solveable."
    assert err.count("\n") == 1 and err.startswith("bakers-fc-solve: ignored ")
    assert f"{option} {value}" in err


@pytest.mark.parametrize("option", SEARCH_FLAGS)
def test_search_tuning_flags_are_set_aside(fcs, option: str) -> None:
    code, out, err = fcs("-m", option, "-sel", stdin=MS24)
    assert code == 0 and out.splitlines()[-3] == "This game is solveable."
    assert err.count("\n") == 1 and option in err


def test_the_flares_of_a_preset_as_typed(fcs) -> None:
    # One line names every option set aside; -l too, which names a configuration.
    argv = ["-m", "--method", "a-star", "-nst", "--method", "soft-dfs", "-to", "0123467",
            "--st-name", "foo", "-nf", "--flare-name", "dfs", "--flares-plan",
            "Run:500@dfs,CP:", "-l", "lg"]
    code, out, err = fcs(*argv, stdin=MS24)
    assert code == 0 and "This game is solveable." in out
    assert err.count("\n") == 1
    for shown in ("--method a-star", "--method soft-dfs", "-nst", "-nf", "-l lg",
                  "--flares-plan Run:500@dfs,CP:"):
        assert shown in err


def test_a_value_set_aside_is_named_on_one_line(fcs) -> None:
    code, _, err = fcs("-m", "-to", "01\n23", "--prelude", "9@x" * 1000, stdin=MS24)
    assert code == 0 and err.count("\n") == 1
    assert "-to '01\\n23'" in err and "(3000 characters)" in err


def test_an_option_set_aside_without_its_value_is_refused(fcs) -> None:
    line = _refused(*fcs("-m", "-to", stdin=MS24))
    assert "argument -to: expected one argument" in line


def test_reading_options_from_a_file_is_refused_not_ignored(fcs) -> None:
    line = _refused(*fcs("--read-from-file", "4,opts.sh", stdin=MS24))
    assert "--read-from-file" in line


def test_max_stored_states_is_a_limit_on_stored_positions(fcs) -> None:
    def stored(out: str) -> int:
        return int(out.splitlines()[-1].split()[3])

    code, limited, _ = fcs("-m", "-sel", "-g", "bakers_game", "-mss", "2", stdin=BAKERS_GAME_5)
    assert code == 0 and limited.startswith("Iterations count exceeded.\n")
    code, whole, _ = fcs("-m", "-sel", "-g", "bakers_game", "--max-stored-states", "10000000",
                         stdin=BAKERS_GAME_5)
    assert code == 0 and "This game is solveable." in whole
    # The engine looks at its limits every few hundred positions: the limited run
    # stops at the first look, long before the whole search's count.
    assert stored(limited) < stored(whole) / 2


def test_reset_goes_back_to_freecell(fcs) -> None:
    code, out, err = fcs("-m", "-g", "bakers_game", "--reset", "-m", stdin=MS24)
    assert code == 0 and "This game is solveable." in out and err == ""


def test_output_goes_to_the_file_of_dash_o(fcs, tmp_path: Path) -> None:
    target = tmp_path / "24.solution"
    code, out, _ = fcs("-m", "-o", str(target), stdin=MS24)
    assert code == 0 and out == ""
    assert "This game is solveable." in target.read_text(encoding="utf-8")
    line = _refused(*fcs("-m", "--output", str(tmp_path / "no" / "such"), stdin=MS24))
    assert "cannot write the output file" in line


@pytest.mark.parametrize("notation", ["-sn", "-snx"])
@pytest.mark.parametrize("number", [24, 617])
def test_standard_notation_lists_ten_moves_a_line(fcs, notation: str, number: int) -> None:
    text = Deal.from_number("freecell", number).to_text()
    code, out, _ = fcs("-m", notation, stdin=text)
    assert code == 0 and out.startswith("-=-=-=-=-=-=-=-=-=-=-=-\n\n")
    moves, _, verdict = out[len("-=-=-=-=-=-=-=-=-=-=-=-\n\n"):].partition("\n\n")
    assert verdict.startswith("This game is solveable.\n")
    lines = moves.split("\n")
    assert all(line.endswith(" ") for line in lines)
    assert all(len(line.split()) == 10 for line in lines[:-1]) and len(lines[-1].split()) <= 10
    # bakers reads the tokens back (-snx: a count in hexadecimal) and they win.
    replay = Solution.parse(moves).replay(Board(Deal.parse(find_variant("freecell"), text)))
    assert replay.error is None and replay.won


def test_states_and_moves_in_standard_notation(fcs) -> None:
    code, out, _ = fcs("-sam", "-p", "-t", "-snx", stdin=MS24)
    assert code == 0
    assert "\n====================\n\nMove: 4h \n\nFoundations: H-0 C-0 D-0 S-A \n" in out


@pytest.mark.skipif(shutil.which("fc-solve") is None,
                    reason="fc-solve (Debian: freecell-solver-bin) is not installed")
@pytest.mark.parametrize("flags", [("-m", "-sn"), ("-m", "-snx"), ("-sam", "-p", "-t", "-snx"),
                                   ("-sam", "-p", "-sn")], ids=" ".join)
@pytest.mark.parametrize("number", [15, 24, 617])
def test_standard_notation_is_written_as_fc_solve_writes_it(flags: tuple[str, ...],
                                                            number: int) -> None:
    # fc-solve's own line printed by bakers' writer: byte for byte what fc-solve prints
    # (15 has 130 moves, a multiple of ten; 617 fills empty stacks with sequences).
    deal = Deal.from_number("freecell", number)
    env = {**os.environ, "FREECELL_SOLVER_QUIET": "1"}

    def fc_solve(*argv: str) -> str:
        return subprocess.run(["fc-solve", *argv], input=deal.to_text(), capture_output=True,
                              text=True, env=env, timeout=120, check=True).stdout

    line = Solution(parse_fcs_verbose(fc_solve("-m")))
    want = fc_solve(*flags)
    counts = want.splitlines()[-2:]
    out = io.StringIO()
    write_run(out, start=plain_board(deal), moves=listed_moves(deal, line), verdict="solved",
              expanded=int(counts[0].split()[-1].rstrip(".")), stored=int(counts[1].split()[3]),
              show_moves=True, show_states="-sam" in flags, show_exceeded=False,
              tens_as_t="-t" in flags, notation="snx" if "-snx" in flags else "sn")
    assert out.getvalue() == want


# --- The game in messages ----------------------------------------------------------


def test_a_board_of_another_game_names_bakers_fc_solve_and_the_game(fcs) -> None:
    line = _refused(*fcs("-g", "cruel", "-m", stdin=MS24))
    assert line.startswith("bakers-fc-solve: error: cruel has 12 columns, the text has 8")
    line = _refused(*fcs("--stacks-num", "9", "-m", stdin=MS24))
    assert "freecell with --stacks-num 9 has 9 columns" in line
    line = _refused(*fcs("-g", "citadel", "--stacks-num", "10", "-m", stdin=MS24))
    assert "citadel with --stacks-num 10 has 10 columns" in line
