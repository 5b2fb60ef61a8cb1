"""Deals: positions of a game, numbered and random deals, board text and JSON.

A `Deal` is a position of a `Variant`: its columns, free cells and foundations.
It is usually the first position of a game, but any position can be written down,
read back and checked.

Numbered deals (`Deal.from_number`) reproduce the deals of other programs:

* ``numbering == "ms"``: Microsoft FreeCell numbers 1..2**33-1, with the FreeCell Pro
  extension from 2**31 on, exactly as pysol-cards' ``LCRandom31``. The pack
  AC AD AH AS 2C ... KS is shuffled by the MS generator
  (``seed = seed * 214013 + 2531011``) and dealt from its end.
* ``numbering == "pysol"``: PySol numbers 1..2**64-1. Up to 32000 the MS shuffle;
  above, PySol FC's Mersenne Twister: the pack AC..KC AS..KS AH..KH AD..KD is shuffled
  by ``random.Random(n)`` with the Fisher-Yates shuffle below, and dealt from its end.
* ``kings_to_bottom`` (PySol's Baker's Dozen) deals the shuffled pack from its other
  end, round-robin, then swaps each king that is not at the bottom of its column with
  the lowest non-king below it, kings taken from bottom to top (so the kings of a
  column keep their order and lie below every non-king).
* A 36-card deck drops the cards of rank 2..5 from the 52 in dealing order;
  ``aces_on_foundations`` puts the four aces on the foundations; the last cards go to
  the ``dealt_cells``, one each, lowest cell first. The remaining cards are dealt
  round-robin into the columns, first columns first; with ``deal_to_foundations`` a card
  that is the next of its foundation goes there instead, and its column gets nothing
  that time round; with ``last_row`` the last of them go to those columns, one each.
* ``base_from_deal`` (PySolFC's Penguin): the first card dealt sets the base rank; the
  cards of that rank come first, in dealing order, three to their foundations and the
  fourth to the first column, before the others.

Seeded deals (`Deal.from_seed`, seeds are ints >= 0) shuffle the variant's deck in
`full_deck` order with ``rng = random.Random(seed)`` and the Fisher-Yates shuffle
"for i from the last index down to 1, swap cards i and ``int(rng.random() * (i + 1))``"
(Python keeps ``random()`` fixed for a given int seed), deal the result in order and
lay it out as numbered deals are (aces home, kings down). The derivation never changes.

Board text is Freecell Solver's format (`Deal.parse`); JSON follows the schema of
`Deal.to_json`.
"""

from __future__ import annotations

import dataclasses
import functools
import random
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import RANK_CHARS, SUITS, Card, deck_ranks, full_deck
from .errors import BakersError, CardParseError, DealParseError, InvalidDealError
from .notation import CELL_LETTERS
from .variants import PRESETS, Variant, find_variant, game_first

__all__ = [
    "Deal",
    "MAX_MS_NUMBER",
    "MAX_PYSOL_NUMBER",
    "PYSOL_MS_LIMIT",
    "number_range",
    "shuffled_deck",
]

#: The largest Microsoft / FreeCell Pro deal number.
MAX_MS_NUMBER = 2**33 - 1
#: The largest PySol deal number this package accepts.
MAX_PYSOL_NUMBER = 2**64 - 1
#: PySol numbers up to this one use the Microsoft shuffle.
PYSOL_MS_LIMIT = 32000

_MASK33 = 2**33 - 1

# A place of a card: ("column", index, row), ("cell", index) or ("foundation", suit).
_Place = tuple
# Where a place was written in a board text: (line, character column), both 1-based.
_Where = Mapping[_Place, tuple[int, int]]


# --------------------------------------------------------------------------- shuffles


def number_range(variant: Variant | str) -> tuple[int, int]:
    """Return the smallest and largest deal number of a variant's numbering.

    Raises UnknownVariantError for an unknown game name.
    """
    variant = find_variant(variant)
    return (1, MAX_PYSOL_NUMBER if variant.numbering == "pysol" else MAX_MS_NUMBER)


def _digits(n: int) -> int:
    """Return about the decimal digits of ``n``, from its bits."""
    return n.bit_length() * 30103 // 100000 + 1


def _check_number(variant: Variant, n: object) -> int:
    low, high = number_range(variant)
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"a deal number is an int, not {type(n).__name__} ({n!r})")
    if not low <= n <= high:
        # (repr() refuses an int of 4,300 digits or more: such a number is told by its size)
        shown = repr(n) if abs(n) < 10**40 else f"of about {_digits(n)} digits"
        raise InvalidDealError(
            f"deal number {shown} is out of range: {variant.name} deals are numbered "
            f"{low}..{high} ({variant.numbering!r} numbering)")
    return n


def _ms_randoms(n: int) -> Iterator[int]:
    """Yield the numbers of pysol-cards' LCRandom31 seeded with ``n``."""
    seed = n if n < 2**32 else n - 2**32
    while True:
        seed = (seed * 214013 + 2531011) & _MASK33
        if n < 2**31:
            yield (seed >> 16) & 0x7FFF
        elif n < 2**32:
            yield ((seed >> 16) & 0x7FFF) | 0x8000
        else:
            yield ((seed >> 16) & 0xFFFF) + 1


def _ms_pack(n: int) -> list[Card]:
    """Return the 52 cards shuffled by Microsoft deal ``n``, dealt from the end."""
    pack = [Card(SUITS.index(s), r) for r in range(1, 14) for s in "CDHS"]
    randoms = _ms_randoms(n)
    for i in range(len(pack) - 1, 0, -1):
        j = next(randoms) % (i + 1)
        pack[i], pack[j] = pack[j], pack[i]
    return pack


def _fisher_yates(cards: list[Card], rng: random.Random) -> list[Card]:
    """Shuffle ``cards`` in place: for i from the last index down to 1, swap card i with
    card ``int(rng.random() * (i + 1))``. Return ``cards``."""
    for i in range(len(cards) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def _pysol_pack(n: int) -> list[Card]:
    """Return the 52 cards shuffled by PySol FC's Mersenne Twister deal ``n``."""
    pack = [Card(SUITS.index(s), r) for s in "CSHD" for r in range(1, 14)]
    return _fisher_yates(pack, random.Random(n))


def shuffled_deck(variant: Variant | str, n: int) -> list[Card]:
    """Return the cards of numbered deal ``n`` of ``variant`` in dealing order, before
    the layout (the aces of ``aces_on_foundations`` are still in it; kings not moved).

    Raises UnknownVariantError for an unknown game name, InvalidDealError for a number
    out of range.
    """
    variant = find_variant(variant)
    n = _check_number(variant, n)
    mersenne = variant.numbering == "pysol" and n > PYSOL_MS_LIMIT
    pack = _pysol_pack(n) if mersenne else _ms_pack(n)
    order = pack if variant.kings_to_bottom else pack[::-1]
    ranks = set(deck_ranks(variant.deck))
    return [card for card in order if card.rank in ranks]


def _seeded_deck(variant: Variant, seed: object) -> list[Card]:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"a seed is an int, not {type(seed).__name__} ({seed!r})")
    if seed < 0:
        raise InvalidDealError(f"seed {seed!r} is not an int >= 0")
    return _fisher_yates(full_deck(variant.deck), random.Random(seed))


def _kings_down(column: Sequence[Card]) -> tuple[Card, ...]:
    """Swap each king, bottom to top, with the lowest non-king below it."""
    cards = list(column)
    kings = [row for row, card in enumerate(cards) if card.rank == 13]
    for row in kings:
        low = next((j for j in range(row) if cards[j].rank != 13), None)
        if low is not None:
            cards[row], cards[low] = cards[low], cards[row]
    return tuple(cards)


def _lay_out(variant: Variant, cards: list[Card], number: int | None = None,
             seed: int | None = None) -> Deal:
    """Deal ``cards`` (in dealing order) into the variant's first position."""
    foundations = [0, 0, 0, 0]
    if variant.base_from_deal:
        # The first card sets the base rank; the cards of its rank are dealt first, in
        # dealing order: three to their foundations, the fourth to the first column.
        base = cards[0].rank
        cards = ([c for c in cards if c.rank == base] + [c for c in cards if c.rank != base])
        for card in cards[:3]:
            foundations[card.suit] = base
        cards = cards[3:]
    if variant.aces_on_foundations:
        for card in cards:
            if card.rank == 1:
                foundations[card.suit] = 1
        cards = [card for card in cards if card.rank != 1]
    kings_down = variant.kings_to_bottom
    if variant.home_aces:
        # Kings go down in the whole pack first (each swapped with the first non-king dealt
        # before it to its column), then the last aces dealt go home, shifting the cards
        # after them, as PySolFC deals Good Measure.
        cards = list(cards)
        n = variant.columns
        for i, card in enumerate(cards):
            if kings_down and card.rank == 13:
                j = next((j for j in range(i % n, i, n) if cards[j].rank != 13), None)
                if j is not None:
                    cards[i], cards[j] = cards[j], cards[i]
        kings_down = False
        aces = [i for i, card in enumerate(cards) if card.rank == 1][-variant.home_aces:]
        for i in aces:
            foundations[cards[i].suit] = 1
        cards = [card for i, card in enumerate(cards) if i not in aces]
    held: list[Card | None] = [None] * variant.cells
    if variant.dealt_cells:
        last = len(cards) - len(variant.dealt_cells)
        for cell, card in zip(variant.dealt_cells, cards[last:], strict=True):
            held[cell] = card
        cards = cards[:last]
    row = len(cards) - len(variant.last_row)
    last_row = dict(zip(variant.last_row, cards[row:], strict=True))
    cards = cards[:row]
    n = variant.columns
    if variant.deal_to_foundations:
        ranks = (0, *deck_ranks(variant.deck))
        slots: list[Card | None] = []
        for card in cards:
            home = ranks.index(card.rank) == ranks.index(foundations[card.suit]) + 1
            if home:
                foundations[card.suit] = card.rank
            slots.append(None if home else card)
        columns = [tuple(c for c in slots[i::n] if c is not None) for i in range(n)]
    else:
        columns = [tuple(cards[i::n]) for i in range(n)]
    if kings_down:
        columns = [_kings_down(column) for column in columns]
    columns = [column + ((last_row[i],) if i in last_row else ())
               for i, column in enumerate(columns)]
    return Deal(variant, tuple(columns), tuple(held), tuple(foundations),
                number=number, seed=seed)


# --------------------------------------------------------------------------- checks


def _place_name(place: _Place, where: _Where | None) -> str:
    kind = place[0]
    if kind == "column":
        name = f"column {place[1] + 1}"
    elif kind == "cell":
        name = f"cell {CELL_LETTERS[place[1]]}"  # the letters of the move notation
    else:
        name = f"the {SUITS[place[1]]} foundation"
    if where and place in where:
        line, col = where[place]
        name += f" (line {line}, column {col})"
    return name


def _foundation_token(suit: int, rank: object) -> str:
    if isinstance(rank, int) and 0 <= rank <= 13:
        return f"{SUITS[suit]}-{RANK_CHARS[rank]}"
    return f"{SUITS[suit]}-{rank!r}"


def _check_counts(variant: Variant, columns: Sequence, cells: Sequence,
                  foundations: Sequence) -> None:
    if len(columns) != variant.columns:
        raise InvalidDealError(
            f"{variant.name} has {variant.columns} columns, the deal has {len(columns)}")
    if len(cells) != variant.cells:
        raise InvalidDealError(
            f"{variant.name} has {variant.cells} cells, the deal has {len(cells)}")
    if len(foundations) != 4:
        raise InvalidDealError(
            f"a deal has 4 foundations (suits {SUITS}), not {len(foundations)}")


def _check_foundations(variant: Variant, foundations: Sequence[int],
                       where: _Where | None) -> None:
    allowed = (0, *deck_ranks(variant.deck))
    for suit, rank in enumerate(foundations):
        if isinstance(rank, bool) or rank not in allowed:
            place = _place_name(("foundation", suit), where)
            raise InvalidDealError(
                f"foundation {_foundation_token(suit, rank)!r} at {place} is not in the "
                f"{variant.deck}-card deck of {variant.name} (ranks 0, "
                f"{' '.join(RANK_CHARS[r] for r in allowed[1:])})")
        if variant.aces_on_foundations and rank == 0:
            raise InvalidDealError(
                f"{variant.name} starts with the aces on the foundations, but "
                f"{_place_name(('foundation', suit), where)} is empty "
                f"({_foundation_token(suit, rank)!r})")


def _placed_cards(columns: Sequence[Sequence[Card]],
                  cells: Sequence[Card | None]) -> Iterator[tuple[Card, _Place]]:
    for i, column in enumerate(columns):
        for row, card in enumerate(column):
            yield card, ("column", i, row)
    for k, held in enumerate(cells):
        if held is not None:
            yield held, ("cell", k)


def _check_cards(variant: Variant, columns: Sequence[Sequence[Card]],
                 cells: Sequence[Card | None], foundations: Sequence[int],
                 where: _Where | None) -> None:
    placed = [card for card, _ in _placed_cards(columns, cells)]
    ranks = variant.foundation_ranks(variant.foundation_base(foundations, placed))
    seen: dict[Card, _Place] = {}
    for card, place in _placed_cards(columns, cells):
        if card.rank not in ranks:
            raise InvalidDealError(
                f"card {str(card)!r} in {_place_name(place, where)} is not in the "
                f"{variant.deck}-card deck of {variant.name}")
        if card in seen:
            raise InvalidDealError(
                f"card {str(card)!r} appears twice: {_place_name(seen[card], where)} "
                f"and {_place_name(place, where)}")
        seen[card] = place
        top = foundations[card.suit]
        if top and ranks.index(card.rank) <= ranks.index(top):
            raise InvalidDealError(
                f"card {str(card)!r} is in {_place_name(place, where)} but "
                f"{_place_name(('foundation', card.suit), where)} is already up to "
                f"{str(Card(card.suit, top))!r}")
    home = {Card(s, r) for s, top in enumerate(foundations) if top
            for r in ranks[:ranks.index(top) + 1]}
    missing = [str(c) for c in full_deck(variant.deck) if c not in seen and c not in home]
    if missing:
        raise InvalidDealError(
            f"missing card{'s' if len(missing) > 1 else ''} "
            f"{', '.join(map(repr, missing))}: every card of the deck must be in a "
            f"column, a cell or on its foundation")


def _check_position(variant: Variant, columns: Sequence[Sequence[Card]],
                    cells: Sequence[Card | None], foundations: Sequence[int],
                    where: _Where | None = None) -> None:
    _check_counts(variant, columns, cells, foundations)
    _check_foundations(variant, foundations, where)
    _check_cards(variant, columns, cells, foundations, where)


def _as_card(token: Card | str) -> Card:
    if isinstance(token, Card):
        return token
    if not isinstance(token, str):
        raise CardParseError(f"not a card: {token!r} (a Card or a text like 'TH')")
    return Card.parse(token)


# --------------------------------------------------------------------------- the deal


@dataclass(frozen=True)
class Deal:
    """A position of a variant: columns (each from the covered card to the exposed
    one), free cells, and the rank on top of each foundation (suits in ``SUITS``
    order, 0 for empty). ``number`` and ``seed`` record where the deal came from; they
    take no part in ``==``.

    Cards may be given as `Card` or as text (``'TH'``); lists are turned into tuples,
    ``cells=None`` means all cells empty.

    Raises InvalidDealError when the position is not one of the variant (see
    `validate`), CardParseError for a card text that does not parse,
    UnknownVariantError for an unknown game name.
    """

    variant: Variant
    columns: tuple[tuple[Card, ...], ...]
    cells: tuple[Card | None, ...] = None  # type: ignore[assignment]
    foundations: tuple[int, ...] = (0, 0, 0, 0)  # one height a suit
    number: int | None = field(default=None, compare=False)
    seed: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        variant = find_variant(self.variant)
        cells = (None,) * variant.cells if self.cells is None else self.cells
        object.__setattr__(self, "variant", variant)
        object.__setattr__(self, "columns",
                           tuple(tuple(_as_card(c) for c in col) for col in self.columns))
        object.__setattr__(self, "cells",
                           tuple(None if c is None else _as_card(c) for c in cells))
        object.__setattr__(self, "foundations", tuple(self.foundations))
        self.validate()

    def validate(self) -> None:
        """Check that this is a position of its variant.

        Raises InvalidDealError for the wrong number of columns or cells, a foundation
        rank not in the deck (or an empty foundation when the aces start there), a card
        not in the deck, a duplicate card, a card in play that is also below its
        foundation's top, or a missing card.
        """
        _check_position(self.variant, self.columns, self.cells, self.foundations)

    @property
    def base_rank(self) -> int:
        """The rank the foundations start at: the ace, or in a game with
        ``base_from_deal`` (Penguin) the rank of its first card, read from the
        foundations."""
        in_play = (card for card, _ in _placed_cards(self.columns, self.cells))
        return self.variant.foundation_base(self.foundations, in_play)

    # ----------------------------------------------------------- constructors

    @classmethod
    def from_number(cls, variant: Variant | str, n: int) -> Deal:
        """Return numbered deal ``n`` of ``variant`` (see the module documentation:
        Microsoft numbers 1..2**33-1 for ``ms`` numbering, PySol 1..2**64-1 for
        ``pysol``).

        Raises InvalidDealError for a number out of range, UnknownVariantError for an
        unknown game name.
        """
        variant = find_variant(variant)
        return _lay_out(variant, shuffled_deck(variant, n), number=n)

    @classmethod
    def from_seed(cls, variant: Variant | str, seed: int) -> Deal:
        """Return the random deal of ``variant`` made from ``seed`` (an int >= 0): the
        deck in `full_deck` order shuffled by `random.Random(seed)` with an explicit
        Fisher-Yates shuffle, laid out as numbered deals are. Stable across versions.

        Raises InvalidDealError for a seed that is not an int >= 0,
        UnknownVariantError for an unknown game name.
        """
        variant = find_variant(variant)
        return _lay_out(variant, _seeded_deck(variant, seed), seed=seed)

    @classmethod
    def random(cls, variant: Variant | str, rng: random.Random | None = None) -> Deal:
        """Return a random deal of ``variant``: `from_seed` with a 64-bit seed drawn
        from ``rng`` (the system's entropy when None); the seed is kept in ``seed``.

        Raises UnknownVariantError for an unknown game name.
        """
        rng = rng if rng is not None else random.SystemRandom()
        return cls.from_seed(variant, rng.getrandbits(64))

    # ----------------------------------------------------------- board text

    @classmethod
    def parse(cls, variant: Variant | str, text: str) -> Deal:
        """Read a position of game ``variant`` in Freecell Solver's board text (the game
        first, as everywhere in the API).

        Optional header lines ``Foundations: H-A C-0 D-2 S-K`` (or ``Founds:``; any
        suit order, a missing suit is empty; a second such line adds to the first) and
        ``Freecells: 3D - JH`` (or ``FC:``; ``-`` for an empty cell, the cells filled in
        the order written whatever the spacing, as Freecell Solver reads them, missing
        cells are empty), then one column a line from the covered card to the exposed
        one. A column line may start with ``:``; a line that is just ``:``, or blank
        between column lines, is an empty column. Blank lines before and after the
        columns, lines starting with ``#`` and a UTF-8 byte-order mark are ignored.
        Cards are case-insensitive, ``T`` or ``10`` for tens.

        Raises DealParseError for a malformed line or token (quoting it with its line
        and character column), InvalidDealError when the position is not one of the
        variant, UnknownVariantError for an unknown game name, ArgumentOrderError for
        the text given before the game (the order of releases before 0.2).
        """
        variant = game_first("Deal.parse", variant, text)
        board = _BoardReader(variant).read(text)
        return board.deal(variant)

    def to_text(self) -> str:
        """Return the position as Freecell Solver board text (`parse` reads it back):
        a ``Foundations:`` line when a foundation is not empty, a ``Freecells:`` line
        (``-`` for empty cells) when a cell is occupied, then the columns, ``:`` for an
        empty one, ``T`` for tens."""
        lines = []
        if any(self.foundations):
            lines.append("Foundations: " + " ".join(
                _foundation_token(s, r) for s, r in enumerate(self.foundations)))
        if any(c is not None for c in self.cells):
            lines.append("Freecells: " + " ".join(
                "-" if c is None else str(c) for c in self.cells))
        lines += [" ".join(map(str, col)) if col else ":" for col in self.columns]
        return "\n".join(lines) + "\n"

    def __str__(self) -> str:
        return self.to_text()

    # ----------------------------------------------------------- JSON

    def to_dict(self) -> dict[str, Any]:
        """Return the position as a JSON-ready dict (the schema of `to_json`)."""
        out: dict[str, Any] = {"game": _variant_json(self.variant)}
        if self.number is not None:
            out["number"] = self.number
        if self.seed is not None:
            out["seed"] = self.seed
        out["columns"] = [[str(c) for c in col] for col in self.columns]
        out["cells"] = [None if c is None else str(c) for c in self.cells]
        out["foundations"] = {SUITS[s]: r for s, r in enumerate(self.foundations)}
        return out

    def to_json(self, indent: int | None = None) -> str:
        """Return the position as JSON: ``{"game": "freecell", "number": 617,
        "columns": [["7D", "TD", ...], ...], "cells": [null, "3D", null, null],
        "foundations": {"H": 0, "C": 1, "D": 0, "S": 0}}``.

        ``game`` is a preset's name, or for a custom game an object of every `Variant`
        field; ``number`` and ``seed`` appear when known; columns go from the covered
        card to the exposed one; foundations give the rank of each suit's top card
        (0 empty, 1 ace ... 13 king)."""
        import json  # here, as in `load_json_text`: most runs read and write no JSON

        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_json(cls, data: str | bytes | Mapping[str, Any]) -> Deal:
        """Read a deal written by `to_json` (a JSON text or the decoded dict).

        ``cells`` and ``foundations`` may be left out (empty); fewer cells than the
        game has leaves the rest empty; a missing suit's foundation is empty. Without
        ``columns``, the deal is rebuilt from ``number`` (or ``seed``). A record that
        carries the deal as ``deal`` (a board text or such an object; the JSON of
        `bakers generate` and `bakers daily`, the deal's seed as ``deal_seed``) gives
        that deal.

        Raises DealParseError naming the key for malformed JSON, an unknown key or a
        bad value, InvalidDealError when the position is not one of the game.
        """
        obj = _load_json(data)
        if "deal" in obj:
            return _json_record(obj)
        variant = _json_variant(obj)
        number, seed = _json_int(obj, "number"), _json_int(obj, "seed")
        if "columns" not in obj:
            return _json_rebuild(variant, number, seed)
        columns = _json_columns(obj["columns"])
        cells = _json_cells(obj.get("cells", []), variant)
        foundations = _json_foundations(obj.get("foundations", {}))
        return cls(variant, columns, cells, foundations, number=number, seed=seed)

    # ----------------------------------------------------------- repr

    def __repr__(self) -> str:
        expr = _variant_expr(self.variant)
        if self.number is not None and self._rebuilt_by(Deal.from_number, self.number):
            return f"Deal.from_number({expr}, {self.number!r})"
        if self.seed is not None and self._rebuilt_by(Deal.from_seed, self.seed):
            return f"Deal.from_seed({expr}, {self.seed!r})"
        name = self.variant.name if _is_preset(self.variant) else self.variant
        return f"Deal.parse({name!r}, {self.to_text()!r})"

    def _rebuilt_by(self, make: Callable[[Variant, int], Deal], arg: int) -> bool:
        try:
            return make(self.variant, arg) == self
        except BakersError:
            return False


def _is_preset(variant: Variant) -> bool:
    return PRESETS.get(variant.name) == variant


def _variant_expr(variant: Variant) -> str:
    return f"find_variant({variant.name!r})" if _is_preset(variant) else repr(variant)


# --------------------------------------------------------------------------- text


#: The words of an empty cell: ours and fc-solve's (``-``), `Board`'s and fc-solve's
#: printed boards (``--``), and PySolFC's (``*``).
_EMPTY_CELLS = ("-", "--", "*")


# The patterns of a board text are compiled when a board is first read: a numbered deal
# needs none.
@functools.cache
def _header_pattern() -> re.Pattern[str]:
    return re.compile(r"\s*(foundations|founds?|freecells|fc)\s*:", re.IGNORECASE)


@functools.cache
def _foundation_pattern() -> re.Pattern[str]:
    return re.compile(r"([HCDS])-(0|A|[2-9]|T|10|J|Q|K)", re.IGNORECASE)


@functools.cache
def _token_pattern() -> re.Pattern[str]:
    return re.compile(r"\S+")


def _tokens(line: str, start: int) -> list[tuple[str, int]]:
    """Return the tokens of ``line`` from index ``start``, each with its 1-based column."""
    return [(m.group(), m.start() + 1) for m in _token_pattern().finditer(line, start)]


def _parse_card(token: str, line: int, col: int) -> Card:
    try:
        return Card.parse(token)
    except CardParseError:
        if len(token) > 40:  # quoted in the message: the start is enough to find it
            token = token[:30] + "..."
        raise DealParseError(
            f"line {line}, column {col}: not a card: {token!r} (expected a rank "
            f"A23456789TJQK and a suit HCDS, like 'TH' or 'AS')") from None


@dataclass
class _Board:
    """A board text read into lists, with where each item was written."""

    columns: list[list[Card]] = field(default_factory=list)
    column_lines: list[int] = field(default_factory=list)
    cells: list[Card | None] = field(default_factory=list)
    foundations: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    where: dict[_Place, tuple[int, int]] = field(default_factory=dict)

    def deal(self, variant: Variant) -> Deal:
        """Check the board against ``variant`` and return it as a Deal."""
        if len(self.columns) != variant.columns:
            lines = self.column_lines
            span = ("no column lines" if not lines else f"line {lines[0]}"
                    if len(lines) == 1 else f"lines {lines[0]}-{lines[-1]}")
            raise InvalidDealError(f"{variant.name} has {variant.columns} columns, the "
                                   f"text has {len(self.columns)} ({span})")
        cells = self.cells + [None] * (variant.cells - len(self.cells))
        _check_position(variant, self.columns, cells, self.foundations, self.where)
        return Deal(variant, tuple(map(tuple, self.columns)), tuple(cells),
                    tuple(self.foundations))


class _BoardReader:
    """Read Freecell Solver board text line by line (see `Deal.parse`)."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.board = _Board()
        self.headers: dict[str, int] = {}
        self.blanks: list[int] = []

    def read(self, text: str) -> _Board:
        """Return the board of ``text``; raise DealParseError or InvalidDealError."""
        if not isinstance(text, str):
            raise DealParseError(f"a board text is a str, not {type(text).__name__!r}")
        text = text.removeprefix("\ufeff")  # a UTF-8 byte-order mark, read as fc-solve does
        for number, line in enumerate(text.splitlines(), start=1):
            self._line(number, line)
        return self.board

    def _line(self, number: int, line: str) -> None:
        stripped = line.strip()
        if stripped.startswith("#"):
            return
        header = _header_pattern().match(line)
        if header:
            self._header(number, line, header)
        elif not stripped:
            if self.board.columns:
                self.blanks.append(number)
        else:
            self._column(number, line)

    def _header(self, number: int, line: str, match: re.Match[str]) -> None:
        word = match.group(1).lower()
        kind = "freecells" if word in ("freecells", "fc") else "foundations"
        col = match.start(1) + 1
        if self.board.columns:
            raise DealParseError(f"line {number}, column {col}: header "
                                 f"{match.group(1)!r} must come before the columns")
        # A second foundations line adds to the first, as Freecell Solver reads it.
        if kind in self.headers and kind == "freecells":
            raise DealParseError(f"line {number}, column {col}: a second {kind} line "
                                 f"{match.group(1)!r} (the first is line {self.headers[kind]})")
        self.headers[kind] = number
        if kind == "freecells":
            self._freecells(number, line, match.end())
        else:
            self._foundations(number, line, match.end())

    def _foundations(self, number: int, line: str, start: int) -> None:
        seen: set[int] = set()  # per line: a later line may set a suit again
        for token, col in _tokens(line, start):
            m = _foundation_pattern().fullmatch(token)
            if not m:
                raise DealParseError(
                    f"line {number}, column {col}: not a foundation: {token!r} (expected "
                    f"a suit HCDS, '-' and a rank 0 A 2-9 T J Q K, like 'H-A' or 'S-0')")
            suit = SUITS.index(m.group(1).upper())
            if suit in seen:
                raise DealParseError(f"line {number}, column {col}: foundation {token!r} "
                                     f"repeats suit {SUITS[suit]!r}")
            seen.add(suit)
            rank = m.group(2).upper().replace("10", "T")
            self.board.foundations[suit] = RANK_CHARS.index(rank)
            self.board.where[("foundation", suit)] = (number, col)

    def _freecells(self, number: int, line: str, start: int) -> None:
        # The cells fill in the order written, whatever the spacing: Freecell Solver
        # reads its own fixed-width line ``Freecells:      7D`` as 7D in the first cell.
        for slot, (token, col) in enumerate(_tokens(line, start)):
            card = None if token in _EMPTY_CELLS else _parse_card(token, number, col)
            if card is None:
                continue
            if slot >= self.variant.cells:
                raise InvalidDealError(
                    f"{self.variant.name} has {self.variant.cells} cells, the text puts "
                    f"{token!r} in cell {slot + 1} (line {number}, column {col})")
            self.board.cells += [None] * (slot + 1 - len(self.board.cells))
            self.board.cells[slot] = card
            self.board.where[("cell", slot)] = (number, col)

    def _column(self, number: int, line: str) -> None:
        for blank in self.blanks:
            self._add_column(blank, [])
        self.blanks = []
        start = len(line) - len(line.lstrip())
        if line[start] == ":":
            start += 1
        cards = []
        index = len(self.board.columns)
        for row, (token, col) in enumerate(_tokens(line, start)):
            cards.append(_parse_card(token, number, col))
            self.board.where[("column", index, row)] = (number, col)
        self._add_column(number, cards)

    def _add_column(self, number: int, cards: list[Card]) -> None:
        self.board.columns.append(cards)
        self.board.column_lines.append(number)


# --------------------------------------------------------------------------- JSON

_JSON_KEYS = ("game", "number", "seed", "columns", "cells", "foundations")
#: The keys of the records that carry a deal as ``deal`` (the JSON of `bakers generate`
#: and `bakers daily`): the deal's seed as ``deal_seed``, the rest about how it was made.
_RECORD_KEYS = ("game", "deal", "deal_seed", "seed", "attempts", "grade", "score", "moves",
                "solution", "date", "daily_seed")


def _variant_json(variant: Variant) -> str | dict[str, Any]:
    if _is_preset(variant):
        return variant.name
    fields = dataclasses.asdict(variant)
    fields["aliases"] = list(variant.aliases)
    return fields


# A deal in JSON is under 2 KB (a custom game's fields add a few hundred bytes), nested 3
# deep (the deal, its columns, a column); the caps leave room for any layout and refuse
# at once what no deal needs (a text of megabytes, '[' * 100000, a number of 5,000 digits).
JSON_MAX_BYTES = 1 << 20
JSON_MAX_DEPTH = 16
JSON_MAX_DIGITS = 40


@functools.cache
def _json_string() -> re.Pattern[str]:
    """A JSON string, compiled when JSON is first read."""
    return re.compile(r'"(?:[^"\\]|\\.)*"')


def load_json_text(data: str | bytes | bytearray, what: str, error: type[ValueError]) -> Any:
    """Return the value of a JSON text of at most JSON_MAX_BYTES bytes, nested at most
    JSON_MAX_DEPTH deep, its integers at most JSON_MAX_DIGITS digits long.

    Raises ``error`` (a BakersError class) saying what is wrong with ``what``.
    """
    import json  # here: most runs read no JSON (json loads its scanner and encoder)

    if isinstance(data, (bytes, bytearray)):
        if len(data) > JSON_MAX_BYTES:
            raise error(f"{what} of {len(data):,} bytes is too long (at most "
                        f"{JSON_MAX_BYTES:,})")
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise error(f"{what} is not UTF-8 text: byte {exc.object[exc.start]:#04x} at "
                        f"offset {exc.start}") from None
    if len(data) > JSON_MAX_BYTES:
        raise error(f"{what} of {len(data):,} characters is too long (at most "
                    f"{JSON_MAX_BYTES:,})")
    depth = deepest = 0
    for bracket in re.findall(r"[\[\]{}]", _json_string().sub("", data)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    if deepest > JSON_MAX_DEPTH:
        raise error(f"{what} is nested {deepest} deep (at most {JSON_MAX_DEPTH})")

    def integer(text: str) -> int:
        if len(text.lstrip("-")) > JSON_MAX_DIGITS:
            raise error(f"{what} has a number of {len(text.lstrip('-'))} digits (at most "
                        f"{JSON_MAX_DIGITS}): {text[:20]}...")
        return int(text)

    try:
        return json.loads(data, parse_int=integer)
    except json.JSONDecodeError as exc:
        raise error(f"{what} is not JSON: {exc.msg} at line {exc.lineno}, column "
                    f"{exc.colno} (near {exc.doc[exc.pos:exc.pos + 10]!r})") from None
    except RecursionError:
        raise error(f"{what} is nested too deep") from None


def _load_json(data: str | bytes | Mapping[str, Any]) -> Mapping[str, Any]:
    if isinstance(data, (str, bytes, bytearray)):
        data = load_json_text(data, "a JSON deal", DealParseError)
    if not isinstance(data, Mapping):
        raise DealParseError(f"a JSON deal is an object, not {type(data).__name__!r}")
    keys, what = (_RECORD_KEYS, "a JSON record of a deal") if "deal" in data else (
        _JSON_KEYS, "a JSON deal")
    for key in data:
        if key not in keys:
            raise DealParseError(f"unknown key {key!r} in {what} (the keys are "
                                 f"{', '.join(keys)})")
    return data


def _json_record(obj: Mapping[str, Any]) -> Deal:
    """Return the deal of a record that carries one as ``deal``, a board text or a JSON
    deal (the JSON of `bakers generate` and `bakers daily`), its seed ``deal_seed``.

    Raises DealParseError naming the key, InvalidDealError for a position not of the game.
    """
    variant = _json_variant(obj)
    seed = _json_int(obj, "deal_seed")
    value = obj["deal"]
    if isinstance(value, str):
        deal = Deal.parse(variant, value)
    elif isinstance(value, Mapping):
        deal = Deal.from_json({"game": obj["game"], **value})
    else:
        raise DealParseError(f"key 'deal': {value!r} is neither a board text nor a JSON deal")
    return deal if seed is None else dataclasses.replace(deal, seed=seed)


def _json_variant(obj: Mapping[str, Any]) -> Variant:
    if "game" not in obj:
        raise DealParseError("missing key 'game' in a JSON deal")
    game = obj["game"]
    try:
        if isinstance(game, Mapping):
            fields = dict(game)
            for key in ("aliases", "dealt_cells"):
                if isinstance(fields.get(key), list):
                    fields[key] = tuple(fields[key])
            return Variant(**fields)
        return find_variant(game)
    except (BakersError, TypeError) as exc:
        raise DealParseError(f"key 'game': {exc}") from None


def _json_int(obj: Mapping[str, Any], key: str) -> int | None:
    value = obj.get(key)
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise DealParseError(f"key {key!r}: {value!r} is not an integer")
    return value


def _json_rebuild(variant: Variant, number: int | None, seed: int | None) -> Deal:
    try:
        if number is not None:
            return Deal.from_number(variant, number)
        if seed is not None:
            return Deal.from_seed(variant, seed)
    except InvalidDealError as exc:
        raise DealParseError(f"key {'number' if number is not None else 'seed'!r}: "
                             f"{exc}") from None
    raise DealParseError("missing key 'columns' (or 'number' or 'seed') in a JSON deal")


def _json_card(value: object, key: str) -> Card:
    if not isinstance(value, str):
        raise DealParseError(f"key {key!r}: {value!r} is not a card text like 'TH'")
    try:
        return Card.parse(value)
    except CardParseError:
        raise DealParseError(f"key {key!r}: not a card: {value!r} (expected a rank "
                             f"A23456789TJQK and a suit HCDS, like 'TH')") from None


def _json_list(value: object, key: str) -> list:
    if not isinstance(value, list):
        raise DealParseError(f"key {key!r}: {value!r} is not a list")
    return value


def _json_columns(value: object) -> tuple[tuple[Card, ...], ...]:
    columns = _json_list(value, "columns")
    return tuple(
        tuple(_json_card(c, f"columns[{i}][{j}]")
              for j, c in enumerate(_json_list(col, f"columns[{i}]")))
        for i, col in enumerate(columns))


def _json_cells(value: object, variant: Variant) -> tuple[Card | None, ...]:
    cells = [None if c is None else _json_card(c, f"cells[{k}]")
             for k, c in enumerate(_json_list(value, "cells"))]
    return tuple(cells + [None] * (variant.cells - len(cells)))


def _json_foundations(value: object) -> tuple[int, int, int, int]:
    if not isinstance(value, Mapping):
        raise DealParseError(f"key 'foundations': {value!r} is not an object like "
                             f"{{'H': 0, 'C': 1, 'D': 0, 'S': 0}}")
    ranks = [0, 0, 0, 0]
    for suit, rank in value.items():
        key = f"foundations.{suit}"
        if not isinstance(suit, str) or suit.upper() not in SUITS or len(suit) != 1:
            raise DealParseError(f"key {key!r}: {suit!r} is not a suit (H, C, D or S)")
        if isinstance(rank, bool) or not isinstance(rank, int) or not 0 <= rank <= 13:
            raise DealParseError(f"key {key!r}: {rank!r} is not a rank 0..13")
        ranks[SUITS.index(suit.upper())] = rank
    return tuple(ranks)  # type: ignore[return-value]
