"""The `bakers` commands of a solitaire site: hint, generate, daily, grade, min-cells.

Each wraps one call of the library and follows the conventions of `bakers.cli.common`: bad
input gets one line on standard error naming the offending token, and exit 2;
``--format json`` prints one line of JSON for scripts. Exit codes besides 2:

* ``hint``: 0 a move towards a win (or the game is won already), 1 no win from here
  (proved), 3 unknown (a limit; by default the search stops after a few seconds);
* ``generate`` and ``daily``: 0 a deal, 1 no deal met the request in the attempts
  allowed (one line on standard error says why);
* ``grade``: 0 graded, 1 the deal is proved to have no win, 3 undecided (a limit);
* ``min-cells``: 0 an exact answer, 1 no win with any count tried, 3 an upper bound
  only (a smaller count left unknown by a limit).
"""

from __future__ import annotations

import argparse
import datetime
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..difficulty import DEFAULT_PLAYOUTS, GRADES
from ..errors import AttemptsExhaustedError, InvalidOptionError, NotWinnableError
from ..formats import result_json
from ..variants import MAX_CELLS, find_variant
from . import common
from .common import (
    EXIT_NO,
    EXIT_OK,
    EXIT_UNKNOWN,
    add_limits,
    add_memory_option,
    add_method,
    add_threads,
    count,
    plural,
    position,
    read_text,
    solution_text,
)
from .progress import SearchMeter, add_progress_option

# Each command imports the library's module it runs when it runs: `bakers` builds every
# command's parser, and a command should not load the others' modules.
if TYPE_CHECKING:
    from ..board import Board
    from ..deals import Deal
    from ..limits import Limits

__all__ = ["add_commands"]


def _limits(args: argparse.Namespace, default: Limits | None) -> Limits | None:
    """Return the limits given on the command line, or ``default`` when none was."""
    given = (args.max_nodes, args.max_states, args.max_memory, args.max_seconds)
    return default if all(value is None for value in given) else common.limits(args)


def _moves_text(source: str) -> str:
    """Return the moves of ``source``: '-' (standard input), a file, or the moves."""
    try:
        is_file = "\n" not in source and Path(source).is_file()
    except (OSError, ValueError):  # a name too long, or with a NUL: the moves themselves
        is_file = False
    if source == "-" or is_file:
        return solution_text(read_text(source, "moves"), source)
    return source


def _board(args: argparse.Namespace) -> Board:
    """Return the position of BOARD after MOVES (if given)."""
    from ..board import Board
    from ..solution import Solution

    moves = getattr(args, "moves", None)
    if args.board == "-" and moves == "-":
        raise InvalidOptionError("the board and the moves cannot both come from '-'")
    board = Board(position(args.game, args.board))
    if moves is not None:
        replay = Solution.parse(_moves_text(moves)).replay(board)
        replay.raise_for_error()
        board = replay.board
    return board


def _print_json(data: dict[str, Any]) -> None:
    print(result_json(data))


def cmd_hint(args: argparse.Namespace) -> int:
    from ..hinting import DEFAULT_HINT_LIMITS, hint

    board = _board(args)
    options = {} if args.threads is None else {"threads": args.threads}
    answer = hint(board, limits=_limits(args, DEFAULT_HINT_LIMITS), method=args.method,
                  **options)
    code = {"win": EXIT_OK, "no_win": EXIT_NO}.get(answer.verdict, EXIT_UNKNOWN)
    if args.format == "json":
        _print_json({"game": board.variant.name, "home": board.foundation_count(),
                     **answer.to_dict()})
        return code
    if answer.won_already:
        print("already won")
    elif answer.move is not None:
        assert answer.line is not None
        extra = ""
        if answer.supermove is not None and answer.supermove != answer.move:
            extra = f", the first step of {answer.supermove}"
        print(f"{answer.move} (a win in {plural(len(answer.line) + 1, 'move')} from "
              f"here{extra})")
    elif answer.verdict == "no_win":
        exact = answer.result is None or answer.result.most_home_exact
        bound = "at most" if exact else "at least"
        print(f"no win from here ({bound} {plural(answer.most_home, 'card')} can go home)")
    else:
        print(f"unknown ({answer.reason or 'a limit'}): no win found yet, none ruled out")
    return code


def _print_deal(comment: str, deal: Deal) -> None:
    """Print the board text of ``deal``, then ``comment`` and how to deal it again on
    ``#`` lines: after the columns, where fc-solve stops reading (it takes no comment
    before them) and `Deal.parse` skips them, so the output is a board file of both."""
    print(deal.to_text(), end="")
    print(f"# {comment}")
    print(f"# bakers deal {deal.variant.name} --seed {deal.seed} deals it again")


def cmd_generate(args: argparse.Namespace) -> int:
    from ..generating import generate

    if args.any and args.difficulty is not None:
        raise InvalidOptionError("--any and --difficulty do not go together: a difficulty "
                                 "is graded on winnable deals only")
    try:
        made = generate(find_variant(args.game), winnable=not args.any,
                        difficulty=args.difficulty, seed=args.seed,
                        max_attempts=args.max_attempts,
                        limits=_limits(args, None), playouts=args.playouts)
    except AttemptsExhaustedError as exc:
        print(f"bakers: error: {exc}", file=sys.stderr)
        return EXIT_NO
    if args.format == "json":
        _print_json(made.to_dict())
        return EXIT_OK
    what = "deal" if args.any else "winnable deal"
    if made.grade is not None:
        what = f"{made.grade.grade} {what} (score {made.grade.score})"
    moves = "" if made.solution is None else f", won in {plural(len(made.solution), 'move')}"
    _print_deal(f"{made.deal.variant.name} {what}: seed {made.deal.seed}, attempt "
                f"{made.attempts} from seed {made.seed}{moves}", made.deal)
    return EXIT_OK


def cmd_daily(args: argparse.Namespace) -> int:
    from ..generating import daily, daily_seed, parse_date

    variant = find_variant(args.game)
    today = datetime.datetime.now(datetime.timezone.utc).date()
    day = parse_date(args.date) if args.date else today
    memory = None if args.max_memory is None else common.engine_memory(args.max_memory)
    try:
        deal = daily(variant, day, memory=memory)
    except InvalidOptionError as exc:
        if memory is None:
            raise
        raise InvalidOptionError(f"--max-memory {args.max_memory}: {exc}") from None
    except AttemptsExhaustedError as exc:  # pragma: no cover - never seen in practice
        print(f"bakers: error: {exc}", file=sys.stderr)
        return EXIT_NO
    if args.format == "json":
        _print_json({"game": variant.name, "date": day.isoformat(),
                     "daily_seed": daily_seed(variant, day), "deal_seed": deal.seed,
                     "deal": deal.to_text()})
    else:
        _print_deal(f"{variant.name} daily deal {day.isoformat()}: seed {deal.seed}", deal)
    return EXIT_OK


def cmd_grade(args: argparse.Namespace) -> int:
    from ..difficulty import grade

    board = _board(args)
    try:
        graded = grade(board, playouts=args.playouts, seed=args.seed,
                       limits=_limits(args, None))
    except NotWinnableError as exc:
        if args.format == "json":
            _print_json({"game": board.variant.name, "grade": None, "verdict": "impossible"})
        else:
            print(f"impossible: {exc}")
        return EXIT_NO
    undecided = graded.verdict != "solved"
    if args.format == "json":
        _print_json({"game": board.variant.name, **graded.to_dict()})
    elif undecided:
        print(f"undecided: no win found and none ruled out in {graded.expanded:,} "
              f"positions (raise --max-nodes to decide it); a grade needs a win")
    else:
        print(f"{graded.grade} (score {graded.score} of 100, higher is harder: "
              f"{graded.playouts_won} of {graded.playouts} random playouts still left a "
              f"win; the solver expanded {graded.expanded:,} positions to win)")
    return EXIT_UNKNOWN if undecided else EXIT_OK


def cmd_min_cells(args: argparse.Namespace) -> int:
    from ..fewest_cells import min_cells

    board = _board(args)
    with SearchMeter.from_args(args) as meter:
        answer = min_cells(board, limits=_limits(args, None), max_cells=args.max_cells,
                           method=args.method, progress=meter.min_cells_callback,
                           checkpoint=args.checkpoint)
    if any(result.reason == "interrupted" for result in answer.results.values()):
        print("bakers: interrupted: the answer below stops at the count searched then",
              file=sys.stderr)
    if args.format == "json":
        _print_json({"game": board.variant.name, **answer.to_dict()})
    else:
        tried = ", ".join(f"{k}: {v}" for k, v in answer.verdicts.items())
        if answer.cells is None:
            none = "no win" if answer.no_win else "no win found"
            print(f"{none} with up to {plural(args.max_cells, 'cell')} ({tried})")
        elif answer.exact:
            print(f"{plural(answer.cells, 'cell')} ({tried})")
        else:
            print(f"at most {plural(answer.cells, 'cell')}, at least {answer.lower_bound} "
                  f"({tried})")
    if answer.cells is None:
        return EXIT_NO if answer.no_win else EXIT_UNKNOWN
    return EXIT_OK if answer.exact else EXIT_UNKNOWN


_DEAL_FORMATS = "fcs: Freecell Solver's board text (default); json: one line for scripts"


def _add_format(p: argparse.ArgumentParser, choices: tuple[str, ...], help: str) -> None:
    p.add_argument("--format", choices=choices, default=choices[0], help=help)


def _add_position(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", help="a game name or alias, like freecell or bakers_game")
    p.add_argument("board", help="deal number, board file (Freecell Solver's text or the "
                   "JSON of `bakers deal`), or '-' for standard input")


def add_commands(sub: Any) -> None:
    """Add the commands hint, generate, daily, grade and min-cells to ``sub`` (the
    subparsers of the `bakers` parser)."""
    p = sub.add_parser("hint", help="a move towards a win from a position, or none",
                       description="bakers hint GAME BOARD [MOVES]: the first move of a "
                       "winning line from BOARD after MOVES (notation, a file, or '-'). "
                       "Exit 0: a move (or won); 1: no win from here; 3: unknown.")
    _add_position(p)
    p.add_argument("moves", nargs="?", help="moves already played: '3a 54 ...', a file or '-'")
    _add_format(p, ("text", "json"), "text: the move in words; json: one line for scripts")
    add_method(p)
    add_threads(p)
    add_limits(p)
    p.set_defaults(run=cmd_hint)

    p = sub.add_parser("generate", help="a deal proved winnable (of a difficulty)",
                       description="Reshuffle seeded deals until one is proved winnable "
                       "(and of --difficulty). Exit 0: a deal; 1: none in the attempts.")
    p.add_argument("game", help="a game name or alias, like freecell or bakers_game")
    p.add_argument("--seed", type=count(0), help="derive the attempts from this seed "
                   "(default: a random one, printed)")
    p.add_argument("--difficulty", choices=GRADES, help="only a deal of this grade")
    p.add_argument("--any", action="store_true", help="any deal, not only winnable ones")
    p.add_argument("--max-attempts", type=count(1), default=100, metavar="N",
                   help="deals to try at most (default 100)")
    p.add_argument("--playouts", type=count(1, 10_000), default=DEFAULT_PLAYOUTS, metavar="N",
                   help=f"random playouts of a grade (1..10000, default {DEFAULT_PLAYOUTS})")
    _add_format(p, ("fcs", "json"), _DEAL_FORMATS)
    add_limits(p)
    p.set_defaults(run=cmd_generate)

    p = sub.add_parser("daily", help="the deal of the day, the same for everyone",
                       description="The winnable deal of a date for a game (default "
                       "today, UTC), the same on every machine.")
    p.add_argument("game", help="a game name or alias, like freecell or bakers_game")
    p.add_argument("date", nargs="?", help="YYYY-MM-DD (default: today, UTC)")
    _add_format(p, ("fcs", "json"), _DEAL_FORMATS)
    add_memory_option(p, "the searches for the day's deal get what the process does not "
                      "hold already; too little for one is an error, never another deal")
    p.set_defaults(run=cmd_daily)

    p = sub.add_parser("grade", help="grade a deal easy, medium or hard",
                       description="Grade a winnable deal (or a position after MOVES). "
                       "Exit 0: graded; 1: proved to have no win.")
    _add_position(p)
    p.add_argument("moves", nargs="?", help="moves already played: '3a 54 ...', a file or '-'")
    p.add_argument("--playouts", type=count(1, 10_000), default=DEFAULT_PLAYOUTS, metavar="N",
                   help=f"random playouts from the position (1..10000, default "
                   f"{DEFAULT_PLAYOUTS}): the fewer still leave a win, the harder")
    p.add_argument("--seed", type=count(0), default=0, help="seed of the playouts (default 0)")
    _add_format(p, ("text", "json"), "text: the grade in words; json: one line for scripts")
    add_limits(p)
    p.set_defaults(run=cmd_grade)

    p = sub.add_parser("min-cells", help="the fewest free cells that still win a deal",
                       description="The fewest free cells with which the deal is "
                       "winnable, with the verdict of every smaller count tried. Exit 0: exact; "
                       "1: no win with up to --max-cells; 3: an upper bound only.")
    _add_position(p)
    p.add_argument("--max-cells", type=count(0, MAX_CELLS), default=MAX_CELLS, metavar="K",
                   help=f"the most cells to try (0..{MAX_CELLS}, default {MAX_CELLS})")
    _add_format(p, ("text", "json"), "text: the count in words; json: one line for scripts")
    add_method(p)
    add_limits(p)
    p.add_argument("--checkpoint", metavar="PREFIX",
                   help="depth first; the search with K cells is saved to the file "
                   "PREFIX-K-cells now and then and when stopped, and the same command "
                   "goes on from there")
    add_progress_option(p)
    p.set_defaults(run=cmd_min_cells)
