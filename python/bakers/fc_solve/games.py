"""Freecell Solver's game options mapped to a `Variant`.

Freecell Solver describes a game by six settings: the number of decks, stacks (columns)
and free cells, how sequences are built (``suit``, ``alternate_color``, ``rank``),
whether a sequence moves whole (``unlimited``) or only as far as free cells and empty
columns allow (``limited``: bakers' supermoves), and what fills an empty stack
(``all``, ``kings``, ``none``). A named game (``-g``/``--preset``) sets all six at
once; options after it change single settings, as in ``fc-solve`` itself.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..errors import InvalidOptionError
from ..variants import MAX_CELLS, MAX_COLUMNS, PRESETS, Variant

__all__ = ["GameParams", "FCS_GAMES", "REFUSED_GAMES", "game_params", "to_variant"]

BUILD_WORDS = {"suit": "suit", "alternate_color": "alternate", "rank": "any"}
EMPTY_WORDS = {"all": "any", "any": "any", "kings": "kings", "none": "none"}
MOVE_WORDS = ("limited", "unlimited")


#: The option that sets each of the six settings, for the name of a changed game.
SETTING_OPTIONS = {"decks": "--decks-num", "stacks": "--stacks-num",
                   "freecells": "--freecells-num", "build": "--sequences-are-built-by",
                   "sequence_move": "--sequence-move", "empty": "--empty-stacks-filled-by"}


@dataclass(frozen=True)
class GameParams:
    """The six game settings of Freecell Solver (its defaults are FreeCell's), and
    ``game``, the name of the game they started from (``-g``)."""

    decks: int = 1
    stacks: int = 8
    freecells: int = 4
    build: str = "alternate_color"
    sequence_move: str = "limited"
    empty: str = "all"
    game: str = "freecell"

    def change(self, **changes: object) -> GameParams:
        """Return a copy with some settings changed."""
        return replace(self, **changes)  # type: ignore[arg-type]

    @property
    def label(self) -> str:
        """Return the game's name as the command line gave it: ``'cruel'``, or
        ``'freecell with --stacks-num 9'`` for settings changed after the game."""
        base = FCS_GAMES.get(self.game)
        changed = [f"{option} {getattr(self, setting)}"
                   for setting, option in SETTING_OPTIONS.items()
                   if base is None or getattr(self, setting) != getattr(base, setting)]
        return f"{self.game} with {' '.join(changed)}" if changed else self.game


def _game(stacks: int, freecells: int, build: str, empty: str,
          sequence_move: str = "limited") -> GameParams:
    return GameParams(1, stacks, freecells, build, sequence_move, empty)


#: Freecell Solver's game names (``-g NAME``) that bakers plays, with their settings.
FCS_GAMES: dict[str, GameParams] = {
    "freecell": _game(8, 4, "alternate_color", "all"),
    "bakers_game": _game(8, 4, "suit", "all"),
    "bakers_dozen": _game(13, 0, "rank", "none"),
    "beleaguered_castle": _game(8, 0, "rank", "all"),
    "citadel": _game(8, 0, "rank", "all"),
    "streets_and_alleys": _game(8, 0, "rank", "all"),
    "cruel": _game(12, 0, "suit", "none"),
    "eight_off": _game(8, 8, "suit", "kings"),
    "forecell": _game(8, 4, "alternate_color", "kings"),
    "good_measure": _game(10, 0, "rank", "none"),
    "ko_bakers_game": _game(8, 4, "suit", "kings"),
    "kings_only_bakers_game": _game(8, 4, "suit", "kings"),
    "relaxed_freecell": _game(8, 4, "alternate_color", "all", "unlimited"),
    "relaxed_seahaven": _game(10, 4, "suit", "kings", "unlimited"),
    "relaxed_seahaven_towers": _game(10, 4, "suit", "kings", "unlimited"),
    "seahaven": _game(10, 4, "suit", "kings"),
    "seahaven_towers": _game(10, 4, "suit", "kings"),
}

#: Freecell Solver's game names that bakers does not play, and why.
REFUSED_GAMES: dict[str, str] = {
    "simple_simon": "Simple Simon moves runs of mixed suits and sends whole suits home",
    "yukon": "Yukon moves any face-up group of cards",
    "fan": "Fan has 18 columns (bakers plays up to 13)",
    "der_katz": "Der Katzenschwanz takes two decks",
    "der_katzenschwanz": "Der Katzenschwanz takes two decks",
    "die_schlange": "Die Schlange takes two decks",
}


def game_params(name: str) -> GameParams:
    """Return the settings of Freecell Solver's game ``name``.

    Raises InvalidOptionError naming a game bakers does not play, or an unknown one.
    """
    if name in FCS_GAMES:
        return FCS_GAMES[name].change(game=name)
    if name in REFUSED_GAMES:
        raise InvalidOptionError(f'bakers does not play "{name}": {REFUSED_GAMES[name]}')
    raise InvalidOptionError(f'unknown game "{name}" (the games: {", ".join(FCS_GAMES)})')


def _same_rules(a: Variant, b: Variant) -> bool:
    fields = ("deck", "columns", "cells", "build", "empty")
    if any(getattr(a, f) != getattr(b, f) for f in fields):
        return False
    return _moves_class(a) == _moves_class(b)


def _moves_class(v: Variant) -> str:
    """Return how cards move, with ``single`` and ``supermove`` made one where they are
    the same game: without cells, and with empty columns that take no card or a king
    alone (so they never hold part of a run in transit), a card moves alone."""
    if v.moves == "supermove" and v.cells == 0 and v.empty != "any":
        return "single"
    return v.moves


def to_variant(params: GameParams) -> Variant:
    """Return the `Variant` that plays by ``params``: a preset of bakers when one has
    exactly these rules (Baker's Dozen keeps its aces going home at once, which is always
    safe: nothing ever builds on an ace), else a game of these rules; either is named by
    the command line (`GameParams.label`), so that a message about the board names the
    game the user asked for.
    The settings of a preset that builds round the corner are those PySolFC sends for its
    Tuxedo, Penguin or Opus: they are played round the corner too, as PySolFC plays them
    (so that "I could not solve this game." is exact), from foundations that start at the
    ace (PySolFC renames Penguin's ranks so that its base reads as the ace).

    Raises InvalidOptionError for settings bakers cannot play.
    """
    if params.decks != 1:
        raise InvalidOptionError(
            f"--decks-num {params.decks}: bakers plays games of one deck only")
    if not 1 <= params.stacks <= MAX_COLUMNS:
        raise InvalidOptionError(
            f"--stacks-num {params.stacks}: bakers plays 1 to {MAX_COLUMNS} stacks")
    if not 0 <= params.freecells <= MAX_CELLS:
        raise InvalidOptionError(
            f"--freecells-num {params.freecells}: bakers plays 0 to {MAX_CELLS} freecells")
    name = params.label
    variant = Variant(
        name, columns=params.stacks, cells=params.freecells,
        build=BUILD_WORDS[params.build], empty=EMPTY_WORDS[params.empty],
        moves="sequence" if params.sequence_move == "unlimited" else "supermove",
        title="a game of Freecell Solver's settings")
    for preset in PRESETS.values():
        if _same_rules(preset, variant) and not preset.aces_on_foundations:
            if preset.wrap:
                return variant.replace(wrap=True, title=f"{preset.title}, as PySolFC sends it")
            return preset.replace(name=name)
    return variant
