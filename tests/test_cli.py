"""The `bakers` command: deal, solve and verify in-process, their exit codes, and bad
input answered by exactly one line on standard error, never a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from bakers.board import Board
from bakers.deals import Deal
from bakers.notation import parse_fcs_verbose
from bakers.solution import Solution
from bakers.variants import PRESETS
from helpers_cli import Run, one_error_line

DATA = Path(__file__).resolve().parent / "data"
BOARDS = DATA / "boards"
SOLUTIONS = DATA / "solutions"






def solution_text(out: str, err: str) -> str:
    """Return the moves of `bakers solve` output, checked against the count that its
    verdict line on standard error gives ("solved: ..., N moves")."""
    count = int(err.splitlines()[0].rsplit(", ", 1)[1].split()[0].replace(",", ""))
    assert count == len(Solution.parse(out)), (out, err)
    return out


def assert_wins(text: str, start: Deal | Board) -> None:
    replay = Solution.parse(text).replay(start)
    assert replay.error is None, f"the referee refuses: {replay.error}"
    assert replay.won, f"the solution leaves {replay.board.foundation_count()} cards home"


# -- deal -------------------------------------------------------------------------

@pytest.mark.parametrize("game", list(PRESETS))
def test_deal_fcs_reads_back(bakers: Run, game: str) -> None:
    code, out, err = bakers("deal", game, "617")
    assert (code, err) == (0, "")
    assert Deal.parse(game, out) == Deal.from_number(game, 617)


@pytest.mark.parametrize("game", list(PRESETS))
def test_deal_json_reads_back(bakers: Run, game: str) -> None:
    code, out, err = bakers("deal", game, "617", "--format", "json")
    assert (code, err) == (0, "")
    deal = Deal.from_json(out)
    assert deal == Deal.from_number(game, 617) and deal.number == 617


# -- solve ------------------------------------------------------------------------

def test_solve_bakers_game_617(bakers: Run) -> None:
    code, out, err = bakers("solve", "bakers_game", "617")
    assert code == 0
    assert err.startswith("solved: bakers_game deal 617, "), err
    assert_wins(solution_text(out, err), Deal.from_number("bakers_game", 617))


def test_solve_freecell_11982_is_impossible(bakers: Run) -> None:
    code, out, err = bakers("solve", "freecell", "11982")
    assert (code, out) == (1, "")
    assert err.startswith("impossible: freecell deal 11982\n"), err


def test_solve_on_threads(bakers: Run) -> None:
    code, out, err = bakers("solve", "bakers_dozen", "846", "--threads", "2")
    assert code == 0
    assert err.startswith("solved: bakers_dozen deal 846"), err
    assert_wins(solution_text(out, err), Deal.from_number("bakers_dozen", 846))
    code, out, err = bakers("solve", "freecell", "11982", "--threads", "2")
    assert code == 1 and err.startswith("impossible: freecell deal 11982")
    for threads, words in (("0", "--threads 0 is out of range (1 to 16: "),
                           ("17", "--threads 17 is out of range (1 to 16: ")):
        code, out, err = bakers("solve", "freecell", "1", "--threads", threads)
        assert code == 2 and out == "" and words in one_error_line(err)
    code, out, err = bakers("solve", "bakers_game", "1", "--threads", "2", "--method", "beam")
    assert code == 2 and "runs on one thread" in one_error_line(err)
    code, out, err = bakers("solve", "bakers_game", "2879", "--threads", "2", "--method",
                            "depth-first")
    assert code == 1 and err.startswith("impossible: bakers_game deal 2879"), err


def test_solve_board_file(bakers: Run) -> None:
    board = BOARDS / "ms24.board"
    code, out, err = bakers("solve", "--game", "freecell", str(board))
    assert code == 0
    assert err.startswith("solved: freecell"), err
    assert_wins(solution_text(out, err), Deal.parse("freecell", board.read_text()))


def test_solve_board_from_stdin(bakers: Run) -> None:
    text = (BOARDS / "bakers_dozen_24.board").read_text()
    code, out, err = bakers("solve", "--game", "Baker's Dozen", "-", stdin=text)
    assert code == 0
    assert_wins(solution_text(out, err), Deal.parse("bakers_dozen", text))


def test_solve_json(bakers: Run) -> None:
    code, out, err = bakers("solve", "freecell", "24", "--format", "json")
    assert (code, err) == (0, "")
    assert len(out.splitlines()) == 1, "JSON output is one line"
    data = json.loads(out)
    assert data["verdict"] == "solved" and data["game"] == "freecell"
    for stat in ("expanded", "stored", "peak_bytes", "seconds", "most_home"):
        assert isinstance(data[stat], int | float), f"{stat} missing from {sorted(data)}"
    assert data["moves"] == len(Solution.parse(data["solution"]))
    assert_wins(data["solution"], Deal.from_number("freecell", 24))


def test_solve_json_impossible(bakers: Run) -> None:
    code, out, _ = bakers("solve", "freecell", "11982", "--format", "json")
    data = json.loads(out)
    assert code == 1 and data["verdict"] == "impossible"
    assert data["solution"] is None and data["moves"] is None


@pytest.mark.parametrize("supermoves", [False, True])
def test_solve_fcs_verbose(bakers: Run, supermoves: bool) -> None:
    argv = ["solve", "freecell", "617", "--format", "fcs-verbose"]
    code, out, err = bakers(*argv, *(["--supermoves"] if supermoves else []))
    assert code == 0
    lines = out.splitlines()
    moves = [line for line in lines if line.startswith("Move ")]
    assert moves, out
    for line in moves:
        assert len(parse_fcs_verbose(line)) == 1, f"{line!r} does not parse"
    assert err.splitlines()[0].endswith(f", {len(moves)} moves")
    assert_wins("\n".join(moves), Deal.from_number("freecell", 617))


def test_solve_supermoves(bakers: Run) -> None:
    _, single, single_err = bakers("solve", "bakers_game", "617")
    code, out, err = bakers("solve", "bakers_game", "617", "--supermoves")
    assert code == 0
    compact = Solution.parse(solution_text(out, err))
    plain = Solution.parse(solution_text(single, single_err))
    assert len(compact) < len(plain), "--supermoves should merge some single moves"
    assert any(move.count and move.count > 1 for move in compact)
    deal = Deal.from_number("bakers_game", 617)
    assert_wins(solution_text(out, err), deal)
    assert_wins(compact.expand(deal).notation(), deal)


def test_solve_node_limit_is_unknown(bakers: Run) -> None:
    code, out, err = bakers("solve", "freecell", "11982", "--max-nodes", "5")
    assert (code, out) == (3, "")
    assert err.startswith("unknown (node limit): freecell deal 11982\n"), err


def test_solve_limits_accept_memory_and_seconds(bakers: Run) -> None:
    code, out, err = bakers("solve", "freecell", "1", "--max-memory", "512M",
                            "--max-seconds", "30", "--max-states", "1000000")
    assert code == 0 and err.startswith("solved: "), err


# -- verify -----------------------------------------------------------------------

@pytest.mark.parametrize(("game", "number", "file"), [
    ("freecell", "24", "freecell_ms24_fcsolve_verbose.txt"),
    ("freecell", "24", "freecell_ms24_fcsolve_standard.txt"),
    ("bakers_game", "1", "bakers_game_ms1_fcsolve_standard.txt"),
    ("bakers_game", "1", "bakers_game_ms1_fcsolve_verbose.txt"),
])
def test_verify_fcsolve_solutions(bakers: Run, game: str, number: str, file: str) -> None:
    code, out, err = bakers("verify", game, number, str(SOLUTIONS / file))
    assert (code, err) == (0, ""), out
    assert out.startswith("valid") and "52 cards home" in out, out


def test_verify_board_file_and_solution_from_stdin(bakers: Run) -> None:
    text = (SOLUTIONS / "freecell_ms24_fcsolve_standard.txt").read_text()
    code, out, err = bakers("verify", "freecell", str(BOARDS / "ms24.board"), "-", stdin=text)
    assert (code, err) == (0, ""), out


@pytest.mark.skipif(not Path("/dev/fd").is_dir(), reason="needs /dev/fd")
def test_verify_solution_from_a_pipe_path(bakers: Run, tmp_path: Path) -> None:
    """A shell's <(...) names a pipe, not a regular file: it is read all the same."""
    text = (SOLUTIONS / "freecell_ms24_fcsolve_standard.txt").read_text()
    read, write = os.pipe()
    with os.fdopen(write, "w") as w:
        w.write(text)
    try:
        code, out, err = bakers("verify", "freecell", "24", f"/dev/fd/{read}")
    finally:
        os.close(read)
    assert (code, err) == (0, ""), out
    code, _, err = bakers("verify", "freecell", "24", str(tmp_path))
    assert code == 2 and "is a directory" in one_error_line(err)


def test_verify_legal_prefix_is_not_won(bakers: Run, tmp_path: Path) -> None:
    moves = Solution.parse((SOLUTIONS / "freecell_ms24_fcsolve_standard.txt").read_text())
    prefix = tmp_path / "prefix.txt"
    prefix.write_text(Solution(moves[:20]).notation())
    code, out, err = bakers("verify", "freecell", "24", str(prefix))
    assert (code, err) == (1, "")
    assert "not won" in out and "20" in out, out


def test_verify_illegal_move(bakers: Run, tmp_path: Path) -> None:
    path = tmp_path / "illegal.txt"
    path.write_text("6a 6b\n6a 6c\n")
    code, out, err = bakers("verify", "freecell", "24", str(path))
    assert code == 2 and out == ""
    line = one_error_line(err)
    assert "move 3" in line and "'6a'" in line, line


def test_verify_unparsable_move(bakers: Run, tmp_path: Path) -> None:
    path = tmp_path / "garbled.txt"
    path.write_text("6a 6b zz 6c\n")
    code, out, err = bakers("verify", "freecell", "24", str(path))
    assert code == 2 and out == ""
    line = one_error_line(err)
    assert "move 3" in line and "'zz'" in line, line


def test_verify_unparsable_verbose_move(bakers: Run, tmp_path: Path) -> None:
    path = tmp_path / "garbled.txt"
    path.write_text("Move a card from stack 3 to freecell 0\nMove a card from stack 9 to\n")
    code, _, err = bakers("verify", "freecell", "24", str(path))
    assert code == 2
    assert "Move a card from stack 9 to" in one_error_line(err)


# -- bad input: exit 2 and one line naming the token -------------------------------

@pytest.fixture
def boards(tmp_path: Path) -> dict[str, str]:
    """Return paths of broken board files by what is wrong with them."""
    good = (BOARDS / "ms24.board").read_text().splitlines()
    files = {
        "malformed": "\n".join([good[0].replace("2H", "1X"), *good[1:]]),
        "duplicate": "\n".join([good[0].replace("2H", "4C"), *good[1:]]),
        "columns": "\n".join(good[:7]),
    }
    paths = {}
    for name, text in files.items():
        paths[name] = str(tmp_path / f"{name}.board")
        Path(paths[name]).write_text(text + "\n")
    paths["binary"] = str(tmp_path / "binary.board")
    Path(paths["binary"]).write_bytes(b"\xff\xfe\x00JD")
    paths["missing"] = str(tmp_path / "missing.board")
    return paths


BAD_INPUT = [
    (["deal", "nogame", "1"], "'nogame'"),
    (["solve", "nogame", "1"], "'nogame'"),
    (["verify", "nogame", "1"], "'nogame'"),
    (["deal", "freecell", "0"], "0"),
    (["deal", "freecell", str(2**33)], str(2**33)),
    (["solve", "freecell", "0"], "0"),
    (["solve", "freecell", str(2**33)], str(2**33)),
    (["solve", "bakers_game", "1" * 5000], "5000 digits"),
    (["deal", "freecell", "abc"], "'abc'"),
    (["solve", "freecell", "\u00b2"], "'\u00b2'"),
    (["solve", "--game", "freecell", "{malformed}"], "'1X'"),
    (["solve", "--game", "freecell", "{duplicate}"], "'4C'"),
    (["solve", "--game", "freecell", "{columns}"], "8 columns"),
    (["solve", "--game", "freecell", "{binary}"], "UTF-8"),
    (["solve", "--game", "freecell", "{missing}"], "missing.board"),
    (["verify", "freecell", "{duplicate}", "-"], "'4C'"),
    (["verify", "freecell", "24", "{missing}"], "missing.board"),
    (["verify", "freecell", "-", "-"], "'-'"),
    (["solve", "freecell", "1", "--max-memory", "lots"], "'lots'"),
    (["solve", "freecell", "1", "--max-nodes", "-3"], "argument --max-nodes: -3"),
    (["solve", "freecell", "1", "--max-nodes", "many"], "argument --max-nodes: 'many'"),
    (["solve", "freecell", "1", "--max-seconds", "0"], "argument --max-seconds: 0"),
    (["solve", "freecell", "1", "--format", "bogus"], "'bogus'"),
    (["deal", "freecell", "1", "--format", "bogus"], "'bogus'"),
    (["solve", "freecell", "1", "--frobnicate"], "--frobnicate"),
    (["solve", "freecell", "1", "x.board"], "'x.board'"),
    (["solve", "freecell", "1", "2", "--checkpoint", "x.ck"], "--checkpoint saves one search"),
    (["deal", "freecell", "1", "--seed", "2"], "not both"),
    (["solve", "freecell"], "GAME"),
    (["solve"], "required"),
    (["deal", "freecell"], "number"),
    (["verify"], "required"),
    (["launch"], "'launch'"),
]


@pytest.mark.parametrize(("argv", "token"), BAD_INPUT, ids=[" ".join(a)[:40] or "(none)"
                                                            for a, _ in BAD_INPUT])
def test_bad_input_is_one_line(bakers: Run, boards: dict[str, str], argv: list[str],
                               token: str) -> None:
    code, out, err = bakers(*(arg.format(**boards) for arg in argv), stdin="")
    assert code == 2, f"exit {code}, stderr {err!r}"
    assert out == ""
    line = one_error_line(err)
    assert line.startswith("bakers: "), line
    assert token in line, f"{token!r} is not named in {line!r}"


def test_missing_core_is_one_line(bakers: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    import bakers as package

    monkeypatch.setitem(sys.modules, "bakers._core", None)
    monkeypatch.delattr(package, "_core", raising=False)
    code, out, err = bakers("solve", "freecell", "1")
    assert (code, out) == (2, "")
    assert "pip install ." in one_error_line(err)


# -- the installed console script -------------------------------------------------

SCRIPT = Path(sys.executable).with_name("bakers")


def run_script(*argv: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    if not SCRIPT.exists():
        pytest.skip(f"no console script at {SCRIPT}")
    return subprocess.run([str(SCRIPT), *argv], capture_output=True, text=True, timeout=60,
                          check=False, **kwargs)  # type: ignore[call-overload]


def test_console_script_solves() -> None:
    done = run_script("solve", "bakers_game", "617")
    assert done.returncode == 0
    assert_wins(solution_text(done.stdout, done.stderr), Deal.from_number("bakers_game", 617))


def test_console_script_bad_input() -> None:
    done = run_script("solve", "--game", "freecell", "no/such/board.txt")
    assert done.returncode == 2 and done.stdout == ""
    assert "'no/such/board.txt'" in one_error_line(done.stderr)


def test_console_script_closed_stdout() -> None:
    if not SCRIPT.exists():
        pytest.skip(f"no console script at {SCRIPT}")
    argv = [str(SCRIPT), "solve", "bakers_dozen", "24", "--format", "fcs-verbose"]
    with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.close()
        err = proc.stderr.read().decode()
        code = proc.wait(timeout=60)
    assert "Traceback" not in err and "Error" not in err, err
    assert code in (0, 141), f"exit {code}"


def test_module_runs_as_python_m_bakers() -> None:
    done = subprocess.run([sys.executable, "-m", "bakers", "--version"], capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0 and done.stdout.startswith("bakers "), done


def test_solve_with_other_cells(bakers: Run) -> None:
    # FreeCell 27 wins with four cells and is impossible with one.
    code, out, err = bakers("solve", "freecell", "27", "--cells", "1", "--quiet")
    assert (code, out) == (1, "")
    assert err.startswith("impossible: freecell deal 27 with 1 cell\nexpanded ")
    code, out, _ = bakers("solve", "freecell", "27", "--cells", "2", "--quiet", "--format", "json")
    assert code == 0 and json.loads(out)["verdict"] == "solved"
    for bad in ("-1", "9"):
        code, _, err = bakers("solve", "freecell", "27", "--cells", bad)
        assert code == 2
        assert one_error_line(err) == (f"bakers: error: argument --cells: {bad} is out of "
                                       f"range (0 to 8)")
