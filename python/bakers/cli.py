"""The `bakers` command: thin wrappers that parse arguments, call the API and print.

Exit codes: 0 success (``solve``: a win found; ``verify``: the solution wins),
1 a valid negative answer (``solve``: impossible; ``verify``: legal moves that do not
win), 2 bad input (one line on standard error naming the offending token) or an
unbuilt compiled core, 3 ``solve`` ended unknown (a limit or Ctrl-C), 130 interrupted
elsewhere, 141 standard output closed early.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from . import __version__, cli_range
from .board import Board
from .cli_progress import SearchMeter, add_progress_option
from .deals import Deal
from .errors import BakersError, IllegalMoveError, InvalidDealError, InvalidOptionError
from .formats import FORMATS, fcs_verbose, result_json
from .limits import Limits, parse_bytes
from .solution import Solution
from .solve import METHODS
from .variants import PRESETS, find_variant

EXIT_OK, EXIT_NO, EXIT_BAD, EXIT_UNKNOWN = 0, 1, 2, 3
EXIT_PIPE = 128 + 13  # SIGPIPE


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"bakers: error: {message}\n")
        raise SystemExit(EXIT_BAD)


def _read(source: str, what: str) -> str:
    """Return the text of file ``source`` or of standard input for '-'.

    Raises InvalidOptionError for a file that is missing, unreadable or not UTF-8 text.
    """
    path = Path(source)
    if source != "-" and not path.exists():  # a pipe like <(...) is not a regular file
        raise InvalidOptionError(f"no such {what} file: {source!r}")
    if path.is_dir():
        raise InvalidOptionError(f"{what} {source!r} is a directory, not a file")
    try:
        return sys.stdin.read() if source == "-" else path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidOptionError(
            f"{what} {source!r} is not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise InvalidOptionError(f"cannot read {what} file {source!r}: {exc.strerror}") from None


def _deal_number(source: str) -> int | None:
    """Return the deal number that ``source`` spells in ASCII digits, else None.

    Raises InvalidDealError for a number too long to be any deal's.
    """
    if not (source.isascii() and source.isdigit()):
        return None
    if len(source) > 100:
        raise InvalidDealError(f"deal number {source[:20] + '...'!r} "
                               f"({len(source)} digits) is out of range")
    return int(source)


def _position(game: str, source: str) -> Deal:
    """Return a deal from a number, a board file or '-' (standard input)."""
    variant = find_variant(game)
    number = _deal_number(source)
    if number is not None:
        return Deal.from_number(variant, number)
    return Deal.parse(_read(source, "board"), variant)


def _limits(args: argparse.Namespace) -> Limits:
    return Limits(nodes=args.max_nodes, states=args.max_states,
                  memory=None if args.max_memory is None else parse_bytes(args.max_memory),
                  seconds=args.max_seconds, forget=args.forget)


def cmd_deal(args: argparse.Namespace) -> int:
    deal = Deal.from_number(find_variant(args.game), args.number)
    print(deal.to_json(indent=2) if args.format == "json" else deal.to_text(), end="")
    if args.format == "json":
        print()
    return EXIT_OK


def cmd_verify(args: argparse.Namespace) -> int:
    if args.board == "-" and args.solution == "-":
        raise InvalidOptionError("the board and the solution cannot both come from '-'")
    start = Board(_position(args.game, args.board))
    solution = Solution.parse(_read(args.solution, "solution"))
    replay = solution.replay(start)
    if replay.error is not None:
        print(f"illegal: {replay.error}", file=sys.stderr)
        return EXIT_BAD
    home = replay.board.foundation_count()
    if replay.won:
        print(f"valid: {len(solution)} moves win ({home} cards home)")
        return EXIT_OK
    print(f"valid but not won: {len(solution)} legal moves leave {home} cards home")
    return EXIT_NO


def cmd_solve(args: argparse.Namespace) -> int:
    if args.game_option is not None:
        if len(args.position) != 1:
            raise InvalidOptionError("with --game, give one board FILE (or '-')")
        game, source = args.game_option, args.position[0]
    else:
        if len(args.position) != 2:
            raise InvalidOptionError("give GAME and a deal number, or --game GAME FILE")
        game, source = args.position
    deal = _position(game, source)
    if args.cells is not None:
        from .min_cells import with_cells  # min_cells imports solve: loaded when needed
        from .variants import MAX_CELLS

        if not 0 <= args.cells <= MAX_CELLS:
            raise InvalidOptionError(f"--cells {args.cells} must be from 0 to {MAX_CELLS}")
        deal = with_cells(deal, args.cells)
    saving: dict[str, object] = {}
    if args.checkpoint is not None:
        saving = {"checkpoint": args.checkpoint}
        if args.checkpoint_every is not None:
            saving["checkpoint_every"] = args.checkpoint_every
    elif args.checkpoint_every is not None:
        raise InvalidOptionError("--checkpoint-every needs --checkpoint FILE")
    resumed = args.checkpoint is not None and os.path.isfile(args.checkpoint)
    with SearchMeter.from_args(args) as meter:
        result = __import__("bakers.solve", fromlist=["solve"]).solve(
            deal, limits=_limits(args), method=args.method, progress=meter.callback,
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
              f"{source if _deal_number(source) is None else 'deal ' + source}{cells}")
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


def _add_method(p: argparse.ArgumentParser) -> None:
    p.add_argument("--method", choices=METHODS,
                   help="the search (default: depth-first for games built by suit, "
                   "portfolio for games built regardless of suit, best-first for the "
                   "others); depth-first holds several times the positions in the same "
                   "memory, best-first finds shorter lines, portfolio runs both and "
                   "nested rollouts (which only find wins) in turn, "
                   "beam finds wins in tight games (few cells) that the others miss")


def _add_limits(p: argparse.ArgumentParser) -> None:
    p.add_argument("--max-nodes", type=int, metavar="N", help="positions to expand at most")
    p.add_argument("--max-states", type=int, metavar="N", help="positions to store at most")
    p.add_argument("--max-memory", metavar="BYTES", help="memory at most, like 4G or 512M")
    p.add_argument("--max-seconds", type=float, metavar="S", help="seconds at most")
    cli_range.add_forget_option(p)


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of the `bakers` command."""
    games = ", ".join(PRESETS)
    parser = _Parser(prog="bakers", description="Solve, deal and verify Baker's Game, "
                     f"FreeCell and their family. Games: {games}.")
    parser.add_argument("--version", action="version", version=f"bakers {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

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
    _add_method(p)
    p.add_argument("--threads", type=int, default=1, metavar="N",
                   help="search the one deal on N threads (1..16; best first and depth first "
                   "share one search between them, the portfolio runs its searches at once)")
    _add_limits(p)
    p.add_argument("--checkpoint", metavar="FILE",
                   help="depth first, saved to FILE now and then and when a limit or Ctrl-C "
                   "stops it; run the same command again to go on from there (the file "
                   "is removed once there is a verdict)")
    p.add_argument("--checkpoint-every", type=float, metavar="S",
                   help="seconds between two saves of --checkpoint (default 900)")
    add_progress_option(p)
    p.set_defaults(run=cmd_solve)
    cli_range.add_commands(sub)

    from .cli_site import add_commands  # imported here: cli_site builds on this module

    add_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the `bakers` command; return its exit code."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except IllegalMoveError as exc:
        print(f"bakers: illegal move: {exc}", file=sys.stderr)
        return EXIT_BAD
    except BakersError as exc:
        print(f"bakers: error: {exc}", file=sys.stderr)
        return EXIT_BAD
    except ImportError as exc:
        # The compiled core is imported when first needed; its error says how to build it.
        print(f"bakers: error: {exc}", file=sys.stderr)
        return EXIT_BAD
    except KeyboardInterrupt:
        print("bakers: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader of standard output has gone (``bakers solve ... | head``): point
        # stdout at /dev/null so that the interpreter's final flush does not fail too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_PIPE
    except OSError as exc:  # a file that cannot be read or written (a checkpoint)
        print(f"bakers: error: {exc}", file=sys.stderr)
        return EXIT_BAD


if __name__ == "__main__":
    raise SystemExit(main())
