"""Variants: the presets of docs/rules.md field by field, lookup by name, custom games and
their validation, and the rule dict that the C++ core reads."""

from __future__ import annotations

import re

import pytest
from bakers import _core
from bakers.board import Board
from bakers.deals import Deal
from bakers.errors import InvalidVariantError, UnknownVariantError
from bakers.solving import _core_position
from bakers.variants import PRESETS, Variant, find_variant

#: Every rule field of every preset, as docs/rules.md's table gives it.
EXPECTED = {
    "bakers_game": dict(
        deck=52, columns=8, cells=4, build="suit", empty="any", moves="supermove",
        auto_aces=False, aces_on_foundations=False, kings_to_bottom=False, numbering="ms"),
    "freecell": dict(
        deck=52, columns=8, cells=4, build="alternate", empty="any", moves="supermove",
        auto_aces=False, aces_on_foundations=False, kings_to_bottom=False, numbering="ms"),
    "freecell36": dict(
        deck=36, columns=6, cells=2, build="alternate", empty="any", moves="supermove",
        auto_aces=True, aces_on_foundations=False, kings_to_bottom=False, numbering="ms"),
    "bulochnik": dict(
        deck=52, columns=8, cells=4, build="suit", empty="kings", moves="sequence",
        auto_aces=False, aces_on_foundations=True, kings_to_bottom=False, numbering="ms"),
    "bakers_dozen": dict(
        deck=52, columns=13, cells=0, build="any", empty="none", moves="single",
        auto_aces=True, aces_on_foundations=False, kings_to_bottom=True, numbering="pysol"),
    # The games of PySolFC and Freecell Solver in docs/presets.md.
    "king_only_bakers_game": dict(
        deck=52, columns=8, cells=4, build="suit", empty="kings", moves="supermove",
        auto_aces=False, aces_on_foundations=False, kings_to_bottom=False, numbering="pysol"),
    "relaxed_freecell": dict(
        deck=52, columns=8, cells=4, build="alternate", empty="any", moves="sequence",
        auto_aces=False, aces_on_foundations=False, kings_to_bottom=False, numbering="pysol"),
    "eight_off": dict(
        deck=52, columns=8, cells=8, build="suit", empty="kings", moves="supermove",
        auto_aces=False, aces_on_foundations=False, kings_to_bottom=False, numbering="pysol",
        dealt_cells=(0, 2, 4, 6)),
    "seahaven_towers": dict(
        deck=52, columns=10, cells=4, build="suit", empty="kings", moves="supermove",
        auto_aces=False, aces_on_foundations=False, kings_to_bottom=False, numbering="pysol",
        dealt_cells=(1, 2)),
    "relaxed_seahaven_towers": dict(
        deck=52, columns=10, cells=4, build="suit", empty="kings", moves="sequence",
        auto_aces=False, aces_on_foundations=False, kings_to_bottom=False, numbering="pysol",
        dealt_cells=(1, 2)),
    "forecell": dict(
        deck=52, columns=8, cells=4, build="alternate", empty="kings", moves="supermove",
        auto_aces=False, aces_on_foundations=False, kings_to_bottom=False, numbering="pysol",
        dealt_cells=(0, 1, 2, 3)),
    "good_measure": dict(
        deck=52, columns=10, cells=0, build="any", empty="none", moves="single",
        auto_aces=False, aces_on_foundations=False, kings_to_bottom=True, numbering="pysol",
        home_aces=2),
    "beleaguered_castle": dict(
        deck=52, columns=8, cells=0, build="any", empty="any", moves="supermove",
        auto_aces=False, aces_on_foundations=True, kings_to_bottom=False, numbering="pysol"),
    "citadel": dict(
        deck=52, columns=8, cells=0, build="any", empty="any", moves="supermove",
        auto_aces=False, aces_on_foundations=True, kings_to_bottom=False, numbering="pysol",
        deal_to_foundations=True),
    "streets_and_alleys": dict(
        deck=52, columns=8, cells=0, build="any", empty="any", moves="supermove",
        auto_aces=False, aces_on_foundations=False, kings_to_bottom=False, numbering="pysol"),
    "stronghold": dict(
        deck=52, columns=8, cells=1, build="any", empty="any", moves="supermove",
        auto_aces=False, aces_on_foundations=False, kings_to_bottom=False, numbering="pysol"),
    "portuguese_solitaire": dict(
        deck=52, columns=13, cells=0, build="any", empty="kings", moves="single",
        auto_aces=False, aces_on_foundations=False, kings_to_bottom=False, numbering="pysol"),
    "spanish_patience_ii": dict(
        deck=52, columns=13, cells=0, build="any", empty="any", moves="single",
        auto_aces=False, aces_on_foundations=False, kings_to_bottom=False, numbering="pysol"),
    "tuxedo": dict(
        deck=52, columns=7, cells=7, build="suit", empty="any", moves="sequence",
        auto_aces=False, aces_on_foundations=False, kings_to_bottom=False, numbering="pysol",
        wrap=True, last_row=(0, 3, 6)),
    "penguin": dict(
        deck=52, columns=7, cells=7, build="suit", empty="kings", moves="sequence",
        auto_aces=False, aces_on_foundations=False, kings_to_bottom=False, numbering="pysol",
        wrap=True, base_from_deal=True),
    "opus": dict(
        deck=52, columns=7, cells=5, build="suit", empty="kings", moves="sequence",
        auto_aces=False, aces_on_foundations=False, kings_to_bottom=False, numbering="pysol",
        wrap=True, base_from_deal=True),
}

COLUMN_LENGTHS = {
    "bakers_game": (7, 7, 7, 7, 6, 6, 6, 6),
    "freecell": (7, 7, 7, 7, 6, 6, 6, 6),
    "freecell36": (6,) * 6,
    "bulochnik": (6,) * 8,
    "bakers_dozen": (4,) * 13,
    "king_only_bakers_game": (7, 7, 7, 7, 6, 6, 6, 6),
    "relaxed_freecell": (7, 7, 7, 7, 6, 6, 6, 6),
    "eight_off": (6,) * 8,
    "seahaven_towers": (5,) * 10,
    "relaxed_seahaven_towers": (5,) * 10,
    "forecell": (6,) * 8,
    "good_measure": (5,) * 10,
    "beleaguered_castle": (6,) * 8,
    "citadel": (6,) * 8,
    "streets_and_alleys": (7, 7, 7, 7, 6, 6, 6, 6),
    "stronghold": (7, 7, 7, 7, 6, 6, 6, 6),
    "portuguese_solitaire": (4,) * 13,
    "spanish_patience_ii": (4,) * 13,
    "tuxedo": (8, 7, 7, 8, 7, 7, 8),
    "penguin": (7,) * 7,
    "opus": (7,) * 7,
}

#: The fields that `Variant.rules` hands to the C++ core (``cpp/core/rules.hpp``).
CORE_FIELDS = {"deck", "columns", "cells", "build", "empty", "moves", "auto_aces", "dealt_cells",
               "deal_to_foundations", "home_aces", "wrap", "base_from_deal", "last_row",
               "aces_on_foundations", "kings_to_bottom", "numbering"}


# -- presets ----------------------------------------------------------------------

def test_the_presets_are_the_games_of_rules_md() -> None:
    assert list(PRESETS) == list(EXPECTED)
    for name, variant in PRESETS.items():
        assert variant.name == name, f"PRESETS[{name!r}] is called {variant.name!r}"


@pytest.mark.parametrize("name", EXPECTED)
def test_preset_fields(name: str) -> None:
    variant = PRESETS[name]
    expected = {"dealt_cells": (), "deal_to_foundations": False, "home_aces": 0,
                "wrap": False, "base_from_deal": False, "last_row": (),
                **EXPECTED[name]}
    assert variant.rules() == expected, f"{name} differs from docs/rules.md"


@pytest.mark.parametrize("name", EXPECTED)
def test_preset_column_lengths(name: str) -> None:
    variant = PRESETS[name]
    assert variant.column_lengths == COLUMN_LENGTHS[name]
    assert sum(variant.column_lengths) == variant.dealt_cards
    dealt = tuple(len(col) for col in Deal.from_number(variant, 1).columns)
    if variant.deal_to_foundations:  # cards that go home while dealing leave gaps
        assert all(a <= b for a, b in zip(dealt, COLUMN_LENGTHS[name], strict=True))
    else:
        assert dealt == COLUMN_LENGTHS[name], f"deal 1 of {name} has columns of {dealt}"


@pytest.mark.parametrize("name", EXPECTED)
def test_preset_has_a_title(name: str) -> None:
    assert PRESETS[name].title, f"{name} has no title"
    assert str(PRESETS[name]) == name


# -- lookup -----------------------------------------------------------------------

@pytest.mark.parametrize(("text", "name"), [
    ("bakers_game", "bakers_game"),
    ("Baker's Game", "bakers_game"),
    ("Baker\u2019s Game", "bakers_game"),
    ("BAKERS GAME", "bakers_game"),
    ("bakers  game", "bakers_game"),
    ("  bakers-game  ", "bakers_game"),
    ("bakersgame", "bakers_game"),
    ("FREECELL", "freecell"),
    ("Free Cell", "freecell"),
    ("FreeCell", "freecell"),
    ("fc", "freecell"),
    ("FreeCell 36", "freecell36"),
    ("free-cell-36", "freecell36"),
    ("FC36", "freecell36"),
    ("Bulochnik", "bulochnik"),
    ("Булочник", "bulochnik"),
    ("bakers-dozen", "bakers_dozen"),
    ("Baker's Dozen", "bakers_dozen"),
    ("dozen", "bakers_dozen"),
    ("King Only Baker's Game", "king_only_bakers_game"),
    ("ko_bakers_game", "king_only_bakers_game"),
    ("Relaxed FreeCell", "relaxed_freecell"),
    ("Eight Off", "eight_off"),
    ("Seahaven Towers", "seahaven_towers"),
    ("seahaven", "seahaven_towers"),
    ("relaxed_seahaven", "relaxed_seahaven_towers"),
    ("ForeCell", "forecell"),
    ("Beleaguered Castle", "beleaguered_castle"),
    ("Citadel", "citadel"),
    ("Good Measure", "good_measure"),
    ("Streets and Alleys", "streets_and_alleys"),
    ("Stronghold", "stronghold"),
    ("Portuguese Solitaire", "portuguese_solitaire"),
    ("Spanish Patience II", "spanish_patience_ii"),
])
def test_find_variant_ignores_case_spaces_dashes_and_apostrophes(text: str, name: str) -> None:
    assert find_variant(text) is PRESETS[name], f"{text!r} should find {name}"


@pytest.mark.parametrize("name", EXPECTED)
def test_find_variant_by_every_alias(name: str) -> None:
    variant = PRESETS[name]
    for alias in (variant.name, *variant.aliases):
        for spelling in (alias, alias.upper(), alias.replace("_", "-"), f" {alias} "):
            assert find_variant(spelling) is variant, f"{spelling!r} should find {name}"


@pytest.mark.parametrize(("text", "suggested"), [
    ("freecel", "freecell"),
    ("bakers_gam", "bakers_game"),
    ("bulochnic", "bulochnik"),
    ("bakers dozn", "bakers_dozen"),
])
def test_unknown_name_is_quoted_with_close_matches(text: str, suggested: str) -> None:
    with pytest.raises(UnknownVariantError) as info:
        find_variant(text)
    message = str(info.value)
    assert repr(text) in message, message
    assert "did you mean" in message and repr(suggested) in message, message


def test_suggestions_are_preset_names_once_each() -> None:
    with pytest.raises(UnknownVariantError) as info:
        find_variant("frecell")
    hint = str(info.value).split("did you mean", 1)[1]
    names = re.findall(r"'([^']*)'", hint)
    assert names and "freecell" in names, hint
    assert len(names) == len(set(names)) and set(names) <= set(PRESETS), hint


def test_unknown_name_lists_the_games() -> None:
    with pytest.raises(UnknownVariantError, match="'zzz'") as info:
        find_variant("zzz")
    assert all(name in str(info.value) for name in PRESETS)
    assert "did you mean" not in str(info.value)


@pytest.mark.parametrize("bad", ["", "   ", 5, None])
def test_find_variant_rejects_non_names(bad: object) -> None:
    with pytest.raises(UnknownVariantError) as info:
        find_variant(bad)  # type: ignore[arg-type]
    assert repr(bad) in str(info.value)


def test_unknown_variant_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        find_variant("no such game")


def test_a_variant_passes_through() -> None:
    custom = Variant(name="x", cells=3, build="alternate")
    assert find_variant(custom) is custom
    assert find_variant(PRESETS["freecell"]) is PRESETS["freecell"]


# -- custom variants --------------------------------------------------------------

def test_custom_variant_defaults() -> None:
    custom = Variant(name="x", cells=3, build="alternate")
    assert custom.rules() == {**EXPECTED["bakers_game"], "cells": 3, "build": "alternate",
                              "dealt_cells": (), "deal_to_foundations": False, "home_aces": 0,
                              "wrap": False, "base_from_deal": False, "last_row": ()}
    assert custom.column_lengths == (7, 7, 7, 7, 6, 6, 6, 6)


def test_replace_makes_a_new_variant() -> None:
    freecell = find_variant("freecell")
    two = freecell.replace(cells=2)
    assert two.cells == 2 and two.build == "alternate" and two.name == "freecell"
    assert freecell.cells == 4, "replace must not change the preset"
    assert two != freecell


@pytest.mark.parametrize(("columns", "lengths"), [
    (1, (52,)),
    (10, (6, 6, 5, 5, 5, 5, 5, 5, 5, 5)),
    (13, (4,) * 13),
])
def test_custom_column_lengths(columns: int, lengths: tuple[int, ...]) -> None:
    assert Variant(name="x", columns=columns).column_lengths == lengths


def test_custom_column_lengths_without_aces() -> None:
    assert Variant(name="x", deck=36, columns=7, aces_on_foundations=True).column_lengths == (
        5, 5, 5, 5, 4, 4, 4)


@pytest.mark.parametrize(("field", "value"), [
    ("deck", 40),
    ("deck", 52.0),
    ("deck", "52"),
    ("columns", 0),
    ("columns", 14),
    ("columns", 8.0),
    ("cells", 9),
    ("cells", -1),
    ("cells", True),
    ("build", "down"),
    ("empty", "queens"),
    ("moves", "teleport"),
    ("numbering", "x"),
    ("auto_aces", "yes"),
    ("aces_on_foundations", 1),
    ("kings_to_bottom", None),
])
def test_invalid_field_is_named_with_its_value(field: str, value: object) -> None:
    with pytest.raises(InvalidVariantError) as info:
        Variant(name="x", **{field: value})  # type: ignore[arg-type]
    assert f"{field}={value!r}" in str(info.value), str(info.value)


@pytest.mark.parametrize(("field", "value"), [("cells", 9), ("build", "down")])
def test_replace_validates(field: str, value: object) -> None:
    with pytest.raises(InvalidVariantError, match=f"{field}={value!r}"):
        find_variant("freecell").replace(**{field: value})


@pytest.mark.parametrize("name", ["", None, 7])
def test_invalid_name(name: object) -> None:
    with pytest.raises(InvalidVariantError) as info:
        Variant(name=name)  # type: ignore[arg-type]
    assert "name" in str(info.value) and repr(name) in str(info.value), str(info.value)


def test_invalid_variant_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        Variant(name="x", cells=99)


# -- the rules the C++ core reads -------------------------------------------------

@pytest.mark.parametrize("name", EXPECTED)
def test_rules_has_exactly_the_core_fields(name: str) -> None:
    assert set(PRESETS[name].rules()) == CORE_FIELDS


@pytest.mark.parametrize("name", EXPECTED)
@pytest.mark.parametrize("number", [1, 617])
def test_core_deals_every_preset_as_python_does(name: str, number: int) -> None:
    variant = PRESETS[name]
    columns, cells, heights = _core.deal(variant.rules(), number)
    deal = Deal.from_number(variant, number)
    if variant.base_from_deal:  # the core deals it relabelled, the base reading as the ace
        assert (columns, cells, heights) == _core_position(Board(deal)), (
            f"the core's deal {number} of {name} differs from Python's")
        assert sum(heights) == 3 and deal.columns[0][0].rank == deal.base_rank
        return
    assert columns == [[card.code for card in col] for col in deal.columns], (
        f"the core's deal {number} of {name} differs from Python's")
    assert cells == [0 if card is None else card.code for card in deal.cells]
    assert sum(map(bool, cells)) == len(variant.dealt_cells)
    assert heights == list(deal.foundations)
    assert sum(heights) == 4 * variant.aces_on_foundations + variant.home_aces or \
        variant.deal_to_foundations


def test_core_deals_a_custom_variant() -> None:
    custom = Variant(name="x", columns=10, cells=3, build="alternate")
    columns, _, _ = _core.deal(custom.rules(), 1)
    assert [len(col) for col in columns] == list(custom.column_lengths)


@pytest.mark.parametrize(("field", "value"), [
    ("deck", 40),
    ("columns", 0),
    ("columns", 14),
    ("cells", 9),
    ("cells", -1),
    ("build", "down"),
    ("empty", "queens"),
    ("moves", "teleport"),
    ("numbering", "x"),
])
def test_core_rejects_invalid_rules(field: str, value: object) -> None:
    rules = {**PRESETS["freecell"].rules(), field: value}
    with pytest.raises(ValueError):
        _core.deal(rules, 1)


def test_only_games_without_free_space_cut_dead_ends() -> None:
    """Dead ends (cpp/core/dead_end.hpp) need no cells, an empty column that takes
    nothing and cards that move alone: of the presets, Baker's Dozen and Good Measure."""
    assert [v.name for v in PRESETS.values() if v.cuts_dead_ends] == ["bakers_dozen",
                                                                      "good_measure"]
    dozen = find_variant("bakers_dozen")
    assert not dozen.replace(cells=1).cuts_dead_ends
    assert not dozen.replace(empty="kings").cuts_dead_ends
    assert not dozen.replace(moves="sequence").cuts_dead_ends
    assert find_variant("freecell").replace(cells=0, empty="none").cuts_dead_ends


@pytest.mark.parametrize("cells", [(4,), (2, 1), (1, 1), [5], (True,), (-1,), "0"])
def test_dealt_cells_must_be_increasing_cells_of_the_game(cells: object) -> None:
    with pytest.raises(InvalidVariantError, match="dealt_cells"):
        Variant("x", cells=4, dealt_cells=cells)  # type: ignore[arg-type]


def test_a_custom_game_with_dealt_cells_deals_and_round_trips() -> None:
    custom = Variant("x", columns=7, cells=3, dealt_cells=(0, 2))
    deal = Deal.from_number(custom, 5)
    assert [card is not None for card in deal.cells] == [True, False, True]
    assert tuple(map(len, deal.columns)) == custom.column_lengths == (8, 7, 7, 7, 7, 7, 7)
    columns, cells, _ = _core.deal(custom.rules(), 5)
    assert cells == [0 if card is None else card.code for card in deal.cells]
    assert columns == [[card.code for card in col] for col in deal.columns]
    assert Deal.from_json(deal.to_json()) == deal


@pytest.mark.parametrize("value", [-1, 5, True, 1.0])
def test_home_aces_is_a_count_of_aces(value: object) -> None:
    with pytest.raises(InvalidVariantError, match="home_aces"):
        Variant("x", home_aces=value)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        _core.deal({**PRESETS["freecell"].rules(), "home_aces": value}, 1)


def test_home_aces_and_every_ace_home_exclude_each_other() -> None:
    with pytest.raises(InvalidVariantError, match="home_aces"):
        Variant("x", home_aces=2, aces_on_foundations=True)
