"""Benchmarks of the engine that also check their answers.

Each benchmark times one fixed piece of work (a range of numbered deals decided by
``_core.solve_numbers`` on one thread, or one ``bakers.solve`` call with the referee's
replay) and then asserts the verdicts, so a fast but wrong engine fails here.

Run: ``python -m pytest bench -q --benchmark-only`` (pytest-benchmark); add
``--benchmark-autosave`` to keep the numbers and ``--benchmark-compare`` to compare them
with the last saved run.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from bakers import Deal, Limits, _core, find_variant, solve

Row = tuple  # (number, verdict, moves, expanded, stored, peak_bytes, seconds, most_home, reason)

#: How reference verdicts map onto the engine's.
_REFERENCE = {"winnable": "solved", "impossible": "impossible"}


def _solve_range(game: str, first: int, last: int, **limits: int | float) -> list[Row]:
    rows, interrupted = _core.solve_numbers(find_variant(game).rules(), first, last, **limits)
    assert not interrupted
    assert [row[0] for row in rows] == list(range(first, last + 1))
    return rows


def test_bakers_game_ms_1_200(benchmark, verdicts: Callable[[str], dict[int, str]]) -> None:
    """Baker's Game MS 1..200 without limits: every verdict equals the reference."""
    rows = benchmark.pedantic(_solve_range, args=("bakers_game", 1, 200), rounds=3,
                              iterations=1, warmup_rounds=0)
    reference = verdicts("bakers_game_ms_1-1000.tsv")
    wrong = [(row[0], row[1], reference[row[0]]) for row in rows
             if row[1] != _REFERENCE[reference[row[0]]]]
    assert wrong == []
    assert all(row[2] > 0 for row in rows if row[1] == "solved")
    benchmark.extra_info.update(Counter(row[1] for row in rows))
    benchmark.extra_info["expanded"] = sum(row[3] for row in rows)


def test_freecell_ms_1_200(benchmark) -> None:
    """FreeCell MS 1..200 without limits: all solved."""
    rows = benchmark.pedantic(_solve_range, args=("freecell", 1, 200), rounds=3,
                              iterations=1, warmup_rounds=0)
    assert [row[0] for row in rows if row[1] != "solved"] == []
    assert all(row[2] > 0 for row in rows)
    benchmark.extra_info["expanded"] = sum(row[3] for row in rows)


def test_freecell_11982_impossible(benchmark) -> None:
    """FreeCell MS 11982, the classic impossible deal: the complete search proves it."""
    rows = benchmark.pedantic(_solve_range, args=("freecell", 11982, 11982), rounds=5,
                              iterations=1, warmup_rounds=0)
    assert rows[0][1] == "impossible"
    benchmark.extra_info["expanded"] = rows[0][3]


def test_solve_with_referee_freecell_617(benchmark) -> None:
    """One `bakers.solve` call on FreeCell 617, the solution replayed by the referee."""
    deal = Deal.from_number(find_variant("freecell"), 617)
    result = benchmark.pedantic(solve, args=(deal,), rounds=5, iterations=1,
                                warmup_rounds=1)
    assert result.verdict == "solved"
    replay = result.solution.replay(deal)
    assert replay.won and replay.error is None
    assert result.supermoves.replay(deal).won
    benchmark.extra_info["moves"] = len(result.solution)
    benchmark.extra_info["expanded"] = result.stats.expanded


def test_bakers_dozen_1_20_node_limit(benchmark,
                                      verdicts: Callable[[str], dict[int, str]]) -> None:
    """Baker's Dozen PySol 1..20 with 20,000 positions expanded at most per deal: every
    decided verdict agrees with the reference, and every undecided one hit the limit."""
    nodes = 20_000
    rows = benchmark.pedantic(_solve_range, args=("bakers_dozen", 1, 20),
                              kwargs={"max_nodes": nodes}, rounds=3, iterations=1,
                              warmup_rounds=0)
    reference = verdicts("bakers_dozen_pysol_1-1000.tsv")
    contradicted = [(row[0], row[1], reference[row[0]]) for row in rows
                    if (row[1] == "solved" and reference[row[0]] == "impossible")
                    or (row[1] == "impossible" and reference[row[0]] == "winnable")]
    assert contradicted == []
    assert all(row[3] <= nodes and row[8] for row in rows if row[1] == "unknown")
    assert any(row[1] == "solved" for row in rows)
    benchmark.extra_info.update(Counter(row[1] for row in rows))


def test_bakers_dozen_64_impossible(benchmark) -> None:
    """Baker's Dozen PySol 64, impossible (fc-solve's exhaustive scan): proved as such."""
    deal = Deal.from_number(find_variant("bakers_dozen"), 64)
    result = benchmark.pedantic(solve, args=(deal,), kwargs={"limits": Limits(nodes=10**6)},
                                rounds=3, iterations=1, warmup_rounds=0)
    assert result.verdict == "impossible"


def test_depth_first_that_forgets_freecell_23816_one_cell(benchmark) -> None:
    """FreeCell 23816 with one cell, depth first under 250 MB with forgetting: the proof
    (27.9 million positions, 494 MB without forgetting) in a dense table past the caches
    that fills and forgets; the impossible verdict is asserted. About 40 s a round."""
    from bakers.fewest_cells import with_cells

    deal = with_cells(Deal.from_number(find_variant("freecell"), 23816), 1)
    result = benchmark.pedantic(solve, args=(deal,), rounds=1, iterations=1, warmup_rounds=0,
                                kwargs={"limits": Limits(memory="250M", forget=True),
                                        "method": "depth-first"})
    assert result.verdict == "impossible"
    assert result.stats.peak_bytes <= 250 * 2**20
    benchmark.extra_info["expanded"] = result.stats.expanded
    benchmark.extra_info["stored"] = result.stats.stored


def test_bakers_dozen_slowest_decided(benchmark) -> None:
    """Baker's Dozen PySol 922 and 599, the slowest deals of 1..1000 that are decided
    (417 is not), with the default search (the portfolio: both won by its rollouts, 922
    in the second round, 599 in the third): both won, the lines replayed."""
    deals = [Deal.from_number(find_variant("bakers_dozen"), n) for n in (922, 599)]
    results = benchmark.pedantic(lambda: [solve(deal) for deal in deals], rounds=3,
                                 iterations=1, warmup_rounds=0)
    for deal, result in zip(deals, results, strict=True):
        assert result.solved and result.solution.replay(deal).won, deal
    benchmark.extra_info["expanded"] = [r.stats.expanded for r in results]
    benchmark.extra_info["moves"] = [len(r.solution) for r in results]
