"""The habits of the Python API: the game first, moves as text, python-chess's names for
the end of a game, and nothing but the API in ``dir(bakers)``."""

from __future__ import annotations

import bakers
import pytest
from bakers import ArgumentOrderError, Board, Deal, InvalidMoveError, Move, Outcome, find_variant


def test_the_game_comes_first() -> None:
    text = Deal.from_number("freecell", 617).to_text()
    assert Deal.parse("freecell", text) == Deal.from_number("freecell", 617)
    assert Board.from_text(find_variant("freecell"), text) == Board.from_number("freecell", 617)


@pytest.mark.parametrize("call", [Deal.parse, Board.from_text])
@pytest.mark.parametrize("game", ["freecell", "FreeCell", find_variant("freecell")])
def test_the_old_order_is_refused_saying_the_new(call: object, game: object) -> None:
    text = Deal.from_number("freecell", 617).to_text()
    name = "Deal.parse" if call == Deal.parse else "Board.from_text"
    with pytest.raises(ArgumentOrderError, match=rf"{name}\(\) takes the game first"):
        call(text, game)  # type: ignore[operator]
    assert issubclass(ArgumentOrderError, ValueError)


def test_an_unknown_game_is_still_named() -> None:
    with pytest.raises(bakers.UnknownVariantError, match="'klondike'"):
        Deal.parse("klondike", "JD")


def test_moves_as_text_wherever_a_move_is_taken() -> None:
    board = Board.from_number("freecell", 617)
    assert board.is_legal("83") and board.is_legal(Move.parse("83"))
    assert "83" in board.legal_moves and Move.parse("83") in board.legal_moves
    assert "1h" not in board.legal_moves and not board.is_legal("1h")
    assert "zz" not in board.legal_moves and 83 not in board.legal_moves
    with pytest.raises(InvalidMoveError):
        board.is_legal("zz")
    assert board.resolve("83") == board.resolve(Move.parse("83"))
    assert board.canonical("83") == Move.parse("83")
    assert board.expand("83") == [Move.parse("83")]
    assert board.push("83") == Move.parse("83")
    with pytest.raises(TypeError, match="is_legal takes a Move or its notation"):
        board.is_legal(83)  # type: ignore[arg-type]


def test_game_over_and_outcome_as_in_python_chess() -> None:
    board = Board.from_number("freecell", 617)
    assert not board.is_game_over() and board.outcome() is None
    won = Board.from_position("freecell", [""] * 8)
    assert won.is_game_over() and won.outcome() == Outcome("won")
    assert won.outcome().won and won.outcome().result() == "won"  # type: ignore[union-attr]
    # Baker's Dozen has no cells and an empty column takes nothing: a king on top of
    # each column left, the next cards home under them, stuck
    stuck = Board.from_position("bakers_dozen", [
        "JH QH KS", "JS QS KH", "JC QC KD", "JD QD KC", *[""] * 9])
    assert stuck.is_game_over() and not stuck.legal_moves
    assert stuck.outcome() == Outcome("no_moves") and stuck.outcome().result() == "lost"  # type: ignore[union-attr]


def test_dir_shows_the_api_alone() -> None:
    shown = dir(bakers)
    assert "annotations" not in shown
    for helper in ("board", "deals", "solving", "variants", "errors", "cli", "notation"):
        assert helper not in shown
    assert set(bakers.__all__) <= set(shown) and "__version__" in shown
    assert set(shown) == {*bakers.__all__, "__version__"}
