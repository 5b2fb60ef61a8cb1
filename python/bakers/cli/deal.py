"""`bakers deal` prints a numbered deal; `bakers verify` replays a solution from a board.

Exit codes of ``verify``: 0 the solution wins, 1 legal moves that do not win, 2 an
illegal or unreadable move.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any, BinaryIO

from ..errors import InvalidOptionError
from ..formats import result_json
from ..variants import find_variant
from .common import (
    EXIT_BAD,
    EXIT_NO,
    EXIT_OK,
    add_memory_option,
    check_memory,
    count,
    number,
    opened_text,
    plural,
    position,
    solution_text,
    text_chunks,
)

# The commands import the library's modules they run when they run (see `site`).
if TYPE_CHECKING:
    from ..board import Board
    from ..solution import Replay

__all__ = ["add_commands", "cmd_deal", "cmd_verify"]


def cmd_deal(args: argparse.Namespace) -> int:
    """Run `bakers deal`: print the deal; return 0.

    Raises InvalidOptionError unless exactly one of NUMBER and --seed is given.
    """
    from ..deals import Deal

    if (args.number is None) == (args.seed is None):
        raise InvalidOptionError("give a deal number or --seed S (the seed that `bakers "
                                 "generate` and `bakers daily` print), not "
                                 + ("both" if args.number is not None else "neither"))
    variant = find_variant(args.game)
    deal = (Deal.from_number(variant, args.number) if args.seed is None
            else Deal.from_seed(variant, args.seed))
    print(deal.to_json(indent=2) if args.format == "json" else deal.to_text(), end="")
    if args.format == "json":
        print()
    return EXIT_OK


def _json_moves(file: BinaryIO, source: str) -> str | None:
    """Return the ``solution`` of the JSON that `bakers solve --format json` (or `bakers
    generate --format json`) writes when ``file`` holds such JSON, else None (the file
    holds the moves themselves).

    Raises InvalidOptionError for JSON without a solution, or not UTF-8.
    """
    start = file.read(4096).lstrip()
    file.seek(0)
    if not start.startswith(b"{"):
        return None
    return solution_text("".join(text_chunks(file, "solution", source)), source)


def _verify_dict(replay: Replay, start: Board) -> dict[str, Any]:
    """Return what `bakers verify --format json` prints: the verdict (``won``,
    ``not_won`` or ``illegal``), the moves read and played, the cards home, the first
    illegal move and why, and the moves read with a count other than the largest."""
    verdict = "illegal" if replay.error is not None else "won" if replay.won else "not_won"
    failed = None
    if replay.error is not None:
        move = getattr(replay.error, "move", None)
        failed = {"number": replay.failed_move,
                  "move": None if move is None else move.notation(),
                  "reason": getattr(replay.error, "reason", str(replay.error))}
    read = replay.failed_move if replay.failed_move is not None else replay.applied
    return {"game": start.variant.name, "verdict": verdict, "moves": read,
            "applied": replay.applied, "home": replay.board.foundation_count(),
            "illegal": failed,
            "readings": [{"number": n, "count": c, "largest": big}
                         for n, c, big in replay.readings]}


def cmd_verify(args: argparse.Namespace) -> int:
    """Run `bakers verify`: replay the solution; return its exit code."""
    from ..board import Board
    from ..solution import replay_chunks

    check_memory(args.max_memory)
    if args.board == "-" and args.solution == "-":
        raise InvalidOptionError("the board and the solution cannot both come from '-'")
    start = Board(position(args.game, args.board))
    with opened_text(args.solution, "solution") as file:
        moves = _json_moves(file, args.solution)
        # The moves are read a chunk at a time and played as they are read, one pass for
        # both: a long file takes the memory of a chunk, and one with a bad move early is
        # refused without reading the rest.
        chunks = (lambda: (moves,)) if moves is not None else (
            lambda: text_chunks(file, "solution", args.solution))
        replay, tokens = replay_chunks(chunks, start)
    home = replay.board.foundation_count()
    if args.format == "json":
        print(result_json(_verify_dict(replay, start)))
        return EXIT_BAD if replay.error is not None else EXIT_OK if replay.won else EXIT_NO
    if replay.error is not None:
        print(f"bakers: error: illegal move: {replay.error}", file=sys.stderr)
        return EXIT_BAD
    for move_number, read, largest in replay.readings:
        # standard notation names one card and a run alike
        print(f"move {move_number} {tokens[move_number].notation()!r} read as "
              f"{plural(read, 'card')} into an empty column, not {largest}: "
              f"the reading that replays")
    if replay.won:
        print(f"valid: {plural(replay.applied, 'move')} win ({plural(home, 'card')} home)")
        return EXIT_OK
    print(f"valid but not won: {plural(replay.applied, 'legal move')} leave "
          f"{plural(home, 'card')} home")
    return EXIT_NO


def add_commands(sub: Any) -> None:
    """Add the commands deal and verify to ``sub`` (the subparsers of `bakers`)."""
    p = sub.add_parser("deal", help="print a numbered or seeded deal",
                       description="Print deal NUMBER of GAME (or the deal of --seed S, "
                       "as `bakers generate` and `bakers daily` print it) as Freecell "
                       "Solver's board text (cells and foundations, then the columns from "
                       "the covered card to the exposed one) or as JSON, which every "
                       "command that takes a board reads back.")
    p.add_argument("game", help="a game name or alias, like freecell or bakers_game")
    p.add_argument("number", type=number, nargs="?", help="the deal number, like 617")
    p.add_argument("--seed", type=count(0), metavar="S",
                   help="the seeded deal S instead of a numbered one (the seed that "
                   "`bakers generate` and `bakers daily` print)")
    p.add_argument("--format", choices=("fcs", "json"), default="fcs",
                   help="fcs: Freecell Solver's board text (default); json: the deal as JSON")
    p.set_defaults(run=cmd_deal)

    p = sub.add_parser("verify", help="check a solution move by move",
                       description="Replay SOLUTION (our notation, Freecell Solver's "
                       "verbose output, or the JSON of `bakers solve --format json`) from "
                       "BOARD (a deal number, a board file, or '-'). Exit 0: it wins; 1: "
                       "legal but not won; 2: an illegal or unreadable move (named, with "
                       "its number).")
    p.add_argument("game", help="a game name or alias, like freecell or bakers_game")
    p.add_argument("board", help="deal number, board file, or '-' for standard input")
    p.add_argument("solution", nargs="?", default="-", help="solution file or '-' (default)")
    add_memory_option(p, "the moves are read and played a chunk at a time, so a long "
                      "solution takes little")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="text: the verdict in words; json: one line for scripts (the "
                   "verdict won, not_won or illegal, with the first illegal move)")
    p.set_defaults(run=cmd_verify)
