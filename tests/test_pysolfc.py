"""PySolFC, unchanged, runs `bakers-fc-solve` as its ``fc-solve``: its own game objects,
its own solver client (``FreeCellSolver_Hint.computeHints``) and its own rules checking
every move it is told to play."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers_pysolfc import (
    Dialog,
    card_text,
    cards_home,
    dealt_game,
    load_pysolfc,
    pysolfc_missing,
    replay_hints,
)

pytestmark = pytest.mark.skipif(pysolfc_missing() is not None,
                                reason=pysolfc_missing() or "")


@pytest.fixture
def hint_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """PySolFC's ``pysollib.hint``, with `bakers-fc-solve` first on PATH as ``fc-solve``
    and PySolFC's memory of the solver's version cleared (so it probes again)."""
    script = Path(sys.executable).with_name("bakers-fc-solve")
    found = script if script.exists() else shutil.which("bakers-fc-solve")
    if found is None:
        pytest.skip("the bakers-fc-solve command is not installed")
    (tmp_path / "fc-solve").symlink_to(found)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    module = load_pysolfc()
    monkeypatch.setattr(module, "FCS_VERSION", None)
    return module


def _solve(game: Any, **options: object) -> tuple[Any, Dialog]:
    dialog = Dialog()
    solver = game.Solver_Class(game, dialog)
    solver.config(**options)
    solver.computeHints()
    return solver, dialog


def test_startup_probe_finds_the_solver(hint_module: Any) -> None:
    # PySolFC's start-up probe (pysollib/init.py): the first line of `fc-solve --help`.
    from pysollib.settings import FCS_COMMAND

    out = subprocess.run(f"{FCS_COMMAND} --help", shell=True, capture_output=True,
                         check=False, stdin=subprocess.DEVNULL).stdout
    assert out.decode().startswith("fc-solve")


@pytest.mark.parametrize(("game_class", "number", "progress"), [
    ("FreeCell", 24, False),
    ("BakersGame", 5, True),
    ("BakersDozen", 3, False),
    ("BakersDozen", 33000, True),  # a PySol Mersenne Twister deal
])
def test_pysolfc_plays_the_line_and_wins(hint_module: Any, game_class: str, number: int,
                                         progress: bool) -> None:
    game = dealt_game(game_class, number)
    solver, dialog = _solve(game, max_iters=200_000, progress=progress)
    assert hint_module.FCS_VERSION == (5, 0, 0)  # the --version probe was answered
    assert solver.solver_state == "solved"
    played = replay_hints(game, solver)
    assert played == len(solver.hints) - 1 > 0
    assert cards_home(game) == 52
    if progress:
        assert any("iter" in text and "states" in text for text in dialog.texts)


def test_mid_game_position_with_cards_in_later_cells(hint_module: Any) -> None:
    game = dealt_game("FreeCell", 24)
    rows, cells = game.s.rows, game.s.reserves
    # Park two cards in the second and fourth cells, leaving the first and third empty.
    for row, cell in ((rows[6], cells[1]), (rows[7], cells[3])):
        cell.addCard(row.cards[-1])
        row.removeCard()
    solver, _ = _solve(game, max_iters=200_000)
    assert solver.solver_state == "solved"
    replay_hints(game, solver)
    assert cards_home(game) == 52


def test_iteration_limit_ends_intractable(hint_module: Any) -> None:
    game = dealt_game("BakersGame", 5)
    solver, _ = _solve(game, max_iters=1)
    assert solver.solver_state == "intractable"


@pytest.mark.parametrize(("game_class", "number"), [("BakersGame", 10), ("FreeCell", 11982)])
def test_impossible_deal_ends_unsolved(hint_module: Any, game_class: str, number: int) -> None:
    # Both have no win: bakers proves it in about 5,000 and 62,000 positions.
    game = dealt_game(game_class, number)
    solver, _ = _solve(game, max_iters=200_000, progress=True)
    assert solver.solver_state == "unsolved"
    assert solver.hints == [None]


#: PySolFC's games that run Freecell Solver, each with a deal that has a win: bakers
#: plays all of them from the settings PySolFC passes (its own preset or not).
GAMES = [
    ("KingOnlyBakersGame", 2), ("EightOff", 1), ("SeahavenTowers", 1),
    ("RelaxedSeahavenTowers", 40000), ("RelaxedFreeCell", 40000), ("ForeCell", 2),
    ("Penguin", 1), ("Opus", 40000), ("Tuxedo", 3), ("GoodMeasure", 2),
    ("BeleagueredCastle", 40000), ("Citadel", 1), ("StreetsAndAlleys", 40000),
    ("Stronghold", 3), ("PortugueseSolitaire", 2), ("SpanishPatienceII", 40000),
]


@pytest.mark.parametrize(("game_class", "number"), GAMES)
def test_pysolfc_family(hint_module: Any, game_class: str, number: int) -> None:
    game = dealt_game(game_class, number)
    solver, _ = _solve(game, max_iters=200_000)
    assert solver.solver_state == "solved"
    replay_hints(game, solver)
    assert cards_home(game) == 52


def test_streets_and_alleys_fc_solve_calls_unsolved(hint_module: Any) -> None:
    """PySol's Streets and Alleys 923: Freecell Solver 5.0.0 prints "I could not solve
    this game." (after 14,985 iterations with PySolFC's options, 587 with its default
    search); bakers wins it, every move of its line allowed by PySolFC's own rules."""
    game = dealt_game("StreetsAndAlleys", 923)
    solver, _ = _solve(game, preset="video-editing", max_iters=100_000, progress=True)
    assert solver.solver_state == "solved"
    replay_hints(game, solver)
    assert cards_home(game) == 52


#: bakers' presets with PySolFC's game of the same deals.
PRESET_GAMES = [
    ("king_only_bakers_game", "KingOnlyBakersGame"), ("relaxed_freecell", "RelaxedFreeCell"),
    ("beleaguered_castle", "BeleagueredCastle"), ("streets_and_alleys", "StreetsAndAlleys"),
    ("stronghold", "Stronghold"), ("portuguese_solitaire", "PortugueseSolitaire"),
    ("spanish_patience_ii", "SpanishPatienceII"), ("bakers_dozen", "BakersDozen"),
    ("good_measure", "GoodMeasure"), ("citadel", "Citadel"), ("eight_off", "EightOff"),
    ("seahaven_towers", "SeahavenTowers"),
    ("relaxed_seahaven_towers", "RelaxedSeahavenTowers"), ("forecell", "ForeCell"),
    ("tuxedo", "Tuxedo"), ("penguin", "Penguin"), ("opus", "Opus"),
]


#: PySolFC's games that build round the corner, each with deals it wins (Opus 38 only
#: round the corner: Freecell Solver's reading of it, without the corner, has no win) and
#: one with no win even round the corner, which it must report unsolved.
WRAP_WINS = [("Tuxedo", 92), ("Tuxedo", 40000), ("Penguin", 1), ("Penguin", 32001),
             ("Opus", 38), ("Opus", 2)]


@pytest.mark.parametrize(("game_class", "number"), WRAP_WINS)
def test_pysolfc_plays_round_the_corner(hint_module: Any, game_class: str, number: int) -> None:
    from bakers import Deal, solve

    assert solve(Deal.from_number(game_class.lower(), number)).solved  # bakers' own preset
    game = dealt_game(game_class, number)
    solver, _ = _solve(game, max_iters=200_000)
    assert solver.solver_state == "solved"
    moves: list[tuple[str, str]] = []
    replay_hints(game, solver, moves)
    assert cards_home(game) == 52
    if (game_class, number) == ("Tuxedo", 92):  # its line puts a king on an ace
        assert any(card[0] == "K" and onto[:1] == "A" for card, onto in moves), moves


def test_pysolfc_opus_without_a_win_ends_unsolved(hint_module: Any) -> None:
    from bakers import Deal, solve

    assert solve(Deal.from_number("opus", 4)).impossible
    game = dealt_game("Opus", 4)
    solver, _ = _solve(game, max_iters=200_000)
    assert solver.solver_state == "unsolved"


@pytest.mark.parametrize(("preset", "game_class"), PRESET_GAMES)
def test_presets_deal_as_pysolfc(hint_module: Any, preset: str, game_class: str) -> None:
    from bakers import Deal
    from bakers.cards import SUITS

    # Not 32000: PySolFC's game window deals it by its Mersenne Twister (numbers below
    # 32000 take the Microsoft shuffle), pysol-cards and bakers by the Microsoft shuffle.
    for number in (1, 2, 31999, 32001, 10**9):
        game = dealt_game(game_class, number)
        deal = Deal.from_number(preset, number)
        assert [[card_text(c) for c in row.cards] for row in game.s.rows] == \
            [[str(c) for c in column] for column in deal.columns], number
        assert [card_text(s.cards[-1]) if s.cards else None for s in game.s.reserves] == \
            [None if c is None else str(c) for c in deal.cells], number
        tops = {SUITS.index(card_text(f.cards[-1])[1]): "0A23456789TJQK".index(
            card_text(f.cards[-1])[0]) for f in game.s.foundations if f.cards}
        assert [tops.get(s, 0) for s in range(4)] == list(deal.foundations), number
        if getattr(game, "base_card", None) is not None:  # Penguin's beak
            assert game.base_card.rank + 1 == deal.base_rank, number


@pytest.fixture
def pysolfc_limit(monkeypatch: pytest.MonkeyPatch) -> Any:
    """``bench/pysolfc_limit.py``, the benchmark of PySolFC's games at its own limit."""
    import importlib

    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "bench"))
    return importlib.import_module("pysolfc_limit")


def test_benchmark_asks_as_pysolfc_asks(pysolfc_limit: Any, monkeypatch: pytest.MonkeyPatch
                                        ) -> None:
    """The benchmark's command line and board for each game are those PySolFC's own
    client sends with its default options (the board read back to the same position)."""
    from io import BytesIO

    from bakers import Deal
    from bakers.fc_solve.games import to_variant
    from bakers.fc_solve.options import parse_options

    hint = load_pysolfc()
    monkeypatch.setattr(hint, "FCS_VERSION", (5, 0, 0))
    # Every preset that PySolFC plays, each with its game's Solver_Class settings.
    classes = {game: game_class for game, (game_class, _) in pysolfc_limit.PYSOLFC_GAMES.items()}
    assert classes == dict(PRESET_GAMES, bakers_game="BakersGame", freecell="FreeCell")
    for game, (game_class, settings) in pysolfc_limit.PYSOLFC_GAMES.items():
        wrapper = dealt_game(game_class, 1).Solver_Class
        assert isinstance(wrapper, hint.FreeCellSolverWrapper), game
        assert wrapper.game_type == settings, game
        for number in (1, 2):
            sent: dict[str, str] = {}

            def run_solver(command: str, board: str, sent: dict[str, str] = sent
                           ) -> tuple[BytesIO, BytesIO]:
                sent.update(command=command, board=board)
                return BytesIO(b"I could not solve this game.\n"), BytesIO(b"")

            pysol = dealt_game(game_class, number)
            solver = pysol.Solver_Class(pysol, Dialog())
            solver.config(preset="video-editing", max_iters=100_000, progress=True,
                          iters_step=100)
            monkeypatch.setattr(solver, "run_solver", run_solver)
            solver.computeHints()
            args = pysolfc_limit.pysolfc_arguments(game)
            assert sent["command"].split() == ["fc-solve", *args], game
            variant = to_variant(parse_options(args).game)
            ours = pysolfc_limit.pysolfc_board(game, number)
            assert Deal.parse(variant, ours) == Deal.parse(variant, sent["board"]), (game, number)
