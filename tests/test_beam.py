"""The beam search: breadth first, the best positions of each level kept, in rounds of
growing widths (one thread). It wins tight deals that the other searches miss, its
"impossible" comes only from a round that kept every position, and its limits hold for
the whole run."""

from __future__ import annotations

import json

import pytest
from bakers import Deal, Limits
from bakers.errors import InvalidOptionError
from bakers.fewest_cells import min_cells, with_cells
from bakers.solving import solve
from helpers_cli import Run
from test_solve import assert_won

pytest.importorskip("bakers._core")

BEAM = "beam"


def test_wins_freecell_14497_with_one_cell_that_best_first_misses() -> None:
    """FreeCell MS 14497 with one cell: best first finds no win within 200,000 positions
    (nor depth first within 500 million, measured); the first round of the beam
    (1,000 positions a level) wins, and the referee replays the line."""
    deal = with_cells(Deal.from_number("freecell", 14497), 1)
    assert solve(deal, limits=Limits(nodes=200_000), method="best-first").verdict == "unknown"
    result = solve(deal, method=BEAM)
    assert_won(result, deal, "freecell 14497, one cell")
    assert result.stats.expanded < 200_000


@pytest.mark.parametrize(("game", "number", "cells", "verdict"), [
    ("freecell", 1, 2, "impossible"), ("freecell", 1, 3, "solved"),
    ("bakers_game", 14, None, "impossible"), ("bakers_game", 1, None, "solved"),
    ("bulochnik", 2, None, "solved")])
def test_verdicts_equal_best_first(game: str, number: int, cells: int | None,
                                   verdict: str) -> None:
    deal = Deal.from_number(game, number)
    if cells is not None:
        deal = with_cells(deal, cells)
    result = solve(deal, method=BEAM)
    best = solve(deal, method="best-first")
    assert result.verdict == verdict == best.verdict
    if result.solved:
        assert_won(result, deal, f"{game} {number}")
    else:  # the uncut round stored every reachable position (rounds add up)
        assert result.most_home_exact
        assert result.most_home == best.most_home
        assert result.stats.stored >= best.stats.stored


def test_limits_end_it() -> None:
    deal = with_cells(Deal.from_number("freecell", 24966), 1)  # no one-cell win known
    result = solve(deal, limits=Limits(nodes=30_000), method=BEAM)
    assert (result.verdict, result.reason) == ("unknown", "node limit")
    assert 30_000 <= result.stats.expanded < 30_000 + 1_000
    result = solve(deal, limits=Limits(memory="16M"), method=BEAM)
    assert (result.verdict, result.reason) == ("unknown", "memory limit")
    assert result.stats.peak_bytes <= Limits(memory="16M").memory
    result = solve(deal, limits=Limits(seconds=0.3), method=BEAM)
    assert (result.verdict, result.reason) == ("unknown", "time limit")


def test_one_thread_only_and_named_in_errors() -> None:
    deal = Deal.from_number("freecell", 1)
    with pytest.raises(InvalidOptionError, match="one thread"):
        solve(deal, method=BEAM, threads=2)
    with pytest.raises(InvalidOptionError, match="beam"):
        solve(deal, method="beams")


def test_min_cells_with_the_beam() -> None:
    """min_cells with method='beam' answers FreeCell 14497 with one cell (a win), backed
    by the proof that none is possible without cells."""
    answer = min_cells(Deal.from_number("freecell", 14497), method=BEAM,
                       limits=Limits(nodes=2_000_000))
    assert (answer.cells, answer.exact) == (1, True)
    assert answer.verdicts[0] == "impossible"


def test_cli_solve_with_the_beam(bakers: Run) -> None:
    code, out, err = bakers("solve", "bakers_game", "1", "--method", "beam", "--format", "json")
    assert code == 0, err
    assert json.loads(out)["verdict"] == "solved"
    code, out, err = bakers("solve", "bakers_game", "1", "--method", "beams")
    assert code != 0 and "beams" in err
