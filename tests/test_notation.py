"""Move notation: parse/print round trips, syntax errors, engine tuples, move lists."""

from __future__ import annotations

import pytest
from bakers import notation
from bakers.errors import InvalidMoveError
from bakers.notation import Move, Place, moves_of_lines, parse_fcs_verbose, parse_moves, text_lines

COL, CELL, HOME = Place.column, Place.cell, Place.foundation()


@pytest.mark.parametrize(("token", "move", "printed"), [
    ("3a", Move(COL(2), CELL(0)), "3a"),
    ("a8", Move(CELL(0), COL(7)), "a8"),
    ("3h", Move(COL(2), HOME), "3h"),
    ("54", Move(COL(4), COL(3)), "54"),
    ("ah", Move(CELL(0), HOME), "ah"),
    ("dh", Move(CELL(3), HOME), "dh"),
    ("ba", Move(CELL(1), CELL(0)), "ba"),
    ("9g", Move(COL(8), CELL(6)), "9g"),
    ("3i", Move(COL(2), CELL(7)), "3i"),
    ("ih", Move(CELL(7), HOME), "ih"),
    ("35x3", Move(COL(2), COL(4), 3), "35x3"),
    ("35x1", Move(COL(2), COL(4), 1), "35x1"),
    ("43v2", Move(COL(3), COL(2), 2), "43x2"),  # fc-solve's -snx count
    ("82vc", Move(COL(7), COL(1), 12), "82x12"),  # in hexadecimal
    ("10-12V4", Move(COL(9), COL(11), 4), "10-12x4"),
    ("3ax1", Move(COL(2), CELL(0), 1), "3ax1"),
    ("10-h", Move(COL(9), HOME), "10-h"),
    ("3-12", Move(COL(2), COL(11)), "3-12"),
    ("12-a", Move(COL(11), CELL(0)), "12-a"),
    ("i-13", Move(CELL(7), COL(12)), "i-13"),
    ("13-1", Move(COL(12), COL(0)), "13-1"),
    ("10-12x4", Move(COL(9), COL(11), 4), "10-12x4"),
    ("13-9x13", Move(COL(12), COL(8), 13), "13-9x13"),
    # the long form of short places, upper case, spaces: read, printed short
    ("3-a", Move(COL(2), CELL(0)), "3a"),
    ("5-4X2", Move(COL(4), COL(3), 2), "54x2"),
    ("  3A\t", Move(COL(2), CELL(0)), "3a"),
    ("AH", Move(CELL(0), HOME), "ah"),
    ("03-h", Move(COL(2), HOME), "3h"),
])
def test_parse_and_print(token: str, move: Move, printed: str) -> None:
    parsed = Move.parse(token)
    assert parsed == move
    assert parsed.notation() == printed == str(parsed)
    assert Move.parse(printed) == parsed
    assert eval(repr(parsed)) == parsed  # noqa: S307 - repr rebuilds the move


def test_every_place_round_trips() -> None:
    places = ([COL(i) for i in range(13)] + [CELL(i) for i in range(8)] + [HOME])
    for src in places[:-1]:
        for dst in places:
            if src == dst:
                continue
            counts = [None, 1] + ([2, 13] if src.kind == dst.kind == "column" else [])
            for count in counts:
                move = Move(src, dst, count)
                assert Move.parse(move.notation()) == move
                short = len(src.notation()) == len(dst.notation()) == 1
                assert ("-" not in move.notation()) == short
                assert ("x" in move.notation()) == (count is not None)


def test_place_helpers() -> None:
    assert Place.parse("12") == COL(11)
    assert Place.parse("i") == CELL(7)
    assert Place.parse("H") == HOME
    assert [COL(0).describe(), CELL(2).describe(), HOME.describe()] == [
        "column 1", "cell c", "the foundations"]
    with pytest.raises(InvalidMoveError, match=r"'14' is not a place"):
        Place.parse("14")
    with pytest.raises(InvalidMoveError, match=r"'j' is not a place"):
        Place.parse("j")


@pytest.mark.parametrize(("token", "why"), [
    ("", "not a move"),
    ("   ", "not a move"),
    ("3", "not a move"),
    ("345", "not a move"),
    ("3z", "'z' is not a place"),
    ("j3", "'j' is not a place"),
    ("0a", "not a move"),
    ("0-a", "'0' is not a place"),
    ("14-h", "'14' is not a place"),
    ("3-99", "'99' is not a place"),
    ("10h", "long form, like"),
    ("3--5", "not a move"),
    ("3-", "not a move"),
    ("-3", "not a move"),
    ("h3", "never comes back"),
    ("ha", "never comes back"),
    ("33", "to itself"),
    ("aa", "to itself"),
    ("12-12", "to itself"),
    ("3ax2", "one card at a time"),
    ("3hx2", "one card at a time"),
    ("a5x2", "holds one card"),
    ("35x0", "1..13 cards"),
    ("35x14", "1..13 cards"),
    ("35x", "not a move"),
    ("35x-1", "not a move"),
    ("35 x3", "not a move"),
    ("3a;", "not a move"),
    ("3\u00e9", "not a move"),
])
def test_syntax_errors_quote_the_token(token: str, why: str) -> None:
    with pytest.raises(InvalidMoveError) as info:
        Move.parse(token)
    message = str(info.value)
    assert repr(token) in message
    assert why in message


def test_parse_needs_a_string() -> None:
    with pytest.raises(TypeError, match="Move.parse takes a str, not int"):
        Move.parse(35)  # type: ignore[arg-type]


@pytest.mark.parametrize(("args", "why"), [
    ((Place("pile", 0), CELL(0)), "no place of kind 'pile'"),
    ((COL(13), CELL(0)), "no column of index 13"),
    ((COL(-1), CELL(0)), "no column of index -1"),
    ((COL(0), CELL(8)), "no cell of index 8"),
    ((COL(0), Place("foundation", 1)), "no foundation of index 1"),
    ((COL(0), Place("column", 1.0)), "index is an int"),  # type: ignore[arg-type]
    ((("column", 0), CELL(0)), "two Place values"),
    ((COL(0), COL(1), 0), "1..13 cards"),
    ((COL(0), COL(1), True), "count is an int"),
    ((COL(0), COL(1), 2.0), "count is an int"),
])
def test_move_checks_its_fields(args: tuple, why: str) -> None:
    with pytest.raises(InvalidMoveError, match=why):
        Move(*args)


def test_moves_are_hashable_values() -> None:
    assert len({Move.parse("3a"), Move.parse("3-a"), Move.parse("3A")}) == 1
    assert Move.parse("35") != Move.parse("35x1")
    with pytest.raises(AttributeError):
        Move.parse("3a").count = 2  # type: ignore[misc]


@pytest.mark.parametrize(("core", "token"), [
    ((0, 2, 1, 0, 1), "3a"),
    ((1, 3, 0, 7, 1), "d8"),
    ((0, 4, 2, 0, 1), "5h"),
    ((1, 7, 2, 0, 1), "ih"),
    ((0, 4, 0, 3, 3), "54x3"),
    ((0, 4, 0, 3, 1), "54x1"),
    ((0, 11, 0, 9, 2), "12-10x2"),
])
def test_core_tuples(core: tuple[int, int, int, int, int], token: str) -> None:
    move = Move.from_core(core)
    assert move == Move.parse(token)
    assert move.to_core() == core


def test_to_core_sends_an_implied_count_as_one() -> None:
    assert Move.parse("54").to_core() == (0, 4, 0, 3, 1)


@pytest.mark.parametrize("core", [(0, 1, 2), (3, 0, 1, 0, 1), "3a", (0, 0, 0, 0, 1),
                                  (2, 0, 0, 1, 1), (-1, 0, 1, 0, 1), (0, 0, -1, 0, 1),
                                  (0, 9, 1, 0, 2), (0, 1.5, 1, 0, 1), None])
def test_bad_core_tuples(core: object) -> None:
    with pytest.raises(InvalidMoveError):
        Move.from_core(core)  # type: ignore[arg-type]


def test_repeated_tokens_parse_alike_and_errors_keep_their_number() -> None:
    moves = parse_moves("3a 3A 3a\n35x2 35x2")
    assert moves == [Move.parse("3a")] * 3 + [Move.parse("35x2")] * 2
    with pytest.raises(InvalidMoveError, match=r"move 4 \(line 2\): 'zz'"):
        parse_moves("3a 3a 3a\nzz 3a")


def test_parse_moves_with_comments_and_lines() -> None:
    text = "# from ms1\n6a 6b 6h\n\n  # another comment 3z\n bh 7c\t10-12x4\n"
    assert [m.notation() for m in parse_moves(text)] == [
        "6a", "6b", "6h", "bh", "7c", "10-12x4"]
    assert parse_moves("") == []
    assert parse_moves("# nothing\n") == []


def test_parse_moves_error_says_move_number_and_line() -> None:
    with pytest.raises(InvalidMoveError) as info:
        parse_moves("6a 6b\n# comment\n6h 3z 7c\n")
    message = str(info.value)
    assert message.startswith("move 4 (line 3): ")
    assert "'3z'" in message


VERBOSE = """\
Foundations: H-0 C-0 D-0 S-0
Freecells:
: JD KD 2S

====================

Move a card from stack 3 to freecell 0

Move 3 cards from stack 0 to stack 4
Move 1 cards from stack 6 to stack 3
Move a card from freecell 1 to stack 2
Move a card from stack 5 to the foundations
Move a card from freecell 0 to the foundations
Move a card from freecell 0 to freecell 7
Move 10 cards from stack 11 to stack 12
This game is solveable.
Total number of states checked is 726.
"""


def test_parse_fcs_verbose() -> None:
    assert [m.notation() for m in parse_fcs_verbose(VERBOSE)] == [
        "4a", "15x3", "74x1", "b3", "6h", "ah", "ai", "12-13x10"]
    assert parse_fcs_verbose("This game is solveable.\n") == []


@pytest.mark.parametrize(("line", "why"), [
    ("Move a card from stack 3 to stack 99", "no column of index 99"),
    ("Move a card from freecell 9 to the foundations", "no cell of index 9"),
    ("Move 0 cards from stack 1 to stack 2", "1..13 cards"),
    ("Move 2 cards from stack 1 to freecell 2", "one card at a time"),
    ("Move the sequence on top of Stack 3 to the foundations", "not a Freecell Solver move"),
    ("Move a card from stack 3", "not a Freecell Solver move"),
])
def test_parse_fcs_verbose_errors(line: str, why: str) -> None:
    text = f"Move a card from stack 5 to the foundations\n\n{line}\n"
    with pytest.raises(InvalidMoveError) as info:
        parse_fcs_verbose(text)
    message = str(info.value)
    assert message.startswith("move 2 (line 3): ")
    assert repr(line) in message
    assert why in message


def test_reference_verbose_files_read_whole(data_dir) -> None:
    for path in sorted((data_dir / "solutions").glob("*_verbose.txt")):
        text = path.read_text()
        moves = parse_fcs_verbose(text)
        assert len(moves) == sum(1 for line in text.splitlines() if line.startswith("Move"))


# -- lines read a chunk at a time -----------------------------------------------------

@pytest.mark.parametrize("text", [
    "3a 54\r\n# 1h\r\nah\n\n", "3a\r54\x0bah\u2028h1", "  one line without an end",
    "\r\n\r\n", "a\n\rb\r\n",
])
@pytest.mark.parametrize("size", [1, 2, 3, 1000])
def test_text_lines_in_chunks_are_the_lines_of_the_whole(text: str, size: int) -> None:
    chunks = [text[i:i + size] for i in range(0, len(text), size)]
    lines = list(text_lines(chunks))
    assert [line.text for line in lines] == text.splitlines()
    assert [line.number for line in lines] == list(range(1, len(text.splitlines()) + 1))
    assert all(line.first for line in lines)


def test_a_long_line_comes_in_pieces_cut_between_tokens(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(notation, "LONGEST_PIECE", 10)
    text = "    " * 5 + "3a 54 ah 1h 2b 3c 45\n# 3a 3a 3a 3a 3a 3a\n1a"
    chunks = [text[i:i + 4] for i in range(0, len(text), 4)]
    lines = list(text_lines(chunks))
    assert all(len(line.text) <= 10 for line in lines)
    # No token is cut, the blank start is dropped, a comment line's pieces follow its first.
    assert " ".join(line.text for line in lines if line.number == 1).split() == \
        ["3a", "54", "ah", "1h", "2b", "3c", "45"]
    assert lines[0].text.lstrip() == lines[0].text and lines[0].first
    assert list(moves_of_lines(lines)) == parse_moves("3a 54 ah 1h 2b 3c 45\n1a")
