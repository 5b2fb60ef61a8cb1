"""The safe foundation moves: sending a *clear* card home never loses a win.

A card is clear when every card that builds on it is home, or is next on its foundation
and clear itself (cpp/core/moves.cpp has the rule and its proof). Where cards build by
alternating colour or regardless of suit, that lets a card go home while some card that
could be built on it is still in play. These tests take positions of random games in
which such a card waits (clear, but not every card that builds on it home) and check the
engine's verdict, which sends it home at once, against the referee's exhaustive search,
which never does anything it is not told to: a win must replay, an "impossible" must not
be won by the referee.
"""

from __future__ import annotations

import itertools
import random

import pytest
from bakers import Variant, find_variant
from bakers.board import Board
from bakers.cards import Card, full_deck
from bakers.solving import solve
from helpers_positions import (
    builds_on,
    exhaustive_search,
    is_home,
    is_next_home,
    random_positions,
    safe_to_send_home,
)
from test_solve import assert_referee_agrees, assert_won

pytest.importorskip("bakers._core")

#: Small games where the rule reaches further than "every card that builds on it is
#: home", and where the referee's search can finish.
GAMES = (
    find_variant("freecell36"),
    Variant("alternate36_one_cell", deck=36, columns=6, cells=1, build="alternate"),
    Variant("any36_no_cell", deck=36, columns=9, cells=0, build="any", empty="none",
            moves="single"),
)


def newly_safe(board: Board) -> list[Card]:
    """Return the exposed cards that are next, clear, and have a card that builds on them
    still in play: those the rule sends home early."""
    exposed = [column[-1] for column in board.columns if column]
    exposed += [card for card in board.cells if card is not None]
    return [card for card in exposed
            if is_next_home(board, card) and safe_to_send_home(board, card)
            and not all(is_home(board, other) for other in full_deck(board.variant.deck)
                        if builds_on(board.variant, other, card))]


def early_positions(variant: Variant, wanted: int) -> list[Board]:
    """Return up to ``wanted`` positions of random games where a card goes home early."""
    found: list[Board] = []
    boards = random_positions(variant, itertools.count(1), 80, seed=11, home_bias=0.5)
    for board in itertools.islice(boards, 20_000):
        if newly_safe(board):
            found.append(board)
            if len(found) == wanted:
                break
    return found


def _slow_for(names: tuple[str, ...], variants: tuple[Variant, ...]) -> list[object]:
    """Return ``variants`` with those named ``names`` marked slow (their exhaustive
    referee searches take many seconds)."""
    return [pytest.param(v, marks=pytest.mark.slow) if v.name in names else v
            for v in variants]


@pytest.mark.parametrize("variant", _slow_for(("any36_no_cell",), GAMES), ids=lambda v: v.name)
def test_sending_a_clear_card_home_keeps_the_verdict(variant: Variant) -> None:
    boards = early_positions(variant, 30)
    assert len(boards) == 30, f"only {len(boards)} positions where the rule reaches further"
    won = impossible = 0
    for board in boards:
        result = solve(board)
        if result.solved:
            assert_won(result, board, f"{variant.name} position\n{board}")
            won += 1
        else:
            assert result.verdict == "impossible", f"{result.verdict} for\n{board}"
            referee = exhaustive_search(board, 5_000)
            assert referee is not True, (
                f"the engine says impossible, the referee's search wins:\n{board}")
            impossible += referee is False
    assert won + impossible >= 10, f"{won} won and {impossible} impossible confirmed"
    assert impossible >= 3, f"only {impossible} impossible verdicts confirmed"


#: End games of 52-card games with little room, where a foundation move made too soon
#: often loses the win.
END_GAMES = (
    Variant("alternate_four_columns", columns=4, cells=0, build="alternate"),
    Variant("alternate_one_cell", columns=4, cells=1, build="alternate"),
    Variant("any_no_room", columns=5, cells=0, build="any", empty="none", moves="single"),
)


def end_game(variant: Variant, rng: random.Random) -> Board:
    """Return a random end game: each suit home up to a random height (12 to 18 cards
    left in all), the other cards shuffled into the columns."""
    heights = [0, 0, 0, 0]
    while not 12 <= sum(13 - h for h in heights) <= 18:
        heights = [rng.randint(0, 13) for _ in range(4)]
    left = [card for card in full_deck(52) if card.rank > heights[card.suit]]
    rng.shuffle(left)
    columns: list[list[Card]] = [[] for _ in range(variant.columns)]
    for i, card in enumerate(left):
        columns[i % variant.columns].append(card)
    return Board.from_position(variant, columns, foundations=heights)


@pytest.mark.parametrize("variant", _slow_for(("any_no_room",), END_GAMES),
                         ids=lambda v: v.name)
def test_end_game_verdicts_equal_the_referees(variant: Variant) -> None:
    """Random end games decided by the engine (safe moves made) and by the referee's
    exhaustive search (none made) get the same verdict."""
    rng = random.Random(5)
    verdicts = {True: 0, False: 0}
    for _ in range(200):
        board = end_game(variant, rng)
        referee = assert_referee_agrees(board, 20_000, f"{variant.name} end game\n{board}")
        if referee is not None:
            verdicts[referee] += 1
    assert verdicts[True] >= 20 and verdicts[False] >= 20, verdicts
