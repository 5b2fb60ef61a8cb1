"""Deal numbers listed in a file, for `bakers range GAME --deals FILE`: the deals of a
second pass, say the unknown ones of a table's first.

The file is either a list, one number a line (blank lines and ``#`` comments allowed),
or rows with a ``deal`` column: the output of `bakers range` (TSV, CSV, JSON lines, or
its Parquet dataset, a directory ``*.parquet``), a TSV or CSV of another program with a
header naming ``deal`` (and ``verdict``), or the lists of ``bench/tables.py``, rows of
a deal and its verdict with no header (``*.open.tsv``). A file ending in ``.xz`` or
``.gz`` is decompressed as it is read. The kind is told by the first line that is not
blank or a comment: ``{`` starts a JSON row, a tab or a comma a TSV or CSV row, anything
else a number. Rows may be kept to some verdicts (``verdicts``); a plain list has none.

The file is read line by line, so that a list of millions of deals holds the numbers
alone in memory, never the text. Each number is checked against the game's numbering
(`bakers.bulk.check_deal`); a repeat is dropped, the first kept.
"""

from __future__ import annotations

import csv
import gzip
import lzma
import os
import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from ..errors import InvalidDealError, InvalidOptionError
from ..variants import Variant, find_variant
from . import settings
from .checks import check_deal
from .rows import VERDICTS, parse_json_line

__all__ = ["VERDICTS", "read_deals", "check_verdicts"]

#: A number as a list writes it: ASCII digits, with a sign (a negative one is out of
#: range, not a bad token), at most this many digits (any deal number has fewer).
_NUMBER = re.compile(r"[+-]?[0-9]{1,40}")


def check_verdicts(verdicts: Iterable[str] | None, name: str = "verdicts=") -> frozenset[str]:
    """Return ``verdicts`` as a set (empty: every row), each checked as one of `VERDICTS`
    (``name`` says the argument in messages).

    Raises InvalidOptionError for another word.
    """
    if verdicts is None:
        return frozenset()
    if isinstance(verdicts, str):
        verdicts = [verdicts]
    kept = set()
    for verdict in verdicts:
        if verdict not in VERDICTS:
            raise InvalidOptionError(f"{name}{verdict!r}: give {', '.join(VERDICTS[:-1])} "
                                     f"or {VERDICTS[-1]}")
        kept.add(verdict)
    return frozenset(kept)


def read_deals(variant: Variant | str, source: str | os.PathLike[str] | IO[str], *,
               verdicts: Iterable[str] | None = None, name: str = "deals=",
               verdict_name: str = "verdicts=") -> list[int]:
    """Return the deal numbers that the file ``source`` lists (a path, ``'-'`` for
    standard input, or an open text stream), in their order, each once: every number
    of a list, or the ``deal`` of every row of a rows file whose ``verdict`` is one of
    ``verdicts`` (None: every row). ``name`` and ``verdict_name`` say the arguments in
    messages (the command line passes ``'--deals '`` and ``'--verdict '``).

    Raises InvalidDealError for a token that is not a deal number of the game, or a row
    of another game, naming the file, the line and the token; InvalidOptionError for a
    file that cannot be read, rows without a ``deal`` column, or ``verdicts`` with a
    file that has none; DatasetError for a Parquet dataset without pyarrow.
    """
    variant = find_variant(variant)
    kept = check_verdicts(verdicts, verdict_name)
    reader = _Reader(variant, _shown(source), name, kept, verdict_name)
    if not isinstance(source, (str, os.PathLike)):
        return reader.numbers(enumerate(source, start=1))
    if str(source) == "-":
        return reader.numbers(enumerate(sys.stdin, start=1))
    path = Path(source)
    if path.is_dir():
        return reader.dataset(path)
    try:
        with _open(path) as stream:
            return reader.numbers(enumerate(stream, start=1))
    except OSError as exc:  # a missing file, or bytes that the decompressor refuses
        reason = exc.strerror or str(exc) or type(exc).__name__
        raise InvalidOptionError(f"{reader.where}: cannot read it: {reason}") from None
    except (UnicodeDecodeError, lzma.LZMAError, EOFError) as exc:
        raise InvalidOptionError(f"{reader.where} is not a text file of deal numbers "
                                 f"({type(exc).__name__})") from None


def _shown(source: object) -> str:
    if isinstance(source, (str, os.PathLike)):
        return "standard input" if str(source) == "-" else repr(str(source))
    return repr(getattr(source, "name", "the stream"))


def _open(path: Path) -> IO[str]:
    """Return ``path`` open as text, decompressed by its extension (.xz, .gz)."""
    suffix = path.suffix.lower()
    if suffix == ".xz":
        return lzma.open(path, "rt", encoding="utf-8")
    if suffix == ".gz":
        return gzip.open(path, "rt", encoding="utf-8")
    return open(path, encoding="utf-8")  # noqa: SIM115


class _Reader:
    """The numbers of one file, checked and kept once each, in their order."""

    def __init__(self, variant: Variant, shown: str, name: str, verdicts: frozenset[str],
                 verdict_name: str) -> None:
        self.variant, self.verdicts, self.verdict_name = variant, verdicts, verdict_name
        self.where = f"{name}{shown}"
        self.seen: set[int] = set()
        self.kept: list[int] = []

    def add(self, line: int | str, token: object) -> None:
        """Keep the deal ``token`` (a str from a text file) read at ``line``."""
        number = token
        if isinstance(token, str):
            text = token.strip()
            if not _NUMBER.fullmatch(text):
                raise InvalidDealError(f"{self.where} line {line}: {_token(text)} is not a "
                                       "deal number")
            number = int(text)
        place = f"line {line}" if isinstance(line, int) else repr(line)
        deal = check_deal(self.variant, number, f"{self.where} {place}: deal")
        if deal not in self.seen:
            self.seen.add(deal)
            self.kept.append(deal)

    def numbers(self, lines: Iterator[tuple[int, str]]) -> list[int]:
        """Return the numbers of the text ``lines``, of the kind that the first one that
        is not blank or a comment has."""
        for number, line in lines:
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            if text.startswith("{"):
                self._jsonl(number, line, lines)
            elif "\t" in text or "," in text or text == "deal":
                self._delimited(number, line, lines, "\t" if "\t" in text else ",")
            else:
                self._list(number, line, lines)
            break
        return self.kept

    def _list(self, first: int, line: str, lines: Iterator[tuple[int, str]]) -> None:
        if self.verdicts:
            raise InvalidOptionError(f"{self.where} is a list of deal numbers, with no "
                                     f"verdicts: {self.verdict_name.strip()} needs rows of "
                                     "bakers range (a deal and a verdict column)")
        for number, text in _chain(first, line, lines):
            token = text.split("#", 1)[0].strip()
            if token:
                self.add(number, token)

    def _delimited(self, first: int, line: str, lines: Iterator[tuple[int, str]],
                   delimiter: str) -> None:
        rows = _chain(first, line, lines)
        head = _fields(line, delimiter)
        if "deal" in head:  # a header: the columns by name
            deal, verdict = head.index("deal"), _index(head, "verdict")
            game = _index(head, "game")
            next(rows)
        else:  # the lists of bench/tables.py: a deal and its verdict
            deal, game = 0, None
            verdict = 1 if len(head) > 1 and head[1].strip() in VERDICTS else None
        if self.verdicts and verdict is None:
            raise InvalidOptionError(f"{self.where} has no verdict column: "
                                     f"{self.verdict_name.strip()} needs one")
        for number, text in rows:
            if not text.strip() or text.startswith("#"):
                continue
            fields = _fields(text, delimiter)
            if deal >= len(fields):
                raise InvalidDealError(f"{self.where} line {number}: {_token(text.strip())} "
                                       "has no deal column")
            if game is not None and game < len(fields):
                self._game(number, fields[game])
            if verdict is None or not self.verdicts or (
                    verdict < len(fields) and fields[verdict].strip() in self.verdicts):
                self.add(number, fields[deal])

    def _jsonl(self, first: int, line: str, lines: Iterator[tuple[int, str]]) -> None:
        for number, text in _chain(first, line, lines):
            if not text.strip():
                continue
            try:
                row = parse_json_line(text)
            except ValueError:
                row = None
            if number == first and settings.from_json(row) is not None:
                continue  # the record of a run's settings, before its rows
            if not isinstance(row, dict) or "deal" not in row:
                raise InvalidDealError(f"{self.where} line {number}: {_token(text.strip())} "
                                       "is not a JSON object with a \"deal\"")
            if "game" in row:
                self._game(number, str(row["game"]))
            if self.verdicts:
                if "verdict" not in row:
                    raise InvalidOptionError(f"{self.where} line {number} has no verdict: "
                                             f"{self.verdict_name.strip()} needs one")
                if row["verdict"] not in self.verdicts:
                    continue
            self.add(number, row["deal"])

    def _game(self, line: int | str, game: str) -> None:
        if game.strip() != self.variant.name:
            raise InvalidDealError(f"{self.where} line {line} is a {game.strip()!r} deal, "
                                   f"not {self.variant.name!r}")

    def dataset(self, directory: Path) -> list[int]:
        """Return the numbers of the rows of a Parquet dataset of `bakers range`, read a
        batch at a time, each batch's verdicts and game checked by Arrow, so that only
        the deals kept come to Python (a first pass of billions of rows keeps some
        thousands)."""
        from .dataset import dataset_files, load_pyarrow

        pa, pq = load_pyarrow()
        import pyarrow.compute as pc

        kept = pa.array(sorted(self.verdicts), type=pa.string())
        files = dataset_files(directory)
        if not files:
            raise InvalidOptionError(f"{self.where} is a directory with no Parquet files of "
                                     "bakers range")
        for path in files:
            where = f"{self.where}: {path.name!r}"
            try:
                parquet = pq.ParquetFile(path)
                names = set(parquet.schema_arrow.names)
                if "deal" not in names:
                    raise InvalidOptionError(f"{where} has no deal column")
                if self.verdicts and "verdict" not in names:
                    raise InvalidOptionError(f"{where} has no verdict column: "
                                             f"{self.verdict_name.strip()} needs one")
                wanted = [c for c in ("game", "deal", "verdict") if c in names]
                for batch in parquet.iter_batches(columns=wanted):
                    if "game" in wanted:
                        for game in pc.unique(batch.column("game")).to_pylist():
                            if game != self.variant.name:
                                raise InvalidDealError(f"{where} holds {game!r} deals, "
                                                       f"not {self.variant.name!r}")
                    deals = batch.column("deal")
                    if self.verdicts:
                        deals = deals.filter(pc.is_in(batch.column("verdict"), kept))
                    for deal in deals.to_pylist():
                        self.add(path.name, deal)
            except (OSError, ValueError) as exc:
                if isinstance(exc, (InvalidDealError, InvalidOptionError)):
                    raise
                reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                raise InvalidOptionError(f"{where} is not a Parquet file of bakers range "
                                         f"({reason})") from None
        return self.kept

def _chain(first: int, line: str, lines: Iterator[tuple[int, str]]
           ) -> Iterator[tuple[int, str]]:
    yield first, line
    yield from lines


def _fields(line: str, delimiter: str) -> list[str]:
    line = line.rstrip("\r\n")
    if delimiter == "\t":
        return line.split("\t")
    return next(csv.reader([line]), [])


def _index(fields: list[str], column: str) -> int | None:
    return fields.index(column) if column in fields else None


def _token(text: str) -> str:
    """Return a token quoted for a message: whole when short, else its start."""
    return repr(text) if len(text) <= 40 else f"{text[:30]!r}... ({len(text)} characters)"

