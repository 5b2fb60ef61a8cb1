"""Benchmarks of the worker threads: the same work on 1 and on 2 threads, answers checked.

* **A range**: Baker's Game MS 1..300 decided by `bakers.solve_range` (the range pool:
  each thread takes the next deal and searches it alone) on 1 and on 2 threads. Every
  run's verdicts must equal those of ``_core.solve_numbers`` on one thread (computed once,
  untimed) and the reference verdicts of tests/data; ``extra_info['deals_per_s']`` is the
  number of deals over the median round.
* **One hard deal**: Baker's Dozen PySol 417 (undecided after billions of positions)
  searched by `bakers.solve(method="best-first")` on 1 and on 2 threads that share one search,
  stopped at 300,000 positions expanded (about a second on one thread). Each run must
  end ``unknown`` with reason ``node limit`` and at least 300,000 expansions (threads
  may each finish the expansion they are doing: at most 1% more).

The 1- and 2-thread benchmarks of each piece of work share a benchmark group, so the
table shows them side by side. On a machine with fewer than 2 free cores the 2-thread
figures say little. Run::

    python -m pytest bench/test_bench_threads.py -q --benchmark-only
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest
from bakers import Deal, Limits, RangeResult, _core, find_variant, solve, solve_range

FIRST, LAST = 1, 300
#: The expansions the hard deal is allowed.
NODES = 300_000
THREADS = [1, 2]

#: How reference verdicts map onto the engine's.
_REFERENCE = {"winnable": "solved", "impossible": "impossible"}


@pytest.fixture(scope="module")
def one_thread_verdicts() -> dict[int, str]:
    """Baker's Game MS FIRST..LAST decided by ``_core.solve_numbers`` on one thread."""
    rows, interrupted = _core.solve_numbers(find_variant("bakers_game").rules(), FIRST, LAST)
    assert not interrupted
    return {row[0]: row[1] for row in rows}


def _decide_range(game: str, first: int, last: int, threads: int) -> list[RangeResult]:
    return list(solve_range(game, first, last, threads=threads))


@pytest.mark.benchmark(group=f"range bakers_game {FIRST}..{LAST}")
@pytest.mark.parametrize("threads", THREADS)
def test_bakers_game_range_threads(benchmark, threads: int,
                                   one_thread_verdicts: dict[int, str],
                                   verdicts: Callable[[str], dict[int, str]]) -> None:
    """Baker's Game MS 1..300 on ``threads`` threads: the verdicts of one thread."""
    results = benchmark.pedantic(_decide_range, args=("bakers_game", FIRST, LAST, threads),
                                 rounds=3, iterations=1, warmup_rounds=0)
    got = {r.number: r.verdict for r in results}
    assert sorted(got) == list(range(FIRST, LAST + 1))
    assert got == one_thread_verdicts
    reference = verdicts("bakers_game_ms_1-1000.tsv")
    assert [n for n in got if got[n] != _REFERENCE[reference[n]]] == []
    assert all(r.solution_length for r in results if r.verdict == "solved")
    benchmark.extra_info.update(Counter(got.values()))
    benchmark.extra_info["threads"] = threads
    if benchmark.stats:  # None under --benchmark-disable
        benchmark.extra_info["deals_per_s"] = round(len(got) / benchmark.stats.stats.median, 1)


@pytest.mark.benchmark(group=f"bakers_dozen 417, {NODES:,} expansions")
@pytest.mark.parametrize("threads", THREADS)
def test_bakers_dozen_417_node_limit_threads(benchmark, threads: int) -> None:
    """Baker's Dozen PySol 417 on ``threads`` threads sharing one best-first search:
    stopped by the node limit, as on one thread."""
    deal = Deal.from_number(find_variant("bakers_dozen"), 417)
    result = benchmark.pedantic(solve, args=(deal,),
                                kwargs={"limits": Limits(nodes=NODES), "threads": threads,
                                        "method": "best-first"},
                                rounds=3, iterations=1, warmup_rounds=0)
    assert result.verdict == "unknown"
    assert result.reason == "node limit"
    assert NODES <= result.stats.expanded <= NODES * 1.01
    benchmark.extra_info["threads"] = threads
    benchmark.extra_info["expanded"] = result.stats.expanded
    benchmark.extra_info["peak_MB"] = round(result.stats.peak_bytes / 2**20, 1)
    if benchmark.stats:  # None under --benchmark-disable
        benchmark.extra_info["expanded_per_s"] = round(
            result.stats.expanded / benchmark.stats.stats.median)
