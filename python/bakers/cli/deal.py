"""`bakers deal` prints a numbered deal; `bakers verify` replays a solution from a board.

Exit codes of ``verify``: 0 the solution wins, 1 legal moves that do not win, 2 an
illegal or unreadable move.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..board import Board
from ..deals import Deal
from ..errors import InvalidOptionError
from ..solution import Solution
from ..variants import find_variant
from .common import EXIT_BAD, EXIT_NO, EXIT_OK, position, read_text

__all__ = ["add_commands", "cmd_deal", "cmd_verify"]


def cmd_deal(args: argparse.Namespace) -> int:
    """Run `bakers deal`: print the deal; return 0."""
    deal = Deal.from_number(find_variant(args.game), args.number)
    print(deal.to_json(indent=2) if args.format == "json" else deal.to_text(), end="")
    if args.format == "json":
        print()
    return EXIT_OK


def cmd_verify(args: argparse.Namespace) -> int:
    """Run `bakers verify`: replay the solution; return its exit code."""
    if args.board == "-" and args.solution == "-":
        raise InvalidOptionError("the board and the solution cannot both come from '-'")
    start = Board(position(args.game, args.board))
    solution = Solution.parse(read_text(args.solution, "solution"))
    replay = solution.replay(start)
    if replay.error is not None:
        print(f"illegal: {replay.error}", file=sys.stderr)
        return EXIT_BAD
    home = replay.board.foundation_count()
    for number, count, largest in replay.readings:
        if count != largest:  # standard notation names one card and a run alike
            print(f"move {number} {solution[number - 1].notation()!r} read as {count} "
                  f"card{'s' if count > 1 else ''} into an empty column, not {largest}: "
                  f"the reading that replays")
    if replay.won:
        print(f"valid: {len(solution)} moves win ({home} cards home)")
        return EXIT_OK
    print(f"valid but not won: {len(solution)} legal moves leave {home} cards home")
    return EXIT_NO


def add_commands(sub: Any) -> None:
    """Add the commands deal and verify to ``sub`` (the subparsers of `bakers`)."""
    p = sub.add_parser("deal", help="print a numbered deal")
    p.add_argument("game")
    p.add_argument("number", type=int)
    p.add_argument("--format", choices=("fcs", "json"), default="fcs")
    p.set_defaults(run=cmd_deal)

    p = sub.add_parser("verify", help="check a solution move by move",
                       description="Replay SOLUTION (our notation or Freecell Solver's "
                       "verbose output) from BOARD (a deal number, a board file, or '-'). "
                       "Exit 0: it wins; 1: legal but not won; 2: an illegal or unreadable "
                       "move (named, with its number).")
    p.add_argument("game")
    p.add_argument("board", help="deal number, board file, or '-' for standard input")
    p.add_argument("solution", nargs="?", default="-", help="solution file or '-' (default)")
    p.set_defaults(run=cmd_verify)
