"""`solve(method='depth-first')`: the lean complete search gives the verdicts of the
reference data and of the best-first search, its wins replay through the referee, its
"impossible" is confirmed by the referee's own exhaustive search on small games, and its
limits hold."""

from __future__ import annotations

import itertools
import json

import pytest
from bakers import Deal, InvalidOptionError, Limits, find_variant, solve, solve_many, solve_range
from bakers.solving import default_method
from helpers_cli import Run, one_error_line
from helpers_positions import exhaustive_search, random_positions
from test_solve import (
    BAKERS_DOZEN,
    BAKERS_GAME,
    DATA_VERDICTS,
    SMALL_GAMES,
    assert_verdict,
    assert_won,
)

pytest.importorskip("bakers._core")

DEEP = "depth-first"


@pytest.mark.parametrize("number", range(1, 61))
def test_bakers_game_ms_verdicts_match_data(number: int) -> None:
    deal = Deal.from_number("bakers_game", number)
    result = solve(deal, method=DEEP)
    expected = DATA_VERDICTS[BAKERS_GAME[number]]
    if expected == "solved":
        assert_won(result, deal, f"Baker's Game MS {number}")
    else:
        assert_verdict(result, "impossible", f"Baker's Game MS {number}")
        # A complete search sees every reachable position, in whatever order.
        best = solve(deal, method="best-first")
        assert result.stats.stored == best.stats.stored
        assert result.most_home == best.most_home


@pytest.mark.parametrize(("game", "number"), [
    ("freecell", 11982), ("freecell", 1), ("freecell36", 2), ("bulochnik", 3),
    ("bakers_dozen", 64), ("bakers_dozen", 5)])
def test_other_games_agree_with_best_first(game: str, number: int) -> None:
    deal = Deal.from_number(game, number)
    deep, best = solve(deal, method=DEEP), solve(deal, method="best-first")
    assert deep.verdict == best.verdict
    if game == "bakers_dozen":
        assert deep.verdict == DATA_VERDICTS[BAKERS_DOZEN[number]]
    if deep.solved:
        assert_won(deep, deal, f"{game} {number}")
    else:
        assert_verdict(deep, "impossible", f"{game} {number}")


@pytest.mark.parametrize("variant", SMALL_GAMES[:3], ids=lambda v: v.name)
def test_impossible_of_random_positions_confirmed_by_the_referee(variant) -> None:
    boards = random_positions(variant, itertools.count(1), 40, seed=5, home_bias=0.2)
    confirmed = 0
    for board in itertools.islice(boards, 0, 400, 10):
        result = solve(board, method=DEEP)
        if result.solved:
            assert_won(result, board, f"{variant.name} position\n{board}")
            continue
        assert_verdict(result, "impossible", f"{variant.name} position\n{board}")
        referee = exhaustive_search(board, 20_000)
        assert referee is not True, f"the referee wins where depth-first says impossible:\n{board}"
        confirmed += referee is False
    assert confirmed >= 5, f"only {confirmed} impossible verdicts were confirmed"


@pytest.mark.parametrize("cap", ["8M", "24M"])
def test_memory_limit_holds(cap: str) -> None:
    result = solve(Deal.from_number("bakers_dozen", 417), limits=Limits(memory=cap), method=DEEP)
    assert (result.verdict, result.reason) == ("unknown", "memory limit")
    assert result.stats.peak_bytes <= Limits(memory=cap).memory
    assert result.stats.stored > 10_000


def test_forget_goes_on_where_the_memory_limit_would_stop() -> None:
    """FreeCell 33 with one cell (413,465 positions) under 7 MB: the search stops on the
    memory limit, or, told to forget, forgets positions, meets some again and wins; the
    win replays and the bytes held stay under the limit."""
    from bakers.fewest_cells import with_cells

    deal = with_cells(Deal.from_number("freecell", 33), 1)
    stopped = solve(deal, limits=Limits(memory="7M"), method=DEEP)
    assert (stopped.verdict, stopped.reason) == ("unknown", "memory limit")
    result = solve(deal, limits=Limits(memory="7M", forget=True), method=DEEP)
    assert_won(result, deal)
    assert result.stats.stored > 413_465 and result.stats.peak_bytes <= 7 * 2**20
    with pytest.raises(TypeError, match="forget= is True or False, not 'yes'"):
        Limits(forget="yes")  # type: ignore[arg-type]


def test_cli_forget(bakers: Run) -> None:
    # (--max-memory bounds the whole process: this one holds the test run besides)
    code, out, err = bakers("solve", "bakers_game", "14", "--method", DEEP, "--max-memory",
                            "1G", "--forget")
    assert code == 1 and out == "" and err.startswith("impossible: ")


def test_node_limit_and_the_verdict_it_leaves() -> None:
    result = solve(Deal.from_number("bakers_dozen", 417), limits=Limits(nodes=500), method=DEEP)
    assert (result.verdict, result.reason) == ("unknown", "node limit")
    assert result.stats.expanded == 500 and not result.most_home_exact


def test_bad_method_and_threads() -> None:
    deal = Deal.from_number("freecell", 1)
    with pytest.raises(InvalidOptionError, match="'sideways'"):
        solve(deal, method="sideways")
    with pytest.raises(InvalidOptionError, match="threads=2"):
        solve(deal, method="beam", threads=2)


def test_cli_solve_depth_first(bakers: Run) -> None:
    code, out, err = bakers("solve", "bakers_game", "14", "--method", DEEP)
    assert code == 1 and out == "" and err.startswith("impossible: ")
    code, out, _ = bakers("solve", "freecell", "1", "--method", DEEP, "--format", "json")
    assert code == 0 and '"verdict": "solved"' in out
    code, _, err = bakers("solve", "freecell", "1", "--method", "sideways")
    assert code == 2 and "sideways" in one_error_line(err)


@pytest.mark.parametrize(("game", "expected"), [
    ("bakers_game", "dive"), ("bulochnik", "dive"), ("freecell", "dive"),
    ("freecell36", "dive"), ("bakers_dozen", "portfolio")])
def test_default_method_of_each_game(game: str, expected: str) -> None:
    variant = find_variant(game)
    assert default_method(variant) == expected
    # several threads: the same search, sharing its table (the portfolio: its runs at once)
    assert default_method(variant, threads=2) == expected
    deal = Deal.from_number(game, 3)
    assert solve(deal).verdict == solve(deal, method="best-first").verdict
    assert solve(deal, threads=2).verdict == solve(deal).verdict


def test_ranges_with_either_method_agree() -> None:
    by_method = {}
    for method in ("best-first", DEEP, None):
        rows = solve_range("bakers_game", 1, 40, threads=2, method=method)
        by_method[method] = {r.number: r.verdict for r in rows}
    assert by_method["best-first"] == by_method[DEEP] == by_method[None]
    deals = [Deal.from_number("bulochnik", n) for n in (1, 2, 3)]
    many = {method: [r.verdict for r in solve_many(deals, ordered=True, method=method)]
            for method in ("best-first", DEEP)}
    assert many["best-first"] == many[DEEP]
    with pytest.raises(InvalidOptionError, match="'upwards'"):
        solve_range("bakers_game", 1, 2, method="upwards")
    with pytest.raises(InvalidOptionError, match="'upwards'"):
        solve_many([], method="upwards")


def test_cli_range_method(bakers: Run, tmp_path) -> None:
    outs = {}
    for method in ("best-first", DEEP):
        out = tmp_path / f"{method}.tsv"
        code, _, _ = bakers("range", "bakers_game", "1", "30", "--threads", "2", "--quiet",
                            "--ordered", "--method", method, "--out", str(out))
        assert code == 0
        rows = [line.split("\t") for line in out.read_text().splitlines()[1:]]  # no record
        verdict = rows[0].index("verdict")
        outs[method] = [row[verdict] for row in rows[1:]]
    assert outs["best-first"] == outs[DEEP] and len(outs[DEEP]) == 30
    assert {"solved", "impossible"} <= set(outs[DEEP])
    code, _, err = bakers("range", "bakers_game", "1", "3", "--method", "sideways")
    assert code == 2 and "sideways" in one_error_line(err)


def test_cli_min_cells_depth_first(bakers: Run) -> None:
    code, out, _ = bakers("min-cells", "freecell", "1", "--method", DEEP, "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["cells"] == 3 and data["exact"]
    assert data["verdicts"] == {"2": "impossible", "3": "solved", "4": "solved"}
