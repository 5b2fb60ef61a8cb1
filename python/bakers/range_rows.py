"""The row of one deal in the output of `bakers range`: its columns and their values,
the same in every format (TSV, CSV, JSON lines, the Parquet dataset of
`bakers.range_dataset`)."""

from __future__ import annotations

import json
from typing import Any

from .bulk import RangeResult

__all__ = ["COLUMNS", "SOLUTION", "columns", "values", "parse_json_line"]

#: The columns of a row, then `SOLUTION` with ``--solutions``.
COLUMNS = ("game", "deal", "verdict", "moves", "most_home", "most_home_exact", "expanded",
           "stored", "peak_bytes", "seconds", "reason")
#: The column of the solution in standard notation, last, only with ``--solutions``.
SOLUTION = "solution"


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
