"""Freecell Solver's own solutions, in standard notation (``-m -sn``) and verbose
(``-m``), verified by bakers' referee: FreeCell and Baker's Game deals 1..100 when
``fc-solve`` is installed, and a stored ``-sn`` solution that needs a token reread."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from bakers import Board, Deal
from bakers.errors import IllegalMoveError
from bakers.solution import Solution

FC_SOLVE = shutil.which("fc-solve")
needs_fc_solve = pytest.mark.skipif(FC_SOLVE is None,
                                    reason="fc-solve (Debian: freecell-solver-bin) is not "
                                    "installed")
#: FreeCell deals whose -sn solutions (fc-solve 5.0.0, default search) move one card into
#: an empty column with the token of a longer run.
AMBIGUOUS = (8, 12, 22, 29, 32, 60, 69, 74, 76, 86, 96)


def test_an_ambiguous_token_is_reread(data_dir: Path) -> None:
    text = (data_dir / "solutions" / "freecell_ms8_fcsolve_sn.txt").read_text()
    solution = Solution.parse(text)
    start = Board(Deal.from_number("freecell", 8))
    # Read greedily (the largest run that fits), move 59 '38' takes two cards into the
    # empty column 8, and a later move is illegal.
    assert solution[58].notation() == "38"
    greedy = start.copy()
    with pytest.raises(IllegalMoveError):
        for move in solution:
            greedy.push(move)
    replay = solution.replay(start)
    assert replay.error is None and replay.won
    assert (59, 1, 2) in replay.readings
    assert all(count <= largest for _, count, largest in replay.readings)


def test_a_line_that_no_reading_saves_still_fails() -> None:
    solution = Solution.parse("1h 1h")
    replay = solution.replay(Board(Deal.from_number("freecell", 8)))
    assert replay.error is not None and replay.failed_move == 1


def _fc_solve(text: str, *args: str) -> str:
    assert FC_SOLVE is not None
    done = subprocess.run([FC_SOLVE, *args], input=text, capture_output=True, text=True,
                          timeout=60, check=False, env={"FREECELL_SOLVER_QUIET": "1"})
    return done.stdout


def _check(game: str, number: int, *args: str) -> bool:
    """Verify fc-solve's solutions of a deal in both notations; return whether it won."""
    deal = Deal.from_number(game, number)
    start = Board(deal)
    solved = False
    for notation in (["-sn"], []):
        out = _fc_solve(deal.to_text(), "-m", *notation, *args)
        if "This game is solveable." not in out:
            continue
        replay = Solution.parse(out).replay(start)
        assert replay.error is None, f"{game} {number} {notation}: {replay.error}"
        assert replay.won, f"{game} {number} {notation}: not won"
        solved = True
    return solved


@needs_fc_solve
def test_freecell_1_to_100() -> None:
    # fc-solve's "looking glass" configuration: its default search takes 30 s for these.
    assert all(_check("freecell", n, "-l", "lg") for n in range(1, 101))
    assert all(_check("freecell", n) for n in AMBIGUOUS)


@needs_fc_solve
def test_bakers_game_1_to_100() -> None:
    won = sum(_check("bakers_game", n, "-g", "bakers_game", "--max-iters", "300000")
              for n in range(1, 101))
    assert won >= 70  # fc-solve wins 76 of them within the limit


@needs_fc_solve
def test_fixed_width_freecells_as_fc_solve_reads_them() -> None:
    # The fixed-width line with one blank cell before JD: fc-solve puts JD in its first
    # cell, and its solution moves it "from freecell 0".
    deal = Deal.from_number("freecell", 24)
    text = "Freecells:      JD\n" + deal.to_text().replace(" JD\n", "\n", 1)
    out = _fc_solve(text, "-m", "-l", "lg")
    assert "This game is solveable." in out and "from freecell 0" in out
    read = Deal.parse("freecell", text)
    assert [str(c) if c else "-" for c in read.cells] == ["JD", "-", "-", "-"]
    replay = Solution.parse(out).replay(Board(read))
    assert replay.error is None and replay.won


def test_verify_says_how_a_token_was_read(bakers, data_dir: Path) -> None:
    path = data_dir / "solutions" / "freecell_ms8_fcsolve_sn.txt"
    code, out, err = bakers("verify", "freecell", "8", str(path))
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "move 59 '38' read as 1 card into an empty column, not 2: the reading that replays",
        "valid: 98 moves win (52 cards home)"]
