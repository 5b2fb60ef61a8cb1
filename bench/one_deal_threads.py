"""One hard deal on 1 and on N threads: how much faster `bakers.solve(deal, threads=N)`
decides a single deal than one thread does.

The deals (``--deal GAME:NUMBER[:NODES]``, repeatable; the default list below) are each
searched ``--rounds`` times on 1 and on ``--threads`` threads, the two taken in turn so
that a noisy machine slows both alike. The table gives the verdict, the median engine
seconds of each, their ratio and the median positions expanded; every run of a deal must
reach the same verdict (a node limit gives ``unknown`` on both). Run on an otherwise idle
machine: a second busy core makes the N-thread figures meaningless.

Default deals: Baker's Game MS 18727 (the slowest of MS 1..32000 for its default search,
depth first: 119,023 positions), 2879 (its slowest proof: 52,823 positions) and 1188 (the
slowest for best first), and Baker's Dozen PySol 599 and 922, the two slowest deals of
PySol 1..1000 that are decided (417 is not): 599 won by the portfolio's rollouts in its
third round (430,812 positions in all on one thread), 922 by the rollouts in the second
(86,241), and 741, won by the rollouts in the first round (one thread runs best first's
10,000 positions before them; two threads run both at once).

    python bench/one_deal_threads.py --rounds 5
    python bench/one_deal_threads.py --deal bakers_dozen:417:1500000 --rounds 3   # cut: same work
"""

from __future__ import annotations

import argparse
import statistics

from bakers import Deal, Limits, find_variant, solve

DEFAULT_DEALS = ("bakers_game:18727", "bakers_game:2879", "bakers_game:1188", "bakers_dozen:922",
                 "bakers_dozen:599", "bakers_dozen:741")


def _parse(text: str) -> tuple[str, int, int | None]:
    parts = text.split(":")
    if len(parts) not in (2, 3) or not all(p.isdigit() for p in parts[1:]):
        raise argparse.ArgumentTypeError(f"{text!r} is not GAME:NUMBER[:NODES]")
    find_variant(parts[0])
    return parts[0], int(parts[1]), int(parts[2]) if len(parts) == 3 else None


def main() -> None:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deal", type=_parse, action="append", metavar="GAME:N[:NODES]")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    deals = args.deal or [_parse(d) for d in DEFAULT_DEALS]
    n = args.threads
    print(f"| deal | limit | verdict | 1 thread (s) | {n} threads (s) | ratio "
          f"| expanded (1 / {n}) |")
    print("|---|---|---|---|---|---|---|")
    for game, number, nodes in deals:
        deal = Deal.from_number(find_variant(game), number)
        seconds: dict[int, list[float]] = {1: [], n: []}
        expanded: dict[int, list[int]] = {1: [], n: []}
        verdicts = set()
        for _ in range(args.rounds):
            for threads in (1, n):
                result = solve(deal, limits=Limits(nodes=nodes), threads=threads)
                seconds[threads].append(result.stats.seconds)
                expanded[threads].append(result.stats.expanded)
                verdicts.add(result.verdict)
        if len(verdicts) != 1:
            raise SystemExit(f"{game} {number}: the runs disagree: {sorted(verdicts)}")
        one, many = statistics.median(seconds[1]), statistics.median(seconds[n])
        print(f"| {game} {number} | {'-' if nodes is None else f'{nodes:,}'} "
              f"| {verdicts.pop()} | {one:.3f} | {many:.3f} | {one / many:.2f}x "
              f"| {statistics.median(expanded[1]):,.0f} / {statistics.median(expanded[n]):,.0f} |")


if __name__ == "__main__":
    main()
