"""The tails of the tables against Freecell Solver: the slowest deals of each game's first
pass (as ``bench/tails.py`` picks them), decided by this build and by the installed
``fc-solve`` under the same rules, deal by deal, with bakers' CPU time over fc-solve's.

    nice -n 10 python bench/tails_vs_fc_solve.py --take 10
    nice -n 10 python bench/tails_vs_fc_solve.py --games citadel --take 5 --fcs-seconds 30

fc-solve runs first, one process a deal on the deal's board text from bakers' dealing,
with the game's rules given setting by setting (`fcs_settings`): its default scan, then
where that does not win its atomic scan, which proves (`better_fcs`), each stopped at
``--fcs-seconds`` of CPU and ``--fcs-memory`` of address space (an ended run is
unknown); its CPU is that of the scan that decides. bakers then decides the deal in this
process with its default search on one thread (``solve(deal, limits=..., threads=1)``), its CPU the
process's user + system time over the call: where fc-solve decided in t seconds, within
``--ratio`` times t on the clock (so a deal bakers leaves unknown is one where it takes
more than that: the clock runs at least as fast as its CPU on one thread); elsewhere
within the first pass's ``--max-nodes``. Both within ``--max-memory``. A game whose
rules Freecell Solver cannot state, or whose board it refuses, is left out with the reason
(`fcs_settings`' refusal). The table gives per game how many deals each decides and,
deal by deal, bakers' CPU over fc-solve's (``<``: an upper bound, where fc-solve stopped
at its limit). A deal fc-solve decides where bakers takes more than ``--ratio`` (10)
times its time, or stops at that, is flagged; a verdict one contradicts is listed (bakers'
wins are replayed by its referee).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
from dataclasses import dataclass

from bakers import Deal, Limits, find_variant, solve
from bakers.fc_solve.games import BUILD_WORDS
from bakers.variants import Variant
from compare import git_head
from pysolfc_limit import children_cpu, self_cpu
from rich.console import Console
from rich.table import Table
from tails import slowest, tail_parser

#: Freecell Solver's words for bakers' rules (the inverse of `bakers.fc_solve.games`').
FCS_BUILD = {ours: theirs for theirs, ours in BUILD_WORDS.items()}
FCS_EMPTY = {"any": "all", "kings": "kings", "none": "none"}
SOLVED, IMPOSSIBLE, UNKNOWN = "solved", "impossible", "unknown"
#: fc-solve's scan that proves: atomic moves only (one card at a time), which reach every
#: position of a game whose runs move as a chain of single moves (``limited``), so that
#: its "I could not solve this game." is a proof there (docs/benchmarks.md, compare.py).
ATOMIC = ["-to", "01ABCDE"]


def fcs_settings(variant: Variant) -> list[str]:
    """Freecell Solver's settings for the rules of ``variant``.

    bakers' ``supermove`` is Freecell Solver's ``limited`` sequence move (both take a run
    of up to (free cells + 1) * 2 ** (empty columns) cards, half that into an empty
    column), ``sequence`` its ``unlimited``. bakers' ``single`` is ``limited`` too without
    free cells: a run that ``limited`` moves there goes through empty columns alone, so it
    is a chain of single moves, and the positions each reaches are the same. Aces sent
    home at once (``auto_aces``) change no verdict (nothing builds on an ace), and how a
    game deals is in the board text.

    Raises ValueError naming the rule Freecell Solver has no setting for.
    """
    if variant.deck != 52:
        raise ValueError(f"a deck of {variant.deck} cards (Freecell Solver deals 52)")
    if variant.wrap:
        raise ValueError("building round the corner (Freecell Solver has no such rule)")
    if variant.moves == "single" and variant.cells:
        raise ValueError("single moves with free cells (Freecell Solver has no such rule)")
    return ["--stacks-num", str(variant.columns), "--freecells-num", str(variant.cells),
            "--sequences-are-built-by", FCS_BUILD[variant.build],
            "--sequence-move", "unlimited" if variant.moves == "sequence" else "limited",
            "--empty-stacks-filled-by", FCS_EMPTY[variant.empty]]


def fcs_verdict(output: str) -> str:
    if "This game is solveable." in output:
        return SOLVED
    if "I could not solve this game." in output:
        return IMPOSSIBLE
    return UNKNOWN


@dataclass(frozen=True)
class Decided:
    verdict: str
    cpu: float


def run_fcs(command: list[str], board: str, seconds: int, memory: int,
            proves: bool) -> Decided:
    """fc-solve on ``board`` under a CPU limit of ``seconds`` and an address space of
    ``memory`` bytes (the kernel ends it at either: unknown); its verdict (its "I could
    not solve this game." counted only where its scan ``proves``) and CPU (the children
    of this script run one at a time, so theirs grows by this one's alone)."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    before = children_cpu()
    done = subprocess.run(command, input=board, capture_output=True, text=True,
                          preexec_fn=limit, env=dict(os.environ, FREECELL_SOLVER_QUIET="1"))
    cpu = children_cpu() - before
    if done.returncode != 0:  # ended by a limit (a signal) or out of memory
        return Decided(UNKNOWN, cpu)
    found = fcs_verdict(done.stdout)
    return Decided(UNKNOWN if found == IMPOSSIBLE and not proves else found, cpu)


def better_fcs(settings: list[str], args: argparse.Namespace, variant: Variant,
               board: str) -> Decided:
    """The better of fc-solve's two scans: its default one (meta-moves, quick to win; its
    "I could not solve" is no proof), then, where that does not win, the atomic one
    (`ATOMIC`), which proves where runs move as a chain of single moves: the verdict and
    CPU of the scan that decides (either one alone, as a user would run it)."""
    memory = args.fcs_memory * 1_000_000
    first = run_fcs([args.fc_solve, *settings], board, args.fcs_seconds, memory, False)
    if first.verdict != UNKNOWN or variant.moves == "sequence":
        return first
    return run_fcs([args.fc_solve, *settings, *ATOMIC], board, args.fcs_seconds, memory, True)


def fcs_refusal(command: list[str], board: str) -> str:
    """fc-solve's complaint when it cannot take ``board`` at all (one iteration), or ''."""
    done = subprocess.run([*command, "-mi", "1"], input=board, capture_output=True,
                          text=True, env=dict(os.environ, FREECELL_SOLVER_QUIET="1"))
    return "" if done.returncode == 0 else " ".join(done.stderr.split())[:200]


def run_bakers(deal: Deal, limits: Limits) -> Decided:
    before = self_cpu()
    result = solve(deal, limits=limits, threads=1)
    return Decided(result.verdict, self_cpu() - before)


def main(argv: list[str] | None = None) -> int:
    parser, tables = tail_parser(__doc__)
    parser.add_argument("--max-nodes", type=int, default=2_000_000,
                        help="bakers' positions a deal, as the first pass (2000000)")
    parser.add_argument("--max-memory", default="1500M", help="bakers' memory (1500M)")
    parser.add_argument("--fcs-seconds", type=int, default=20,
                        help="fc-solve's CPU seconds a deal (20)")
    parser.add_argument("--fcs-memory", type=int, default=3000,
                        help="fc-solve's address space a deal, MB (3000)")
    parser.add_argument("--fc-solve", default="fc-solve", help="Freecell Solver's command")
    parser.add_argument("--ratio", type=float, default=10.0,
                        help="flag a deal where bakers takes more than this times fc-solve")
    args = parser.parse_args(argv)
    if not 0 < args.share <= 1:
        parser.error(f"--share {args.share} must be above 0 and at most 1")
    if args.take is not None and args.take < 1:
        parser.error(f"--take {args.take} must be at least 1")
    if args.fcs_seconds < 1 or args.fcs_memory < 1:
        parser.error("--fcs-seconds and --fcs-memory must be at least 1")
    limits = Limits(nodes=args.max_nodes, memory=args.max_memory)
    console = Console(width=150)
    console.print(f"bakers at {git_head()}, fc-solve {args.fcs_seconds} s CPU a deal, "
                  f"bakers {args.max_nodes} positions a deal")
    table = Table(title=f"The slowest {args.share:.0%} of each table against fc-solve")
    for column in ("game", "deals", "bakers decides", "fc-solve decides", "either",
                   "bakers CPU s", "fc-solve CPU s", "bakers / fc-solve, deal by deal",
                   f"over {args.ratio:g}x"):
        table.add_column(column, justify="left" if column in (
            "game", "bakers / fc-solve, deal by deal", f"over {args.ratio:g}x") else "right")
    left_out: list[str] = []
    clashes: list[str] = []
    for game in args.games:
        variant = find_variant(game)
        try:
            settings = fcs_settings(variant)
        except ValueError as why:
            left_out.append(f"{game}: {why}")
            continue
        deals = slowest(tables[game], args.share, args.take)
        refusal = fcs_refusal([args.fc_solve, *settings],
                              Deal.from_number(variant, deals[0]).to_text())
        if refusal:
            left_out.append(f"{game}: fc-solve refuses its board: {refusal}")
            continue
        ratios, over, counts = [], [], {"bakers": 0, "fcs": 0, "either": 0}
        cpu = {"bakers": 0.0, "fcs": 0.0}
        for number in deals:
            deal = Deal.from_number(variant, number)
            theirs = better_fcs(settings, args, variant, deal.to_text())
            if theirs.verdict == UNKNOWN:
                ours = run_bakers(deal, limits)
            else:  # bakers gets --ratio times fc-solve's time, on the clock, nothing more
                ours = run_bakers(deal, Limits(seconds=args.ratio * max(theirs.cpu, 0.01),
                                               memory=args.max_memory))
            if {ours.verdict, theirs.verdict} == {SOLVED, IMPOSSIBLE}:
                clashes.append(f"{game} {number}: bakers {ours.verdict}, fc-solve "
                               f"{theirs.verdict}")
            cpu["bakers"] += ours.cpu
            cpu["fcs"] += theirs.cpu
            counts["bakers"] += ours.verdict != UNKNOWN
            counts["fcs"] += theirs.verdict != UNKNOWN
            counts["either"] += ours.verdict != UNKNOWN or theirs.verdict != UNKNOWN
            ratio = ours.cpu / max(theirs.cpu, 0.001)
            if theirs.verdict == UNKNOWN:
                # fc-solve stopped at its limit: the target leaves the deal out; the ratio
                # is at most this.
                ratios.append(f"{number}:<{ratio:.2g}")
            elif ours.verdict == UNKNOWN:  # bakers stopped at --ratio times fc-solve's time
                ratios.append(f"{number}:>{args.ratio:g}")
                over.append(f"{number} (bakers unknown after {ours.cpu:.2f} s, fc-solve "
                            f"{theirs.verdict} in {theirs.cpu:.2f} s)")
            else:
                ratios.append(f"{number}:{ratio:.2g}")
                if ratio > args.ratio:
                    over.append(f"{number} (bakers {ours.verdict} in {ours.cpu:.2f} s, "
                                f"fc-solve {theirs.verdict} in {theirs.cpu:.2f} s)")
            console.print(f"{game} {number}: bakers {ours.verdict} {ours.cpu:.2f} s, "
                          f"fc-solve {theirs.verdict} {theirs.cpu:.2f} s", highlight=False)
        table.add_row(game, str(len(deals)), str(counts["bakers"]), str(counts["fcs"]),
                      str(counts["either"]), f"{cpu['bakers']:.1f}", f"{cpu['fcs']:.1f}",
                      " ".join(ratios), "; ".join(over) or "none")
    console.print(table)
    for line in left_out:
        console.print(f"not measured: {line}", highlight=False)
    for line in clashes:
        console.print(f"contradiction: {line}", highlight=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
