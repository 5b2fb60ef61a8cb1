"""Bad input through the Python API: every failure is one of the package's errors (a
``ValueError`` subclass naming the token) or, for a value of the wrong Python type, a
``TypeError`` naming the type expected; never Python's own ValueError, RecursionError,
UnicodeDecodeError or AttributeError."""

from __future__ import annotations

import pytest
from bakers import find_variant
from bakers.board import Board
from bakers.cards import Card
from bakers.deals import Deal
from bakers.errors import (
    CardParseError,
    DealParseError,
    InvalidMoveError,
    InvalidVariantError,
)
from bakers.notation import Move, Place, parse_fcs_verbose, parse_moves
from bakers.solution import Solution

HUGE = "9" * 5000  # past Python's 4,300 digits of int()


@pytest.mark.parametrize("read", [
    lambda: Move.parse(HUGE + "-h"),
    lambda: Move.parse("3-4x" + HUGE),
    lambda: Place.parse(HUGE),
    lambda: parse_moves("3a " + HUGE + "-h"),
    lambda: Solution.parse("3a\n" + HUGE + "-h"),
    lambda: parse_fcs_verbose(f"Move {HUGE} cards from stack 1 to stack 2"),
    lambda: parse_fcs_verbose(f"Move a card from stack {HUGE} to freecell 0"),
])
def test_numbers_of_thousands_of_digits_in_moves(read) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidMoveError) as info:
        read()
    assert len(str(info.value)) < 300  # the token is quoted by its start


def test_numbers_of_thousands_of_digits_in_json() -> None:
    with pytest.raises(DealParseError, match="a number of 5000 digits"):
        Deal.from_json('{"game": "freecell", "number": ' + HUGE + "}")


@pytest.mark.parametrize(("text", "expected"), [
    ("[" * 100_000, "nested 100000 deep"),
    ('{"game": ' + "[" * 17 + "]" * 17 + "}", "nested 18 deep"),
    (b'{"game": "\xff"}', "not UTF-8 text: byte 0xff at offset 10"),
    (b"\x80", "not UTF-8 text"),
    (" " * (2 << 20) + "{}", "too long"),
    ("{", "not JSON"),
])
def test_json_deals_are_capped(text: str | bytes, expected: str) -> None:
    with pytest.raises(DealParseError, match=expected):
        Deal.from_json(text)


def test_json_strings_may_hold_brackets() -> None:
    # The depth counts the brackets outside strings: a title of 40 '[' is no nesting.
    mine = find_variant("freecell").replace(name="mine", title='[{"' * 40)
    deal = Deal.from_number(mine, 5)
    assert Deal.from_json(deal.to_json()) == deal


@pytest.mark.parametrize(("field", "value"), [
    ("aliases", None), ("aliases", [[1]]), ("aliases", "abc"), ("aliases", ("",)),
    ("title", ["x"]), ("title", None),
])
def test_variant_fields_are_type_checked(field: str, value: object) -> None:
    with pytest.raises(InvalidVariantError, match=f"{field}="):
        find_variant("freecell").replace(name="mine", **{field: value})


def test_a_variant_from_json_aliases_round_trips() -> None:
    mine = find_variant("freecell").replace(name="mine", title="Mine", aliases=("m1", "m2"))
    assert mine.replace(aliases=["m1", "m2"]) == mine  # a JSON list is taken as the tuple
    hash(mine.replace(aliases=["m1"]))
    deal = Deal.from_number(mine, 3)
    back = Deal.from_json(deal.to_json())
    assert back.variant == mine and back == deal


@pytest.mark.parametrize(("read", "error", "char"), [
    (lambda: Place.parse("²"), InvalidMoveError, "'²'"),
    (lambda: Move.parse("٣-h"), InvalidMoveError, "'٣'"),
    (lambda: Move.parse("3ａ"), InvalidMoveError, "'ａ'"),
    (lambda: Card.parse("Aſ"), CardParseError, "'ſ'"),
    (lambda: Card.parse("１H"), CardParseError, "'１'"),
    (lambda: parse_moves("3a 4b ٣h"), InvalidMoveError, "'٣'"),
])
def test_non_ascii_cards_and_moves_are_refused_naming_the_character(
        read, error: type[Exception], char: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(error, match=char):
        read()


@pytest.mark.parametrize(("make", "expected"), [
    (lambda: Board("freecell"), "Board.. takes a Deal or a Board, not str"),
    (lambda: Board(617), "Board.. takes a Deal or a Board, not int"),
    (lambda: Board.from_number("freecell", 1).push(83), "a Move or its notation .a str., not int"),
    (lambda: Deal.from_number("freecell", "x"), "a deal number is an int, not str"),
    (lambda: Card.parse(5), "Card.parse takes a str"),
    (lambda: Place.parse(None), "Place.parse takes a str"),
])
def test_wrong_python_types_are_type_errors(make, expected: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(TypeError, match=expected):
        make()


def test_push_takes_a_move_or_its_notation() -> None:
    board = Board.from_number("freecell", 1)
    by_text = board.copy()
    assert by_text.push("3a") == board.push(Move.parse("3a"))
    assert by_text == board
    with pytest.raises(InvalidMoveError):
        board.push("zz")


def test_legal_moves_are_indexable() -> None:
    board = Board.from_number("freecell", 1)
    moves = list(board.legal_moves)
    assert board.legal_moves[:5] == moves[:5]
    assert board.legal_moves[0] == moves[0] and board.legal_moves[-1] == moves[-1]
    with pytest.raises(IndexError):
        board.legal_moves[len(moves)]
