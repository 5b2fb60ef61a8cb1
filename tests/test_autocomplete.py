"""Board.autocomplete: the moves that finish a position won by foundation moves alone,
None for a position that still needs a decision, the board left as it was."""

from __future__ import annotations

import random

import pytest
from bakers.board import Board
from bakers.cards import Card
from bakers.deals import Deal
from bakers.notation import FOUNDATION, Move
from bakers.solution import Solution
from bakers.variants import PRESETS, find_variant

# A FreeCell position near the end: every column descends, two kings' queens in cells.
NEAR_END = (["KH QH", "KS QS JS", "KD", "KC", "", "", "", ""], ["QD", "QC"])


def near_end() -> Board:
    columns, cells = NEAR_END
    return Board.from_position("freecell", columns, cells)


def wins_by_foundation_moves_in_random_order(board: Board, rng: random.Random) -> bool:
    """Return whether playing random foundation moves, in a random order, wins."""
    board = board.copy(stack=False)
    while True:
        home = [m for m in board.legal_moves if m.dst.kind == FOUNDATION]
        if not home:
            return board.is_won()
        board.push(rng.choice(home))


def test_near_end_position_is_finished_lowest_rank_first() -> None:
    board = near_end()
    before = str(board)
    moves = board.autocomplete()
    assert moves is not None and len(moves) == 9
    assert all(m.dst.kind == FOUNDATION for m in moves)
    assert str(board) == before and board.move_stack == []
    replay = Solution(moves).replay(board)
    assert replay.won and replay.error is None
    ranks = []
    scratch = board.copy()
    for move in moves:
        card = (scratch.cells[move.src.index] if move.src.kind == "cell"
                else scratch.columns[move.src.index][-1])
        ranks.append(card.rank)
        scratch.push(move)
    assert ranks == sorted(ranks)  # the cards rise evenly: jacks, then queens, then kings


def test_a_card_buried_under_a_higher_one_needs_a_decision() -> None:
    board = Board.from_position("freecell", ["QH KH", "KS QS JS", "KD", "KC", "", "", "", ""],
                                ["QD", "QC"])
    assert board.autocomplete() is None


def test_won_board_gives_no_moves() -> None:
    board = near_end()
    for move in board.autocomplete() or []:
        board.push(move)
    assert board.is_won()
    assert board.autocomplete() == []


def test_start_of_a_deal_needs_decisions() -> None:
    for name in PRESETS:
        assert Board.from_number(name, 5).autocomplete() is None


@pytest.mark.parametrize("name", list(PRESETS))
def test_order_of_foundation_moves_does_not_matter(name: str) -> None:
    """Along winning lines, and one random move off them, autocomplete says yes exactly
    when random orders of foundation moves win, and its moves, pushed, win."""
    from bakers.limits import Limits
    from bakers.solving import solve

    rng = random.Random(name)
    seen = {True: 0, False: 0}
    for number in (24, 617):
        result = solve(Deal.from_number(find_variant(name), number), limits=Limits(nodes=50_000))
        if result.solution is None:
            continue
        board = result.start.copy()
        for i, move in enumerate(result.solution):
            if i >= len(result.solution) // 2:
                off = board.copy()
                legal = list(off.legal_moves)
                off.push(rng.choice(legal))
                for position in (board, off):
                    answer = position.autocomplete()
                    for _ in range(2):
                        assert wins_by_foundation_moves_in_random_order(position, rng) == (
                            answer is not None)
                    seen[answer is not None] += 1
                    if answer is not None:
                        assert Solution(answer).replay(position).won
            board.push(move)
    assert seen[True] > 0 and seen[False] > 0


def test_hand_made_positions_of_every_rule_set() -> None:
    # Baker's Dozen: no cells; an exposed ace goes home by itself
    dozen = find_variant("bakers_dozen")
    columns = ["KH QH JH"] + ["KS QS JS"] + ["KD QD JD"] + ["KC QC JC"] + [""] * 9
    board = Board.from_position(dozen, columns, [])
    moves = board.autocomplete()
    assert moves is not None and Solution(moves).replay(board).won
    # a same-suit pile that is upside down blocks
    board = Board.from_position(dozen, ["JH QH KH"] + ["KS QS JS", "KD QD JD", "KC QC JC"]
                                + [""] * 9, [])
    assert board.autocomplete() is None


def test_solution_end_positions_of_a_real_game() -> None:
    """Near the end of a real winning line autocomplete finishes the game; at its start
    it does not."""
    from bakers.solving import solve

    deal = Deal.from_number(find_variant("freecell"), 617)
    result = solve(deal)
    assert result.solution is not None
    board = Board(deal)
    first = None
    for i, move in enumerate(result.solution):
        if first is None and board.autocomplete() is not None:
            first = i
        board.push(move)
    assert first is not None and 0 < first < len(result.solution)
    board = Board(deal)
    for move in result.solution[:first]:
        board.push(move)
    moves = board.autocomplete()
    assert moves is not None and Solution(moves).replay(board).won
    assert len(moves) == 52 - board.foundation_count()


def test_moves_are_legal_canonical_moves() -> None:
    board = near_end()
    for move in board.autocomplete() or []:
        assert isinstance(move, Move) and move in board.legal_moves
        assert board.push(move) == move
    assert Card.parse("KS") not in {c for col in board.columns for c in col}
