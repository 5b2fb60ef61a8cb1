"""Everything bakers writes, bakers reads back, and its board text fc-solve reads too:
`deal`, `generate` and `daily` in both formats, `solve`'s solutions in its three
formats, `verify --format json`, several deals in one `solve`."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from bakers import Board, Deal, Solution, generate
from helpers_cli import Run, one_error_line

FC_SOLVE = shutil.which("fc-solve")


def _fc_solve_reads(game: str, path: Path) -> None:
    """Assert that fc-solve (5.x) solves the board file ``path`` of ``game`` as given."""
    if FC_SOLVE is None:
        pytest.skip("fc-solve is not installed")
    done = subprocess.run([FC_SOLVE, "-g", game, str(path)], capture_output=True, text=True,
                          timeout=120, check=False)
    assert "This game is solveable" in done.stdout, done.stdout[-300:] + done.stderr


@pytest.mark.parametrize("command", [("generate", "--seed", "7"), ("daily", "2024-01-01")])
def test_generated_board_text_is_read_by_every_reader(bakers: Run, tmp_path: Path,
                                                      command: tuple[str, ...]) -> None:
    code, out, _ = bakers(command[0], "bakers_game", *command[1:])
    path = tmp_path / "gen.txt"
    path.write_text(out)
    assert code == 0 and out.splitlines()[-1].startswith("# bakers deal bakers_game --seed ")
    _fc_solve_reads("bakers_game", path)
    code, moves, _ = bakers("solve", "--game", "bakers_game", str(path))
    assert code == 0
    (tmp_path / "moves.txt").write_text(moves)
    assert bakers("verify", "bakers_game", str(path), str(tmp_path / "moves.txt"))[0] == 0
    assert bakers("hint", "bakers_game", str(path), moves.split()[0])[0] == 0
    # the seed in the comment deals it again
    seed = out.splitlines()[-1].split()[-4]
    code, again, _ = bakers("deal", "bakers_game", "--seed", seed)
    assert code == 0 and Deal.parse("bakers_game", again) == Deal.parse("bakers_game", out)


@pytest.mark.parametrize("command", [("generate", "--seed", "3"), ("daily", "2024-01-01")])
def test_generated_json_is_read_by_every_reader(bakers: Run, tmp_path: Path,
                                                command: tuple[str, ...]) -> None:
    code, out, _ = bakers(command[0], "freecell", *command[1:], "--format", "json")
    path = tmp_path / "g.json"
    path.write_text(out)
    data = json.loads(out)
    assert code == 0
    deal = Deal.from_json(out)
    assert deal.seed == data["deal_seed"] and deal == Deal.parse("freecell", data["deal"])
    code, moves, _ = bakers("solve", "--game", "freecell", str(path))
    assert code == 0 and Solution.parse(moves).replay(deal).won
    for reader in (("grade", "freecell", str(path), "--playouts", "2"),
                   ("hint", "freecell", str(path))):
        assert bakers(*reader)[0] == 0, reader
    code, again, _ = bakers("deal", "freecell", "--seed", str(data["deal_seed"]),
                            "--format", "json")
    assert code == 0 and Deal.from_json(again) == deal
    if "solution" in data:  # generate's record carries its winning line
        assert bakers("verify", "freecell", str(path), str(path))[0] == 0
        first = Solution.parse(data["solution"])[:3].notation(None)
        (tmp_path / "played.txt").write_text(first)
        assert bakers("hint", "freecell", str(path), str(path))[0] == 0  # won already
        assert bakers("hint", "freecell", str(path), str(tmp_path / "played.txt"))[0] == 0


def test_deal_json_and_text_are_read_by_every_reader(bakers: Run, tmp_path: Path) -> None:
    for fmt in ("fcs", "json"):
        code, out, _ = bakers("deal", "freecell", "617", "--format", fmt)
        path = tmp_path / f"d.{fmt}"
        path.write_text(out)
        assert code == 0
        if fmt == "fcs":
            _fc_solve_reads("freecell", path)
        assert bakers("solve", "--game", "freecell", str(path))[0] == 0
        assert bakers("hint", "freecell", str(path))[0] == 0


@pytest.mark.parametrize("fmt", ["standard", "fcs-verbose", "json"])
def test_every_solution_format_is_read_by_verify_and_hint(bakers: Run, tmp_path: Path,
                                                           fmt: str) -> None:
    code, out, _ = bakers("solve", "freecell", "24", "--format", fmt)
    path = tmp_path / "solution"
    path.write_text(out)
    assert code == 0
    assert bakers("verify", "freecell", "24", str(path))[0] == 0
    code, answer, _ = bakers("hint", "freecell", "24", str(path))
    assert (code, answer) == (0, "already won\n")


def test_verify_speaks_json(bakers: Run) -> None:
    code, out, _ = bakers("verify", "freecell", "617", "-", "--format", "json", stdin="83 2a")
    data = json.loads(out)
    assert code == 1 and data["verdict"] == "not_won" and data["applied"] == 2
    code, out, _ = bakers("verify", "freecell", "617", "-", "--format", "json",
                          stdin="83 1h")
    data = json.loads(out)
    assert code == 2 and data["verdict"] == "illegal"
    assert data["illegal"]["number"] == 2 and data["illegal"]["move"] == "1h"
    code, out, _ = bakers("solve", "freecell", "617")
    code, out, _ = bakers("verify", "freecell", "617", "-", "--format", "json", stdin=out)
    assert code == 0 and json.loads(out)["verdict"] == "won" and json.loads(out)["home"] == 52


def test_solve_takes_several_deals_and_files(bakers: Run, tmp_path: Path) -> None:
    board = tmp_path / "617.board"
    board.write_text(Deal.from_number("freecell", 617).to_text())
    code, out, err = bakers("solve", "freecell", "24", "11982", str(board))
    assert code == 1  # the worst verdict of the three: impossible
    assert [line for line in out.splitlines() if line.startswith("#")] == [
        "# freecell deal 24: solved, 119 moves", "# freecell deal 11982: impossible",
        f"# freecell {board}: solved, 171 moves"]
    assert err.count("solved: ") == 2 and err.count("impossible: ") == 1
    code, out, _ = bakers("solve", "--game", "freecell", str(board), "24", "--format", "json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [row["deal"] for row in rows] == [str(board), "24"]
    code, out, err = bakers("solve", "freecell", "1", "bogus.board")
    assert code == 2 and out == "" and "'bogus.board'" in one_error_line(err)


def test_hint_takes_a_method_and_threads(bakers: Run) -> None:
    code, out, _ = bakers("hint", "bakers_game", "3", "--method", "best-first", "--threads", "2")
    assert code in (0, 1) and out
    code, out, err = bakers("hint", "bakers_game", "3", "--method", "nope")
    assert code == 2 and "'nope'" in one_error_line(err)


def test_printed_boards_read_back() -> None:
    """`Board`'s own text (fc-solve's printed boards: ``--`` for an empty cell)."""
    board = Board.from_number("freecell", 617)
    for move in ("83", "2a", "2b"):
        board.push(move)
    assert Board.from_text("freecell", str(board)) == board


@pytest.mark.parametrize("argv", [
    ("solve", "freecell", "1", "--threads", "0"),
    ("hint", "freecell", "1", "--threads", "0"),
    ("range", "freecell", "1", "2", "--threads", "0"),
])
def test_threads_have_one_wording(bakers: Run, argv: tuple[str, ...]) -> None:
    code, out, err = bakers(*argv)
    assert (code, out) == (2, "")
    assert one_error_line(err).startswith("bakers: error: --threads 0 is out of range (1 to ")


@pytest.mark.parametrize("command", [("solve", "freecell", "1"),
                                     ("range", "freecell", "1", "2")])
def test_memory_has_one_wording(bakers: Run, command: tuple[str, ...]) -> None:
    for size, words in (("99999999999T", "--max-memory 99999999999T is out of range (below "
                                         "2**64 bytes)"),
                        ("10M", "--max-memory 10M is too small: the process holds about ")):
        code, _, err = bakers(*command, "--max-memory", size)
        assert code == 2 and one_error_line(err).startswith(f"bakers: error: {words}")


def test_a_generated_deal_keeps_its_seed_through_json() -> None:
    made = generate("bakers_game", seed=5)
    assert Deal.from_json(json.dumps(made.to_dict())).seed == made.deal.seed
