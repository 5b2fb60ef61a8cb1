"""Reading what a `bakers range` output file already holds, for ``--resume``: the deals
of its rows, checked to be the rows of the same game and columns.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Container
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...bulk import settings
from ...bulk.rows import parse_json_line
from ...errors import InvalidOptionError
from ...variants import Variant
from .formats import Format, Jsonl


@dataclass
class Resumed:
    """What an output file of an earlier run holds: its ``done`` deals, and whether its
    record of settings and its header are there whole (what is missing is written)."""

    done: set[int] = field(default_factory=set)
    record: bool = False
    header: bool = False


def done_deals(path: Path, fd: int, fmt: Format, variant: Variant, solutions: bool,
               deals: Container[int], record: dict[str, Any], mix: bool) -> Resumed:
    """Return what the file ``path`` of an earlier run holds, open as ``fd`` (read from
    its start here), read line by line, then cut off a truncated last line (an
    interrupted write) so that appending continues the file. Each row is checked as the
    writer would have written it, its deal among ``deals`` (those of this run); the
    settings that the file records are checked to be ``record``, this run's, unless
    ``mix`` (--resume-any).

    Raises InvalidOptionError for a file that is not such a run of the same game and
    columns, of rows that no run of these deals could write, or of other settings (the
    file is left as it was).
    """
    resumed = Resumed()
    found: dict[str, Any] | None = None
    twice: list[int] = []  # deals of a row already read (a file written by two runs)
    complete = 0  # bytes of complete lines
    header = fmt.header()
    first = 1  # the number of the first line after the record
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
            if number == 1 and (found := fmt.read_record(line)) is not None:
                resumed.record, first = True, 2
                if header is None:
                    resumed.header = True
                continue
            if number == first and header is not None:
                if line != header:
                    raise InvalidOptionError(_header_mismatch(path, fmt.fields(line), fmt,
                                                              solutions))
                resumed.header = True
                continue
            resumed.header = True
            deal = _deal_of(path, number, line, fmt, variant, solutions, deals)
            if deal in resumed.done:
                twice.append(deal)
            resumed.done.add(deal)
    if complete:
        settings.check_same(found, record, repr(str(path)), mix)
    if complete < os.fstat(fd).st_size:
        os.ftruncate(fd, complete)
    if twice:
        shown = ", ".join(map(str, sorted(set(twice))[:5])) + (", ..." if len(set(twice)) > 5
                                                                else "")
        print(f"bakers: warning: {str(path)!r} holds {len(twice):,} duplicate "
              f"row{'s' * (len(twice) != 1)} (deals {shown}); each deal counts once and "
              f"is not decided again", file=sys.stderr)
    return resumed


def _deal_of(path: Path, number: int, line: str, fmt: Format, variant: Variant,
             solutions: bool, deals: Container[int]) -> int:
    """Return the deal of row ``line`` (line ``number`` of ``path``).

    Raises InvalidOptionError for a line that is not a row of ``fmt`` and ``variant``,
    or whose deal is not among ``deals``.
    """
    try:
        game, deal = fmt.read(line)
    except ValueError as exc:
        if isinstance(fmt, Jsonl) and number <= 2 and _other_columns(line, fmt):
            raise InvalidOptionError(_solutions_hint(path, solutions)) from None
        raise InvalidOptionError(f"{str(path)!r} line {number} is not a row of bakers "
                                 f"range ({exc}); resume only its own output") from None
    if game != variant.name:
        raise InvalidOptionError(f"{str(path)!r} line {number} is a {game!r} deal, not "
                                 f"{variant.name!r}: resume with the same game")
    if deal not in deals:
        raise InvalidOptionError(f"{str(path)!r} line {number}: deal {deal} is not among "
                                 f"the deals of this run ({_span(deals)}): resume with the "
                                 "deals the file was made with")
    return deal


def _span(deals: Container[int]) -> str:
    if isinstance(deals, range):
        return f"{deals.start}..{deals.stop - 1}"
    return "those --deals lists"


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
