"""Cards: ranks, suits, colours, and their two-character text form (``'TH'``, ``'AS'``)."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import CardParseError

__all__ = ["Card", "SUITS", "RANKS", "RANK_CHARS", "deck_ranks", "full_deck"]

#: Suits in the order of Freecell Solver's foundation line: hearts, clubs, diamonds,
#: spades. Red and black alternate, so a suit's colour is its index modulo 2.
SUITS = "HCDS"
#: Rank characters, index = rank (1 = ace ... 13 = king). ``'0'`` is unused.
RANK_CHARS = "0A23456789TJQK"
RANKS = tuple(range(1, 14))


def deck_ranks(deck: int) -> tuple[int, ...]:
    """Return the ranks of a deck in foundation order (52: A..K; 36: A, 6..K)."""
    if deck == 52:
        return RANKS
    if deck == 36:
        return (1, *range(6, 14))
    raise CardParseError(f"no deck of {deck!r} cards: decks have 52 or 36 cards")


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """A playing card. ``rank`` is 1 (ace) to 13 (king); ``suit`` indexes ``SUITS``."""

    suit: int
    rank: int

    def __post_init__(self) -> None:
        if not (1 <= self.rank <= 13 and 0 <= self.suit <= 3):
            raise CardParseError(f"no card with rank {self.rank!r} and suit {self.suit!r}")

    @classmethod
    def parse(cls, token: str) -> Card:
        """Parse ``'AS'``, ``'TH'``, ``'10h'`` (case-insensitive); raise CardParseError."""
        if not isinstance(token, str):
            raise TypeError(f"Card.parse takes a str, not {type(token).__name__}")
        odd = next((ch for ch in token if not ch.isascii()), None)
        if odd is not None:
            raise CardParseError(f"not a card: {token!r} (the character {odd!r} is not one "
                                 f"of A23456789TJQK or HCDS)")
        text = token.strip().upper()
        if text[:2] == "10":
            text = "T" + text[2:]
        if len(text) != 2 or text[0] not in RANK_CHARS[1:] or text[1] not in SUITS:
            raise CardParseError(f"not a card: {token!r} (expected a rank A23456789TJQK "
                                 f"and a suit HCDS, like 'TH' or 'AS')")
        return cls(SUITS.index(text[1]), RANK_CHARS.index(text[0]))

    @classmethod
    def from_code(cls, code: int) -> Card:
        """Return the card whose ``code`` is ``code``."""
        return cls(code >> 4, code & 15)

    @property
    def code(self) -> int:
        """The card as a small integer, ``suit * 16 + rank``: the C++ core's encoding."""
        return self.suit * 16 + self.rank

    @property
    def is_red(self) -> bool:
        """True for hearts and diamonds."""
        return self.suit % 2 == 0

    def __str__(self) -> str:
        return RANK_CHARS[self.rank] + SUITS[self.suit]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


def full_deck(deck: int = 52) -> list[Card]:
    """Return every card of a deck, suit by suit in ``SUITS`` order, ranks ascending."""
    return [Card(s, r) for s in range(4) for r in deck_ranks(deck)]
