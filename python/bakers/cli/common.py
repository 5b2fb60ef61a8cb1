"""What every `bakers` command uses: the exit codes, the one-line error parser, reading
a board or a file named on the command line, and the options several commands share.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..deals import Deal
from ..errors import InvalidDealError, InvalidOptionError
from ..limits import Limits, parse_bytes
from ..solving import METHODS
from ..variants import find_variant

__all__ = ["EXIT_OK", "EXIT_NO", "EXIT_BAD", "EXIT_UNKNOWN", "EXIT_INTERRUPTED", "EXIT_PIPE",
           "Parser", "read_text", "deal_number", "position", "limits", "add_method",
           "add_limits", "add_forget_option"]

#: Success (``solve``: a win found; ``verify``: the solution wins).
EXIT_OK = 0
#: A valid negative answer (``solve``: impossible; ``verify``: legal moves that do not win).
EXIT_NO = 1
#: Bad input (one line on standard error naming the offending token), or no compiled core.
EXIT_BAD = 2
#: No answer: a limit or Ctrl-C stopped the search.
EXIT_UNKNOWN = 3
#: Interrupted (Ctrl-C) outside a search: 128 + SIGINT, as a shell reports it.
EXIT_INTERRUPTED = 128 + 2
#: Standard output closed early (``bakers ... | head``): 128 + SIGPIPE.
EXIT_PIPE = 128 + 13


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"bakers: error: {message}\n")
        raise SystemExit(EXIT_BAD)


def read_text(source: str, what: str) -> str:
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


def deal_number(source: str) -> int | None:
    """Return the deal number that ``source`` spells in ASCII digits, else None.

    Raises InvalidDealError for a number too long to be any deal's.
    """
    if not (source.isascii() and source.isdigit()):
        return None
    if len(source) > 100:
        raise InvalidDealError(f"deal number {source[:20] + '...'!r} "
                               f"({len(source)} digits) is out of range")
    return int(source)


def position(game: str, source: str) -> Deal:
    """Return a deal from a number, a board file or '-' (standard input)."""
    variant = find_variant(game)
    number = deal_number(source)
    if number is not None:
        return Deal.from_number(variant, number)
    return Deal.parse(read_text(source, "board"), variant)


def limits(args: argparse.Namespace) -> Limits:
    """Return the limits of `add_limits`' options."""
    return Limits(nodes=args.max_nodes, states=args.max_states,
                  memory=None if args.max_memory is None else parse_bytes(args.max_memory),
                  seconds=args.max_seconds, forget=args.forget)


def add_method(p: argparse.ArgumentParser) -> None:
    """Add ``--method`` to a command that runs one search at a time."""
    p.add_argument("--method", choices=METHODS,
                   help="the search (default: depth-first for games built by suit, "
                   "portfolio for games built regardless of suit, best-first for the "
                   "others); depth-first holds several times the positions in the same "
                   "memory, best-first finds shorter lines, portfolio runs both and "
                   "nested rollouts (which only find wins) in turn, "
                   "beam finds wins in tight games (few cells) that the others miss")


def add_limits(p: argparse.ArgumentParser) -> None:
    """Add the limits of one search: --max-nodes, --max-states, --max-memory,
    --max-seconds and --forget."""
    p.add_argument("--max-nodes", type=int, metavar="N", help="positions to expand at most")
    p.add_argument("--max-states", type=int, metavar="N", help="positions to store at most")
    p.add_argument("--max-memory", metavar="BYTES", help="memory at most, like 4G or 512M")
    p.add_argument("--max-seconds", type=float, metavar="S", help="seconds at most")
    add_forget_option(p)


def add_forget_option(p: argparse.ArgumentParser) -> None:
    """Add ``--forget`` (`Limits.forget`), which every command with --max-memory takes."""
    p.add_argument("--forget", action="store_true",
                   help="under --max-memory, depth-first forgets the positions cheapest to "
                   "search again and goes on instead of stopping (slower, as exact)")
