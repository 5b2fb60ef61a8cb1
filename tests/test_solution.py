"""Solutions: reading both notations, replaying Freecell Solver's solutions move by move,
reporting the first illegal move, expanding supermoves."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from bakers.board import Board
from bakers.cards import RANK_CHARS, SUITS, Card
from bakers.deals import Deal
from bakers.errors import IllegalMoveError, InvalidMoveError
from bakers.notation import Move
from bakers.solution import Replay, Solution, replay_text

DATA = Path(__file__).resolve().parent / "data"
SOLVED = [("bakers_game", "ms1"), ("freecell", "ms24")]


def start(variant: str, deal: str) -> Board:
    """Return the start of a ``tests/data/boards`` deal (one column a line)."""
    lines = (DATA / "boards" / f"{deal}.board").read_text().splitlines()
    return Board.from_position(variant, [line for line in lines if line.strip()])


def solution_text(variant: str, deal: str, kind: str) -> str:
    return (DATA / "solutions" / f"{variant}_{deal}_fcsolve_{kind}.txt").read_text()


def fcs_positions(text: str) -> list[tuple[list[int], list[Card | None], list[list[Card]]]]:
    """Return each position that a Freecell Solver verbose solution prints."""
    positions = []
    for block in text.split("===================="):
        lines = [line for line in block.splitlines() if line.strip()]
        found = [line for line in lines if line.startswith("Foundations:")]
        if not found:
            continue
        homes = [RANK_CHARS.index(t[2]) if t[2] != "0" else 0 for t in found[0].split()[1:]]
        assert [t[0] for t in found[0].split()[1:]] == list(SUITS)
        slots = next(line for line in lines if line.startswith("Freecells:"))[10:].ljust(16)
        cells = [Card.parse(slots[i:i + 4]) if slots[i:i + 4].strip() else None
                 for i in range(0, 16, 4)]
        columns = [[Card.parse(t) for t in line[1:].split()]
                   for line in lines if line.startswith(":")]
        positions.append((homes, cells, columns))
    return positions


# -- reading ---------------------------------------------------------------------------

def test_parse_detects_the_notation() -> None:
    assert Solution.parse("3a 54\n# comment\n35x3 10-h") == [
        Move.parse(t) for t in ["3a", "54", "35x3", "10-h"]]
    verbose = "Foundations: H-0\n\nMove a card from stack 2 to freecell 0\n\n" \
              "Move 3 cards from stack 2 to stack 4\n"
    assert Solution.parse(verbose) == [Move.parse("3a"), Move.parse("35x3")]
    assert Solution.parse("") == Solution() == []


@pytest.mark.parametrize(("variant", "deal"), SOLVED)
def test_reference_files_parse(variant: str, deal: str) -> None:
    standard = Solution.parse(solution_text(variant, deal, "standard"))
    verbose = Solution.parse(solution_text(variant, deal, "verbose"))
    assert len(standard) == len(verbose) > 100
    # the notations agree on every move but the implied counts of the standard one
    for short, full in zip(standard, verbose, strict=True):
        assert (short.src, short.dst) == (full.src, full.dst)


def test_print_and_repr() -> None:
    solution = Solution.parse(" ".join(["3a", "54"] * 6) + " 10-12x4")
    assert solution.notation() == "3a 54 3a 54 3a 54 3a 54 3a 54\n3a 54 10-12x4"
    assert str(solution) == solution.notation()
    assert solution.notation(None) == " ".join(["3a", "54"] * 6) + " 10-12x4"
    assert eval(repr(solution)) == solution  # noqa: S307 - repr rebuilds the solution
    assert Solution.parse(str(solution)) == solution
    assert len(solution) == 13 and list(solution)[-1] == Move.parse("10-12x4")


def test_parse_errors_say_where() -> None:
    with pytest.raises(InvalidMoveError) as info:
        Solution.parse("3a 54\n\n6h 3q\n")
    assert str(info.value).startswith("move 4 (line 3): '3q' is not a move")
    with pytest.raises(InvalidMoveError) as info:
        Solution.parse("Move a card from stack 3 to freecell 0\nMove a card from stack 9\n")
    assert str(info.value).startswith("move 2 (line 2): 'Move a card from stack 9'")


# -- replay ------------------------------------------------------------------------------

@pytest.mark.parametrize(("variant", "deal"), SOLVED)
@pytest.mark.parametrize("kind", ["standard", "verbose"])
def test_replay_freecell_solver_solutions(variant: str, deal: str, kind: str) -> None:
    board = start(variant, deal)
    before = board.copy()
    replay = Solution.parse(solution_text(variant, deal, kind)).replay(board)
    assert replay.error is None and replay.failed_move is None
    assert replay.won and replay.board.is_won()
    assert replay.applied == len(replay.board.move_stack) > 100
    assert replay.raise_for_error() is replay
    assert board == before and board.move_stack == []  # the start is left as it was


def test_replay_freecell_solver_snx_counts() -> None:
    # fc-solve -m -snx writes a supermove's count as "v2"; it reads as "x2"
    text = solution_text("freecell", "ms4", "snx")
    solution = Solution.parse(text)
    counted = [move for move in solution if move.count is not None]
    assert counted and all(move.count > 1 for move in counted)
    assert len(counted) == sum(token[2:3] == "v" for token in text.split())
    replay = solution.replay(Deal.from_number("freecell", 4))
    assert replay.won and replay.failed_move is None


@pytest.mark.parametrize(("variant", "deal"), SOLVED)
def test_replay_matches_every_position_freecell_solver_prints(variant: str, deal: str) -> None:
    text = solution_text(variant, deal, "verbose")
    positions = fcs_positions(text)
    board = start(variant, deal)
    moves = Solution.parse(text)
    standard = Solution.parse(solution_text(variant, deal, "standard"))
    other = board.copy()
    assert len(positions) == len(moves) + 1
    for number, (homes, cells, columns) in enumerate(positions):
        assert board.foundations == homes, number
        assert board.cells == cells, number
        assert board.columns == columns, number
        assert other == board, number  # the standard notation reaches the same position
        if number < len(moves):
            board.push(moves[number])
            other.push(standard[number])


def test_replay_from_a_deal_record() -> None:
    board = start("bakers_game", "ms1")
    deal = SimpleNamespace(variant=board.variant, columns=board.columns, cells=board.cells,
                           foundations=board.foundations)
    replay = Solution.parse(solution_text("bakers_game", "ms1", "standard")).replay(deal)
    assert replay.won
    assert board == start("bakers_game", "ms1")


def test_replay_continues_from_a_board_with_moves() -> None:
    board = start("bakers_game", "ms1")
    solution = Solution.parse(solution_text("bakers_game", "ms1", "standard"))
    for move in solution[:10]:
        board.push(move)
    replay = Solution(solution[10:]).replay(board)
    assert replay.won and replay.applied == len(solution) - 10
    assert replay.board.move_stack[:10] == board.move_stack
    assert len(board.move_stack) == 10


@pytest.mark.parametrize("k", [1, 17, 60])
def test_replay_reports_the_first_illegal_move(k: int) -> None:
    solution = Solution.parse(solution_text("bakers_game", "ms1", "standard"))
    board = start("bakers_game", "ms1")
    good = Solution(solution[:k - 1]).replay(board).board
    bad = next(m for m in [Move.parse(t) for t in ["1h", "2h", "12", "21", "ah", "a1"]]
               if not good.is_legal(m))
    broken = Solution([*solution[:k - 1], bad, *solution[k:]])
    replay = broken.replay(board)
    assert replay.failed_move == k
    assert replay.applied == k - 1
    assert not replay.won
    assert replay.board == good
    assert isinstance(replay.error, IllegalMoveError)
    message = str(replay.error)
    assert message.startswith(f"move {k} {bad.notation()!r}: ")
    assert replay.error.reason in message  # type: ignore[attr-defined]
    assert replay.error.move_number == k  # type: ignore[attr-defined]
    with pytest.raises(IllegalMoveError, match=f"^move {k} "):
        replay.raise_for_error()
    with pytest.raises(IllegalMoveError, match=f"^move {k} "):
        broken.expand(board)


def test_replay_reports_the_reason() -> None:
    board = Board.from_position("bakers_game", ["KS QH", "KD", "KH", "", "", "", "", ""],
                                cells=["QS", "JH", "QC", "KC"])
    replay = Solution.parse("1a a4").replay(board)
    assert replay.failed_move == 1 and replay.applied == 0
    assert str(replay.error) == "move 1 '1a': no free cell"
    replay = Solution.parse("a4 4b").replay(board)
    assert replay.failed_move == 2 and replay.applied == 1
    assert str(replay.error) == "move 2 '4b': cell b holds JH"
    replay = Solution.parse("a4 12").replay(board)
    assert str(replay.error) == (
        "move 2 '12': QH does not go on KD (bakers_game builds down in suit)")
    assert isinstance(replay, Replay) and replay.board.move_stack == [Move.parse("a4")]


def test_replay_of_an_unfinished_solution() -> None:
    replay = Solution.parse("6a 6b 6h").replay(start("bakers_game", "ms1"))
    assert replay.error is None and not replay.won and replay.applied == 3
    assert replay.board.foundation_count() == 1


# -- expansion ---------------------------------------------------------------------------

@pytest.mark.parametrize(("variant", "deal"), SOLVED)
def test_expand_to_single_card_moves(variant: str, deal: str) -> None:
    board = start(variant, deal)
    solution = Solution.parse(solution_text(variant, deal, "verbose"))
    single = solution.expand(board)
    assert isinstance(single, Solution)
    assert all(move.count in (None, 1) for move in single)
    multi = sum(move.count - 1 for move in solution if move.count and move.count > 1)
    assert len(single) > len(solution) + multi  # each extra card costs two moves or more
    replay = single.replay(board)
    assert replay.won and replay.applied == len(single)
    # a game that moves one card at a time accepts the expansion as it stands
    one_at_a_time = board.variant.replace(name=f"{variant}_single", moves="single")
    assert single.replay(Board.from_position(one_at_a_time, board.columns)).won
    assert solution.replay(Board.from_position(one_at_a_time, board.columns)).error


def test_expand_keeps_sequence_moves_whole() -> None:
    board = Board.from_position("bulochnik", ["KS QH JH TH 9H", "KH", "QS JS", "KC QC",
                                              "KD", "", "", ""])
    assert Solution.parse("12").expand(board) == [Move.parse("12x4")]


def test_a_slice_of_a_solution_is_a_solution() -> None:
    solution = Solution.parse("6a 6b 6h")
    assert isinstance(solution[:2], Solution)
    assert solution[:2].notation() == "6a 6b"
    assert solution[2].notation() == "6h"


def test_replay_reports_a_column_the_game_lacks() -> None:
    replay = Solution.parse("3a 19").replay(Deal.from_number("freecell", 617))
    assert (replay.applied, replay.failed_move) == (1, 2)
    assert "there is no column 9 (freecell has 8)" in str(replay.error)


def test_replay_text_reads_no_further_than_a_plain_illegal_move() -> None:
    board = Board(Deal.from_number("freecell", 617))
    solution, replay = replay_text("3a 54 zz", board)
    assert (len(solution), replay.failed_move) == (2, 2)  # 'zz' is never parsed
    assert len(board.move_stack) == 0  # the start is left as it is
    with pytest.raises(InvalidMoveError, match="move 3"):
        replay_text("3a 3b zz", board)
