"""min_cells(): the fewest free cells that still win, backed by a win with that many
and a verdict for every smaller count; upper bounds marked when a search was cut."""

from __future__ import annotations

import importlib

import pytest
from bakers import Board, Deal, InvalidOptionError, Limits, find_variant, solve
from bakers.fewest_cells import MinCells, min_cells, with_cells
from bakers.solving import SolveResult


def check(deal: Deal, answer: MinCells) -> None:
    """Check the win with ``answer.cells`` cells and the proofs for fewer."""
    assert answer.cells is not None and answer.solution is not None
    laid_out = with_cells(deal, answer.cells)
    assert answer.variant == laid_out.variant and laid_out.variant.cells == answer.cells
    replay = answer.solution.replay(laid_out)
    assert replay.won and replay.error is None
    assert answer.verdicts[answer.cells] == "solved"
    assert all(v == "solved" for k, v in answer.verdicts.items() if k > answer.cells)
    assert all(v != "solved" for k, v in answer.verdicts.items() if k < answer.cells)
    if answer.exact:
        assert answer.lower_bound == answer.cells
        below = answer.cells - 1
        assert answer.cells == min(answer.verdicts) or answer.verdicts[below] == "impossible"


def test_freecell_11982_needs_five_cells() -> None:
    deal = Deal.from_number(find_variant("freecell"), 11982)
    answer = min_cells(deal)
    assert answer.cells == 5 and answer.exact
    check(deal, answer)
    # 4 cells (the game's own) proved impossible implies 0..3 are: they are not searched
    assert answer.to_dict()["verdicts"] == {"4": "impossible", "5": "solved"}


@pytest.mark.parametrize("number", [1, 2, 3, 4, 5, 6])
def test_freecell_deals_and_monotonicity(number: int) -> None:
    deal = Deal.from_number(find_variant("freecell"), number)
    answer = min_cells(deal)
    assert answer.exact and answer.cells is not None and answer.cells <= 4
    check(deal, answer)
    # one more cell also wins: fewer cells are a restriction
    assert solve(with_cells(deal, answer.cells + 1), limits=Limits(nodes=200_000)).solved


def test_other_games() -> None:
    for game, number in (("bakers_game", 1), ("bulochnik", 1), ("freecell36", 2),
                         ("bakers_dozen", 24)):
        deal = Deal.from_number(find_variant(game), number)
        answer = min_cells(deal, limits=Limits(nodes=200_000))
        assert answer.cells is not None, game
        check(deal, answer)
    # Baker's Dozen has no cells and deal 24 needs none
    dozen = min_cells(Deal.from_number(find_variant("bakers_dozen"), 24))
    assert dozen.cells == 0 and dozen.exact


def test_an_impossible_deal_with_few_cells_allowed() -> None:
    deal = Deal.from_number(find_variant("freecell"), 11982)
    answer = min_cells(deal, max_cells=2)
    assert answer.cells is None and answer.no_win and not answer.exact
    assert answer.lower_bound == 3 and answer.verdicts == {2: "impossible"}


def test_unknown_smaller_counts_make_an_upper_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the search with one cell fewer is cut short, the answer is an upper bound."""
    # the package exports the function min_cells under the module's name
    module = importlib.import_module("bakers.fewest_cells")

    real = module.solve

    deal = Deal.from_number(find_variant("freecell"), 1)
    exact = min_cells(deal)
    assert exact.cells is not None and exact.cells >= 1 and exact.exact
    cut = exact.cells - 1

    def cut_short(position: Deal, *, limits: Limits, method: str,
                  progress: object = None) -> SolveResult:
        if position.variant.cells == cut:
            return real(position, limits=Limits(nodes=1), method=method)
        return real(position, limits=limits, method=method)

    monkeypatch.setattr(module, "solve", cut_short)
    answer = min_cells(deal)
    assert answer.cells == exact.cells and not answer.exact and answer.lower_bound == 0
    assert answer.verdicts == {**{k: "solved" for k in range(exact.cells, 5)}, cut: "unknown"}
    check(deal, answer)


def test_the_searches_go_down_from_the_game_s_own_count() -> None:
    """FreeCell MS 1 wins with 4 and 3 cells; 2 is proved impossible, which settles 0
    and 1 without a search."""
    answer = min_cells(Deal.from_number(find_variant("freecell"), 1))
    assert answer.verdicts == {2: "impossible", 3: "solved", 4: "solved"}
    assert answer.cells == 3 and answer.exact and answer.lower_bound == 3


def test_the_searches_go_up_when_the_game_s_count_does_not_win() -> None:
    two = with_cells(Deal.from_number(find_variant("freecell"), 1), 2)  # a game of 2 cells
    answer = min_cells(two)
    assert answer.verdicts == {2: "impossible", 3: "solved"}
    assert answer.cells == 3 and answer.exact


@pytest.mark.parametrize("number", [1, 2, 3, 4])
def test_depth_first_gives_the_same_answers(number: int) -> None:
    deal = Deal.from_number(find_variant("freecell"), number)
    deep, best = min_cells(deal, method="depth-first"), min_cells(deal)
    assert (deep.cells, deep.exact, deep.verdicts) == (best.cells, best.exact, best.verdicts)
    check(deal, deep)


def test_every_search_cut_short() -> None:
    answer = min_cells(Deal.from_number(find_variant("freecell"), 1), limits=Limits(nodes=1),
                       max_cells=3)
    assert answer.cells is None and not answer.no_win and answer.verdicts == {3: "unknown"}
    assert answer.lower_bound == 0


def test_a_position_with_cards_in_cells() -> None:
    board = Board.from_number("freecell", 1)
    board.push_notation("1a")
    answer = min_cells(board)
    assert min(answer.verdicts) >= 1
    # the card in a cell keeps one cell in use: no search with fewer
    assert list(min_cells(board, max_cells=1).verdicts) == [1]
    assert answer.cells is not None and answer.cells >= 1
    laid_out = with_cells(board.to_deal(), answer.cells)
    assert laid_out.cells[0] == board.cells[0]
    assert answer.solution is not None and answer.solution.replay(laid_out).won


def test_bad_arguments() -> None:
    deal = Deal.from_number(find_variant("freecell"), 1)
    with pytest.raises(InvalidOptionError, match="Deal or a Board"):
        min_cells(deal.to_text())  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="limits"):
        min_cells(deal, limits=100)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="method"):
        min_cells(deal, method="breadth-first")
    for bad in (-1, 9, True, "2"):
        with pytest.raises(InvalidOptionError, match="max_cells"):
            min_cells(deal, max_cells=bad)  # type: ignore[arg-type]
    board = Board.from_number("freecell", 1)
    board.push_notation("1a")
    board.push_notation("1b")
    with pytest.raises(InvalidOptionError, match="2 cards in cells"):
        min_cells(board, max_cells=1)
    with pytest.raises(InvalidOptionError, match="cannot have 1 cells"):
        with_cells(board.to_deal(), 1)


def test_the_beam_decides_what_the_first_search_leaves_unknown() -> None:
    """FreeCell MS 14497: best first finds no one-cell win within the default limits;
    the beam that follows does, and best first proves no cell impossible: one, exact."""
    deal = Deal.from_number(find_variant("freecell"), 14497)
    answer = min_cells(deal)
    assert (answer.cells, answer.exact, answer.lower_bound) == (1, True, 1)
    assert answer.verdicts == {0: "impossible", 1: "solved", 2: "solved", 3: "solved",
                               4: "solved"}
    check(deal, answer)
