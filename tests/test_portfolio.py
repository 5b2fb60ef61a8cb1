"""The portfolio search: best first, a restricted pass, nested rollouts and two
depth-first orders in rounds of growing budgets, one thread. Its verdicts are those of
complete searches (the restricted pass and the rollouts only win); it wins where one of
them alone would need far longer; its limits hold for the whole run."""

from __future__ import annotations

import pytest
from bakers import Deal, Limits
from bakers.errors import InvalidOptionError
from bakers.solving import solve
from test_solve import assert_won

pytest.importorskip("bakers._core")

PORTFOLIO = "portfolio"


def test_wins_what_best_first_misses() -> None:
    """Baker's Dozen 846: best first does not win it within 200,000 positions; the
    portfolio's depth-first order by progress does in its first round (best first
    10,000, the restricted pass 20,000, the rollouts 10,000, then that order about
    3,400)."""
    deal = Deal.from_number("bakers_dozen", 846)
    alone = solve(deal, limits=Limits(nodes=200_000), method="best-first")
    assert alone.verdict == "unknown"
    result = solve(deal, method=PORTFOLIO)
    assert_won(result, deal, "bakers_dozen 846")
    assert result.stats.expanded < 50_000


def test_rollouts_win_what_the_complete_searches_miss() -> None:
    """Baker's Dozen 154: neither best first nor depth first wins it within 100,000
    positions; the portfolio's rollouts do in its first round, after best first's
    10,000 and the restricted pass's 20,000 (the three complete searches alone took 5.2
    million positions)."""
    deal = Deal.from_number("bakers_dozen", 154)
    for method in ("best-first", "depth-first"):
        assert solve(deal, limits=Limits(nodes=100_000), method=method).verdict == "unknown"
    result = solve(deal, method=PORTFOLIO)
    assert_won(result, deal, "bakers_dozen 154")
    assert result.stats.expanded < 40_000


@pytest.mark.parametrize(("game", "number", "verdict"), [
    ("bakers_dozen", 64, "impossible"), ("bakers_dozen", 24, "solved"),
    ("freecell", 11982, "impossible"), ("bakers_game", 14, "impossible"),
    ("bakers_game", 1, "solved"), ("freecell36", 3, "solved")])
def test_verdicts_equal_the_other_searches(game: str, number: int, verdict: str) -> None:
    deal = Deal.from_number(game, number)
    result = solve(deal, method=PORTFOLIO)
    assert result.verdict == verdict == solve(deal, method="best-first").verdict
    if result.solved:
        assert_won(result, deal, f"{game} {number}")
    else:  # exact unless the game cuts dead ends (Baker's Dozen)
        assert result.most_home_exact == (not deal.variant.cuts_dead_ends)


@pytest.mark.parametrize(("game", "number"), [
    ("beleaguered_castle", 2_000_072), ("beleaguered_castle", 2_000_552),
    ("beleaguered_castle", 2_000_652), ("streets_and_alleys", 2_000_091),
    ("streets_and_alleys", 2_000_799), ("streets_and_alleys", 2_000_629)])
def test_restricted_pass_wins_are_real_wins(game: str, number: int) -> None:
    """Deals of the training range that the portfolio's searches do not decide within
    300,000 positions without the restricted pass (every card home at once, suits
    merged), which wins each within a few thousand after best first's 10,000: its line,
    moves home written out, is replayed by the referee (assert_won), and solve's own
    replay has accepted it."""
    deal = Deal.from_number(game, number)
    result = solve(deal, method=PORTFOLIO)
    assert_won(result, deal, f"{game} {number}")
    assert result.stats.expanded < 20_000


def test_node_limit_counts_every_run() -> None:
    """Baker's Dozen 417 (undecided after billions of positions): a limit of 250,000 in all
    ends the portfolio in its second round (10,000 a run in the first, 40,000 in the
    second, the restricted pass twice that), with the positions of every run counted."""
    result = solve(Deal.from_number("bakers_dozen", 417), limits=Limits(nodes=250_000),
                   method=PORTFOLIO)
    assert (result.verdict, result.reason) == ("unknown", "node limit")
    assert result.stats.expanded == 250_000


@pytest.mark.slow
def test_memory_and_time_limits_end_it() -> None:
    deal = Deal.from_number("bakers_dozen", 417)
    result = solve(deal, limits=Limits(memory="16M"), method=PORTFOLIO)
    assert (result.verdict, result.reason) == ("unknown", "memory limit")
    assert result.stats.peak_bytes <= Limits(memory="16M").memory
    result = solve(deal, limits=Limits(seconds=0.5), method=PORTFOLIO)
    assert (result.verdict, result.reason) == ("unknown", "time limit")
    assert result.stats.seconds < 5


def test_several_threads() -> None:
    """Its runs go at once, one a thread (tests/test_solve_threads.py measures more)."""
    deal = Deal.from_number("bakers_dozen", 1)
    assert_won(solve(deal, method=PORTFOLIO, threads=2), deal, "bakers_dozen 1 on 2 threads")
    with pytest.raises(InvalidOptionError, match="threads=17"):
        solve(deal, method=PORTFOLIO, threads=17)
