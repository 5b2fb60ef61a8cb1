"""The row of one deal in the output of `bakers range`: its columns and their values,
the same in every format (TSV, CSV, JSON lines, the Parquet dataset of
`bakers.bulk.dataset`)."""

from __future__ import annotations

import json
import math
import re
from typing import Any

from ..solving import VERDICTS
from .results import RangeResult

__all__ = ["COLUMNS", "SOLUTION", "VERDICTS", "columns", "values", "parse_json_line",
           "checked_row"]

#: The columns of a row, then `SOLUTION` with ``--solutions``.
COLUMNS = ("game", "deal", "verdict", "moves", "most_home", "most_home_exact", "expanded",
           "stored", "peak_bytes", "seconds", "reason")
#: The column of the solution in standard notation, last, only with ``--solutions``.
SOLUTION = "solution"
#: The columns of counts (non-negative integers below 2**64).
COUNTS = ("most_home", "expanded", "stored", "peak_bytes")
#: A count and the seconds as a TSV or CSV field holds them (`bakers.cli.range.formats.text`).
_COUNT_TEXT = re.compile(r"[0-9]{1,20}")
_SECONDS_TEXT = re.compile(r"[0-9]{1,20}\.[0-9]{6}")


def columns(solutions: bool) -> tuple[str, ...]:
    """Return the columns of a row, with the solution's when ``solutions``."""
    return COLUMNS + ((SOLUTION,) if solutions else ())


def values(result: RangeResult, solutions: bool) -> dict[str, Any]:
    """Return the row of one result, column by column (None for an empty field)."""
    st = result.stats
    row: dict[str, Any] = {
        "game": result.variant.name, "deal": result.number, "verdict": result.verdict,
        "moves": result.solution_length, "most_home": result.most_home,
        "most_home_exact": result.most_home_exact, "expanded": st.expanded,
        "stored": st.stored, "peak_bytes": st.peak_bytes, "seconds": round(st.seconds, 6),
        "reason": result.reason}
    if solutions:
        row[SOLUTION] = None if result.solution is None else result.solution.notation(None)
    return row


def parse_json_line(line: str) -> Any:
    """Return the JSON value of one line of a JSON-lines file.

    Raises ValueError for a line that is not JSON, or whose arrays and objects nest
    deeper than Python's parser goes (a row of `bakers range` is one flat object).
    """
    try:
        return json.loads(line)
    except RecursionError:
        raise ValueError("JSON nested too deep (a row is one flat object)") from None


def _count(value: object, text: bool) -> int | None:
    """Return ``value`` as a count, or None when it is not one as a writer writes it."""
    if text:
        return int(value) if isinstance(value, str) and _COUNT_TEXT.fullmatch(value) else None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**64:
        return None
    return value


def checked_row(row: dict[str, Any], text: bool) -> tuple[str, int]:
    """Return the game and deal of ``row`` (its columns by name: strings as a TSV or
    CSV field holds them when ``text``, else JSON values), checked to be as `values`
    and the writers make it: a known verdict, counts, a length exactly for a solved
    deal, a flag, a finite time.

    Raises ValueError naming the first column that no writer would have written so.
    """
    def bad(column: str) -> ValueError:
        shown = repr(row.get(column))
        if len(shown) > 40:
            shown = shown[:30] + "..."
        return ValueError(f"{column} {shown} is not as bakers range writes it")

    game = row.get("game")
    if not isinstance(game, str) or not game:
        raise bad("game")
    deal = _count(row.get("deal"), text)
    if deal is None:
        raise bad("deal")
    verdict = row.get("verdict")
    if verdict not in VERDICTS:
        raise bad("verdict")
    moves = row.get("moves")
    empty = "" if text else None
    if (moves == empty) == (verdict == "solved") or (
            moves != empty and _count(moves, text) is None):
        raise bad("moves")
    for column in COUNTS:
        if _count(row.get(column), text) is None:
            raise bad(column)
    exact = row.get("most_home_exact")
    if exact not in (("true", "false") if text else (True, False)) or isinstance(exact, int) \
            and not isinstance(exact, bool):
        raise bad("most_home_exact")
    seconds = row.get("seconds")
    if text:
        if not isinstance(seconds, str) or not _SECONDS_TEXT.fullmatch(seconds):
            raise bad("seconds")
    elif (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
          or not math.isfinite(seconds) or seconds < 0):
        raise bad("seconds")
    for column in ("reason", SOLUTION):
        if column in row and not isinstance(row[column], str) and not (
                not text and row[column] is None):
            raise bad(column)
    return game, deal
