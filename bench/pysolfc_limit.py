"""`bakers-fc-solve` against Freecell Solver under PySolFC's own limits: PySol's deals of
every game that PySolFC hands to Freecell Solver and that bakers has as a preset, each
decided by the installed ``fc-solve`` and by ``bakers-fc-solve`` from the same command line
and the same board, the one PySolFC sends.

    nice -n 10 python bench/pysolfc_limit.py                       # every game, deals 1..1000
    nice -n 10 python bench/pysolfc_limit.py --games citadel stronghold --last 200

The command line is PySolFC's (``FreeCellSolver_Hint.computeHints`` with its default
options: progress shown every 100 iterations, the ``video-editing`` configuration,
``--max-iters 100000``), the game's settings those of its ``Solver_Class``
(`PYSOLFC_GAMES`); the board is bakers' deal (``bakers deal GAME N``, PySol's numbering,
which deals as PySolFC does) written as PySolFC writes it: Penguin and Opus with their
ranks renamed so that the foundations' base reads as the ace. ``tests/test_pysolfc.py``
checks both against PySolFC's own client.

fc-solve runs one process a deal. `bakers-fc-solve` runs in this process, its ``main``
called with PySolFC's arguments and the board on its standard input, one call a deal:
``main`` reads everything it uses from its arguments and the board, and a search's verdict
under ``--max-iters`` depends on the deal, the game and the count of positions only, so
a call gives the verdict of a process without the interpreter's start (0.25 s a deal).
``--processes`` runs it as a process a deal instead.

Each deal's row (both verdicts, positions and CPU seconds, the commit) is appended to
``--out`` as soon as it is decided; a deal already there is skipped, so a stopped run goes
on where it stopped. The table counts per game the deals each solver wins and names those
fc-solve wins that bakers does not, and any deal one proves impossible that the other wins.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import os
import re
import resource
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bakers import Deal, find_variant
from bakers.cards import RANK_CHARS
from compare import git_head
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

RESULTS = Path(__file__).resolve().parent / "results" / "pysolfc_limit.tsv"

#: PySolFC's games that run Freecell Solver and that bakers has as a preset: bakers'
#: name, PySolFC's game class and the settings of its ``Solver_Class =
#: FreeCellSolverWrapper(...)`` (``pysollib/games/*.py``). The order is that of
#: fc-solve's CPU a deal on deals 1..8, quickest first (46 ms for Eight Off to 412 ms for
#: Stronghold), then the games of 13 stacks, which the packaged fc-solve refuses.
PYSOLFC_GAMES: dict[str, tuple[str, dict[str, str]]] = {
    "eight_off": ("EightOff", {"sbb": "suit", "esf": "kings"}),
    "relaxed_seahaven_towers": ("RelaxedSeahavenTowers",
                                {"sbb": "suit", "esf": "kings", "sm": "unlimited"}),
    "opus": ("Opus", {"sbb": "suit", "esf": "kings", "sm": "unlimited"}),
    "penguin": ("Penguin", {"sbb": "suit", "esf": "kings", "sm": "unlimited"}),
    "king_only_bakers_game": ("KingOnlyBakersGame", {"sbb": "suit", "esf": "kings"}),
    "tuxedo": ("Tuxedo", {"sbb": "suit", "sm": "unlimited"}),
    "seahaven_towers": ("SeahavenTowers", {"sbb": "suit", "esf": "kings"}),
    "bakers_game": ("BakersGame", {"sbb": "suit"}),
    "forecell": ("ForeCell", {"esf": "kings"}),
    "freecell": ("FreeCell", {}),
    "streets_and_alleys": ("StreetsAndAlleys", {"preset": "streets_and_alleys"}),
    "beleaguered_castle": ("BeleagueredCastle", {"preset": "streets_and_alleys"}),
    "citadel": ("Citadel", {"preset": "streets_and_alleys"}),
    "relaxed_freecell": ("RelaxedFreeCell", {"sm": "unlimited"}),
    "stronghold": ("Stronghold", {"sbb": "rank"}),
    "good_measure": ("GoodMeasure", {"preset": "good_measure"}),
    "bakers_dozen": ("BakersDozen", {"preset": "bakers_dozen"}),
    "portuguese_solitaire": ("PortugueseSolitaire", {"sbb": "rank", "esf": "kings"}),
    "spanish_patience_ii": ("SpanishPatienceII", {"sbb": "rank"}),
}
#: PySolFC's defaults (``pysollib/options.py``): the iteration limit, the configuration
#: it loads and the step of the progress lines it asks for.
MAX_ITERS = 100_000
CONFIG = "video-editing"
ITERS_STEP = 100
#: ``computeHints``'s option of each ``Solver_Class`` setting, in the order it adds them.
SETTING_OPTIONS = (("preset", "--preset"), ("sbb", "--sequences-are-built-by"),
                   ("sm", "--sequence-move"), ("esf", "--empty-stacks-filled-by"))
#: PySolFC's reading of the solver's output (``_determineIfSolverState``), and the win.
SOLVED, UNSOLVED, INTRACTABLE = "solved", "unsolved", "intractable"
#: fc-solve's verdict when it refuses the board (no verdict: PySolFC shows no solution).
REFUSED = "refused"
FIELDS = ("game", "deal", "fcs", "fcs_iterations", "fcs_cpu", "bakers", "bakers_iterations",
          "bakers_cpu", "commit")
#: The ``bakers-fc-solve`` console script, run by this interpreter (so that it imports the
#: bakers this script imports).
BAKERS_FC_SOLVE = "import sys; from bakers.fc_solve.command import main; sys.exit(main())"
_STATES = re.compile(r"^Total number of states checked is (\d+)\.", re.MULTILINE)


def pysolfc_arguments(game: str, max_iters: int = MAX_ITERS) -> list[str]:
    """The arguments PySolFC gives ``fc-solve`` for its game of bakers' ``game``, with its
    default options (the command, version 5, showing progress)."""
    variant = find_variant(game)
    settings = PYSOLFC_GAMES[game][1]
    args = ["-m", "-p", "-opt", "-sel", "-hoi", "--iter-output", "--iter-output-step",
            str(ITERS_STEP), "--load-config", CONFIG, "--max-iters", str(max_iters),
            "--decks-num", "1", "--stacks-num", str(variant.columns),
            "--freecells-num", str(variant.cells)]
    for key, option in SETTING_OPTIONS:
        if key in settings:
            args += [option, settings[key]]
    return args


def pysolfc_board(game: str, number: int) -> str:
    """PySol's deal ``number`` of ``game`` as the board text PySolFC sends: bakers' deal,
    with the ranks of a game whose foundations start at a rank of the deal (Penguin)
    renamed so that this base reads as the ace, as PySolFC renames them."""
    deal = Deal.from_number(game, number)
    if not deal.variant.base_from_deal:
        return deal.to_text()
    base = deal.base_rank

    def rank(r: int) -> str:
        return RANK_CHARS[(r - base) % 13 + 1]

    text = re.sub(r"\b([A2-9TJQK])([CSHD])\b", lambda m: rank(RANK_CHARS.index(m[1])) + m[2],
                  deal.to_text())
    return re.sub(r"\b([CSHD])-([A2-9TJQK])\b",
                  lambda m: f"{m[1]}-{rank(RANK_CHARS.index(m[2]))}", text)


def verdict(output: str) -> str:
    """PySolFC's reading of a run's output: ``intractable`` for the iteration limit,
    ``unsolved`` for "I could not solve this game.", ``solved`` for a win."""
    if re.search(r"^Iterations count exceeded", output, re.MULTILINE):
        return INTRACTABLE
    if re.search(r"^I could not solve this game", output, re.MULTILINE):
        return UNSOLVED
    if "This game is solveable." in output:
        return SOLVED
    raise SystemExit(f"unexpected solver output: {output[-300:]!r}")


def iterations(output: str) -> int:
    found = _STATES.findall(output)
    return int(found[-1]) if found else -1


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def self_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def run_process(command: list[str], board: str) -> tuple[int, str, float]:
    """Run ``command`` with ``board`` on its standard input; return its exit status, its
    output (standard error after a failure) and its CPU seconds (this script's children
    run one at a time, so the children's usage grows by this one's alone)."""
    before = children_cpu()
    env = dict(os.environ, FREECELL_SOLVER_QUIET="1")
    done = subprocess.run(command, input=board, capture_output=True, text=True, env=env)
    cpu = children_cpu() - before
    return done.returncode, done.stdout if done.returncode == 0 else done.stderr, cpu


def run_in_process(args: list[str], board: str) -> tuple[str, float]:
    """Call `bakers-fc-solve`'s ``main`` with ``args`` and ``board`` on its standard input;
    return its output and the CPU seconds of the call."""
    from bakers.fc_solve.command import main

    out, err = io.StringIO(), io.StringIO()
    stdin, sys.stdin = sys.stdin, io.TextIOWrapper(io.BytesIO(board.encode()))
    before = self_cpu()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(args)
    finally:
        sys.stdin = stdin
    if status != 0:
        raise SystemExit(f"bakers-fc-solve {' '.join(args)} failed with status {status}: "
                         f"{err.getvalue().strip()[-300:]}")
    return out.getvalue(), self_cpu() - before


@dataclass(frozen=True)
class Row:
    game: str
    deal: int
    fcs: str
    fcs_iterations: int
    fcs_cpu: float
    bakers: str
    bakers_iterations: int
    bakers_cpu: float
    commit: str


def read_rows(path: Path) -> Iterator[Row]:
    if not path.exists():
        return
    with path.open(newline="") as f:
        for raw in csv.DictReader(f, delimiter="\t"):
            yield Row(raw["game"], int(raw["deal"]), raw["fcs"], int(raw["fcs_iterations"]),
                      float(raw["fcs_cpu"]), raw["bakers"], int(raw["bakers_iterations"]),
                      float(raw["bakers_cpu"]), raw["commit"])


def append_row(path: Path, row: Row) -> None:
    new = not path.exists() or path.stat().st_size == 0
    with path.open("a", newline="") as f:
        writer = csv.writer(f, delimiter="\t", lineterminator="\n")
        if new:
            writer.writerow(FIELDS)
        writer.writerow([getattr(row, field) if not field.endswith("_cpu")
                         else f"{getattr(row, field):.3f}" for field in FIELDS])


def decide(game: str, number: int, args: list[str], fc_solve: str, bakers_process: bool,
           commit: str) -> Row:
    """Both solvers' runs on PySol's deal ``number`` of ``game``."""
    board = pysolfc_board(game, number)
    fcs_status, fcs_out, fcs_cpu = run_process([fc_solve, *args], board)
    # fc-solve refuses a board it cannot hold (the packaged build takes at most 10 stacks)
    # with status 255 and no verdict: PySolFC then shows no solution.
    if fcs_status not in (0, 255):
        raise SystemExit(f"{fc_solve} failed on {game} {number} with status {fcs_status}: "
                         f"{fcs_out.strip()[-300:]}")
    fcs = verdict(fcs_out) if fcs_status == 0 else REFUSED
    if bakers_process:
        status, bakers_out, bakers_cpu = run_process(
            [sys.executable, "-c", BAKERS_FC_SOLVE, *args], board)
        if status != 0:
            raise SystemExit(f"bakers-fc-solve failed on {game} {number} with status "
                             f"{status}: {bakers_out.strip()[-300:]}")
    else:
        bakers_out, bakers_cpu = run_in_process(args, board)
    return Row(game, number, fcs, iterations(fcs_out) if fcs_status == 0 else -1, fcs_cpu,
               verdict(bakers_out), iterations(bakers_out), bakers_cpu, commit)


def summary(rows: list[Row], games: list[str], first: int, last: int) -> Table:
    """Per game: deals decided so far, each solver's wins and CPU, fc-solve's wins that
    bakers misses and any verdict one contradicts."""
    table = Table(title=f"PySol's deals {first}..{last} at PySolFC's limit")
    for column in ("game", "deals", "fc-solve wins", "bakers wins", "fc-solve wins, bakers not",
                   "contradictions", "fc-solve CPU s", "bakers CPU s", "commits"):
        table.add_column(column, justify="left" if column in ("game", "fc-solve wins, bakers not",
                                                              "contradictions", "commits")
                         else "right")
    for game in games:
        mine = [r for r in rows if r.game == game and first <= r.deal <= last]
        if not mine:
            continue
        misses = [r.deal for r in mine if r.fcs == SOLVED and r.bakers != SOLVED]
        # bakers-fc-solve plays PySolFC's Tuxedo, Penguin and Opus round the corner, as
        # PySolFC does; fc-solve, which has no such rule, plays them without it, so only
        # its wins say something of bakers' "unsolved" there.
        wrap = find_variant(game).wrap
        clashes = [f"{r.deal} (fc-solve {r.fcs})" for r in mine
                   if (r.fcs, r.bakers) == (SOLVED, UNSOLVED)
                   or (not wrap and (r.fcs, r.bakers) == (UNSOLVED, SOLVED))]
        table.add_row(game, str(len(mine)), str(sum(r.fcs == SOLVED for r in mine)),
                      str(sum(r.bakers == SOLVED for r in mine)),
                      " ".join(map(str, misses)) or "none", "; ".join(clashes) or "none",
                      f"{sum(r.fcs_cpu for r in mine):.1f}",
                      f"{sum(r.bakers_cpu for r in mine):.1f}",
                      " ".join(sorted({r.commit for r in mine})))
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="+", choices=list(PYSOLFC_GAMES),
                        default=list(PYSOLFC_GAMES), metavar="GAME",
                        help="bakers' names of PySolFC's games (all of them, quickest first)")
    parser.add_argument("--first", type=int, default=1, help="first deal (1)")
    parser.add_argument("--last", type=int, default=1000, help="last deal (1000)")
    parser.add_argument("--max-iters", type=int, default=MAX_ITERS,
                        help=f"the iteration limit (PySolFC's, {MAX_ITERS})")
    parser.add_argument("--out", type=Path, default=RESULTS,
                        help="the rows, appended; deals already there are skipped")
    parser.add_argument("--fc-solve", default="fc-solve", help="Freecell Solver's command")
    parser.add_argument("--processes", action="store_true",
                        help="run bakers-fc-solve as a process a deal, as fc-solve")
    parser.add_argument("--summary", action="store_true",
                        help="print the table of the rows in --out and run nothing")
    args = parser.parse_args(argv)
    if not 1 <= args.first <= args.last:
        parser.error(f"--first {args.first} --last {args.last}: not a range of deals from 1")
    if args.max_iters < 1:
        parser.error(f"--max-iters {args.max_iters} must be at least 1")
    done = {(r.game, r.deal) for r in read_rows(args.out)}
    todo = [(game, n) for game in args.games for n in range(args.first, args.last + 1)
            if (game, n) not in done]
    console = Console(width=160)
    if not args.summary and todo:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        commit = git_head()
        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                   TimeElapsedColumn(), TextColumn("{task.fields[misses]}"))
        start = time.perf_counter()
        with Progress(*columns, console=console) as progress:
            task = progress.add_task("", total=len(todo), misses="")
            misses: list[str] = []
            for game, number in todo:
                progress.update(task, description=f"{game} {number}")
                row = decide(game, number, pysolfc_arguments(game, args.max_iters),
                             args.fc_solve, args.processes, commit)
                append_row(args.out, row)
                if row.fcs == SOLVED and row.bakers != SOLVED:
                    misses.append(f"{game} {number}")
                progress.update(task, advance=1,
                                misses=f"missed: {', '.join(misses[-4:])}" if misses else "")
        console.print(f"{len(todo)} deals in {time.perf_counter() - start:.0f} s")
    console.print(summary(list(read_rows(args.out)), args.games, args.first, args.last))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
