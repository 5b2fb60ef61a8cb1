"""The row formats of a `bakers range` output file, chosen by the extension of ``--out``:
TSV (the default, and standard output's), CSV and JSON lines, each written a row a line
and read back for ``--resume``.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from ...bulk import settings
from ...bulk.rows import checked_row, parse_json_line
from ...errors import InvalidOptionError


def text(value: Any) -> str:
    """Return a value as the text of a TSV or CSV field."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.6f}"
    return str(value)


class Format:
    """How rows are written and read back: TSV (the default)."""

    def __init__(self, columns: tuple[str, ...]) -> None:
        self.columns = columns

    def header(self) -> str | None:
        """Return the header line, or None for a format without one."""
        return "\t".join(self.columns) + "\n"

    def line(self, row: dict[str, Any]) -> str:
        """Return a row as one line."""
        return "\t".join(text(row[c]) for c in self.columns) + "\n"

    def fields(self, line: str) -> list[str]:
        """Return the fields of a line."""
        return line.rstrip("\n").split("\t")

    def read(self, line: str) -> tuple[str, int]:
        """Return the game and deal number of a row, checked to be as the writer makes
        it (`bakers.bulk.rows.checked_row`); raise ValueError if it is not one."""
        fields = self.fields(line)
        if len(fields) != len(self.columns):
            raise ValueError(f"{len(fields)} fields, not {len(self.columns)}")
        return checked_row(dict(zip(self.columns, fields, strict=True)), text=True)

    def record(self, record: dict[str, Any]) -> str:
        """Return the line that records a run's settings (`bakers.bulk.settings`)."""
        return settings.comment_line(record)

    def read_record(self, line: str) -> dict[str, Any] | None:
        """Return the settings that a first line records, or None if it records none."""
        return settings.from_comment(line)


class Csv(Format):
    """How rows are written and read back: CSV, with a header."""

    def header(self) -> str | None:
        return self._join(list(self.columns))

    def line(self, row: dict[str, Any]) -> str:
        return self._join([text(row[c]) for c in self.columns])

    def fields(self, line: str) -> list[str]:
        return next(csv.reader([line.rstrip("\n")]), [])

    @staticmethod
    def _join(fields: list[str]) -> str:
        out = io.StringIO()
        csv.writer(out, lineterminator="\n").writerow(fields)
        return out.getvalue()


class Jsonl(Format):
    """How rows are written and read back: JSON lines, an object a row, no header."""

    def header(self) -> str | None:
        return None

    def line(self, row: dict[str, Any]) -> str:
        return json.dumps({c: row[c] for c in self.columns}, ensure_ascii=False) + "\n"

    def read(self, line: str) -> tuple[str, int]:
        obj = parse_json_line(line)
        if not isinstance(obj, dict) or list(obj) != list(self.columns):
            raise ValueError("not an object with the keys " + ", ".join(self.columns)
                             + ", in this order")
        return checked_row(obj, text=False)

    def record(self, record: dict[str, Any]) -> str:
        return settings.json_line(record)

    def read_record(self, line: str) -> dict[str, Any] | None:
        try:
            return settings.from_json(parse_json_line(line))
        except ValueError:
            return None


_FORMATS = {".tsv": Format, ".csv": Csv, ".jsonl": Jsonl}


def format_for(out: str | None, columns: tuple[str, ...]) -> Format:
    """Return the format that the extension of ``out`` names (TSV for standard output).

    Raises InvalidOptionError for an unknown extension.
    """
    if out is None:
        return Format(columns)
    suffix = Path(out).suffix.lower()
    if suffix not in _FORMATS:
        raise InvalidOptionError(
            f"--out {out!r}: unknown output format {suffix or '(no extension)'!r} "
            f"(name the file .tsv, .csv or .jsonl, or a directory .parquet)")
    return _FORMATS[suffix](columns)
