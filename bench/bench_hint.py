"""How fast a hint is: the wall time of `bakers.hint` on mid-game positions, per game.

For each preset this takes numbered deals spread over 1..1000 (Microsoft numbers; PySol's
for Baker's Dozen), plays each one forward by random legal moves with the referee
`Board` to reach a mid-game position, and times one ``bakers.hint(board,
remember=False)`` call with the default limits (`bakers.hinting.DEFAULT_HINT_LIMITS`), so
no remembered line answers for it. The time is ``time.perf_counter`` around the whole
call: the C++ search and the referee's replay of the line it found.

The random play is seeded per game and deal (``--seed``), so a position does not depend
on which other deals are sampled: between ``--min-moves`` and ``--max-moves`` moves, a
move to the foundations (when there is one) half the time, otherwise any legal move,
never one that undoes the previous move (that is, returns to the position before it).
Play stops early when no move is left; a deal whose position is already won is skipped.

Random play soon loses most deals (a full set of cells and nothing left to move), and
the hint for a lost position is quick, so ``--walk winnable`` also measures the
positions of a player who is still winning: each random move must leave a win that an
untimed search of at most ``--check-nodes`` positions finds (others are tried in turn;
a deal without such a win is skipped).

One table per game: positions, median / p90 / p99 / max milliseconds of the hint, the
share under 50 ms, how many answers were win, no_win and unknown, the median of the
'win' answers alone and the median search effort (positions expanded); then the slowest
positions with their search effort and the engine's own time, which separate a hard
search from time spent outside the engine. ``--out`` writes every position (deal, moves
played, verdict, times, effort) as TSV. The exit status is 1 when a game's median is
not under 50 ms.

Measured with the defaults on a 2-core machine with another benchmark on one core
(median / p90 / max ms): random play, where 60-94% of the positions are already lost,
0.1-0.2 / 0.2-3.7 / 2-78 in the four cell games, 2.3 / 493 / 3104 in Baker's Dozen
(12 of 200 unknown); ``--walk winnable``: Baker's Game 2.1 / 3.5 / 12, FreeCell
2.7 / 4.4 / 309, 36-card FreeCell 1.6 / 3.4 / 90, Bulochnik 1.0 / 1.5 / 25, Baker's
Dozen 6.9 / 308 / 3096 (3 of 192 unknown). A slow hint is a large search (Baker's
Dozen expands about 400 positions a millisecond; over 20,000 positions is over
50 ms); outside the engine a hint takes 1-3 ms.

Examples::

    python bench/bench_hint.py                      # 200 deals a game: 1, 6, 11, ..., 996
    python bench/bench_hint.py --deals 1000 --games freecell
    python bench/bench_hint.py --deals 50 --out hints.tsv
"""

from __future__ import annotations

import argparse
import csv
import math
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass

from bakers import Board, Limits, hint, solve
from bakers.hinting import DEFAULT_HINT_LIMITS, Hint
from bakers.notation import FOUNDATION
from rich.console import Console
from rich.table import Table

GAMES = ("bakers_game", "freecell", "freecell36", "bulochnik", "bakers_dozen")
#: The target of a hint button: the median under this many milliseconds.
TARGET_MS = 50.0


@dataclass(frozen=True)
class Sample:
    """One timed hint: where it was asked and what it cost."""

    game: str
    deal: int
    moves: tuple[str, ...]
    home: int
    verdict: str
    reason: str
    ms: float
    engine_ms: float
    expanded: int


def spread(count: int, last: int = 1000) -> list[int]:
    """Return ``count`` deal numbers spread evenly over 1..``last`` (all when more)."""
    count = max(1, min(count, last))
    return sorted({1 + (i * last) // count for i in range(count)})


def mid_game(game: str, deal: int, *, seed: int = 0, min_moves: int = 10,
             max_moves: int = 40, keep_win: int = 0) -> Board | None:
    """Return deal ``deal`` of ``game`` after random legal play (see the module
    documentation); the moves played are on the board's ``move_stack``.

    With ``keep_win`` (a number of positions), every move must leave a win that a search
    of at most that many positions finds; None when the deal itself has none."""
    rng = random.Random(f"{game}:{deal}:{seed}")
    board = Board.from_number(game, deal)
    if keep_win and not _wins(board, keep_win):
        return None
    wanted = rng.randint(min_moves, max_moves)
    before: list[tuple[object, ...]] = []  # the key of the position before each move
    while len(board.move_stack) < wanted and not board.is_won():
        moves = list(board.legal_moves)
        home = [m for m in moves if m.dst.kind == FOUNDATION]
        if home and rng.random() < 0.5:  # a foundation move first, in random order
            rest = [m for m in moves if m.dst.kind != FOUNDATION]
            rng.shuffle(home)
            rng.shuffle(rest)
            moves = home + rest
        else:
            rng.shuffle(moves)
        for move in moves:
            board.push(move)
            if (not before or board.key() != before[-1]) and (
                    not keep_win or _wins(board, keep_win)):
                board.pop()
                break
            board.pop()
        else:
            break  # no move left
        before.append(board.key())
        board.push(move)
    return board


def _wins(board: Board, nodes: int) -> bool:
    """Return whether a search of at most ``nodes`` positions finds a win."""
    return solve(board, limits=Limits(nodes=nodes, memory="2G"), check=False).solved


def timed_hint(board: Board) -> tuple[Hint, float]:
    """Return the hint for ``board`` (default limits, nothing remembered) and its
    wall time in milliseconds."""
    started = time.perf_counter()
    answer = hint(board, remember=False)
    return answer, (time.perf_counter() - started) * 1000.0


def measure(game: str, deal: int, board: Board) -> Sample:
    """Time the hint of one position of deal ``deal``."""
    answer, ms = timed_hint(board)
    stats = answer.result.stats if answer.result is not None else None
    return Sample(game, deal, tuple(m.notation() for m in board.move_stack),
                  board.foundation_count(), answer.verdict, answer.reason, ms,
                  stats.seconds * 1000.0 if stats else 0.0, stats.expanded if stats else 0)


def percentile(values: list[float], share: float) -> float:
    """Return the nearest-rank percentile ``share`` (0..1) of ``values``."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def summary_table(game: str, samples: list[Sample], skipped: Counter[str]) -> Table:
    """Return the table of one game's hint times (``skipped``: deals left out, by why)."""
    title = f"{game}: hint time in ms"
    if skipped:
        title += f" (skipped: {', '.join(f'{n} {why}' for why, n in skipped.items())})"
    table = Table(title=title)
    for name in ("positions", "median", "p90", "p99", "max", f"< {TARGET_MS:g}", "win",
                 "no_win", "unknown", "median (win)", "median expanded"):
        table.add_column(name, justify="right")
    ms = [s.ms for s in samples]
    verdicts = Counter(s.verdict for s in samples)
    if ms:
        under = sum(1 for m in ms if m < TARGET_MS) / len(ms)
        wins = [s.ms for s in samples if s.verdict == "win"]
        table.add_row(str(len(ms)), f"{statistics.median(ms):.1f}",
                      f"{percentile(ms, 0.90):.1f}", f"{percentile(ms, 0.99):.1f}",
                      f"{max(ms):.1f}", f"{under:.1%}", str(verdicts["win"]),
                      str(verdicts["no_win"]), str(verdicts["unknown"]),
                      f"{statistics.median(wins):.1f}" if wins else "-",
                      f"{statistics.median(s.expanded for s in samples):,.0f}")
    return table


def slowest_table(game: str, samples: list[Sample], count: int) -> Table:
    """Return the ``count`` slowest positions of one game."""
    table = Table(title=f"{game}: slowest positions")
    for name in ("deal", "moves played", "home", "verdict", "ms", "engine ms", "expanded"):
        table.add_column(name, justify="right")
    for s in sorted(samples, key=lambda s: s.ms, reverse=True)[:count]:
        verdict = s.verdict + (f" ({s.reason})" if s.reason else "")
        table.add_row(str(s.deal), str(len(s.moves)), str(s.home), verdict, f"{s.ms:.1f}",
                      f"{s.engine_ms:.1f}", f"{s.expanded:,}")
    return table


def write_tsv(path: str, samples: list[Sample]) -> None:
    """Write every sample as a row of a TSV file."""
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
        writer.writerow(["game", "deal", "moves", "home", "verdict", "reason", "ms",
                         "engine_ms", "expanded", "played"])
        for s in samples:
            writer.writerow([s.game, s.deal, len(s.moves), s.home, s.verdict, s.reason,
                             f"{s.ms:.3f}", f"{s.engine_ms:.3f}", s.expanded, " ".join(s.moves)])


def main(argv: list[str] | None = None) -> int:
    """Measure, print the tables; return 0 when every game's median meets the target."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", choices=GAMES, default=list(GAMES),
                        metavar="GAME", help=f"presets to measure (default: {' '.join(GAMES)})")
    parser.add_argument("--deals", type=int, default=200, metavar="N",
                        help="deals per game, spread evenly over 1..1000 (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random play")
    parser.add_argument("--min-moves", type=int, default=10, help="fewest random moves")
    parser.add_argument("--max-moves", type=int, default=40, help="most random moves")
    parser.add_argument("--walk", choices=("random", "winnable"), default="random",
                        help="random: any legal play; winnable: only moves that keep a "
                        "win (each checked by a search of at most --check-nodes positions)")
    parser.add_argument("--check-nodes", type=int, default=1_000_000, metavar="N",
                        help="positions a winnability check may expand (default 1,000,000)")
    parser.add_argument("--slowest", type=int, default=5, metavar="K",
                        help="list the K slowest positions of each game (0: none)")
    parser.add_argument("--out", metavar="FILE", help="write every position as TSV")
    args = parser.parse_args(argv)
    if not 0 <= args.min_moves <= args.max_moves:
        parser.error("need 0 <= --min-moves <= --max-moves")
    console = Console()
    if not console.is_terminal:  # a file or a pipe: no wrapped columns
        console = Console(width=120)
    deals = spread(args.deals)
    console.print(f"hint limits: {DEFAULT_HINT_LIMITS}; deals {deals[0]}..{deals[-1]} "
                  f"({len(deals)} a game); {args.min_moves}..{args.max_moves} random moves, "
                  f"seed {args.seed}, {args.walk} walk")
    timed_hint(Board.from_number("freecell", 1))  # load the engine before timing
    everything: list[Sample] = []
    met: dict[str, bool] = {}
    for game in args.games:
        samples: list[Sample] = []
        started = time.perf_counter()
        skipped: Counter[str] = Counter()
        for deal in deals:
            board = mid_game(game, deal, seed=args.seed, min_moves=args.min_moves,
                             max_moves=args.max_moves,
                             keep_win=args.check_nodes if args.walk == "winnable" else 0)
            if board is None:
                skipped["no win found from the deal"] += 1
            elif board.is_won():
                skipped["won already"] += 1
            else:
                samples.append(measure(game, deal, board))
        console.print(summary_table(game, samples, skipped))
        if args.slowest and samples:
            console.print(slowest_table(game, samples, args.slowest))
        console.print(f"{game}: {time.perf_counter() - started:.1f} s in all\n")
        met[game] = bool(samples) and statistics.median(s.ms for s in samples) < TARGET_MS
        everything += samples
    if args.out:
        write_tsv(args.out, everything)
    meeting = [game for game, ok in met.items() if ok]
    missing = [game for game, ok in met.items() if not ok]
    console.print(f"median under {TARGET_MS:g} ms: {', '.join(meeting) or 'none'}"
                  + (f"; not: {', '.join(missing)}" if missing else ""))
    return 0 if not missing else 1


if __name__ == "__main__":
    sys.exit(main())
