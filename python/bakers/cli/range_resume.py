"""Reading what a `bakers range` output file already holds, for ``--resume``: the deals
of its rows, checked to be the rows of the same game and columns.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from ..errors import InvalidOptionError
from ..range_rows import parse_json_line
from ..variants import Variant
from .range_formats import Format, Jsonl


def done_deals(path: Path, fd: int, fmt: Format, variant: Variant, solutions: bool
               ) -> set[int]:
    """Return the deals already in the file ``path`` of an earlier run, open as ``fd``
    (read from its start here), read line by line, then cut off a truncated last line
    (an interrupted write) so that appending continues the file.

    Raises InvalidOptionError for a file that is not such a run of the same game and
    columns (the file is left as it was).
    """
    done: set[int] = set()
    twice: list[int] = []  # deals of a row already read (a file written by two runs)
    complete = 0  # bytes of complete lines
    header = fmt.header()
    os.lseek(fd, 0, os.SEEK_SET)
    with open(os.dup(fd), "rb") as f:
        for number, raw in enumerate(f, start=1):
            if not raw.endswith(b"\n"):
                break
            complete += len(raw)
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise InvalidOptionError(f"{str(path)!r} line {number} is not UTF-8 text; "
                                         "resume only the output of bakers range") from None
            if number == 1 and header is not None:
                if line != header:
                    raise InvalidOptionError(_header_mismatch(path, fmt.fields(line), fmt,
                                                              solutions))
                continue
            deal = _deal_of(path, number, line, fmt, variant, solutions)
            if deal in done:
                twice.append(deal)
            done.add(deal)
    if complete < os.fstat(fd).st_size:
        os.ftruncate(fd, complete)
    if twice:
        shown = ", ".join(map(str, sorted(set(twice))[:5])) + (", ..." if len(set(twice)) > 5
                                                                else "")
        print(f"bakers: warning: {str(path)!r} holds {len(twice):,} duplicate "
              f"row{'s' * (len(twice) != 1)} (deals {shown}); each deal counts once and "
              f"is not decided again", file=sys.stderr)
    return done


def _deal_of(path: Path, number: int, line: str, fmt: Format, variant: Variant,
             solutions: bool) -> int:
    """Return the deal of row ``line`` (line ``number`` of ``path``).

    Raises InvalidOptionError for a line that is not a row of ``fmt`` and ``variant``.
    """
    try:
        game, deal = fmt.read(line)
    except ValueError as exc:
        if isinstance(fmt, Jsonl) and number == 1 and _other_columns(line, fmt):
            raise InvalidOptionError(_solutions_hint(path, solutions)) from None
        raise InvalidOptionError(f"{str(path)!r} line {number} is not a row of bakers "
                                 f"range ({exc}); resume only its own output") from None
    if game != variant.name:
        raise InvalidOptionError(f"{str(path)!r} line {number} is a {game!r} deal, not "
                                 f"{variant.name!r}: resume with the same game")
    return deal


def _other_columns(line: str, fmt: Format) -> bool:
    """Return whether a JSON row differs from ``fmt``'s columns by the solution alone."""
    try:
        keys = set(parse_json_line(line))
    except (ValueError, TypeError):
        return False
    return keys ^ set(fmt.columns) == {"solution"}


def _header_mismatch(path: Path, found: list[str], fmt: Format, solutions: bool) -> str:
    if set(found) ^ set(fmt.columns) == {"solution"}:
        return _solutions_hint(path, solutions)
    return (f"{str(path)!r} does not start with the header of bakers range "
            f"({', '.join(fmt.columns)}); resume only its own output")


def _solutions_hint(path: Path, solutions: bool) -> str:
    return (f"{str(path)!r} was written {'without' if solutions else 'with'} --solutions; "
            f"resume it {'without' if solutions else 'with'} --solutions too")
