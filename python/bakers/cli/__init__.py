"""The `bakers` command: thin wrappers that parse arguments, call the API and print.

Each command group lives in a module of its own (`deal`, `solve`, `range`, `site`) and
builds on `common` (exit codes, the error parser, shared options) alone. Exit codes:
0 success (``solve``: a win found; ``verify``: the solution wins), 1 a valid negative
answer (``solve``: impossible; ``verify``: legal moves that do not win), 2 bad input
(one line on standard error naming the offending token) or an unbuilt compiled core,
3 no answer (``solve``, ``hint``, ``grade``, ``min-cells``: a limit; these and
``generate``, ``daily``: Ctrl-C), 130 interrupted elsewhere (``range``, which keeps its
finished rows), 141 standard output closed early.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from .. import __version__
from ..errors import BakersError, IllegalMoveError, InvalidOptionError
from ..variants import PRESETS
from .common import EXIT_BAD, EXIT_INTERRUPTED, EXIT_PIPE, EXIT_UNKNOWN, Parser, flag_words

__all__ = ["main", "build_parser"]

#: The commands whose Ctrl-C is "no answer" (exit 3) rather than 130.
_SEARCHES = ("solve", "hint", "generate", "daily", "grade", "min-cells")

#: The modules of the command groups, in the order of ``bakers --help``; each one's
#: `add_commands` adds its commands.
_GROUPS = ("deal", "solve", "range", "site", "serve")
#: The group of each command.
_GROUP_OF = {"deal": "deal", "verify": "deal", "solve": "solve", "range": "range",
             "hint": "site", "generate": "site", "daily": "site", "grade": "site",
             "min-cells": "site", "serve": "serve"}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """Return the argument parser of the `bakers` command; for ``command`` (a command's
    name), with the parsers of its group's commands alone, which parse its arguments as
    the whole parser does: a command's arguments go to its own parser, and building
    (and importing) every group's costs a run a sizable share of its start."""
    games = ", ".join(PRESETS)
    parser = Parser(prog="bakers", description="Solve, deal and verify Baker's Game, "
                    f"FreeCell and their family. Games: {games}.")
    parser.add_argument("--version", action="version", version=f"bakers {__version__}")
    sub = parser.add_subparsers(dest="command", parser_class=Parser, metavar="COMMAND",
                                title="commands (bakers COMMAND --help for each)")
    groups = (_GROUP_OF[command],) if command in _GROUP_OF else _GROUPS
    for group in groups:
        importlib.import_module(f"{__name__}.{group}").add_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the `bakers` command; return its exit code."""
    given = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(given[0] if given else None)
    args = parser.parse_args(given)
    if args.command is None:  # plain `bakers`: the help, and the usage error's exit code
        parser.print_help()
        return EXIT_BAD
    try:
        return int(args.run(args))
    except IllegalMoveError as exc:
        print(f"bakers: error: illegal move: {exc}", file=sys.stderr)
        return EXIT_BAD
    except InvalidOptionError as exc:  # the API names its parameters: say the flags
        print(f"bakers: error: {flag_words(str(exc))}", file=sys.stderr)
        return EXIT_BAD
    except BakersError as exc:
        print(f"bakers: error: {exc}", file=sys.stderr)
        return EXIT_BAD
    except ImportError as exc:
        # The compiled core is imported when first needed; its error says how to build it.
        print(f"bakers: error: {exc}", file=sys.stderr)
        return EXIT_BAD
    except KeyboardInterrupt:
        # A command that searches answers "no answer" (3), as `solve` does when stopped;
        # the others, and the bulk command, as a shell reports Ctrl-C (130).
        print("bakers: interrupted: no answer", file=sys.stderr)
        return EXIT_UNKNOWN if args.command in _SEARCHES else EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader of standard output has gone (``bakers solve ... | head``): point
        # stdout at /dev/null so that the interpreter's final flush does not fail too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_PIPE
    except OSError as exc:  # a file that cannot be read or written (a checkpoint)
        print(f"bakers: error: {exc}", file=sys.stderr)
        return EXIT_BAD
