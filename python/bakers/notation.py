"""Move notation: places, moves, and the readers of move lists.

Two notations are read and one is written (see ``docs/notation.md``):

* the *standard notation* of Freecell Solver and FreeCell Pro, one move a token:
  columns ``1``-``9``, cells ``a``-``g``, ``h`` the foundations (``3a``, ``a8``,
  ``3h``, ``54``, ``ah``), with its documented *extension*: a long form ``SRC-DST``
  for columns past 9 (``10-h``, ``3-12``), an eighth cell ``i``, and a card count
  suffix ``xN`` (``35x3``);
* Freecell Solver's *verbose* solutions ("Move a card from stack 3 to freecell 0"),
  read by `parse_fcs_verbose`.

Everything here is syntax: whether a move is legal is the business of `bakers.board`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import NamedTuple

from .errors import InvalidMoveError

__all__ = [
    "Place",
    "Move",
    "COLUMN",
    "CELL",
    "FOUNDATION",
    "CELL_LETTERS",
    "MAX_COLUMNS",
    "MAX_CELLS",
    "MAX_COUNT",
    "parse_moves",
    "iter_moves",
    "parse_fcs_verbose",
    "iter_fcs_verbose",
    "Line",
    "text_lines",
    "moves_of_lines",
    "fcs_verbose_of_lines",
]

COLUMN = "column"
CELL = "cell"
FOUNDATION = "foundation"
KINDS = (COLUMN, CELL, FOUNDATION)

#: Cell letters, index = cell number. ``h`` names the foundations, so cell 7 is ``i``.
CELL_LETTERS = "abcdefgi"
FOUNDATION_LETTER = "h"
MAX_COLUMNS = 13
MAX_CELLS = len(CELL_LETTERS)
#: The longest sequence of one deck: K down to A.
MAX_COUNT = 13


class Place(NamedTuple):
    """A place that holds cards: ``Place('column', 2)`` is the third column
    (``'3'`` in notation), ``Place('cell', 0)`` the first cell (``'a'``) and
    ``Place('foundation', 0)`` the foundations (``'h'``). Indices are 0-based."""

    kind: str
    index: int = 0  # type: ignore[assignment]  # the field hides tuple.index, on purpose

    @classmethod
    def column(cls, index: int) -> Place:
        """Return the column of 0-based ``index``."""
        return cls(COLUMN, index)

    @classmethod
    def cell(cls, index: int) -> Place:
        """Return the cell of 0-based ``index``."""
        return cls(CELL, index)

    @classmethod
    def foundation(cls) -> Place:
        """Return the foundations (one place for all four suits)."""
        return cls(FOUNDATION, 0)

    @classmethod
    def parse(cls, token: str) -> Place:
        """Parse one place: ``'3'``, ``'12'``, ``'a'``, ``'i'``, ``'h'`` (case-insensitive).

        Raises InvalidMoveError naming the token.
        """
        if not isinstance(token, str):
            raise TypeError(f"Place.parse takes a str, not {type(token).__name__}")
        _check_ascii(token, "a place")
        text = token.strip().lower()
        if len(token) > 40:  # quoted in the message: the start is enough to find it
            token = token[:30] + "..."
        if text.isdigit():
            number = int(text) if len(text) <= 3 else MAX_COLUMNS + 1
            if not 1 <= number <= MAX_COLUMNS:
                raise InvalidMoveError(
                    f"{token!r} is not a place: columns are numbered 1..{MAX_COLUMNS}")
            return cls(COLUMN, number - 1)
        if text == FOUNDATION_LETTER:
            return cls(FOUNDATION, 0)
        if len(text) == 1 and text in CELL_LETTERS:
            return cls(CELL, CELL_LETTERS.index(text))
        raise InvalidMoveError(
            f"{token!r} is not a place: use a column 1..{MAX_COLUMNS}, a cell "
            f"{', '.join(CELL_LETTERS)} or h for the foundations")

    def check(self) -> None:
        """Check the kind and the index range; raise InvalidMoveError if either is wrong."""
        if self.kind not in KINDS:
            raise InvalidMoveError(f"no place of kind {self.kind!r}: use one of {KINDS}")
        if not isinstance(self.index, int) or isinstance(self.index, bool):
            raise InvalidMoveError(f"a place index is an int, not {self.index!r}")
        limit = {COLUMN: MAX_COLUMNS, CELL: MAX_CELLS, FOUNDATION: 1}[self.kind]
        if not 0 <= self.index < limit:
            raise InvalidMoveError(
                f"no {self.kind} of index {self.index!r}: the range is 0..{limit - 1}")

    def notation(self) -> str:
        """Return the place in notation: ``'3'``, ``'12'``, ``'a'``, ``'h'``."""
        if self.kind == COLUMN:
            return str(self.index + 1)
        if self.kind == CELL:
            return CELL_LETTERS[self.index]
        return FOUNDATION_LETTER

    def describe(self) -> str:
        """Return the place in words for messages: ``'column 3'``, ``'cell a'``."""
        if self.kind == FOUNDATION:
            return "the foundations"
        return f"{self.kind} {self.notation()}"


_CORE_KINDS = (COLUMN, CELL, FOUNDATION)
# Numbers of at most 3 digits (columns 1..13, counts 1..13): a longer one is no place or
# count, and is never handed to int() (which refuses over 4,300 digits with its own error).
_PLACE = r"(\d{1,3}|[a-z])"
# The count suffix: ``x3``, or ``v3`` as Freecell Solver's ``-snx`` output writes it,
# in hexadecimal (``82vc``: 12 cards).
_COUNT = r"(?:x(\d{1,3})|v([0-9a-f]{1,2}))?"
_SHORT = re.compile(r"([1-9a-z])([1-9a-z])" + _COUNT, re.ASCII)
_LONG = re.compile(_PLACE + r"-" + _PLACE + _COUNT, re.ASCII)


def _check_ascii(token: str, what: str) -> None:
    """Raise InvalidMoveError naming the first character of ``token`` outside ASCII
    (``'٣'`` is a digit to Python, ``'ſ'`` an S once upper-cased: neither is notation)."""
    odd = next((ch for ch in token if not ch.isascii()), None)
    if odd is not None:
        raise InvalidMoveError(f"{token!r} is not {what}: the character {odd!r} "
                               f"(U+{ord(odd):04X}) is not notation")


@dataclass(frozen=True, slots=True)
class Move:
    """A move of ``count`` cards from ``src`` to ``dst``.

    ``count=None`` means the count is implied by the position (see
    `bakers.board.Board.resolve`): a single card, or for a multi-card move the one
    count that fits a non-empty column, or the largest legal count for an empty one.

    Raises InvalidMoveError for a move that can never be legal in any game: an unknown
    place, the foundations as a source, a move to the same place, a count other than 1
    from a cell or to a cell or the foundations, a count out of 1..13.
    """

    src: Place
    dst: Place
    count: int | None = None

    def __post_init__(self) -> None:
        for place in (self.src, self.dst):
            if not isinstance(place, Place):
                raise InvalidMoveError(f"a move goes between two Place values, not {place!r}")
            place.check()
        if self.src.kind == FOUNDATION:
            raise InvalidMoveError("a card on the foundations never comes back")
        if self.src == self.dst:
            raise InvalidMoveError(f"a move from {self.src.describe()} to itself is no move")
        if self.count is None:
            return
        if not isinstance(self.count, int) or isinstance(self.count, bool):
            raise InvalidMoveError(f"a card count is an int, not {self.count!r}")
        if not 1 <= self.count <= MAX_COUNT:
            raise InvalidMoveError(
                f"a move takes 1..{MAX_COUNT} cards, not {self.count!r}")
        if self.count != 1 and self.src.kind != COLUMN:
            raise InvalidMoveError(f"{self.src.describe()} holds one card, not {self.count}")
        if self.count != 1 and self.dst.kind != COLUMN:
            raise InvalidMoveError(
                f"{self.dst.describe()} take{'' if self.dst.kind == FOUNDATION else 's'} "
                f"one card at a time, not {self.count}")

    @classmethod
    def _trusted(cls, src: Place, dst: Place, count: int | None = None) -> Move:
        """Return a move built without checks, for moves that a board generates."""
        move = object.__new__(cls)
        object.__setattr__(move, "src", src)
        object.__setattr__(move, "dst", dst)
        object.__setattr__(move, "count", count)
        return move

    # -- reading and writing ------------------------------------------------------

    @classmethod
    def parse(cls, token: str) -> Move:
        """Parse a move in standard or extended notation: ``'3a'``, ``'54'``, ``'ah'``,
        ``'35x3'``, ``'10-h'``, ``'3-12x4'`` (case-insensitive, whitespace around ignored;
        ``'35v3'``, Freecell Solver's ``-snx`` form with its count in hexadecimal, reads
        as ``'35x3'``, ``'82vc'`` as ``'82x12'``).

        Raises InvalidMoveError quoting the token and saying what is wrong.
        """
        if not isinstance(token, str):
            raise TypeError(f"Move.parse takes a str, not {type(token).__name__}")
        _check_ascii(token, "a move")
        text = token.strip().lower()
        match = _SHORT.fullmatch(text) or _LONG.fullmatch(text)
        if len(token) > 40:  # quoted in the message: the start is enough to find it
            token = token[:30] + "..."
        if match is None:
            hint = ("columns past 9 take the long form, like '10-h' or '3-12'"
                    if re.match(r"\d\d", text) and "-" not in text else
                    "write SOURCE then DESTINATION, like '3a', '54', 'ah', '35x3' or '10-h'")
            raise InvalidMoveError(f"{token!r} is not a move: {hint}")
        src_text, dst_text, count_text, hex_count = match.groups()
        try:
            src = Place.parse(src_text)
            dst = Place.parse(dst_text)
            count = (int(count_text) if count_text is not None else
                     None if hex_count is None else int(hex_count, 16))
            return cls(src, dst, count)
        except InvalidMoveError as exc:
            raise InvalidMoveError(f"{token!r} is not a move: {exc}") from None

    def notation(self) -> str:
        """Return the move in notation: the short form (``'3a'``) when both places
        are one character, else the long form (``'10-h'``); ``xN`` when a count is set."""
        src, dst = self.src.notation(), self.dst.notation()
        text = src + dst if len(src) == len(dst) == 1 else f"{src}-{dst}"
        return text if self.count is None else f"{text}x{self.count}"

    def __str__(self) -> str:
        return self.notation()

    def __repr__(self) -> str:
        return f"Move.parse({self.notation()!r})"

    # -- the C++ core's tuples ----------------------------------------------------

    @classmethod
    def from_core(cls, move: tuple[int, int, int, int, int], board: object = None) -> Move:
        """Return the move of an engine tuple ``(src_kind, src_index, dst_kind,
        dst_index, count)``, kinds 0 = column, 1 = cell, 2 = foundation.

        A 1-card move gets ``count=None``, except a column-to-column move, which
        keeps its count: ``None`` would mean the largest count when the destination is
        an empty column. Given ``board`` (a `bakers.board.Board`), return instead the
        canonical form that ``board.legal_moves`` lists.

        Raises InvalidMoveError for a malformed tuple; with ``board``, IllegalMoveError
        for a move illegal there.
        """
        try:
            src_kind, src_index, dst_kind, dst_index, count = move
            if src_kind not in (0, 1) or dst_kind not in (0, 1, 2):
                raise ValueError
            src = Place(_CORE_KINDS[src_kind], src_index)
            dst = Place(_CORE_KINDS[dst_kind], dst_index)
        except (TypeError, ValueError):
            raise InvalidMoveError(
                f"{move!r} is not an engine move (src_kind, src_index, dst_kind, "
                f"dst_index, count) with kinds 0, 1, 2") from None
        keep = count != 1 or (src.kind == dst.kind == COLUMN)
        result = cls(src, dst, count if keep else None)
        if board is not None:
            return board.canonical(result)  # type: ignore[attr-defined,no-any-return]
        return result

    def to_core(self) -> tuple[int, int, int, int, int]:
        """Return the engine tuple of the move; ``count=None`` is sent as 1 (resolve an
        implied multi-card count first with `bakers.board.Board.canonical`)."""
        return (_CORE_KINDS.index(self.src.kind), self.src.index,
                _CORE_KINDS.index(self.dst.kind), self.dst.index,
                1 if self.count is None else self.count)


# -- move lists -------------------------------------------------------------------

def parse_moves(text: str) -> list[Move]:
    """Parse whitespace-separated moves in standard or extended notation. A line whose
    first non-blank character is ``#`` is a comment.

    Raises InvalidMoveError quoting the token with its move number and line.
    """
    return list(iter_moves(text))


def iter_moves(text: str) -> Iterator[Move]:
    """Yield the moves of `parse_moves` one at a time, each token parsed when reached
    (a caller that stops early never reads the rest).

    Raises InvalidMoveError quoting the token with its move number and line.
    """
    return moves_of_lines(text_lines((text,)))


class Line(NamedTuple):
    """A piece of a line of text, as `text_lines` yields it."""

    number: int  #: the line's number, from 1
    text: str  #: the piece, without the line's end
    first: bool  #: the piece starts its line (a long line comes in several)


#: The longest line that `text_lines` holds whole: a longer one (a whole solution written
#: on one line) comes in pieces cut after whitespace, so that a text read in chunks is
#: never held whole. 1 MiB is some 250,000 moves.
LONGEST_PIECE = 2**20
_LINE_ENDS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"  # as str.splitlines
_LAST_SPACE = re.compile(r"\s\S*\Z")


def text_lines(chunks: Iterable[str]) -> Iterator[Line]:
    """Yield the lines of the text that ``chunks`` make up, as ``str.splitlines`` cuts
    them (a line's end split between two chunks included), each line whole or, when
    longer than `LONGEST_PIECE`, in pieces cut after whitespace (never inside a token;
    a line's blank start is dropped, so its first piece shows what the line begins
    with). Holds one chunk and one line's piece at a time."""
    number, first, carry = 1, True, ""
    for chunk in chunks:
        lines = (carry + chunk).splitlines(keepends=True)
        # A last line without its end (or ending in \r, which a \n may follow) waits.
        carry = lines.pop() if lines and (lines[-1][-1] not in _LINE_ENDS
                                          or lines[-1][-1] == "\r") else ""
        for line in lines:
            end = 2 if line.endswith("\r\n") else 1
            yield Line(number, line[:-end], first)
            number, first = number + 1, True
        while len(carry) > LONGEST_PIECE:
            space = _LAST_SPACE.search(carry, 0, LONGEST_PIECE)
            cut = space.start() + 1 if space else LONGEST_PIECE  # a token past any move's
            piece, carry = carry[:cut], carry[cut:]
            if first and not piece.strip():
                continue
            yield Line(number, piece, first)
            first = False
    if carry:
        end = 2 if carry.endswith("\r\n") else 1 if carry[-1] in _LINE_ENDS else 0
        yield Line(number, carry[:len(carry) - end], first)


def moves_of_lines(lines: Iterable[Line],
                   skipped: Callable[[str], bool] | None = None) -> Iterator[Move]:
    """Yield the moves of `text_lines`' lines in standard or extended notation, each
    token parsed when reached; a line whose first non-blank character is ``#`` (or whose
    first piece ``skipped`` says is no moves) is skipped.

    Raises InvalidMoveError quoting the token with its move number and line.
    """
    made = 0
    # A line of a million moves repeats a few hundred tokens: each is parsed once (moves
    # are immutable, so the repeats share it).
    seen: dict[str, Move] = {}
    skip = False
    for line_number, piece, first in lines:
        if first:
            skip = piece.lstrip().startswith("#") or (skipped is not None and skipped(piece))
        if skip:
            continue
        for token in piece.split():
            move = seen.get(token)
            if move is None:
                try:
                    move = Move.parse(token)
                except InvalidMoveError as exc:
                    raise InvalidMoveError(
                        f"move {made + 1} (line {line_number}): {exc}") from None
                if len(seen) < _SEEN_TOKENS:
                    seen[token] = move
            made += 1
            yield move


#: At most this many distinct tokens are remembered by `iter_moves`, to bound the memory
#: that hostile input costs; only speed depends on it (a token past it is parsed each
#: time it comes), and one game's lines use a few hundred.
_SEEN_TOKENS = 4096


_VERBOSE_PLACE = r"(stack|freecell) (\d{1,3})"


# Freecell Solver's verbose move lines are compiled when first read: most runs read none.
@functools.cache
def _verbose() -> re.Pattern[str]:
    return re.compile(
        r"move (a card|\d{1,3} cards?) from " + _VERBOSE_PLACE
        + r" to (?:" + _VERBOSE_PLACE + r"|the foundations?)\.?", re.IGNORECASE | re.ASCII)


@functools.cache
def _verbose_line() -> re.Pattern[str]:
    return re.compile(r"\s*move\b", re.IGNORECASE)


def is_fcs_verbose_line(line: str) -> bool:
    """Return whether a line is one of Freecell Solver's verbose move lines."""
    return _verbose().fullmatch(line.strip()) is not None


def parse_fcs_verbose(text: str) -> list[Move]:
    """Read the moves of a Freecell Solver verbose solution: `iter_fcs_verbose` whole.

    Raises InvalidMoveError for a "Move" line that does not read as a move, quoting it
    with its line number and move number.
    """
    return list(iter_fcs_verbose(text))


def iter_fcs_verbose(text: str) -> Iterator[Move]:
    """Yield the moves of a Freecell Solver verbose solution one at a time ("Move a card
    from stack 3 to freecell 0", "Move 3 cards from stack 0 to stack 4", "... to the foundations";
    indices 0-based). Every line that does not start with "Move" is ignored.

    Column-to-column moves keep their explicit count, even 1; other moves get
    ``count=None``.

    Raises InvalidMoveError for a "Move" line that does not read as a move, quoting it
    with its line number and move number.
    """
    return fcs_verbose_of_lines(text_lines((text,)))


def fcs_verbose_of_lines(lines: Iterable[Line]) -> Iterator[Move]:
    """Yield the moves of `iter_fcs_verbose` from `text_lines`' lines.

    Raises InvalidMoveError as `iter_fcs_verbose`.
    """
    made = 0
    verbose, verbose_line = _verbose(), _verbose_line()
    for line_number, line, first in lines:
        if not first or not verbose_line.match(line):
            continue
        match = verbose.fullmatch(line.strip())
        where = f"move {made + 1} (line {line_number})"
        if match is None:
            shown = line.strip() if len(line.strip()) <= 80 else line.strip()[:70] + "..."
            raise InvalidMoveError(
                f"{where}: {shown!r} is not a Freecell Solver move (expected "
                f"'Move a card from stack 3 to freecell 0' or the like)")
        count_text, src_kind, src_index, dst_kind, dst_index = match.groups()
        count = 1 if count_text.lower() == "a card" else int(count_text.split()[0])
        try:
            src = _verbose_place(src_kind, src_index)
            dst = (Place(FOUNDATION, 0) if dst_kind is None
                   else _verbose_place(dst_kind, dst_index))
            keep = count != 1 or src.kind == dst.kind == COLUMN
            move = Move(src, dst, count if keep else None)
        except InvalidMoveError as exc:
            raise InvalidMoveError(f"{where}: {line.strip()[:80]!r}: {exc}") from None
        made += 1
        yield move


def _verbose_place(kind: str, index: str) -> Place:
    return Place(COLUMN if kind.lower() == "stack" else CELL, int(index))
