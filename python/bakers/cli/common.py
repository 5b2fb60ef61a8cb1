"""What every `bakers` command uses: the exit codes, the one-line error parser, reading
a board or a file named on the command line, and the options several commands share.
"""

from __future__ import annotations

import argparse
import codecs
import functools
import math
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, BinaryIO

from ..errors import InvalidDealError, InvalidOptionError
from ..limits import MAX_COUNT, Limits, parse_bytes, resident_bytes
from ..variants import find_variant

# The deals and the searches are imported where they are used: `bakers-fc-solve
# --version` and a command's usage errors need neither.
if TYPE_CHECKING:
    from pathlib import Path

    from ..deals import Deal

__all__ = ["EXIT_OK", "EXIT_NO", "EXIT_BAD", "EXIT_UNKNOWN", "EXIT_INTERRUPTED", "EXIT_PIPE",
           "Parser", "read_text", "deal_number", "position", "limits", "count", "seconds",
           "plural", "number", "flag_words", "opened_text", "text_chunks", "solution_text",
           "whole", "add_threads", "process_share",
           "MAX_BOARD_BYTES", "MAX_MOVES_BYTES", "RUN_RESERVE", "resident_bytes",
           "engine_memory", "check_memory", "add_method",
           "add_limits", "add_memory_option", "add_forget_option"]

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


#: The largest board file read: a board of any game is under 2 KB (104 cards of 3
#: characters with the foundations line), its JSON under 4 KB; this leaves room for
#: comments and refuses at once a file no game could need.
MAX_BOARD_BYTES = 64 * 2**10
#: The largest solution or move list read: a depth-first line of FreeCell with one cell
#: runs to about 420,000 moves, 19 MB in Freecell Solver's verbose words.
MAX_MOVES_BYTES = 64 * 2**20


def _source(source: str, what: str, limit: int) -> tuple[Path, InvalidOptionError]:
    """Return the path of file ``source`` and the error of one longer than ``limit``.

    Raises InvalidOptionError for a file that is missing or a directory.
    """
    from pathlib import Path  # here: a deal number names no file, and pathlib loads slowly

    path = Path(source)
    if source != "-" and not path.exists():  # a pipe like <(...) is not a regular file
        raise InvalidOptionError(f"no such {what} file: {source!r}")
    if path.is_dir():
        raise InvalidOptionError(f"{what} {source!r} is a directory, not a file")
    return path, InvalidOptionError(f"{what} {source!r} is longer than any {what} "
                                    f"({limit:,} bytes at most)")


def read_text(source: str, what: str, limit: int = MAX_MOVES_BYTES) -> str:
    """Return the text of file ``source`` or of standard input for '-'.

    Raises InvalidOptionError for a file that is missing, unreadable, longer than
    ``limit`` bytes (refused before it is read) or not UTF-8 text.
    """
    path, too_long = _source(source, what, limit)
    try:
        if source == "-":
            data = sys.stdin.buffer.read(limit + 1) if hasattr(sys.stdin, "buffer") else (
                sys.stdin.read(limit + 1).encode("utf-8", "surrogateescape"))
        else:
            if path.is_file() and path.stat().st_size > limit:
                raise too_long
            with path.open("rb") as f:
                data = f.read(limit + 1)
        if len(data) > limit:
            raise too_long
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidOptionError(
            f"{what} {source!r} is not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise InvalidOptionError(f"cannot read {what} file {source!r}: {exc.strerror}") from None


#: The bytes of a file that `text_chunks` decodes at a time.
CHUNK_BYTES = 2**20


@contextmanager
def opened_text(source: str, what: str, limit: int = MAX_MOVES_BYTES) -> Iterator[BinaryIO]:
    """Open file ``source`` (standard input for '-') to be read, from its start as often
    as the reader likes, without holding it in memory: a regular file as it is, standard
    input or a pipe copied a chunk at a time to a temporary file first.

    Raises InvalidOptionError for a file that is missing, a directory, unreadable or
    longer than ``limit`` bytes (a regular file refused before it is read).
    """
    path, too_long = _source(source, what, limit)
    try:
        if source != "-" and path.is_file():
            if path.stat().st_size > limit:
                raise too_long
            with path.open("rb") as f:
                yield f
            return
        import shutil  # here, as tempfile: only a pipe is copied, and they load slowly
        import tempfile

        with tempfile.TemporaryFile() as copy:
            given = path.open("rb") if source != "-" else None
            try:
                stream = given or getattr(sys.stdin, "buffer", None)
                if stream is None:  # a text stream in place of standard input (tests)
                    copy.write(sys.stdin.read(limit + 1).encode("utf-8", "surrogateescape"))
                else:
                    shutil.copyfileobj(_at_most(stream, limit + 1), copy)
            finally:
                if given is not None:
                    given.close()
            if copy.tell() > limit:
                raise too_long
            copy.seek(0)
            yield copy  # type: ignore[misc]
    except OSError as exc:
        raise InvalidOptionError(f"cannot read {what} file {source!r}: {exc.strerror}") from None


class _at_most:  # noqa: N801 - a reader, named for what it does
    """The first ``limit`` bytes of a binary stream, read a chunk at a time."""

    def __init__(self, stream: BinaryIO, limit: int) -> None:
        self.stream, self.left = stream, limit

    def read(self, size: int = -1) -> bytes:
        size = self.left if size < 0 else min(size, self.left)
        data = self.stream.read(size) if size > 0 else b""
        self.left -= len(data)
        return data


def text_chunks(file: BinaryIO, what: str, source: str) -> Iterator[str]:
    """Yield the text of ``file`` from its start, `CHUNK_BYTES` at a time, decoded as UTF-8
    (a character cut between two chunks kept whole).

    Raises InvalidOptionError at the first byte that is not UTF-8, naming its offset.
    """
    file.seek(0)
    decoder = codecs.getincrementaldecoder("utf-8")()
    offset = 0
    while True:
        data = file.read(CHUNK_BYTES)
        try:
            text = decoder.decode(data, final=not data)
        except UnicodeDecodeError as exc:
            # The decoder's held bytes of a cut character came before this chunk.
            held = len(decoder.getstate()[0])
            raise InvalidOptionError(f"{what} {source!r} is not UTF-8 text (byte "
                                     f"{offset - held + exc.start})") from None
        offset += len(data)
        if text:
            yield text
        if not data:
            return


_NUMBER = re.compile(r"[+-]?[0-9]+")


def deal_number(source: str) -> int | None:
    """Return the deal number that ``source`` spells in ASCII digits (with a sign: a
    negative number is a deal number out of range, not a file name), else None.

    Raises InvalidDealError for a number too long to be any deal's.
    """
    if not _NUMBER.fullmatch(source):
        return None
    if len(source) > 100:
        raise InvalidDealError(f"deal number {source[:20] + '...'!r} "
                               f"({len(source)} digits) is out of range")
    return int(source)


def position(game: str, source: str) -> Deal:
    """Return a deal from a number, a board file or '-' (standard input): a board in
    Freecell Solver's text or the JSON that `bakers deal --format json` writes.

    Raises the errors of the board's reader, and InvalidDealError for a JSON deal of
    another game than ``game``.
    """
    from ..deals import Deal

    variant = find_variant(game)
    number = deal_number(source)
    if number is not None:
        return Deal.from_number(variant, number)
    text = read_text(source, "board", MAX_BOARD_BYTES)
    if not text.lstrip().startswith("{"):
        return Deal.parse(variant, text)
    deal = Deal.from_json(text)
    if deal.variant != variant:
        raise InvalidDealError(f"board {source!r} is a deal of {deal.variant.name!r}, not of "
                               f"{variant.name!r}")
    return deal


def solution_text(text: str, source: str) -> str:
    """Return the moves of a solution file: the text itself, or the ``solution`` of the
    JSON that `bakers solve --format json` and `bakers generate --format json` write.

    Raises InvalidOptionError for such JSON without a solution.
    """
    from ..deals import load_json_text

    if not text.lstrip().startswith("{"):
        return text
    data = load_json_text(text, f"solution {source!r}", InvalidOptionError)
    moves = data.get("solution") if isinstance(data, dict) else None
    if not isinstance(moves, str):
        verdict = data.get("verdict") if isinstance(data, dict) else None
        raise InvalidOptionError(f"solution {source!r} is JSON without a solution"
                                 + (f" (its verdict: {verdict})" if isinstance(verdict, str)
                                    else ""))
    return moves


#: The Python parameters that the commands' flags stand for, as the API's messages name them.
_FLAGS = {"threads": "--threads", "method": "--method", "max_cells": "--max-cells",
          "playouts": "--playouts", "seed": "--seed", "max_attempts": "--max-attempts",
          "checkpoint_every": "--checkpoint-every", "checkpoint": "--checkpoint",
          "nodes": "--max-nodes", "states": "--max-states", "seconds": "--max-seconds",
          "memory": "--max-memory", "forget": "--forget", "difficulty": "--difficulty",
          "winnable": "--any", "cells": "--cells"}


@functools.cache
def _parameter() -> re.Pattern[str]:
    """A parameter in an API message (compiled when an error is first worded)."""
    return re.compile(r"(?:\blimit )?\b(" + "|".join(_FLAGS) + r")=('[^']*'|[^\s,;:)]+)")


def flag_words(message: str) -> str:
    """Return an API error message in the command line's words: ``threads=0`` becomes
    ``--threads 0``, ``limit seconds=-1.0`` ``--max-seconds -1.0``, ``method='beam'``
    ``--method beam``."""
    def flag(match: re.Match[str]) -> str:
        value = match.group(2)
        if value.startswith("'") and value.endswith("'"):
            value = value[1:-1]
        return f"{_FLAGS[match.group(1)]} {value}"

    return _parameter().sub(flag, message)


def _shown(text: str) -> str:
    """Return ``text`` quoted for a message: whole when short, else its start and length."""
    return repr(text) if len(text) <= 40 else f"{text[:20]!r}... ({len(text)} characters)"


def number(text: str) -> int:
    """Read a deal number (an argparse ``type``); its range is the game's, checked later."""
    try:
        value = deal_number(text)
    except InvalidDealError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if value is None:
        raise argparse.ArgumentTypeError(f"{_shown(text)} is not a deal number")
    return value


def plural(n: int, noun: str) -> str:
    """Return ``'1 move'``, ``'2 moves'``, ``'1,000 moves'``."""
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def count(low: int, high: int | None = None) -> Callable[[str], int]:
    """Return an argparse ``type`` that reads an integer from ``low`` to ``high`` (None:
    below 2**64, the engine's counters); its error names the flag (argparse adds it)."""

    def read(text: str) -> int:
        top = MAX_COUNT - 1 if high is None else high
        if not _NUMBER.fullmatch(text.strip()):
            raise argparse.ArgumentTypeError(f"{_shown(text)} is not a whole number")
        if len(text.strip()) > 30:
            raise argparse.ArgumentTypeError(f"{_shown(text)} is out of range")
        value = int(text)
        if not low <= value <= top:
            span = f"{low} to {top}" if high is not None else f"{low} or more, below 2**64"
            raise argparse.ArgumentTypeError(f"{text} is out of range ({span})")
        return value

    read.__name__ = "count"
    return read


def whole(text: str) -> int:
    """Read a whole number (an argparse ``type``) whose range its owner checks, in the
    one wording of that bound (`bakers.limits.check_threads` for ``--threads``)."""
    if not _NUMBER.fullmatch(text.strip()):
        raise argparse.ArgumentTypeError(f"{_shown(text)} is not a whole number")
    if len(text.strip()) > 30:
        raise argparse.ArgumentTypeError(f"{_shown(text)} is out of range")
    return int(text)


def add_threads(p: argparse.ArgumentParser) -> None:
    """Add ``--threads`` to a command that runs one search at a time (1 to
    `_core.MAX_SEARCH_THREADS`, checked by the search)."""
    p.add_argument("--threads", type=whole, metavar="N",
                   help="search the one deal on N threads (best first and depth first "
                   "share one search between them, the portfolio runs its searches at once)")


def seconds(text: str) -> float:
    """Read a positive, finite number of seconds (an argparse ``type``)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{_shown(text)} is not a number of seconds") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"{text} is not a positive number of seconds")
    return value


def limits(args: argparse.Namespace) -> Limits:
    """Return the limits of `add_limits`' options.

    Raises InvalidOptionError for --forget without --max-memory (it would do nothing).
    """
    if getattr(args, "forget", False) and args.max_memory is None:
        raise InvalidOptionError("--forget needs --max-memory (it forgets under that limit)")
    return Limits(nodes=args.max_nodes, states=args.max_states,
                  memory=None if args.max_memory is None else engine_memory(args.max_memory),
                  seconds=args.max_seconds, forget=args.forget)


#: Bytes kept out of ``--max-memory`` for the rows, the progress bar and the allocator,
#: over what the process holds when the run starts.
RUN_RESERVE = 16 * 2**20
#: What one search's process holds besides the engine is rounded up to this, so that
#: the same command gives its search the same limit run after run (a checkpoint
#: records the limit and is refused under another).
_HELD_STEP = 64 * 2**20


def engine_memory(text: str) -> int:
    """Return the engine's share of ``--max-memory TEXT``, which bounds the whole
    process (as in `bakers range`): the limit less what the process already holds and
    `RUN_RESERVE`, that rounded up to 64 MiB.

    Raises InvalidOptionError for a size that does not parse, is 2**64 or more, or
    leaves the search nothing.
    """
    held = -(-(resident_bytes() + RUN_RESERVE) // _HELD_STEP) * _HELD_STEP
    return process_share(text, held, 4 * 2**20)


def process_share(text: str, held: int, least: int) -> int:
    """Return what ``--max-memory TEXT`` leaves the searches when the process holds
    ``held`` bytes besides them and they need ``least`` at the least: the one bound and
    the one wording of --max-memory in every command.

    Raises InvalidOptionError for a size that does not parse, is 2**64 or more, or
    leaves the searches less than ``least``.
    """
    cap = parse_bytes(text)
    if cap >= MAX_COUNT:
        raise InvalidOptionError(f"--max-memory {text} is out of range (below 2**64 bytes)")
    if cap < held + least:
        raise InvalidOptionError(
            f"--max-memory {text} is too small: the process holds about "
            f"{held / 2**20:.0f} MiB besides the searches; give at least "
            f"{-(-(held + least) // 2**20)}M")
    return cap - held


def check_memory(text: str | None) -> None:
    """Check ``--max-memory TEXT`` for a command that runs no search of its own (its
    memory stays small by construction): the same checks as `engine_memory`.

    Raises InvalidOptionError as `engine_memory` does.
    """
    if text is not None:
        engine_memory(text)


#: Which search a game gets without --method (bakers.solving.default_method), in words.
DEFAULT_METHOD_HELP = ("portfolio for games built regardless of suit, dive for the other "
                       "games with free cells, depth-first for the other games built by "
                       "suit, best-first for the others")


def add_method(p: argparse.ArgumentParser) -> None:
    """Add ``--method`` to a command that runs one search at a time."""
    from ..solving import METHODS

    p.add_argument("--method", choices=METHODS,
                   help=f"the search (default: {DEFAULT_METHOD_HELP}); depth-first holds "
                   "several times the positions in the same memory, best-first finds "
                   "shorter lines, dive looks for a win with cheap "
                   "scans before the exact search, portfolio runs both and "
                   "nested rollouts (which only find wins) in turn, "
                   "beam finds wins in tight games (few cells) that the others miss")


def add_limits(p: argparse.ArgumentParser) -> None:
    """Add the limits of one search: --max-nodes, --max-states, --max-memory,
    --max-seconds and --forget."""
    p.add_argument("--max-nodes", type=count(1), metavar="N", help="positions to expand at most")
    p.add_argument("--max-states", type=count(1), metavar="N", help="positions to store at most")
    add_memory_option(p)
    p.add_argument("--max-seconds", type=seconds, metavar="S", help="seconds at most")
    add_forget_option(p)


def add_memory_option(p: argparse.ArgumentParser,
                      what: str = "the search gets what the process does not hold already"
                      ) -> None:
    """Add ``--max-memory`` (read by `engine_memory` or `check_memory`), which every
    command takes: ``what`` says what it bounds besides the process."""
    p.add_argument("--max-memory", metavar="BYTES",
                   help="memory of the whole process at most, like 4G or 512M, as in "
                   f"`bakers range`: {what}")


def add_forget_option(p: argparse.ArgumentParser) -> None:
    """Add ``--forget`` (`Limits.forget`), which every command with --max-memory takes."""
    p.add_argument("--forget", action="store_true",
                   help="under --max-memory, depth-first forgets the positions cheapest to "
                   "search again and goes on instead of stopping (slower, as exact)")
