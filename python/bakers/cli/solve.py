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

from ..deals import Deal
from ..errors import InvalidOptionError
from ..formats import FORMATS, fcs_verbose, result_json
from ..solving import solve
from ..variants import MAX_CELLS, find_variant
from .common import (
    EXIT_NO,
    EXIT_OK,
    EXIT_UNKNOWN,
    add_limits,
    add_method,
    add_threads,
    count,
    deal_number,
    limits,
    plural,
    position,
    seconds,
)
from .progress import SearchMeter, add_progress_option

__all__ = ["add_commands", "cmd_solve"]


def _sources(args: argparse.Namespace) -> tuple[str, list[str]]:
    """Return the game and the deals or files to solve: ``GAME N|FILE [N|FILE ...]`` or
    with ``--game GAME``, ``FILE|N [FILE|N ...]``.

    Raises InvalidOptionError for a game without a deal, or several deals with
    --checkpoint (one file holds one search).
    """
    if args.game_option is not None:
        game, sources = args.game_option, list(args.position)
    elif len(args.position) < 2:
        raise InvalidOptionError("give GAME and a deal number or board file, or --game "
                                 "GAME FILE")
    else:
        game, sources = args.position[0], list(args.position[1:])
    if len(sources) > 1 and args.checkpoint is not None:
        raise InvalidOptionError(f"--checkpoint saves one search: give one deal, not "
                                 f"{len(sources)}")
    return game, sources


def cmd_solve(args: argparse.Namespace) -> int:
    """Run `bakers solve`: search each deal or board given, print; return the exit code
    of the verdicts (0 all solved, 1 one impossible, 3 one unknown: the worst given)."""
    game, sources = _sources(args)
    options: dict[str, Any] = {}
    if args.checkpoint is not None:
        options = {"checkpoint": args.checkpoint}
        if args.checkpoint_every is not None:
            options["checkpoint_every"] = args.checkpoint_every
    elif args.checkpoint_every is not None:
        raise InvalidOptionError("--checkpoint-every needs --checkpoint FILE")
    if args.threads is not None:  # else solve's own default
        options["threads"] = args.threads
    # every deal is read before the first search: a bad one is refused at once
    deals = [position(game, source) for source in sources]
    if args.cells is not None:
        from ..fewest_cells import with_cells  # the one use of the module in this command

        deals = [with_cells(deal, args.cells) for deal in deals]
    codes = [_solve_one(args, game, source, deal, options, several=len(deals) > 1)
             for source, deal in zip(sources, deals, strict=True)]
    return max(codes, key=(EXIT_OK, EXIT_NO, EXIT_UNKNOWN).index)


def _solve_one(args: argparse.Namespace, game: str, source: str, deal: Deal,
               options: dict[str, Any], several: bool) -> int:
    """Search one deal and print it as `cmd_solve` says; return its verdict's exit code.
    Of several deals, each one's moves on standard output follow a ``#`` line naming it,
    which solution readers skip; with --format json, one line each."""
    resumed = args.checkpoint is not None and os.path.isfile(args.checkpoint)
    with SearchMeter.from_args(args) as meter:
        result = solve(deal, limits=limits(args), method=args.method, progress=meter.callback,
                       **options)
    if resumed:
        print(f"bakers: went on from the checkpoint {args.checkpoint}", file=sys.stderr)
    moves = result.supermoves if args.supermoves else result.solution
    name = f"{find_variant(game).name} " \
        f"{source if deal_number(source) is None else 'deal ' + source}"
    if args.format == "json":
        data = result.to_dict()
        if several:
            data = {"deal": source, **data}
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
        print(f"{result.verdict}{extra}: {name}{cells}{length}", file=sys.stderr)
        print(f"expanded {st.expanded:,}  stored {st.stored:,}  "
              f"peak {st.peak_bytes / 2**20:.1f} MiB  {st.seconds:.3f} s  "
              f"most cards home {result.most_home}", file=sys.stderr)
        if several:
            print(f"# {name}: {result.verdict}{extra}{length}")
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
                       usage="bakers solve [options] GAME N|FILE [N|FILE ...]\n"
                       "       bakers solve [options] --game GAME FILE|N [FILE|N ...]",
                       description="bakers solve GAME N | bakers solve --game GAME FILE: "
                       "search for a win of the deal (or of the board in FILE, '-' for "
                       "standard input; Freecell Solver's board text or the JSON of `bakers "
                       "deal`, `generate` or `daily`). The moves go to standard output, the "
                       "verdict and the counts to standard error, so `bakers solve GAME N | "
                       "bakers verify GAME N -` checks the line. Several deals are solved "
                       "one after the other, each one's moves after a '#' line naming it "
                       "(one JSON line each with --format json). Exit 0: solved; 1: "
                       "impossible; 3: unknown (a limit or Ctrl-C); of several, the worst.")
    p.add_argument("position", nargs="+", metavar="GAME N|FILE",
                   help="a game and deal numbers or board files, or with --game board "
                   "files or deal numbers alone")
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
    add_threads(p)
    add_limits(p)
    p.add_argument("--checkpoint", metavar="FILE",
                   help="depth first, saved to FILE now and then and when a limit or Ctrl-C "
                   "stops it; run the same command again to go on from there (the file "
                   "is removed once there is a verdict)")
    p.add_argument("--checkpoint-every", type=_save_interval, metavar="S",
                   help="seconds between two saves of --checkpoint (default 900, at least 1)")
    add_progress_option(p)
    p.set_defaults(run=cmd_solve)
