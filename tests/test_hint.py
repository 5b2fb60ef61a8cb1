"""hint(): from positions reached by random legal play in every game, a 'win' hint's
move and line win when replayed by the referee, a 'no_win' is confirmed by solve, and
the board asked about is never modified."""

from __future__ import annotations

import random

import pytest
from bakers import Board, Deal, InvalidOptionError, Limits, find_variant, solve
from bakers.hinting import (
    DEFAULT_HINT_LIMITS,
    HINT_VERDICTS,
    Hint,
    forget_lines,
    hint,
    remembered_hint,
)
from bakers.solution import Solution
from bakers.variants import PRESETS

LIMITS = Limits(nodes=40_000)


def random_position(name: str, number: int, steps: int, rng: random.Random) -> Board:
    """Return the position after up to ``steps`` random legal moves from a deal."""
    board = Board(Deal.from_number(find_variant(name), number))
    for _ in range(steps):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    return board


def check_hint(board: Board, answer: Hint) -> None:
    """Check a hint against the referee (for 'win') or solve (for 'no_win')."""
    assert answer.verdict in HINT_VERDICTS
    if answer.verdict == "win":
        assert answer.move is not None and answer.line is not None
        after = board.copy()
        after.push(answer.move)
        replay = answer.line.replay(after)
        assert replay.error is None and replay.won
        assert answer.supermove is not None
        assert board.expand(answer.supermove)[0] == answer.move
    elif answer.verdict == "no_win":
        assert answer.move is None and answer.line is None
        assert solve(board, limits=Limits(nodes=400_000)).verdict == "impossible"
        assert answer.most_home < board.variant.deck
    else:
        assert answer.move is None and answer.reason


@pytest.mark.parametrize("name", list(PRESETS))
def test_hints_from_random_positions(name: str) -> None:
    rng = random.Random(f"hint-{name}")
    verdicts: dict[str, int] = {}
    for number in (1, 2, 3, 4, 24):
        for steps in (3, 12, 30):
            board = random_position(name, number, steps, rng)
            before, stack = str(board), list(board.move_stack)
            answer = hint(board, limits=LIMITS)
            assert str(board) == before and board.move_stack == stack
            check_hint(board, answer)
            verdicts[answer.verdict] = verdicts.get(answer.verdict, 0) + 1
    assert verdicts.get("win", 0) >= 2, verdicts


def test_no_win_is_found_in_lost_positions() -> None:
    """Random play in Baker's Game soon loses; those hints say so, and solve agrees."""
    rng = random.Random(7)
    no_wins = 0
    for number in range(1, 9):
        board = random_position("bakers_game", number, 25, rng)
        answer = hint(board, limits=LIMITS)
        check_hint(board, answer)
        no_wins += answer.verdict == "no_win"
    assert no_wins >= 2


def test_impossible_deal_is_no_win_with_the_default_limits() -> None:
    answer = hint(Board.from_number("freecell", 11982))
    assert answer.verdict == "no_win" and not answer.found
    assert answer.result is not None and answer.result.impossible
    assert answer.to_dict()["move"] is None


def test_following_hints_wins_the_game() -> None:
    """Each hint after a hinted move continues the remembered line, so following hints
    wins in at most as many moves as the first hint's line and never goes round in
    circles (a position met twice on the line is left by its later move, which skips the
    loop between)."""
    forget_lines()
    board = Board.from_number("freecell", 617)
    first = hint(board, limits=LIMITS)
    assert first.result is not None and first.line is not None
    expected = [first.move, *first.line]
    played = []
    for _ in range(len(expected) + 1):
        answer = hint(board, limits=LIMITS)
        if answer.won_already:
            break
        assert answer.verdict == "win" and answer.move is not None
        check_hint(board, answer)
        if played:
            assert answer.result is None  # remembered, no search
        played.append(board.push(answer.move))
    assert board.is_won() and len(played) <= len(expected)
    positions = [Board.from_number("freecell", 617)]
    for move in played:
        positions.append(positions[-1].copy(stack=False))
        positions[-1].push(move)
    assert len({str(p) for p in positions}) == len(positions)  # no position twice


def test_without_remembering_every_hint_searches() -> None:
    forget_lines()
    board = Board.from_number("freecell", 617)
    first = hint(board, limits=LIMITS, remember=False)
    assert first.move is not None
    board.push(first.move)
    second = hint(board, limits=LIMITS, remember=False)
    assert second.result is not None and second.verdict == "win"
    check_hint(board, second)
    # the remembered line is found only after a remembering hint
    hint(board.copy(stack=False), limits=LIMITS)
    assert hint(board, limits=LIMITS).result is None
    forget_lines()
    assert hint(board, limits=LIMITS).result is not None


def test_remembered_hint_answers_only_from_a_remembered_line() -> None:
    forget_lines()
    board = Board.from_number("freecell", 617)
    assert remembered_hint(board) is None  # nothing remembered: no search either
    first = hint(board, limits=LIMITS)
    again = remembered_hint(board)
    assert again is not None and again.result is None
    assert (again.move, again.supermove) == (first.move, first.supermove)
    board.push(first.move)
    assert remembered_hint(board) == hint(board, limits=LIMITS)
    forget_lines()
    assert remembered_hint(board) is None


def test_won_board() -> None:
    deal = Deal.from_number(find_variant("bakers_game"), 1)
    result = solve(deal)
    assert result.solution is not None
    board = result.solution.replay(deal).board
    answer = hint(board)
    assert answer.verdict == "win" and answer.won_already
    assert answer.move is None and answer.line == Solution() and answer.result is None
    assert answer.to_dict()["won_already"] is True


def test_a_tiny_limit_gives_unknown() -> None:
    answer = hint(Board.from_number("freecell", 1), limits=Limits(nodes=1))
    assert answer.verdict == "unknown" and answer.move is None and answer.reason


def test_default_limits_end_in_seconds() -> None:
    assert DEFAULT_HINT_LIMITS.seconds is not None and DEFAULT_HINT_LIMITS.seconds <= 10


def test_bad_arguments() -> None:
    deal = Deal.from_number(find_variant("freecell"), 1)
    with pytest.raises(InvalidOptionError, match="Board"):
        hint(deal)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="limits"):
        hint(Board(deal), limits="5s")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        hint("8C 2C", limits=LIMITS)  # type: ignore[arg-type]
