"""A benchmark of `bakers.hint` on a few fixed mid-game positions of every game.

The positions are made as ``bench_hint.py`` makes them (numbered deals played forward
by seeded random moves; some by moves that keep a win), chosen so that every search
ends well inside the default limits. Each round asks for the hint of every position of
one game with the default limits and ``remember=False``; then every answer is checked:
the expected verdict, the board left as it was, and for ``'win'`` the move and then
the rest of the line, pushed on a copy of the board, win by the referee's rules.

Run: ``python -m pytest bench/test_bench_hint.py -q --benchmark-only``.
"""

from __future__ import annotations

import pytest
from bakers import Board, hint
from bakers.hinting import Hint
from bench_hint import mid_game

#: How a position is made: its deal and the winnability check of each random move
#: (0: none, any legal move), and the verdict of its hint.
POSITIONS: dict[str, tuple[tuple[int, int, str], ...]] = {
    "bakers_game": ((26, 0, "no_win"), (41, 0, "no_win"), (1, 100_000, "win"),
                    (3, 100_000, "win")),
    "freecell": ((6, 0, "win"), (36, 0, "win"), (86, 0, "no_win"), (1, 100_000, "win")),
    "freecell36": ((31, 0, "win"), (56, 0, "no_win"), (1, 100_000, "win"),
                   (2, 100_000, "win")),
    "bulochnik": ((16, 0, "win"), (21, 0, "no_win"), (1, 100_000, "win"),
                  (2, 100_000, "win")),
    "bakers_dozen": ((11, 0, "win"), (31, 0, "win"), (51, 0, "no_win"),
                     (1, 100_000, "win")),
}


def _boards(game: str) -> list[Board]:
    boards = []
    for deal, keep_win, _ in POSITIONS[game]:
        board = mid_game(game, deal, keep_win=keep_win)
        assert board is not None and not board.is_won()
        boards.append(board)
    return boards


def _hints(boards: list[Board]) -> list[Hint]:
    return [hint(board, remember=False) for board in boards]


def _check(board: Board, answer: Hint) -> None:
    """Assert that ``answer`` is a valid hint for ``board``, by the referee."""
    if answer.verdict == "win":
        assert answer.move is not None and answer.line is not None
        assert answer.supermove is not None and board.is_legal(answer.supermove)
        played = board.copy(stack=False)
        played.push(answer.move)
        for move in answer.line:
            played.push(move)
        assert played.is_won()
    elif answer.verdict == "no_win":
        assert answer.move is None and answer.result is not None
        assert answer.result.verdict == "impossible"
    else:
        assert answer.verdict == "unknown" and answer.reason


@pytest.mark.parametrize("game", list(POSITIONS))
def test_hint_mid_game(benchmark, game: str) -> None:
    """The hints of a few mid-game positions of ``game``, each one checked."""
    boards = _boards(game)
    before = [board.copy() for board in boards]
    answers = benchmark.pedantic(_hints, args=(boards,), rounds=5, iterations=1,
                                 warmup_rounds=1)
    assert boards == before
    for board, answer in zip(boards, answers, strict=True):
        _check(board, answer)
    assert [a.verdict for a in answers] == [verdict for *_, verdict in POSITIONS[game]]
    benchmark.extra_info["verdicts"] = [a.verdict for a in answers]
    benchmark.extra_info["expanded"] = sum(a.result.stats.expanded for a in answers
                                           if a.result is not None)
