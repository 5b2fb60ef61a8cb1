"""Games as data: one parametrised rule set, and a preset `Variant` for each game.

Every game is a plain `Variant` record; no game has code of its own. The C++ core
reads exactly these fields (see ``cpp/core/rules.hpp``).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .cards import RANK_CHARS, SUITS, Card, deck_ranks
from .errors import ArgumentOrderError, InvalidDealError, InvalidVariantError, UnknownVariantError

__all__ = ["Variant", "PRESETS", "find_variant", "game_first", "BUILDS", "EMPTIES", "MOVES",
           "NUMBERINGS"]

#: How a card builds on a column: down by one rank and ...
BUILDS = ("suit", "alternate", "any")
#: What an empty column takes: any card, a king (with its sequence) only, or nothing.
EMPTIES = ("any", "kings", "none")
#: How cards move between columns:
#: ``single``: one card at a time, nothing else accepted;
#: ``supermove``: one card at a time, and a multi-card move is accepted as shorthand
#: for the chain of single moves through free cells and empty columns it stands for,
#: when its length is at most ``(free cells + 1) * 2 ** (empty columns)``;
#: ``sequence``: any sequence (cards each one rank below the one beneath it under the
#: building rule) moves whole, from any card of it, whatever its length.
MOVES = ("single", "supermove", "sequence")
#: How deals are numbered: Microsoft/FreeCell Pro (``ms``, 1..2**33-1), or PySol
#: (``pysol``: the Microsoft shuffle up to 32000, PySol's Mersenne Twister above).
NUMBERINGS = ("ms", "pysol")

MAX_COLUMNS = 13
MAX_CELLS = 8


def _is_int(value: object) -> bool:
    """Return whether ``value`` is an int proper (``True`` and ``52.0`` are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Variant:
    """The rules of one game. Build custom games with ``Variant(name=..., ...)`` or
    ``dataclasses.replace(find_variant('freecell'), cells=3)``.

    Raises InvalidVariantError for a field out of range.
    """

    name: str
    deck: int = 52
    columns: int = 8
    cells: int = 4
    build: str = "suit"
    empty: str = "any"
    moves: str = "supermove"
    auto_aces: bool = False
    aces_on_foundations: bool = False
    kings_to_bottom: bool = False
    numbering: str = "ms"
    #: The cells that take the last cards of a deal, one each, lowest first (Eight Off:
    #: ``(0, 2, 4, 6)``); only dealing reads it.
    dealt_cells: tuple[int, ...] = ()
    #: While dealing, a card that is the next of its foundation goes there instead of to
    #: its column, which gets no card that time round (Citadel); only dealing reads it.
    deal_to_foundations: bool = False
    #: How many aces start on their foundations: the last ones dealt, taken out after the
    #: kings go down and before the columns are dealt (Good Measure's two); dealing only.
    home_aces: int = 0
    #: Building around the corner: a king builds on the ace of its suit (Tuxedo,
    #: Penguin). Only with ``build="suit"``, the 52-card deck and no ``auto_aces``.
    wrap: bool = False
    #: PySolFC's Penguin: the first card dealt sets the foundations' base rank, and the
    #: three other cards of that rank start home; foundations run from the base round the
    #: corner (base, base+1, ..., K, A, ..., base-1) and an empty column that takes "a
    #: king" takes the rank below the base. Needs ``wrap``. A position shows its base on
    #: its foundations (`foundation_base`).
    base_from_deal: bool = False
    #: The columns that take the last cards of a deal, one each, lowest first, before the
    #: ``dealt_cells`` take theirs (Tuxedo: ``(0, 3, 6)``); only dealing reads it.
    last_row: tuple[int, ...] = ()
    title: str = ""
    aliases: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        def bad(field: str, value: object, why: str) -> InvalidVariantError:
            return InvalidVariantError(f"variant {self.name!r}: {field}={value!r} {why}")

        if not isinstance(self.name, str) or not self.name:
            raise InvalidVariantError(f"a variant needs a non-empty name, not {self.name!r}")
        if not _is_int(self.deck) or self.deck not in (52, 36):
            raise bad("deck", self.deck, "is not a deck: use 52 or 36")
        if not _is_int(self.columns) or not 1 <= self.columns <= MAX_COLUMNS:
            raise bad("columns", self.columns, f"is out of range 1..{MAX_COLUMNS}")
        if not _is_int(self.cells) or not 0 <= self.cells <= MAX_CELLS:
            raise bad("cells", self.cells, f"is out of range 0..{MAX_CELLS}")
        for field, allowed in (("build", BUILDS), ("empty", EMPTIES), ("moves", MOVES),
                               ("numbering", NUMBERINGS)):
            value = getattr(self, field)
            if value not in allowed:
                raise bad(field, value, f"is not one of {', '.join(map(repr, allowed))}")
        for field in ("auto_aces", "aces_on_foundations", "kings_to_bottom",
                      "deal_to_foundations", "wrap", "base_from_deal"):
            if not isinstance(getattr(self, field), bool):
                raise bad(field, getattr(self, field), "is not a bool")
        if not isinstance(self.title, str):
            raise bad("title", self.title, "is not a string")
        # Aliases: a tuple of names (a list, from JSON, is taken as a tuple) so that the
        # variant stays hashable and a JSON round trip gives it back equal.
        aliases = self.aliases
        if isinstance(aliases, list):
            aliases = tuple(aliases)
            object.__setattr__(self, "aliases", aliases)
        if not isinstance(aliases, tuple) or not all(
                isinstance(alias, str) and alias for alias in aliases):
            raise bad("aliases", self.aliases, "is not a list of names (non-empty strings)")
        for field, count, what in (("dealt_cells", self.cells, "cells"),
                                   ("last_row", self.columns, "columns")):
            places = getattr(self, field)
            if isinstance(places, list):  # from JSON, as aliases
                places = tuple(places)
                object.__setattr__(self, field, places)
            if (not isinstance(places, tuple) or not all(_is_int(k) for k in places)
                    or list(places) != sorted(set(places))
                    or any(not 0 <= k < count for k in places)):
                raise bad(field, places, f"is not a tuple of distinct {what} 0..{count - 1} "
                          f"in increasing order")
        if self.wrap and (self.deck != 52 or self.build != "suit" or self.auto_aces):
            raise bad("wrap", self.wrap, "needs the 52-card deck, build='suit' and no "
                      "auto_aces")
        if self.base_from_deal and (
                not self.wrap or self.aces_on_foundations or self.home_aces
                or self.kings_to_bottom or self.deal_to_foundations):
            raise bad("base_from_deal", self.base_from_deal,
                      "needs wrap=True, and no other rule that sends cards home or moves "
                      "kings while dealing")
        if (not _is_int(self.home_aces) or not 0 <= self.home_aces <= 4
                or (self.home_aces and self.aces_on_foundations)):
            raise bad("home_aces", self.home_aces,
                      "is not 0..4 (and 0 when every ace starts home)")
        if self.dealt_cards < self.columns:
            raise bad("columns", self.columns, f"exceeds the {self.dealt_cards} cards dealt")

    @property
    def dealt_cards(self) -> int:
        """How many cards are dealt to the columns (the deck less aces already home and
        the cards dealt to cells)."""
        home = 4 if self.aces_on_foundations else self.home_aces
        home += 3 if self.base_from_deal else 0
        return self.deck - home - len(self.dealt_cells)

    @property
    def column_lengths(self) -> tuple[int, ...]:
        """How many cards each column gets: the dealt cards round-robin, first columns first
        (with ``deal_to_foundations``, at most that many)."""
        q, r = divmod(self.dealt_cards - len(self.last_row), self.columns)
        return tuple(q + (1 if i < r else 0) + (i in self.last_row)
                     for i in range(self.columns))

    @property
    def cuts_dead_ends(self) -> bool:
        """True when the engine's searches skip what follows a *dead end* (a position
        that a count of the cards that can ever move shows lost: cpp/core/dead_end.hpp):
        in games without cells where an empty column takes nothing and a card moves
        alone, like Baker's Dozen. Their proofs then see fewer positions, so the most
        cards home that an "impossible" reports is a lower bound."""
        return self.cells == 0 and self.empty == "none" and self.moves != "sequence"

    def builds(self, rank: int, suit: int, onto_rank: int, onto_suit: int) -> bool:
        """Return whether a card (``rank`` 1..13, ``suit`` 0..3 in the order H C D S, red
        and black alternating) may lie on another in a column: one rank lower, and of its
        suit, of the other colour, or of any suit as ``build`` says; with ``wrap`` a king
        on an ace of its suit too (docs/rules.md)."""
        if rank != onto_rank - 1 and not (self.wrap and rank == 13 and onto_rank == 1):
            return False
        if self.build == "suit":
            return suit == onto_suit
        return self.build == "any" or suit % 2 != onto_suit % 2

    def foundation_ranks(self, base: int = 1) -> tuple[int, ...]:
        """Return the ranks a foundation takes, in order: the deck's from the ace (52: A..K;
        36: A, 6..K), or from ``base`` (in a game with ``base_from_deal``) round the corner
        to the rank below it."""
        ranks = deck_ranks(self.deck)
        return ranks[ranks.index(base):] + ranks[:ranks.index(base)]

    def foundation_base(self, foundations: Sequence[int], in_play: Iterable[Card]) -> int:
        """Return the base rank of a position: the ace, or in a game with
        ``base_from_deal`` the rank its foundations start at, read from each non-empty
        foundation's top rank and how many cards of its suit are home (those not in
        ``in_play``, the cards in the columns and cells).

        Raises InvalidDealError when the foundations are all empty (no base to read) or
        start at different ranks.
        """
        if not self.base_from_deal:
            return 1
        left = [0, 0, 0, 0]
        for card in in_play:
            left[card.suit] += 1
        bases: dict[int, str] = {}
        for suit, top in enumerate(foundations):
            home = 13 - left[suit]
            if top and home > 0:
                bases.setdefault((top - home) % 13 + 1, f"{SUITS[suit]}-{RANK_CHARS[top]}")
        if not bases:
            raise InvalidDealError(
                f"{self.name} reads its base rank from the foundations, and they are all "
                f"empty: the first card dealt and the three of its rank start there")
        if len(bases) > 1:
            shown = ", ".join(f"{token} (from {RANK_CHARS[base]})"
                              for base, token in bases.items())
            raise InvalidDealError(
                f"the foundations of {self.name} start at one rank, and these do not: "
                f"{shown}")
        return next(iter(bases))

    def replace(self, **changes: object) -> Variant:
        """Return a copy with some fields changed (and validated)."""
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]  # checked on init

    def rules(self) -> dict[str, object]:
        """Return the rule fields alone, as the C++ core takes them."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
                if f.name not in ("name", "title", "aliases")}

    def __str__(self) -> str:
        return self.name


PRESETS: dict[str, Variant] = {v.name: v for v in (
    Variant("bakers_game", title="Baker's Game", build="suit",
            aliases=("bakers", "baker", "bakersgame", "bg")),
    Variant("freecell", title="FreeCell", build="alternate", aliases=("fc", "free_cell")),
    Variant("freecell36", title="FreeCell with 36 cards", deck=36, columns=6, cells=2,
            build="alternate", auto_aces=True, aliases=("fc36", "freecell_36")),
    Variant("bulochnik", title="Bulochnik (Булочник)", build="suit", empty="kings",
            moves="sequence", aces_on_foundations=True, aliases=("булочник",)),
    Variant("bakers_dozen", title="Baker's Dozen", columns=13, cells=0, build="any",
            empty="none", moves="single", auto_aces=True, kings_to_bottom=True,
            numbering="pysol", aliases=("dozen", "bd", "bakersdozen")),
    # Games of PySolFC and Freecell Solver whose first position these fields describe:
    # deals numbered as PySolFC numbers them, each alias a name of either program.
    Variant("king_only_bakers_game", title="King Only Baker's Game", build="suit",
            empty="kings", numbering="pysol",
            aliases=("ko_bakers_game", "kings_only_bakers_game", "kobg")),
    Variant("relaxed_freecell", title="Relaxed FreeCell", build="alternate",
            moves="sequence", numbering="pysol", aliases=("relaxed_fc",)),
    Variant("eight_off", title="Eight Off", cells=8, build="suit", empty="kings",
            dealt_cells=(0, 2, 4, 6), numbering="pysol", aliases=("eightoff",)),
    Variant("seahaven_towers", title="Seahaven Towers", columns=10, build="suit",
            empty="kings", dealt_cells=(1, 2), numbering="pysol",
            aliases=("seahaven", "sea_towers")),
    Variant("relaxed_seahaven_towers", title="Relaxed Seahaven Towers", columns=10,
            build="suit", empty="kings", moves="sequence", dealt_cells=(1, 2),
            numbering="pysol", aliases=("relaxed_seahaven",)),
    Variant("forecell", title="ForeCell", build="alternate", empty="kings",
            dealt_cells=(0, 1, 2, 3), numbering="pysol", aliases=("fore_cell",)),
    Variant("good_measure", title="Good Measure", columns=10, cells=0, build="any",
            empty="none", moves="single", kings_to_bottom=True, home_aces=2,
            numbering="pysol"),
    Variant("beleaguered_castle", title="Beleaguered Castle", cells=0, build="any",
            aces_on_foundations=True, numbering="pysol", aliases=("beleaguered",)),
    Variant("citadel", title="Citadel", cells=0, build="any", aces_on_foundations=True,
            deal_to_foundations=True, numbering="pysol"),
    Variant("streets_and_alleys", title="Streets and Alleys", cells=0, build="any",
            numbering="pysol", aliases=("streets",)),
    Variant("stronghold", title="Stronghold", cells=1, build="any", numbering="pysol"),
    Variant("portuguese_solitaire", title="Portuguese Solitaire", columns=13, cells=0,
            build="any", empty="kings", moves="single", numbering="pysol",
            aliases=("portuguese",)),
    Variant("spanish_patience_ii", title="Spanish Patience II", columns=13, cells=0,
            build="any", moves="single", numbering="pysol",
            aliases=("spanish_patience_2", "spanish_patience2")),
    # PySolFC's games that build round the corner (a king on an ace of its suit).
    Variant("tuxedo", title="Tuxedo", columns=7, cells=7, build="suit", moves="sequence",
            wrap=True, last_row=(0, 3, 6), numbering="pysol"),
    Variant("penguin", title="Penguin", columns=7, cells=7, build="suit", empty="kings",
            moves="sequence", wrap=True, base_from_deal=True, numbering="pysol",
            aliases=("beak_and_flipper",)),
    Variant("opus", title="Opus", columns=7, cells=5, build="suit", empty="kings",
            moves="sequence", wrap=True, base_from_deal=True, numbering="pysol"),
)}


def _key(name: str) -> str:
    """Return ``name`` lower-cased without spaces, dashes, underscores or apostrophes."""
    return re.sub(r"[\s_\-'\u2019]+", "", name.lower())


_LOOKUP = {_key(alias): v for v in PRESETS.values() for alias in (v.name, *v.aliases)}


def find_variant(name: str | Variant) -> Variant:
    """Return the preset called ``name`` (case, dashes, spaces and apostrophes ignored:
    ``"Baker's Game"`` finds ``bakers_game``). A `Variant` is returned as it is.

    Raises UnknownVariantError naming the closest presets.
    """
    if isinstance(name, Variant):
        return name
    if not isinstance(name, str):
        raise UnknownVariantError(f"a game is named by a string, not {name!r}")
    found = _LOOKUP.get(_key(name))
    if found is None:
        import difflib  # for the suggestions of a name not found alone

        close = difflib.get_close_matches(_key(name), list(_LOOKUP), n=6)
        names = list(dict.fromkeys(_LOOKUP[key].name for key in close))[:3]
        hint = f"; did you mean {', '.join(map(repr, names))}?" if names else ""
        raise UnknownVariantError(
            f"unknown game {name!r}: the games are {', '.join(PRESETS)}{hint}")
    return found


def _names_game(value: object) -> bool:
    """Return whether ``value`` is a game: a `Variant` or a preset's name or alias."""
    if isinstance(value, Variant):
        return True
    # a name is short: a long text (a board) is no game, and is not normalised for nothing
    return isinstance(value, str) and len(value) <= 64 and _key(value) in _LOOKUP


def game_first(call: str, game: object, text: object) -> Variant:
    """Return the game of ``call(game, text)``, every call of the API that takes a game
    and a text taking the game first.

    The order of earlier releases, the text first, is told by which argument names a
    game: a text never names one (a board has cards, a game's name none).

    Raises ArgumentOrderError for the old order, saying the new one;
    UnknownVariantError for an unknown game.
    """
    if not _names_game(game) and _names_game(text):
        raise ArgumentOrderError(
            f"{call}() takes the game first: {call}({text!r}, text), not {call}(text, "
            f"{text!r})" if isinstance(text, str) else
            f"{call}() takes the game first: {call}(game, text), not {call}(text, game)")
    return find_variant(game)  # type: ignore[arg-type]
