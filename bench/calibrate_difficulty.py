"""Calibrate the difficulty thresholds: grade winnable deals of each preset and print
the score tertiles and how many deals each grade gets.

For each game, numbered deals 1, 2, ... are solved under the grade's default limits
(`bakers.difficulty.DEFAULT_GRADE_LIMITS`); the first ``--deals`` proved winnable are
graded with the default playouts and seed 0. The table gives, per game, the thresholds
that split those scores closest to thirds (a threshold is a midpoint between two
adjacent distinct scores, so ``score < t1`` is easy and ``score >= t2`` hard), the
counts per grade under them and under the thresholds now in ``difficulty.py``, and the
time per grade. Copy the thresholds into ``THRESHOLDS`` and the table into
``docs/difficulty.md``.

Examples::

    python bench/calibrate_difficulty.py                 # 150 deals a game, 2 processes
    python bench/calibrate_difficulty.py --game freecell --deals 60 --jobs 1
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import time

from bakers import PRESETS, Deal, find_variant
from bakers.board import Board
from bakers.difficulty import DEFAULT_GRADE_LIMITS, THRESHOLDS, grade_of, measure
from bakers.solving import solve


def _grade_number(job: tuple[str, int]) -> tuple[int, str, float | None, float]:
    """Return (number, verdict, score or None, seconds) for one numbered deal."""
    game, number = job
    started = time.perf_counter()
    board = Board(Deal.from_number(find_variant(game), number))
    result = solve(board, limits=DEFAULT_GRADE_LIMITS)
    if not result.solved:
        return number, result.verdict, None, time.perf_counter() - started
    graded = measure(board, result, started=started)
    return number, "solved", graded.score, graded.seconds


def _split(scores: list[float]) -> tuple[float, float]:
    """Return the thresholds (t1, t2) whose grades are closest to a third each."""
    ordered = sorted(scores)
    distinct = sorted(set(ordered))
    cuts = [round((a + b) / 2, 2) for a, b in zip(distinct, distinct[1:], strict=False)]
    if not cuts:
        return distinct[0], distinct[0]
    third = len(ordered) / 3
    t1 = min(cuts, key=lambda c: abs(sum(s < c for s in ordered) - third))
    t2 = min((c for c in cuts if c > t1), key=lambda c: abs(sum(s >= c for s in ordered)
                                                           - third), default=t1)
    return t1, t2


def _counts(scores: list[float], thresholds: tuple[float, float]) -> str:
    grades = [grade_of(s, thresholds) for s in scores]
    return "/".join(str(grades.count(g)) for g in ("easy", "medium", "hard"))


def calibrate(game: str, deals: int, jobs: int) -> dict[str, object]:
    """Grade the first ``deals`` winnable numbered deals of ``game``; return a table row."""
    scores: list[float] = []
    times: list[float] = []
    skipped = {"impossible": 0, "unknown": 0}
    number = 1
    started = time.perf_counter()
    with multiprocessing.Pool(jobs) as pool:
        while len(scores) < deals:
            batch = [(game, n) for n in range(number, number + (deals - len(scores)) + 8)]
            number += len(batch)
            for _, verdict, score, seconds in pool.map(_grade_number, batch):
                if len(scores) == deals:
                    break
                if score is None:
                    skipped[verdict] += 1
                else:
                    scores.append(score)
                    times.append(seconds)
    t1, t2 = _split(scores)
    quartiles = statistics.quantiles(scores, n=3)
    return {"game": game, "deals": len(scores), "skipped": skipped,
            "tertiles": (round(quartiles[0], 2), round(quartiles[1], 2)),
            "thresholds": (t1, t2), "counts": _counts(scores, (t1, t2)),
            "current": THRESHOLDS.get(game), "current_counts":
            _counts(scores, THRESHOLDS[game]) if game in THRESHOLDS else "-",
            "mean_s": statistics.mean(times), "max_s": max(times),
            "wall_s": time.perf_counter() - started}


def main() -> None:
    """Run the calibration and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", choices=list(PRESETS),
                        help="a game to calibrate (repeatable; default: every preset)")
    parser.add_argument("--deals", type=int, default=150, help="winnable deals a game")
    parser.add_argument("--jobs", type=int, default=2, help="processes")
    args = parser.parse_args()
    print("| game | deals | skipped (impossible / unknown) | score tertiles | thresholds "
          "| easy/medium/hard | now in difficulty.py | counts now | s per grade (mean / max) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for game in args.game or list(PRESETS):
        row = calibrate(game, args.deals, args.jobs)
        sk = row["skipped"]
        print(f"| {game} | {row['deals']} | {sk['impossible']} / {sk['unknown']} "  # type: ignore[index]
              f"| {row['tertiles'][0]}, {row['tertiles'][1]} "  # type: ignore[index]
              f"| {row['thresholds'][0]}, {row['thresholds'][1]} | {row['counts']} "  # type: ignore[index]
              f"| {row['current']} | {row['current_counts']} "
              f"| {row['mean_s']:.3f} / {row['max_s']:.3f} |", flush=True)


if __name__ == "__main__":
    main()
