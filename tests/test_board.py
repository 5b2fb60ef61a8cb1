"""The referee `Board`: legal moves of every preset, mandatory moves, supermove
limits, sequence moves, undo, expansion of supermoves, and random play."""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from bakers.board import Board
from bakers.cards import Card, full_deck
from bakers.deals import Deal
from bakers.errors import IllegalMoveError, InvalidDealError
from bakers.notation import Move, Place
from bakers.variants import PRESETS, Variant, find_variant
from hypothesis import given, settings
from hypothesis import strategies as st

DATA = Path(__file__).resolve().parent / "data"


def moves(text: str) -> set[Move]:
    """Return the set of moves written in ``text``."""
    return {Move.parse(token) for token in text.split()}


def listed(board: Board) -> set[Move]:
    """Return the legal moves of ``board``, checking that none is listed twice."""
    found = list(board.legal_moves)
    assert len(found) == len(set(found)) == len(board.legal_moves) == board.legal_moves.count()
    return set(found)


def board_file(name: str, variant: str) -> Board:
    """Return the position of a ``tests/data/boards`` file (one column a line)."""
    lines = (DATA / "boards" / name).read_text().splitlines()
    return Board.from_position(variant, [line for line in lines if line.strip()])


def random_start(variant: Variant, seed: int) -> Board:
    """Return a random deal of ``variant`` laid out by the rules (docs/rules.md)."""
    if variant.base_from_deal:  # its base rank and the three cards home come from the deal
        return Board(Deal.from_seed(variant, seed))
    cards = [c for c in full_deck(variant.deck)
             if not (variant.aces_on_foundations and c.rank == 1)]
    random.Random(seed).shuffle(cards)
    columns: list[list[Card]] = [[] for _ in range(variant.columns)]
    for i, card in enumerate(cards):
        columns[i % variant.columns].append(card)
    if variant.kings_to_bottom:
        columns = [[c for c in col if c.rank == 13] + [c for c in col if c.rank != 13]
                   for col in columns]
    home = 1 if variant.aces_on_foundations else 0
    return Board(SimpleNamespace(variant=variant, columns=columns,
                                 cells=[None] * variant.cells, foundations=[home] * 4))


GAMES = [PRESETS[name] for name in PRESETS] + [
    find_variant("freecell").replace(name="freecell_2cells", cells=2),
    find_variant("freecell").replace(name="freecell_kings", empty="kings"),
    find_variant("bulochnik").replace(name="bulochnik_any", build="any", empty="any"),
    Variant("eight_off_like", cells=8, build="suit", empty="kings", moves="single"),
]


# -- positions ---------------------------------------------------------------------

def test_board_copies_its_deal_and_reads_it() -> None:
    columns = [["KH"], ["KC", "QD"], ["KD"], [], [], [], [], [], [], [], [], ["KS"], []]
    deal = SimpleNamespace(variant="bakers_dozen",
                           columns=[[Card.parse(c) for c in col] for col in columns],
                           cells=[], foundations=(12, 12, 11, 12))
    board = Board(deal)
    board.push_notation("2h")
    assert deal.columns[1] == [Card.parse("KC"), Card.parse("QD")]
    assert board.variant is PRESETS["bakers_dozen"]
    assert board.foundations == [12, 12, 12, 12]
    assert board.columns[1] == [Card.parse("KC")]


@pytest.mark.parametrize(("kwargs", "why"), [
    (dict(columns=["KH QH", "KS"]), "freecell has 8 columns, the position has 2"),
    (dict(columns=["KH", "QH", "KS", "KC", "KD", "QS", "QC", "QD"], cells=["JH"] * 5),
     "freecell has 4 cells, the position has 5"),
    (dict(columns=["KH QH", "KH", "", "", "", "", "", ""]),
     "column 2: card 'KH' appears twice"),
    (dict(columns=["KH QH", "", "", "", "", "", "", ""], foundations=[12, 13, 13, 13]),
     "column 1: card 'QH' is also on its foundation (H-Q)"),
    (dict(columns=["KH", "", "", "", "", "", "", ""], foundations=[11, 13, 13, 13]),
     "card 'QH' is missing"),
    (dict(columns=["KH", "", "", "", "", "", "", ""], foundations=[12, 13, 13, 14]),
     "are not four top ranks"),
    (dict(columns=["KH", "", "", "", "", "", "", ""], foundations=[12, 13, 13]),
     "are not four top ranks"),
])
def test_invalid_positions(kwargs: dict, why: str) -> None:
    with pytest.raises(InvalidDealError, match=re.escape(why)):
        Board.from_position("freecell", **kwargs)


def test_invalid_positions_of_the_short_deck() -> None:
    with pytest.raises(InvalidDealError, match=r"card '5H' is not in the 36-card deck"):
        Board.from_position("freecell36", ["KH 5H", "", "", "", "", ""],
                            foundations=[12, 13, 13, 13])
    with pytest.raises(InvalidDealError, match="are not four top ranks of the 36-card deck"):
        Board.from_position("freecell36", ["KH", "", "", "", "", ""],
                            foundations=[12, 13, 13, 5])
    with pytest.raises(InvalidDealError, match="which is not a Card"):
        Board(SimpleNamespace(variant="freecell36", columns=[["KH"], [], [], [], [], []],
                              cells=[None, None], foundations=[12, 13, 13, 13]))


def test_from_position_infers_foundations() -> None:
    board = Board.from_position("freecell36", ["KH QS", "", "", "", "", ""], cells=["KS"])
    assert board.foundations == [12, 13, 13, 11]
    assert board.foundation_count() == 36 - 3
    board = Board.from_position("freecell36", ["KH QS", "6D 7D 8D 9D TD JD QD KD", "", "",
                                               "", ""], cells=["KS", "-"])
    assert board.foundations[2] == 1  # the ace before the six


def test_str_and_repr() -> None:
    board = Board.from_position("freecell", ["KH QS", "JH", "", "", "", "", "", ""],
                                cells=["KS", None, "QH"])
    assert str(board) == (
        "Foundations: H-T C-K D-K S-J\n"
        "Freecells:  KS -- QH --\n"
        ": KH QS\n: JH\n:\n:\n:\n:\n:\n:")
    assert repr(board) == "<Board freecell: 47/52 home>"
    board.push_notation("2h")
    assert repr(board) == "<Board freecell: 48/52 home, 1 moves made>"
    dozen = Board.from_position("bakers_dozen", ["KH"] + [""] * 12)
    assert "Freecells" not in str(dozen)


# -- legal moves of every preset on hand-built positions ----------------------------

def test_freecell_legal_moves() -> None:
    board = Board.from_position("freecell", ["KS QH", "KH QC JH", "KC", "KD JS", "QS",
                                             "", "", ""])
    assert board.foundations == [10, 11, 12, 10]
    assert listed(board) == moves("""
        1a 13 16x1 16x2 17x1 17x2 18x1 18x2
        2h 2a 25 26x1 26x2 26x3 27x1 27x2 27x3 28x1 28x2 28x3
        3a 36 37 38
        4h 4a 41 46 47 48
        5a 56 57 58""")


def test_bakers_game_legal_moves() -> None:
    board = Board.from_position("bakers_game", ["KH QH JH TH", "KS QS", "KC", "QC", "KD",
                                                "", "", ""], cells=["JS"])
    assert board.foundations == [9, 11, 12, 10]
    assert listed(board) == moves("""
        1h 1b 16x1 16x2 16x3 16x4 17x1 17x2 17x3 17x4 18x1 18x2 18x3 18x4
        2b 26x1 26x2 27x1 27x2 28x1 28x2
        3b 36 37 38
        4h 4b 43 46 47 48
        5h 5b 56 57 58
        ah a2 a6 a7 a8""")


def test_freecell36_legal_moves() -> None:
    # 36 cards: the six follows the ace home; nothing goes on a six
    board = Board.from_position("freecell36", ["KS QH", "KH QS JH", "6H", "TH JS", "9H 8H 7H",
                                               ""])
    assert board.foundations == [1, 13, 13, 10]
    assert listed(board) == moves("""
        1a 16x1 16x2
        2a 26x1 26x2 26x3
        3h 3a 36
        4h 4a 41 46
        5a 56""")
    board.push_notation("3h")
    assert board.foundations[0] == 6


def test_bulochnik_legal_moves() -> None:
    board = Board.from_position("bulochnik", ["KS QH JH TH 9H 8H", "KH", "QS JS", "KC QC",
                                              "KD", "", "", ""])
    assert board.foundations == [7, 11, 12, 10]
    assert listed(board) == moves("""
        1h 1a 12x5
        2a 26 27 28
        3h 3a
        4h 4a 46x2 47x2 48x2
        5h 5a 56 57 58""")


def test_bakers_dozen_legal_moves() -> None:
    columns = ["KH", "KC QD", "KD"] + [""] * 8 + ["KS", ""]
    board = Board.from_position("bakers_dozen", columns)
    assert board.foundations == [12, 12, 11, 12]
    assert listed(board) == moves("1h 2h 21 23 2-12 12-h")
    assert listed(board) == {Move(Place.column(11), Place.foundation()),
                             *moves("1h 2h 21 23 2-12")}


def test_custom_variant_legal_moves() -> None:
    # single card moves, eight cells (the eighth is 'i'), empty columns take kings only
    game = Variant("eight_off_like", cells=8, build="suit", empty="kings", moves="single")
    board = Board.from_position(game, ["KS QH", "KH", "", "", "", "", "", ""],
                                cells=["QS", None, None, None, None, None, None, "JH"])
    assert board.foundations == [10, 13, 13, 11]
    assert listed(board) == moves("1b 12 2b 23 24 25 26 27 28 ah ih i1")
    assert Move.parse("1c") in board.legal_moves
    assert Move.parse("2i") not in board.legal_moves


def test_every_legal_move_is_found() -> None:
    """Check the generator against the examiner on every conceivable move."""
    for game, seed in [(g, s) for g in GAMES for s in range(2)]:
        board = random_start(game, seed)
        rng = random.Random(seed)
        for _ in range(25):
            generated = listed(board)
            assert {board.canonical(m) for m in generated} == generated
            brute = set()
            v = board.variant
            places = ([Place.column(i) for i in range(v.columns)]
                      + [Place.cell(i) for i in range(v.cells)] + [Place.foundation()])
            first_free = board.cells.index(None) if None in board.cells else -1
            for src in places[:-1]:
                for dst in places:
                    if src == dst:
                        continue
                    longest = min(len(board.columns[src.index]) + 1, 13)
                    counts = ([None, *range(1, longest + 1)]
                              if src.kind == dst.kind == "column" else [None])
                    for count in counts:
                        move = Move(src, dst, count)
                        if board.is_legal(move):
                            assert move in board.legal_moves
                            if dst.kind == "cell" and (src.kind == "cell"
                                                       or dst.index != first_free):
                                continue
                            brute.add(board.canonical(move))
                        else:
                            assert move not in board.legal_moves
            assert brute == generated
            if not generated:
                break
            board.push(rng.choice(sorted(generated, key=str)))


# -- single rules --------------------------------------------------------------------

def test_cells_first_free_listed_others_legal() -> None:
    board = Board.from_position("freecell", ["KS QH", "KH", "", "", "", "", "", ""],
                                cells=["QS"])
    assert Move.parse("1b") in board.legal_moves
    assert Move.parse("1c") not in set(board.legal_moves)
    assert Move.parse("1c") in board.legal_moves  # legal, only not listed
    assert board.push_notation("1d") == Move.parse("1d")
    assert board.cells[3] == Card.parse("QH")
    # a cell to another cell: legal, pointless, not listed
    assert board.push_notation("ab") == Move.parse("ab")
    assert board.cells == [None, Card.parse("QS"), None, Card.parse("QH")]
    assert not any(m.src.kind == m.dst.kind == "cell" for m in board.legal_moves)
    with pytest.raises(IllegalMoveError, match=r"^'bd': cell d holds QH$"):
        board.push_notation("bd")


@pytest.mark.parametrize(("variant", "columns", "cells", "token", "why"), [
    ("freecell", ["KS QH", "KH"], ["QS", "JH", "QC", "KC"], "1a", "no free cell"),
    ("freecell", ["KS QH", "KH"], ["QS"], "1a", "cell a holds QS"),
    ("freecell", ["KS QH", "KH"], [], "3a", "column 3 is empty"),
    ("freecell", ["KS QH", "KH"], [], "ah", "cell a is empty"),
    ("freecell", ["KS QH", "KH JH"], [], "1h", "QH does not go home (its foundation needs JH)"),
    ("freecell", ["KS QH", "KH"], [], "12",
     "no card of KS QH goes on KH (freecell builds down in alternating colours)"),
    ("freecell", ["KS QH", "KH"], [], "21",
     "KH does not go on QH (freecell builds down in alternating colours)"),
    ("freecell", ["KS QH", "KH"], [], "19", "there is no column 9 (freecell has 8)"),
    ("freecell", ["KS QH", "KH"], [], "1e", "there is no cell e (freecell has 4 cells)"),
    ("freecell", ["KS QH", "KH"], [], "12x2", "KS does not go on KH"),
    ("freecell", ["KS QH", "KH"], [], "23x2", "column 2 has only 1 card, not 2"),
    ("freecell", ["KS QH", "KH JH"], [], "21x2",
     "KH JH is not a sequence (freecell builds down in alternating colours)"),
    ("bakers_game", ["KS QH", "KD", "KH"], [], "12",
     "QH does not go on KD (bakers_game builds down in suit)"),
    ("bakers_game", ["KH QH JH", "KD", "KS"], [], "12",
     "no card of KH QH JH goes on KD (bakers_game builds down in suit)"),
    ("bakers_dozen", ["KS QH", "KH"] + [""] * 11, [], "1a",
     "there is no cell a (bakers_dozen has no cells)"),
    ("bakers_dozen", ["KS QH", "KH"] + [""] * 11, [], "13",
     "an empty column takes nothing in bakers_dozen"),
    ("bakers_dozen", ["KS QH", "KH"] + [""] * 11, [], "1-13x2",
     "bakers_dozen moves one card at a time, not 2"),
    ("bulochnik", ["KS QH", "KH"], [], "13",
     "an empty column takes only a king (with its sequence) in bulochnik"),
    ("bulochnik", ["KS QH", "KH"], ["QS"], "a3", "takes only a king"),
])
def test_illegal_moves_say_why(variant: str, columns: list[str], cells: list[str],
                               token: str, why: str) -> None:
    game = find_variant(variant)
    board = Board.from_position(game, columns + [""] * (game.columns - len(columns)), cells)
    before = board.copy()
    move = Move.parse(token)
    assert not board.is_legal(move)
    assert move not in board.legal_moves
    with pytest.raises(IllegalMoveError) as info:
        board.push(move)
    message = str(info.value)
    assert message.startswith(f"{token!r}: ")
    assert why in message
    assert info.value.move == move  # type: ignore[attr-defined]
    assert board == before and board.move_stack == []
    with pytest.raises(IllegalMoveError):
        board.canonical(move)
    with pytest.raises(IllegalMoveError):
        board.expand(move)


def test_foundation_order_of_the_short_deck() -> None:
    board = Board.from_position("freecell36", ["KH QH JH TH 9H 8H 7H 6H", "", "", "", "",
                                               ""], foundations=[1, 13, 13, 13])
    assert board.push_notation("1h") == Move.parse("1h")
    assert board.foundations[0] == 6
    while not board.is_won():
        board.push_notation("1h")
    assert board.foundation_count() == 36
    assert not board.legal_moves


def test_a_card_home_never_comes_back() -> None:
    board = Board.from_position("freecell", ["KH QS", "", "", "", "", "", "", "KS"],
                                foundations=[12, 13, 13, 11])
    board.push_notation("1h")
    assert all(m.src.kind != "foundation" for m in board.legal_moves)


# -- mandatory moves -----------------------------------------------------------------

def test_exposed_aces_go_home_at_once() -> None:
    board = Board.from_position("freecell36", ["7S AH AS", "6S", "KS QS JS TS 9S 8S",
                                               "6H 7H 8H", "9H TH JH QH KH", ""],
                                foundations=[0, 13, 13, 0])
    assert board.foundations == [1, 13, 13, 1]  # at the start already, AS then AH
    assert board.columns[0] == [Card.parse("7S")]
    assert board.move_stack == []
    with pytest.raises(IndexError):
        board.pop()


def test_aces_go_home_after_a_move_and_come_back_on_pop() -> None:
    board = Board.from_position("freecell36", ["KS QS JS TS 9S", "AS 7S", "8S", "6S", "", ""],
                                foundations=[13, 13, 13, 0])
    start = board.copy()
    assert board.foundations[3] == 0
    assert board.push_notation("2a") == Move.parse("2a")
    assert board.foundations[3] == 1
    assert board.columns[1] == []
    assert board.move_stack == [Move.parse("2a")]
    assert board.push_notation("4h") == Move.parse("4h")  # the six follows the ace
    assert board.pop() == Move.parse("4h")
    assert board.pop() == Move.parse("2a")
    assert board == start
    assert board.columns[1] == [Card.parse("AS"), Card.parse("7S")]


def test_aces_in_a_chain_go_home_in_turn() -> None:
    board = Board.from_position("bakers_dozen", [
        "KH AH AC 5C", "KC 6H", "2H 3H 4H 5H", "7H 8H 9H TH", "JH QH", "2C 3C 4C",
        "6C 7C 8C", "9C TC JC QC", "", "", "", "", ""], foundations=[0, 0, 13, 13])
    start = board.copy()
    assert Move.parse("12") in listed(board)
    board.push_notation("12")  # 5C onto 6H exposes AC, then AH beneath it
    assert board.foundations == [1, 1, 13, 13]
    assert board.columns[0] == [Card.parse("KH")]
    assert board.move_stack == [Move.parse("12")]
    board.push_notation("63")
    board.pop()
    board.pop()
    assert board == start
    assert board.columns[0] == [Card.parse(c) for c in ["KH", "AH", "AC", "5C"]]


def test_no_auto_moves_where_the_game_has_none() -> None:
    board = Board.from_position("freecell", ["7S AS", "KS QS JS TS 9S 8S", "6S 5S 4S 3S 2S",
                                             "", "", "", "", ""], foundations=[13, 13, 13, 0])
    assert board.foundations[3] == 0
    assert board.columns[0][-1] == Card.parse("AS")


# -- supermoves ------------------------------------------------------------------------

# freecell: a run 9C 8H 7S 6D 5C on column 1; 9S (column 2) takes its top four cards,
# TD (column 3) all five; one free cell (d) and one empty column (8).
LIMITS = ["KS QS 9C 8H 7S 6D 5C", "KD 9S", "TD", "KH QH JH TH 9H", "KC QC JC TC",
          "QD JD 9D 8D 7D", "8S TS JS", ""]


def limits_board() -> Board:
    return Board.from_position("freecell", LIMITS, cells=["6C", "7C", "8C"])


def test_supermove_of_exactly_the_limit() -> None:
    board = limits_board()
    assert board.foundations == [7, 4, 5, 6]
    # (1 free cell + 1) * 2 ** (1 empty column) = 4
    assert board.canonical(Move.parse("12")) == Move.parse("12x4")
    assert board.push_notation("12") == Move.parse("12x4")
    assert board.columns[1][-4:] == [Card.parse(c) for c in ["8H", "7S", "6D", "5C"]]


def test_supermove_one_more_than_the_limit() -> None:
    board = limits_board()
    assert Move.parse("13x5") not in board.legal_moves
    assert not any(m.dst.index == 2 for m in board.legal_moves if m.src.index == 0)
    with pytest.raises(IllegalMoveError) as info:
        board.push_notation("13")
    assert str(info.value) == (
        "'13': 5 cards is more than the 4 that 1 free cell and 1 empty column can move")
    board.push_notation("4d")  # no free cell left: (0 + 1) * 2 = 2
    assert not board.is_legal(Move.parse("12x4"))
    assert board.is_legal(Move.parse("12x2")) is False  # 7S does not go on 9S
    with pytest.raises(IllegalMoveError, match=r"'12x4': 4 cards is more than the 2 that "
                                               r"0 free cells and 1 empty column can move"):
        board.push_notation("12x4")


def test_supermove_to_an_empty_column_does_not_count_it() -> None:
    board = limits_board()
    # to the empty column 8: (1 + 1) * 2 ** 0 = 2
    listed_to_8 = {m for m in board.legal_moves
                   if m.src == Place.column(0) and m.dst == Place.column(7)}
    assert listed_to_8 == moves("18x1 18x2")
    assert board.resolve(Move.parse("18")) == Move.parse("18x2")
    assert board.is_legal(Move.parse("18x2"))
    with pytest.raises(IllegalMoveError, match=r"^'18x3': 3 cards is more than the 2 that "
                                               r"1 free cell and 0 other empty columns"):
        board.push_notation("18x3")
    assert board.push_notation("18") == Move.parse("18x2")
    assert board.columns[7] == [Card.parse("6D"), Card.parse("5C")]


def test_supermove_with_two_empty_columns() -> None:
    board = Board.from_position("freecell", ["KS QS 9C 8H 7S 6D 5C", "KD 9S", "TD",
                                             "KH QH JH TH 9H 8C", "KC QC JC TC 6C 7C",
                                             "QD JD 9D 8D 7D 8S TS JS", "", ""])
    # four free cells, two empty columns: 5 * 4 = 20 onto a card, 5 * 2 = 10 to an empty one
    assert board.push_notation("13") == Move.parse("13x5")
    assert board.push_notation("37") == Move.parse("37x6")
    assert board.columns[6][0] == Card.parse("TD")


def test_supermove_limit_counts_cells_only_when_empty_columns_take_kings() -> None:
    game = find_variant("freecell").replace(name="freecell_kings", empty="kings")
    board = Board.from_position(game, LIMITS, cells=["6C", "7C", "8C"])
    assert not board.is_legal(Move.parse("12x4"))
    with pytest.raises(IllegalMoveError, match="4 cards is more than the 2 that 1 free cell "
                                               "can move"):
        board.push_notation("12x4")


def test_single_move_game_accepts_no_supermove() -> None:
    game = find_variant("freecell").replace(name="freecell_single", moves="single")
    board = Board.from_position(game, LIMITS, cells=["6C", "7C", "8C"])
    assert board.canonical(Move.parse("18")) == Move.parse("18")
    assert board.canonical(Move.parse("18x1")) == Move.parse("18")
    assert not board.is_legal(Move.parse("12x4"))
    assert not any(m.count for m in board.legal_moves)
    with pytest.raises(IllegalMoveError, match="freecell_single moves one card at a time"):
        board.push_notation("18x2")


def test_expand_a_supermove() -> None:
    board = limits_board()
    steps = board.expand(Move.parse("12"))
    assert " ".join(map(str, steps)) == "1d 18 d8 1d 12 d2 8d 82 d2"
    single = board.copy()
    for step in steps:
        single.push(step)
    board.push_notation("12")
    assert single == board
    assert board.expand(Move.parse("4d")) == [Move.parse("4d")]
    assert board.expand(Move.parse("4dx1")) == [Move.parse("4d")]


def test_expand_marks_single_cards_to_an_empty_column() -> None:
    board = Board.from_position("freecell", [
        "KD QD JS TH 9C 8H 7C 6H 5C", "KS", "QS", "JH QH KH", "8C TC", "", "", "JC QC KC"],
        cells=["6C", "9H", "7H"])
    # (1 free cell + 1) * 2 ** (2 empty columns) = 8
    assert board.resolve(Move.parse("12")) == Move.parse("12x8")
    steps = board.expand(Move.parse("12"))
    assert len(steps) == 27
    # the fourth step takes one card to column 7 while two could go: it must say so
    assert [str(s) for s in steps[:6]] == ["1d", "17x1", "d7", "1d", "16", "d6"]
    assert all(s.count in (None, 1) for s in steps)
    single = board.copy()
    for step in steps:
        single.push(step)
    board.push_notation("12")
    assert single == board
    assert single.move_stack == steps and board.move_stack == [Move.parse("12x8")]


def test_canonical_forms() -> None:
    board = limits_board()
    assert board.canonical(Move.parse("18x1")) == Move.parse("18x1")
    assert board.canonical(Move.parse("18x2")) == Move.parse("18x2")
    assert board.canonical(Move.parse("12x4")) == Move.parse("12x4")
    assert board.canonical(Move.parse("4dx1")) == Move.parse("4d")
    assert board.canonical(Move.parse("4d")) == Move.parse("4d")
    assert board.resolve(Move.parse("4d")) == Move.parse("4dx1")
    assert board.resolve(Move.parse("12")) == Move.parse("12x4")
    assert Move.from_core((0, 0, 0, 7, 1), board) == Move.parse("18x1")
    assert Move.from_core((0, 0, 0, 1, 4), board) == Move.parse("12x4")
    assert Move.from_core((0, 3, 1, 3, 1), board) == Move.parse("4d")
    assert Move.from_core((0, 5, 0, 3, 1)) == Move.parse("64x1")
    with pytest.raises(IllegalMoveError, match="'64x1': 7D does not go on 9H"):
        Move.from_core((0, 5, 0, 3, 1), board)


# -- sequence moves (bulochnik) -------------------------------------------------------

def test_bulochnik_moves_a_whole_sequence_of_any_length() -> None:
    board = Board.from_position("bulochnik", ["KS 9H 8H 7H 6H 5H 4H 3H", "TH", "QS", "KH QH JH",
                                              "KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C",
                                              "KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D", "JS TS",
                                              ""], cells=["2H", "9S", "8S", "7S"])
    assert board.cells.count(None) == 0
    assert board.push_notation("12") == Move.parse("12x7")  # seven cards, no free cell
    assert board.columns[0] == [Card.parse("KS")]
    board.pop()
    with pytest.raises(IllegalMoveError, match=r"'12x3': 5H does not go on TH"):
        board.push_notation("12x3")


def test_bulochnik_from_the_middle_of_a_sequence() -> None:
    # same-suit building: the card a middle card builds on lies just beneath it, so only
    # whole sequences can move onto another column...
    board = Board.from_position("bulochnik", ["KS QH JH TH 9H", "KH", "QS JS", "KC QC",
                                              "KD", "", "", ""])
    with pytest.raises(IllegalMoveError, match=r"'12x2': TH does not go on KH"):
        board.push_notation("12x2")
    assert board.push_notation("12") == Move.parse("12x4")
    # ... while with any-suit building a sequence moves from a card in its middle
    game = find_variant("bulochnik").replace(name="bulochnik_any", build="any")
    board = Board.from_position(game, ["KS QH JC TD 9S", "QD", "KH", "JS", "KC QC", "KD JD",
                                       "TS QS", ""])
    assert board.push_notation("12") == Move.parse("12x3")
    assert board.columns[0] == [Card.parse("KS"), Card.parse("QH")]
    assert board.columns[1] == [Card.parse(c) for c in ["QD", "JC", "TD", "9S"]]


def test_bulochnik_king_sequence_to_an_empty_column() -> None:
    board = Board.from_position("bulochnik", ["TS KH QH JH TH 9H", "KS", "QS JS", "KC QC",
                                              "KD", "", "", ""])
    assert {m for m in board.legal_moves if m.dst == Place.column(5)} == moves(
        "16x5 26 46x2 56")
    assert board.resolve(Move.parse("16")) == Move.parse("16x5")
    assert board.push_notation("16") == Move.parse("16x5")
    assert board.columns[5][0] == Card.parse("KH")
    board.pop()
    with pytest.raises(IllegalMoveError, match=r"'16x4': an empty column takes only a king"):
        board.push_notation("16x4")
    with pytest.raises(IllegalMoveError, match=r"'36': an empty column takes only a king"):
        board.push_notation("36")


# -- undo, copies, keys ---------------------------------------------------------------

def test_pop_peek_and_the_move_stack() -> None:
    board = board_file("ms1.board", "bakers_game")
    start = board.copy()
    with pytest.raises(IndexError):
        board.peek()
    with pytest.raises(IndexError):
        board.pop()
    for token in ["6a", "6b", "6h", "6h", "bh"]:
        board.push_notation(token)
    assert board.peek() == Move.parse("bh")
    assert board.foundations == [0, 2, 0, 1]
    assert [str(m) for m in board.move_stack] == ["6a", "6b", "6h", "6h", "bh"]
    copy = board.copy()
    assert copy == board and copy.move_stack == board.move_stack
    assert board.copy(stack=False).move_stack == []
    while board.move_stack:
        board.pop()
    assert board == start
    assert copy.foundation_count() == 3  # the copy kept its own lists
    copy.pop()
    assert copy.foundations == [0, 1, 0, 1]


def test_equality_and_key() -> None:
    one = Board.from_position("freecell", ["KS QH", "KH", "", "", "", "", "", ""],
                              cells=["QS"])
    other = Board.from_position("freecell", ["", "", "KH", "", "KS QH", "", "", ""],
                                cells=[None, None, "QS"])
    assert one != other
    assert one.key() == other.key()
    assert hash(one.key()) == hash(other.key())
    assert one == one.copy()
    assert one != Board.from_position("freecell", ["KS QH", "KH", "", "", "", "", "", ""],
                                      cells=[None, "QS"])
    assert one != "not a board"
    with pytest.raises(TypeError):
        hash(one)
    one.push_notation("1b")
    assert one.key() != other.key()
    game = find_variant("freecell").replace(name="freecell_copy")
    assert Board.from_position(game, ["KS QH", "KH", "", "", "", "", "", ""],
                               cells=["QS"]) != other.copy()


def test_win_and_foundation_count() -> None:
    board = Board.from_position("bakers_game", ["KH", "", "", "", "", "", "", ""])
    assert board.foundation_count() == 51 and not board.is_won()
    board.push_notation("1h")
    assert board.foundation_count() == 52 and board.is_won()
    assert not board.legal_moves and board.legal_moves.count() == 0
    assert repr(board.legal_moves) == "<LegalMoves ()>"


# -- random play -------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 2**32), data=st.data())
def test_random_play_then_pop_restores_every_position(game: Variant, seed: int,
                                                      data: st.DataObject) -> None:
    board = random_start(game, seed)
    history = [board.copy(stack=False)]
    for _ in range(data.draw(st.integers(0, 150), label="length")):
        legal = list(board.legal_moves)
        if not legal:
            break
        # prefer the multi-card moves now and then, so that they are well exercised
        multi = [m for m in legal if m.count]
        pool = multi if multi and data.draw(st.booleans(), label="multi") else legal
        move = pool[data.draw(st.integers(0, len(pool) - 1), label="move")]
        expanded = board.copy(stack=False)
        for step in board.expand(move):
            assert step.count in (None, 1) or game.moves == "sequence"
            expanded.push(step)
        assert board.push(move) == move
        assert expanded == board
        assert board.foundation_count() + sum(map(len, board.columns)) + sum(
            c is not None for c in board.cells) == game.deck
        history.append(board.copy(stack=False))
    while board.move_stack:
        history.pop()
        board.pop()
        assert board == history[-1]
    assert len(history) == 1


def test_random_playouts_are_fast() -> None:
    rng = random.Random(7)
    board = random_start(PRESETS["freecell"], 7)
    start, made = time.perf_counter(), 0
    while made < 400:
        legal = list(board.legal_moves)
        if not legal or rng.random() < 0.05 and board.move_stack:
            board.pop()
        else:
            board.push(rng.choice(legal))
        made += 1
    assert time.perf_counter() - start < 1.0  # a few milliseconds in practice


# -- deals ---------------------------------------------------------------------------

def test_deals_of_the_reference_boards_match() -> None:
    deals = pytest.importorskip("bakers.deals")
    for name, variant, number in [("ms1.board", "freecell", 1), ("ms24.board", "bakers_game", 24),
                                  ("bakers_dozen_24.board", "bakers_dozen", 24)]:
        board = board_file(name, variant)
        assert Board.from_number(variant, number) == board
        text = (DATA / "boards" / name).read_text()
        assert Board.from_text(variant, text) == board
        assert Board(board.to_deal()) == board
        assert isinstance(board.to_deal(), deals.Deal)


@pytest.mark.parametrize("name", list(PRESETS))
def test_numbered_deals_start_after_the_mandatory_moves(name: str) -> None:
    pytest.importorskip("bakers.deals")
    game = PRESETS[name]
    for number in range(1, 40):
        board = Board.from_number(game, number)
        assert board.move_stack == []
        tops = [column[-1] for column in board.columns if column]
        assert not (game.auto_aces and any(card.rank == 1 for card in tops))
        # Without a free cell at the start (none, or all dealt to) a deal can start stuck.
        assert board.legal_moves or game.cells == len(game.dealt_cells)
        assert Board(board.to_deal()) == board


def test_bulochnik_reference_boards_load() -> None:
    pytest.importorskip("bakers.deals")
    lines = (DATA / "bulochnik_boards_1-1000.jsonl").read_text().splitlines()[:20]
    for line in lines:
        record = json.loads(line)
        board = Board.from_text("bulochnik", record["board"])
        assert board.foundations == [1, 1, 1, 1]
        assert board.foundation_count() == 4
        assert all(len(column) == 6 for column in board.columns)


def test_empty_column_counts_are_the_legal_explicit_counts() -> None:
    """`empty_column_counts` (which the referee uses to find ambiguous tokens) lists,
    largest first, exactly the counts that are legal when written out, for every move
    without a count from a column into an empty one, along random play."""
    checked = 0
    for game, seed in [(g, s) for g in GAMES for s in range(3)]:
        board = random_start(game, seed)
        rng = random.Random(seed)
        v = board.variant
        for _ in range(60):
            for i in range(v.columns):
                for j in range(v.columns):
                    if i == j:
                        continue
                    move = Move(Place.column(i), Place.column(j))
                    counts = board.empty_column_counts(move)
                    if board.columns[j] or not board.columns[i]:
                        assert counts == []
                        continue
                    brute = [n for n in range(13, 0, -1)
                             if board.is_legal(Move(Place.column(i), Place.column(j), n))]
                    assert counts == brute, (game.name, i, j)
                    checked += 1
            generated = sorted(board.legal_moves, key=str)
            if not generated:
                break
            board.push(rng.choice(generated))
    assert checked > 100  # the play reached empty columns
    # moves with a count, from a cell, or to a column past the game's: none
    board = Board.from_position("freecell", ["KS QH", "KH", "", "", "", "", "", ""],
                                cells=["QS"])
    assert board.empty_column_counts(Move.parse("13")) == [2, 1]
    assert board.empty_column_counts(Move.parse("12")) == []
    assert board.empty_column_counts(Move.parse("13x1")) == []
    assert board.empty_column_counts(Move.parse("a3")) == []
    assert board.empty_column_counts(Move.parse("19")) == []
