"""min_cells(): the fewest free cells that still win, backed by a win with that many
and a verdict for every smaller count; upper bounds marked when a search was cut."""

from __future__ import annotations

import importlib

import pytest
from bakers import Board, Deal, InvalidOptionError, Limits, find_variant, solve
from bakers.min_cells import MinCells, min_cells, with_cells
from bakers.solve import SolveResult


def check(deal: Deal, answer: MinCells) -> None:
    """Check the win with ``answer.cells`` cells and the proofs for fewer."""
    assert answer.cells is not None and answer.solution is not None
    laid_out = with_cells(deal, answer.cells)
    assert answer.variant == laid_out.variant and laid_out.variant.cells == answer.cells
    replay = answer.solution.replay(laid_out)
    assert replay.won and replay.error is None
    assert list(answer.verdicts) == list(range(answer.cells + 1))
    assert answer.verdicts[answer.cells] == "solved"
    if answer.exact:
        assert answer.lower_bound == answer.cells
        assert all(answer.verdicts[k] == "impossible" for k in range(answer.cells))


def test_freecell_11982_needs_five_cells() -> None:
    deal = Deal.from_number(find_variant("freecell"), 11982)
    answer = min_cells(deal)
    assert answer.cells == 5 and answer.exact
    check(deal, answer)
    assert answer.to_dict()["verdicts"] == {"0": "impossible", "1": "impossible",
                                            "2": "impossible", "3": "impossible",
                                            "4": "impossible", "5": "solved"}


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
    assert answer.lower_bound == 3 and answer.verdicts == {k: "impossible" for k in range(3)}


def test_unknown_smaller_counts_make_an_upper_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the search with one cell fewer is cut short, the answer is an upper bound."""
    # the package exports the function min_cells under the module's name
    module = importlib.import_module("bakers.min_cells")

    real = module.solve

    deal = Deal.from_number(find_variant("freecell"), 1)
    exact = min_cells(deal)
    assert exact.cells is not None and exact.cells >= 1 and exact.exact
    cut = exact.cells - 1

    def cut_short(position: Deal, *, limits: Limits) -> SolveResult:
        if position.variant.cells == cut:
            return real(position, limits=Limits(nodes=1))
        return real(position, limits=limits)

    monkeypatch.setattr(module, "solve", cut_short)
    answer = min_cells(deal)
    assert answer.cells == exact.cells and not answer.exact and answer.lower_bound == cut
    assert answer.verdicts == {**{k: "impossible" for k in range(cut)}, cut: "unknown",
                               exact.cells: "solved"}
    check(deal, answer)


def test_every_search_cut_short() -> None:
    answer = min_cells(Deal.from_number(find_variant("freecell"), 1), limits=Limits(nodes=1),
                       max_cells=3)
    assert answer.cells is None and not answer.no_win and list(answer.verdicts) == [0, 1, 2, 3]
    assert set(answer.verdicts.values()) <= {"impossible", "unknown"}
    proved = [k for k, v in answer.verdicts.items() if v == "impossible"]
    assert proved == list(range(len(proved))) and answer.lower_bound == len(proved)


def test_a_position_with_cards_in_cells() -> None:
    board = Board.from_number("freecell", 1)
    board.push_notation("1a")
    answer = min_cells(board)
    assert min(answer.verdicts) == 1
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
