"""The site commands of `bakers`: hint, generate, daily, grade and min-cells, in text and
JSON, their exit codes, and bad input answered by one line on standard error, exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bakers.board import Board
from bakers.deals import Deal
from bakers.generating import daily
from bakers.solution import Solution
from bakers.solving import solve
from bakers.variants import find_variant
from helpers_cli import Run, one_error_line

# -- hint --------------------------------------------------------------------------------

def test_hint_text_and_json(bakers: Run) -> None:
    code, out, err = bakers("hint", "freecell", "617")
    assert code == 0 and err == ""
    move = out.split()[0]
    board = Board.from_number("freecell", 617)
    board.push_notation(move)
    code, out, _ = bakers("hint", "freecell", "617", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["verdict"] == "win" and data["move"] == move
    after = Board.from_number("freecell", 617)
    after.push_notation(data["move"])
    assert Solution.parse(data["line"]).replay(after).won


def test_hint_after_moves_inline_from_a_file_and_stdin(bakers: Run, tmp_path: Path) -> None:
    deal = Deal.from_number(find_variant("freecell"), 617)
    played = solve(deal).solution
    assert played is not None
    played = played[:3]
    code, out, _ = bakers("hint", "freecell", "617", played.notation(None), "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["verdict"] == "win"
    board = Board(deal)
    for move in played:
        board.push(move)
    assert data["home"] == board.foundation_count()
    board.push_notation(data["move"])
    assert Solution.parse(data["line"]).replay(board).won
    moves = tmp_path / "moves.txt"
    moves.write_text(played.notation(1))
    assert bakers("hint", "freecell", "617", str(moves), "--format", "json")[1] == out
    board_file = tmp_path / "617.board"
    board_file.write_text(deal.to_text())
    assert bakers("hint", "freecell", "-", played.notation(None), "--format", "json",
                  stdin=board_file.read_text())[1] == out
    assert bakers("hint", "freecell", str(board_file), "-", "--format", "json",
                  stdin=played.notation())[1] == out


def test_hint_no_win_unknown_and_won(bakers: Run) -> None:
    code, out, _ = bakers("hint", "freecell", "11982")
    assert code == 1 and out.startswith("no win from here (at most ")
    # Baker's Dozen 477: a dead end from the deal, so the count of cards home is a bound.
    code, out, _ = bakers("hint", "bakers_dozen", "477")
    assert code == 1 and out.startswith("no win from here (at least ")
    code, out, _ = bakers("hint", "freecell", "1", "--max-nodes", "1")
    assert code == 3 and out.startswith("unknown")
    deal = Deal.from_number(find_variant("bakers_game"), 1)
    code, out, _ = bakers("solve", "bakers_game", "1")
    solution = out  # the moves alone
    assert Solution.parse(solution).replay(deal).won
    code, out, _ = bakers("hint", "bakers_game", "1", solution)
    assert code == 0 and out == "already won\n"


@pytest.mark.parametrize(("argv", "words"), [
    (("hint", "freecel", "1"), "unknown game 'freecel'"),
    (("hint", "freecell", "1", "3a 9x"), "'9x' is not a move"),
    (("hint", "freecell", "617", "3a 54"), "illegal move: move 2 '54'"),
    (("hint", "freecell", "-", "-"), "cannot both come from '-'"),
    (("hint", "freecell", "no_such.board"), "no such board file"),
    (("hint", "freecell", "0"), "deal number 0 is out of range"),
    (("hint", "freecell", "1", "--max-nodes", "0"), "argument --max-nodes: 0 is out of range"),
    (("generate", "freecell", "--difficulty", "trivial"), "invalid choice: 'trivial'"),
    (("generate", "freecell", "--max-attempts", "0"), "argument --max-attempts: 0 is out"),
    (("generate", "freecell", "--seed", "-5"), "argument --seed: -5 is out of range"),
    (("generate", "freecell", "--any", "--difficulty", "easy"),
     "--any and --difficulty do not go together"),
    (("daily", "freecell", "2024-02-30"), "date '2024-02-30' does not exist"),
    (("daily", "freecell", "yesterday"), "date 'yesterday' is not a day written YYYY-MM-DD"),
    (("grade", "freecell", "1", "--playouts", "0"), "argument --playouts: 0 is out of range"),
    (("grade", "freecell", "1", "--seed", "-1"), "argument --seed: -1 is out of range"),
    (("min-cells", "freecell", "1", "--max-cells", "9"),
     "argument --max-cells: 9 is out of range (0 to 8)"),
    (("min-cells", "freecell", "XX"), "no such board file"),
])
def test_bad_input_is_one_line_and_exit_2(bakers: Run, argv: tuple[str, ...],
                                          words: str) -> None:
    code, out, err = bakers(*argv)
    assert code == 2 and out == ""
    assert words in one_error_line(err)


# -- generate and daily --------------------------------------------------------------------

def test_generate_prints_a_board_that_reads_back(bakers: Run) -> None:
    code, out, err = bakers("generate", "freecell", "--seed", "42")
    assert code == 0 and err == ""
    # the comment follows the columns, where fc-solve stops reading
    assert out.splitlines()[-2].startswith("# freecell winnable deal: seed ")
    deal = Deal.parse("freecell", out)
    code, out, _ = bakers("generate", "freecell", "--seed", "42", "--format", "json")
    data = json.loads(out)
    assert code == 0 and Deal.parse("freecell", data["deal"]) == deal
    assert data["seed"] == 42 and Solution.parse(data["solution"]).replay(deal).won


def test_generate_a_hard_deal(bakers: Run) -> None:
    code, out, _ = bakers("generate", "bakers_game", "--seed", "3", "--difficulty", "hard",
                          "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["grade"] == "hard"
    code, out, _ = bakers("grade", "bakers_game", "-", "--format", "json", stdin=data["deal"])
    assert code == 0 and json.loads(out)["grade"] == "hard"


def test_generate_out_of_attempts_exits_1(bakers: Run) -> None:
    code, out, err = bakers("generate", "freecell", "--seed", "1", "--max-attempts", "2",
                            "--max-nodes", "1")
    assert code == 1 and out == ""
    assert "no winnable freecell deal in 2 attempts" in one_error_line(err)


def test_generate_any_deal(bakers: Run) -> None:
    code, out, _ = bakers("generate", "bakers_dozen", "--seed", "9", "--any")
    assert code == 0 and out.splitlines()[-2].startswith("# bakers_dozen deal: seed ")
    assert "won in" not in out.splitlines()[-2]
    Deal.parse("bakers_dozen", out)


def test_daily(bakers: Run) -> None:
    code, out, err = bakers("daily", "freecell", "2024-01-01")
    assert code == 0 and err == ""
    assert Deal.parse("freecell", out) == daily("freecell", "2024-01-01")
    assert out.splitlines()[0] == "QS KH JC 2H 3H 9D 9S"
    code, out, _ = bakers("daily", "fc", "2024-01-01", "--format", "json")
    data = json.loads(out)
    assert data["date"] == "2024-01-01" and data["game"] == "freecell"
    code, out, _ = bakers("daily", "bakers_game")
    assert code == 0 and out.splitlines()[-2].startswith("# bakers_game daily deal ")


# -- grade and min-cells -------------------------------------------------------------------

def test_grade(bakers: Run) -> None:
    code, out, _ = bakers("grade", "freecell", "617")
    assert code == 0 and out.split()[0] in ("easy", "medium", "hard")
    code, out, _ = bakers("grade", "freecell", "617", "--format", "json", "--playouts", "4")
    data = json.loads(out)
    assert data["playouts"] == 4 and data["grade"] in ("easy", "medium", "hard")
    code, out, _ = bakers("grade", "freecell", "11982")
    assert code == 1 and out.startswith("impossible")
    code, out, _ = bakers("grade", "freecell", "11982", "--format", "json")
    assert code == 1 and json.loads(out) == {"game": "freecell", "grade": None,
                                              "verdict": "impossible"}


def test_min_cells(bakers: Run) -> None:
    code, out, _ = bakers("min-cells", "freecell", "11982")
    assert code == 0 and out == "5 cells (4: impossible, 5: solved)\n"
    code, out, _ = bakers("min-cells", "freecell", "11982", "--format", "json")
    data = json.loads(out)
    assert data["cells"] == 5 and data["exact"] and data["verdicts"]["4"] == "impossible"
    code, out, _ = bakers("min-cells", "freecell", "11982", "--max-cells", "2")
    assert code == 1 and out.startswith("no win with up to 2 cells")
    code, out, _ = bakers("min-cells", "freecell", "1", "--max-cells", "3", "--max-nodes", "1")
    assert code == 3 and out.startswith("no win found")
