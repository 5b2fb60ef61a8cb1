"""The command line as a newcomer and a breaker use it: round trips between commands,
exit codes that never pass a fault or an undecided deal for an answer, one error
prefix, messages in the flags' words, and no traceback for any bad input."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from bakers.cli.common import RUN_RESERVE, engine_memory, resident_bytes
from helpers_cli import Run, one_error_line


def test_grade_of_an_undecided_deal_says_so(bakers: Run) -> None:
    # Baker's Dozen 417 is never decided within the default 200,000 positions: once
    # "hard (score 100.0 ...)" with exit 0.
    code, out, err = bakers("grade", "bakers_dozen", "417", "--playouts", "2")
    assert code == 3 and out.startswith("undecided: no win found and none ruled out"), out
    code, out, err = bakers("grade", "bakers_dozen", "417", "--playouts", "2", "--format", "json")
    assert code == 3 and json.loads(out)["verdict"] == "unknown"
    code, out, err = bakers("grade", "freecell", "617", "--playouts", "4")
    assert code == 0 and "higher is harder" in out


# -- range --resume: a lock on the file, duplicates named ------------------------------

def test_a_second_run_on_one_file_is_refused_naming_the_first(bakers: Run, tmp_path: Path) -> None:
    # Two runs on one file once wrote 2,990 duplicate rows of 3,000. Baker's Dozen 417 is
    # never decided: the first run holds the file while the second starts.
    out = tmp_path / "rows.tsv"
    code = ("import sys; from bakers.cli import main; sys.exit(main(sys.argv[1:]))")
    first = subprocess.Popen([sys.executable, "-c", code, "range", "bakers_dozen", "417", "417",
                              "--out", str(out), "--max-seconds", "60", "--max-memory", "1G",
                              "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while not (out.exists() and out.stat().st_size) and time.monotonic() < deadline:
            time.sleep(0.05)  # the header is written once the lock is held
        assert first.poll() is None
        for again in (["--resume"], ["--force"]):
            code, stdout, err = bakers("range", "bakers_dozen", "1", "3", "--out", str(out),
                                       "--quiet", *again)
            assert (code, stdout) == (2, "")
            assert f"is being written by process {first.pid}" in one_error_line(err)
        assert out.read_text().count("\n") == 2  # record, header: nothing written twice
    finally:
        first.kill()
        first.communicate()
    code, _, err = bakers("range", "bakers_game", "1", "2", "--out", str(out), "--force",
                          "--quiet")
    assert (code, err) == (0, "")  # the lock went with its process


def test_resume_warns_of_duplicate_rows(bakers: Run, tmp_path: Path) -> None:
    out = tmp_path / "rows.tsv"
    assert bakers("range", "bakers_game", "1", "3", "--out", str(out), "--quiet",
                  "--ordered")[0] == 0
    lines = out.read_text().splitlines(keepends=True)
    out.write_text("".join([*lines, lines[3], lines[3]]))  # deal 2, three times in all
    code, _, err = bakers("range", "bakers_game", "1", "4", "--out", str(out), "--resume",
                          "--quiet")
    assert code == 0
    assert one_error_line(err) == (f"bakers: warning: {str(out)!r} holds 2 duplicate rows "
                                   f"(deals 2); each deal counts once and is not decided again")
    assert out.read_text().count("\tbakers_game\t") == 0 and len(out.read_text().splitlines()) == 8


# -- the newcomer's round trips ----------------------------------------------------------

def _script(*argv: str) -> list[str]:
    """Return the command line that runs `bakers ARGV` with this interpreter."""
    return [sys.executable, "-m", "bakers", *argv]


def test_solve_pipes_into_verify(tmp_path: Path) -> None:
    # Once `'solved:' is not a move`: solve wrote its header to standard output.
    solve = subprocess.Popen(_script("solve", "freecell", "24"), stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL)
    verify = subprocess.run(_script("verify", "freecell", "24", "-"), stdin=solve.stdout,
                            capture_output=True, text=True, timeout=120, check=False)
    assert solve.stdout is not None
    solve.stdout.close()
    assert solve.wait(timeout=120) == 0
    assert (verify.returncode, verify.stderr) == (0, "")
    assert verify.stdout.startswith("valid: ") and "52 cards home" in verify.stdout


def test_solve_to_a_file_and_its_json_verify(bakers: Run, tmp_path: Path) -> None:
    code, out, err = bakers("solve", "freecell", "24")
    assert code == 0 and err.startswith("solved: freecell deal 24, ")
    (tmp_path / "solution.txt").write_text(out)
    assert bakers("verify", "freecell", "24", str(tmp_path / "solution.txt"))[0] == 0
    code, out, _ = bakers("solve", "freecell", "24", "--format", "json")
    (tmp_path / "solution.json").write_text(out)
    code, out, err = bakers("verify", "freecell", "24", str(tmp_path / "solution.json"))
    assert (code, err) == (0, "") and out.startswith("valid: ")
    code, out, _ = bakers("solve", "freecell", "11982", "--format", "json")
    (tmp_path / "none.json").write_text(out)
    code, out, err = bakers("verify", "freecell", "11982", str(tmp_path / "none.json"))
    assert code == 2 and "JSON without a solution (its verdict: impossible)" in one_error_line(err)


@pytest.mark.parametrize("argv", [
    ("solve", "freecell", "{board}"),
    ("solve", "--game", "freecell", "{board}"),
    ("verify", "freecell", "{board}", "{moves}"),
    ("hint", "freecell", "{board}"),
    ("grade", "freecell", "{board}", "--playouts", "2"),
    ("min-cells", "freecell", "{board}", "--max-nodes", "20000"),
], ids=lambda argv: argv[0])
def test_every_board_taking_command_reads_the_json_of_deal(bakers: Run, tmp_path: Path,
                                                           argv: tuple[str, ...]) -> None:
    # Once `not a card: '{'`: the CLI could not read the board it writes.
    code, out, _ = bakers("deal", "freecell", "5", "--format", "json")
    board = tmp_path / "d5.json"
    board.write_text(out)
    moves = tmp_path / "moves.txt"
    moves.write_text(bakers("solve", "freecell", "5")[1])
    code, out, err = bakers(*(arg.format(board=board, moves=moves) for arg in argv))
    assert code in (0, 3) and out, err  # (min-cells: an upper bound within its limit)
    code, _, err = bakers(*(arg.format(board=board, moves=moves).replace("freecell", "bakers_game")
                            for arg in argv))
    assert code == 2 and "is a deal of 'freecell', not of 'bakers_game'" in one_error_line(err)


# -- messages, help, exit codes -----------------------------------------------------------

COMMANDS = ("deal", "verify", "solve", "range", "hint", "generate", "daily", "grade",
            "min-cells", "serve")


def test_plain_bakers_prints_the_help(bakers: Run) -> None:
    code, out, err = bakers()
    assert code == 2 and err == ""
    assert out.startswith("usage: bakers") and all(name in out for name in COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_subcommand_help_describes_it_and_its_arguments(bakers: Run,
                                                              command: str) -> None:
    code, out, _ = bakers(command, "--help")
    assert code == 0
    usage, description, *rest = out.split("\n\n")
    assert len(description.split()) >= 8, f"{command}: {description!r}"
    # Every argument, positional or flag, has words of its own after its name.
    listed = [line for block in rest for line in block.splitlines()[1:]]
    for line in listed:
        if line.startswith("  ") and not line.startswith("   "):
            name = line.split()[0]
            words = line[len(name) + 2:].strip() or next(
                (later.strip() for later in listed[listed.index(line) + 1:]), "")
            assert words, f"{command} {name} has no help"


@pytest.mark.parametrize(("argv", "words"), [
    (("solve", "freecell", "-1"), "deal number -1 is out of range"),
    (("deal", "freecell", "-1"), "deal number -1 is out of range"),
    (("solve", "freecell", "1", "--forget"), "--forget needs --max-memory"),
    (("range", "freecell", "1", "2", "--forget"), "--forget needs --max-memory"),
    (("solve", "freecell", "1", "--checkpoint", "x.ck", "--checkpoint-every", "1e-9"),
     "argument --checkpoint-every: 1e-9 is less than a second"),
    (("solve", "freecell", "1", "--max-seconds", "-1"), "argument --max-seconds: -1 is not"),
    (("solve", "freecell", "1", "--threads", "0"), "--threads 0 is out of range (1 to 16"),
    (("hint", "freecell", "617", "3a 54"), "bakers: error: illegal move: move 2 '54'"),
    (("solve", "freecell", "1", "--threads", "17"), "--threads 17 is out of range (1 to 16"),
    (("solve", "bakers_game", "1", "--threads", "2", "--method", "beam"),
     "--method beam runs on one thread, not --threads 2"),
    (("min-cells", "freecell", "1", "--method", "beam", "--checkpoint", "x"),
     "checkpoint needs --method depth-first on one thread, not --method beam"),
    (("verify", "freecell", "617", "3a 54"), "no such solution file"),
])
def test_messages_use_the_flags_words(bakers: Run, argv: tuple[str, ...], words: str) -> None:
    code, out, err = bakers(*argv)
    assert (code, out) == (2, "")
    line = one_error_line(err)
    assert line.startswith("bakers: error: ") and words in line, line


def test_verify_illegal_move_has_the_one_prefix(bakers: Run, tmp_path: Path) -> None:
    (tmp_path / "bad.txt").write_text("3a 54\n")
    code, out, err = bakers("verify", "freecell", "617", str(tmp_path / "bad.txt"))
    assert (code, out) == (2, "")
    assert one_error_line(err).startswith("bakers: error: illegal move: move 2 '54'")


def test_verify_a_move_to_a_column_the_game_lacks(bakers: Run, tmp_path: Path) -> None:
    # Once a traceback: the check for an ambiguous token looked the column up first.
    (tmp_path / "bad.txt").write_text("19\n")
    code, out, err = bakers("verify", "freecell", "617", str(tmp_path / "bad.txt"))
    assert (code, out) == (2, "")
    assert one_error_line(err) == ("bakers: error: illegal move: move 1 '19': there is no "
                                   "column 9 (freecell has 8)")


def test_plurals(bakers: Run) -> None:
    # FreeCell 1 one move before the end: "a win in 1 move", not "1 moves".
    code, out, _ = bakers("solve", "freecell", "1")
    moves = out.split()
    code, out, _ = bakers("hint", "freecell", "1", " ".join(moves[:-1]))
    assert code == 0 and "(a win in 1 move from here" in out


def test_max_memory_bounds_the_process_in_solve_as_in_range(bakers: Run) -> None:
    for command in ("solve", "range"):
        out = bakers(command, "--help")[1]
        assert "whole process" in " ".join(out.split()), command
    code, _, err = bakers("solve", "freecell", "1", "--max-memory", "20M")
    assert code == 2 and "--max-memory 20M is too small" in one_error_line(err)
    # The search gets the cap less what the process holds (rounded up to 64 MiB, so that
    # a checkpoint's recorded limit is the same run after run).
    share = engine_memory("1G")
    assert 0 < 2**30 - share - resident_bytes() - RUN_RESERVE < 64 * 2**20
    assert share % (64 * 2**20) == 0
    code, out, _ = bakers("solve", "freecell", "1", "--max-memory", "1G", "--format", "json")
    assert code == 0 and json.loads(out)["peak_bytes"] <= share


# -- big inputs are refused at once, long solutions read lazily -----------------------------

def test_a_huge_board_file_is_refused_before_it_is_read(bakers: Run, tmp_path: Path) -> None:
    # Once 117 s and 3.7 GB for a 42 MB file.
    board = tmp_path / "huge.board"
    with board.open("wb") as f:
        f.truncate(42 * 2**20)  # sparse: nothing to read but its size
    started = time.monotonic()
    code, out, err = bakers("solve", "--game", "freecell", str(board))
    assert (code, out) == (2, "") and "longer than any board" in one_error_line(err)
    code, out, err = bakers("solve", "--game", "freecell", "-", stdin="x" * (2**16 + 1))
    assert (code, out) == (2, "") and "longer than any board" in one_error_line(err)
    assert time.monotonic() - started < 5


def test_a_long_solution_stops_at_its_first_illegal_move(bakers: Run, tmp_path: Path) -> None:
    # Once 6.6 s to parse 3 MB before move 2 was found illegal. The token that does not
    # parse at the end would be the error if the rest were read.
    solution = tmp_path / "long.txt"
    solution.write_text("3a 54\n" + "12 21\n" * 500_000 + "zz\n")
    code, out, err = bakers("verify", "freecell", "617", str(solution))
    assert (code, out) == (2, "") and "illegal move: move 2 '54'" in one_error_line(err)


# -- every command with bad input: one line, exit 2, never a traceback ----------------------

HUGE = "9" * 5000
BAD = {
    "deal": [["freecell", HUGE], ["freecell", "٣"], ["freecell", "1", "--format", "x"]],
    "verify": [["freecell", "1", "{json_deep}"], ["freecell", "{json_deep}", "-"],
               ["freecell", "1", "{digits}"], ["freecell", "{binary}"],
               ["freecell", "1", "{nonascii}"]],
    "solve": [["freecell", "1", "--max-nodes", str(2**64)], ["freecell", "1", "--max-states",
              HUGE], ["freecell", "1", "--max-memory", "99999999999999999999T"],
              ["freecell", "{json_deep}"], ["freecell", "{json_digits}"],
              ["freecell", "1", "--threads", HUGE], ["freecell", "1", "--cells", "x"]],
    "range": [["freecell", "1", HUGE], ["freecell", "1", "2", "--max-nodes", str(2**64)],
              ["freecell", "-5", "2"], ["freecell", "1", "2", "--max-seconds", "nan"]],
    "hint": [["freecell", "1", HUGE + "-h"], ["freecell", "1", "3ａ"],
             ["freecell", "1", "--max-nodes", str(10**30)], ["freecell", "{json_deep}"],
             ["freecell", "1", "{digits}"]],
    "generate": [["freecell", "--seed", HUGE], ["freecell", "--max-attempts", str(2**64)],
                 ["freecell", "--playouts", "10001"], ["freecell", "--max-nodes", "0"]],
    "daily": [["freecell", "2024-13-01"], ["freecell", "٢٠٢٤-٠١-٠١"]],
    "grade": [["freecell", "1", "--playouts", HUGE], ["freecell", "{json_deep}"],
              ["freecell", "1", "--seed", "-1"], ["freecell", "1", "Aſ"]],
    "min-cells": [["freecell", "1", "--max-cells", "99"], ["freecell", "{json_digits}"],
                  ["freecell", "1", "--max-nodes", str(2**64)]],
}


@pytest.fixture
def bad_files(tmp_path: Path) -> dict[str, str]:
    files = {"json_deep": "[" * 100_000, "json_digits": '{"game": "freecell", "number": '
             + HUGE + "}", "digits": "3a " + HUGE + "-h\n", "nonascii": "3a ٣h\n"}
    paths = {}
    for name, text in files.items():
        (tmp_path / name).write_text(text)
        paths[name] = str(tmp_path / name)
    (tmp_path / "binary").write_bytes(b"\xff\xfe{")
    paths["binary"] = str(tmp_path / "binary")
    return paths


@pytest.mark.parametrize(("command", "args"), [(c, a) for c, bad in BAD.items() for a in bad],
                         ids=lambda v: v if isinstance(v, str) else " ".join(v)[:30])
def test_every_command_with_bad_input(bakers: Run, bad_files: dict[str, str], command: str,
                                      args: list[str]) -> None:
    code, out, err = bakers(command, *(arg.format(**bad_files) for arg in args))
    assert (code, out) == (2, ""), err
    line = one_error_line(err)
    assert line.startswith("bakers: error: ") and len(line) < 400, line
