"""A property of every preset: each format bakers writes reads back to what was written.

A seeded deal of each game, played a few random legal moves into mid-game, goes through
the board text (with the comment lines `generate` adds), `Board`'s printed text, the
JSON of `Deal`, the JSON records of `generate` and `daily`, and its line of moves in
standard notation, in JSON and in Freecell Solver's verbose words.
"""

from __future__ import annotations

import json
import random

from bakers import PRESETS, Board, Deal, Solution
from bakers.formats import fcs_verbose
from hypothesis import given, settings
from hypothesis import strategies as st

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)


def _played(deal: Deal, rng: random.Random, moves: int) -> Board:
    """Return the board of ``deal`` after up to ``moves`` random legal moves."""
    board = Board(deal)
    for _ in range(moves):
        legal = list(board.legal_moves)
        if not legal:
            break
        board.push(rng.choice(legal))
    return board


@settings(max_examples=5, deadline=None)
@given(seed=SEEDS, play=st.integers(min_value=0, max_value=30), rng_seed=st.integers(0, 2**32))
def test_every_format_reads_back_for_every_preset(seed: int, play: int, rng_seed: int) -> None:
    for game in PRESETS:
        start = Deal.from_seed(game, seed)
        board = _played(start, random.Random(rng_seed), play)
        deal = board.to_deal()
        # board text, with the comments that generate and daily add after the columns
        assert Deal.parse(game, deal.to_text()) == deal
        assert Deal.parse(game, deal.to_text() + "# a comment\n# another\n") == deal
        assert Board.from_text(game, str(board)) == board
        # JSON of a deal, and the records of generate and daily that carry one
        assert Deal.from_json(deal.to_json()) == deal
        assert Deal.from_json(start.to_json()).seed == seed
        record = {"game": game, "seed": 1, "deal_seed": seed, "attempts": 1, "grade": None,
                  "score": None, "moves": None, "solution": None, "deal": start.to_text()}
        again = Deal.from_json(json.dumps(record))
        assert again == start and again.seed == seed
        daily = {"game": game, "date": "2024-01-01", "daily_seed": 1, "deal_seed": seed,
                 "deal": start.to_text()}
        assert Deal.from_json(json.dumps(daily)) == start
        # the line played, in every notation a solution is written in
        line = Solution(board.move_stack)
        for text in (line.notation(), line.notation(None), fcs_verbose(line, Board(start))):
            replay = Solution.parse(text).replay(Board(start))
            assert replay.error is None and replay.board == board, (game, text)
