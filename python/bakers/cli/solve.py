"""`bakers solve`: decide one deal or board, print the verdict, the counts and the line.

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
    deal_number,
    limits,
    position,
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
        if not 0 <= args.cells <= MAX_CELLS:
            raise InvalidOptionError(f"--cells {args.cells} must be from 0 to {MAX_CELLS}")
        deal = with_cells(deal, args.cells)
    saving: dict[str, Any] = {}
    if args.checkpoint is not None:
        saving = {"checkpoint": args.checkpoint}
        if args.checkpoint_every is not None:
            saving["checkpoint_every"] = args.checkpoint_every
    elif args.checkpoint_every is not None:
        raise InvalidOptionError("--checkpoint-every needs --checkpoint FILE")
    resumed = args.checkpoint is not None and os.path.isfile(args.checkpoint)
    with SearchMeter.from_args(args) as meter:
        result = solve(deal, limits=limits(args), method=args.method, progress=meter.callback,
                       threads=args.threads, **saving)
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
        st = result.stats
        extra = f" ({result.reason})" if result.reason else ""
        cells = "" if args.cells is None else f" with {args.cells} cell{'s' * (args.cells != 1)}"
        print(f"{result.verdict}{extra}: {find_variant(game).name} "
              f"{source if deal_number(source) is None else 'deal ' + source}{cells}")
        print(f"expanded {st.expanded:,}  stored {st.stored:,}  "
              f"peak {st.peak_bytes / 2**20:.1f} MiB  {st.seconds:.3f} s  "
              f"most cards home {result.most_home}")
        if moves is not None:
            print(f"{len(moves)} moves")
            if args.format == "fcs-verbose":
                print(fcs_verbose(moves, result.start), end="")
            else:
                print(moves.notation())
    return {"solved": EXIT_OK, "impossible": EXIT_NO}.get(result.verdict, EXIT_UNKNOWN)


def add_commands(sub: Any) -> None:
    """Add the command solve to ``sub`` (the subparsers of `bakers`)."""
    p = sub.add_parser("solve", help="decide a deal: a win, a proof of none, or unknown",
                       description="bakers solve GAME N | bakers solve --game GAME FILE. "
                       "Exit 0: solved; 1: impossible; 3: unknown (a limit or Ctrl-C).")
    p.add_argument("position", nargs="+", metavar="GAME N | FILE")
    p.add_argument("--game", dest="game_option", metavar="GAME")
    p.add_argument("--format", choices=FORMATS, default="standard")
    p.add_argument("--supermoves", action="store_true",
                   help="print multi-card moves whole instead of as single-card moves")
    p.add_argument("--cells", type=int, metavar="K",
                   help="play with K free cells instead of the game's own count")
    add_method(p)
    p.add_argument("--threads", type=int, default=1, metavar="N",
                   help="search the one deal on N threads (best first and depth first "
                   "share one search between them, the portfolio runs its searches at once)")
    add_limits(p)
    p.add_argument("--checkpoint", metavar="FILE",
                   help="depth first, saved to FILE now and then and when a limit or Ctrl-C "
                   "stops it; run the same command again to go on from there (the file "
                   "is removed once there is a verdict)")
    p.add_argument("--checkpoint-every", type=float, metavar="S",
                   help="seconds between two saves of --checkpoint (default 900)")
    add_progress_option(p)
    p.set_defaults(run=cmd_solve)
