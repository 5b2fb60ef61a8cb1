"""The dive (``method='dive'``): cheap depth-first scans that only look for a win, then
best first. Its wins are replayed by the referee, its verdicts are best first's, it is
FreeCell's and 36-card FreeCell's default, and its limits hold for both stages."""

from __future__ import annotations

import csv

import pytest
from bakers import Deal, Limits, find_variant
from bakers.solving import default_method, solve
from test_solve import assert_won

pytest.importorskip("bakers._core")

DIVE = "dive"


def test_the_default_where_cards_alternate_colours_with_cells() -> None:
    assert default_method(find_variant("freecell")) == DIVE
    assert default_method(find_variant("freecell36")) == DIVE
    assert default_method(find_variant("bakers_game")) == DIVE
    assert default_method(find_variant("seahaven_towers")) == DIVE
    assert default_method(find_variant("bakers_dozen")) == "portfolio"


@pytest.mark.parametrize("game", ["freecell", "freecell36", "bakers_game", "bulochnik",
                                  "bakers_dozen"])
def test_every_win_replays_and_verdicts_match_best_first(game: str) -> None:
    for number in range(1, 31):
        deal = Deal.from_number(game, number)
        result = solve(deal, method=DIVE, limits=Limits(nodes=2_000_000))
        exact = solve(deal, method="best-first", limits=Limits(nodes=2_000_000))
        assert result.verdict == exact.verdict, f"{game} {number}"
        if result.verdict == "solved":
            assert_won(result, deal, f"{game} {number}")


def test_freecell_reference_verdicts_and_lines(data_dir) -> None:
    """MS 1..300 against the reference verdicts, every line replayed (`solve` checks it
    with the referee), lines no longer than best first's on average."""
    with open(data_dir / "freecell_ms_1-1000.tsv", newline="") as f:
        rows = [row for row in csv.reader(f, delimiter="\t") if row and row[0].isdigit()]
    verdicts = {"winnable": "solved", "impossible": "impossible"}
    reference = {int(row[0]): verdicts[row[1]] for row in rows}
    dive_moves = best_moves = 0
    for number in range(1, 301):
        deal = Deal.from_number("freecell", number)
        result = solve(deal, method=DIVE)
        assert result.verdict == reference[number], number
        assert_won(result, deal, f"freecell {number}")
        dive_moves += len(result.solution)
        best_moves += len(solve(deal, method="best-first").solution)
    assert dive_moves <= best_moves


def test_an_impossible_deal_is_proved_by_the_exact_search() -> None:
    result = solve(Deal.from_number("freecell", 11982))
    assert result.verdict == "impossible"
    # The dive's positions and best first's proof, counted together.
    alone = solve(Deal.from_number("freecell", 11982), method="best-first")
    assert result.stats.expanded > alone.stats.expanded


@pytest.mark.parametrize(("game", "number"), [("seahaven_towers", 98852), ("eight_off", 15792)])
def test_where_the_dive_spends_its_budget_the_wide_dive_wins(game: str, number: int) -> None:
    """Depth first alone takes hundreds of thousands of positions on these deals; the
    wide dive after the dive wins them within a few thousand, and the referee replays
    the line."""
    deal = Deal.from_number(game, number)
    result = solve(deal, limits=Limits(nodes=10_000))
    assert_won(result, deal, f"{game} {number}")


def test_a_node_limit_inside_the_dive_ends_it_unknown() -> None:
    result = solve(Deal.from_number("freecell", 11982), method=DIVE, limits=Limits(nodes=300))
    assert result.verdict == "unknown" and result.reason == "node limit"


def test_it_runs_from_a_mid_game_position_on_two_threads() -> None:
    from bakers import Board

    board = Board(Deal.from_number("freecell", 617))
    board.push("83")
    result = solve(board, method=DIVE, threads=2)
    assert_won(result, board, "freecell 617 after 83")
