"""`bakers solve`: decide one deal or board; print the line on standard output and the
verdict and the counts on standard error, so that the output is a solution file
(``bakers solve GAME N | bakers verify GAME N -``).

Exit codes: 0 a win found, 1 impossible, 3 unknown (a limit or Ctrl-C).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from ..errors import InvalidOptionError
from ..fewest_cells import with_cells
from ..formats import FORMATS, fcs_verbose, result_json
from ..solving import solve
from ..variants import MAX_CELLS, find_variant
from .common import (
    EXIT_NO,
    EXIT_OK,
    EXIT_UNKNOWN,
    add_limits,
    add_method,
    count,
    deal_number,
    limits,
    plural,
    position,
    seconds,
)
from .progress import SearchMeter, add_progress_option

__all__ = ["add_commands", "cmd_solve"]


def cmd_solve(args: argparse.Namespace) -> int:
    """Run `bakers solve`: search, print; return the exit code of the verdict."""
    if args.game_option is not None:
        if len(args.position) != 1:
            raise InvalidOptionError("with --game, give one board FILE (or '-')")
        game, source = args.game_option, args.position[0]
    else:
        if len(args.position) != 2:
            raise InvalidOptionError("give GAME and a deal number, or --game GAME FILE")
        game, source = args.position
    deal = position(game, source)
    if args.cells is not None:
        deal = with_cells(deal, args.cells)
    options: dict[str, Any] = {}
    if args.checkpoint is not None:
        options = {"checkpoint": args.checkpoint}
        if args.checkpoint_every is not None:
            options["checkpoint_every"] = args.checkpoint_every
    elif args.checkpoint_every is not None:
        raise InvalidOptionError("--checkpoint-every needs --checkpoint FILE")
    if args.threads is not None:  # else solve's own default
        options["threads"] = args.threads
    resumed = args.checkpoint is not None and os.path.isfile(args.checkpoint)
    with SearchMeter.from_args(args) as meter:
        result = solve(deal, limits=limits(args), method=args.method, progress=meter.callback,
                       **options)
    if resumed:
        print(f"bakers: went on from the checkpoint {args.checkpoint}", file=sys.stderr)
    moves = result.supermoves if args.supermoves else result.solution
    if args.format == "json":
        data = result.to_dict()
        if moves is not None:
            data["solution"] = moves.notation(None)
            data["moves"] = len(moves)
        print(result_json(data))
    else:
        # The verdict and the counts go to standard error, the line alone to standard
        # output: a file or a pipe of it is a solution that `bakers verify` reads.
        st = result.stats
        extra = f" ({result.reason})" if result.reason else ""
        cells = "" if args.cells is None else f" with {plural(args.cells, 'cell')}"
        length = "" if moves is None else f", {plural(len(moves), 'move')}"
        print(f"{result.verdict}{extra}: {find_variant(game).name} "
              f"{source if deal_number(source) is None else 'deal ' + source}{cells}{length}",
              file=sys.stderr)
        print(f"expanded {st.expanded:,}  stored {st.stored:,}  "
              f"peak {st.peak_bytes / 2**20:.1f} MiB  {st.seconds:.3f} s  "
              f"most cards home {result.most_home}", file=sys.stderr)
        if moves is not None:
            if args.format == "fcs-verbose":
                print(fcs_verbose(moves, result.start), end="")
            else:
                print(moves.notation())
    return {"solved": EXIT_OK, "impossible": EXIT_NO}.get(result.verdict, EXIT_UNKNOWN)


def _save_interval(text: str) -> float:
    """Read --checkpoint-every: at least a second (a save writes the whole table)."""
    value = seconds(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is less than a second: a save writes "
                                         f"the whole visited table")
    return value


def add_commands(sub: Any) -> None:
    """Add the command solve to ``sub`` (the subparsers of `bakers`)."""
    p = sub.add_parser("solve", help="decide a deal: a win, a proof of none, or unknown",
                       description="bakers solve GAME N | bakers solve --game GAME FILE: "
                       "search for a win of the deal (or of the board in FILE, '-' for "
                       "standard input; Freecell Solver's board text or the JSON of `bakers "
                       "deal --format json`). The moves go to standard output, the verdict "
                       "and the counts to standard error, so `bakers solve GAME N | bakers "
                       "verify GAME N -` checks the line. Exit 0: solved; 1: impossible; "
                       "3: unknown (a limit or Ctrl-C).")
    p.add_argument("position", nargs="+", metavar="GAME N | FILE",
                   help="a game and a deal number, or with --game a board file")
    p.add_argument("--game", dest="game_option", metavar="GAME",
                   help="the game of the board FILE")
    p.add_argument("--format", choices=FORMATS, default="standard",
                   help="standard: the moves in standard notation; fcs-verbose: Freecell "
                   "Solver's words; json: one line with the verdict, counts and moves")
    p.add_argument("--supermoves", action="store_true",
                   help="print multi-card moves whole instead of as single-card moves")
    p.add_argument("--cells", type=count(0, MAX_CELLS), metavar="K",
                   help="play with K free cells instead of the game's own count")
    add_method(p)
    p.add_argument("--threads", type=count(1), metavar="N",
                   help="search the one deal on N threads (best first and depth first "
                   "share one search between them, the portfolio runs its searches at once)")
    add_limits(p)
    p.add_argument("--checkpoint", metavar="FILE",
                   help="depth first, saved to FILE now and then and when a limit or Ctrl-C "
                   "stops it; run the same command again to go on from there (the file "
                   "is removed once there is a verdict)")
    p.add_argument("--checkpoint-every", type=_save_interval, metavar="S",
                   help="seconds between two saves of --checkpoint (default 900, at least 1)")
    add_progress_option(p)
    p.set_defaults(run=cmd_solve)
