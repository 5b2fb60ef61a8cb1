"""Deals: numbered deals against pysol-cards, layouts, board text, JSON and errors."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from bakers.cards import SUITS, Card, deck_ranks, full_deck
from bakers.deals import (
    MAX_MS_NUMBER,
    MAX_PYSOL_NUMBER,
    Deal,
    _kings_down,
    number_range,
    shuffled_deck,
)
from bakers.errors import (
    CardParseError,
    DealParseError,
    InvalidDealError,
    UnknownVariantError,
)
from bakers.variants import PRESETS, Variant, find_variant
from hypothesis import given, settings
from hypothesis import strategies as st
from pysol_cards.cards import CardRenderer
from pysol_cards.deal_game import Game
from pysol_cards.random_base import RandomBase

RENDERER = CardRenderer(True)
MS = RandomBase.DEALS_MS
PYSOLFC = RandomBase.DEALS_PYSOLFC

#: Custom games that exercise the layout rules away from the presets.
CUSTOM = (
    Variant("fc10", columns=10, cells=3, build="alternate"),
    Variant("dozen36", deck=36, columns=9, cells=0, build="any", empty="none",
            moves="single", kings_to_bottom=True, numbering="pysol"),
    Variant("fc_pysol", build="alternate", numbering="pysol"),
    Variant("aces7", columns=7, cells=2, aces_on_foundations=True, kings_to_bottom=True),
)
VARIANTS = (*PRESETS.values(), *CUSTOM)


def pysol_board(game: str, n: int, which: int) -> str:
    """Return pysol-cards' board text of deal ``n`` of ``game``."""
    return Game(game, n, which).calc_layout_string(RENDERER)


def dealing_order(board: str) -> list[Card]:
    """Return the cards of a round-robin board text in the order they were dealt."""
    rows = [[Card.parse(t) for t in line.split()] for line in board.splitlines()]
    return [col[r] for r in range(max(map(len, rows))) for col in rows if r < len(col)]


def cards(text: str) -> tuple[Card, ...]:
    """Return the cards of a space-separated text."""
    return tuple(Card.parse(t) for t in text.split())


# --------------------------------------------------------------------------- numbers


@pytest.mark.parametrize("game", ["freecell", "bakers_game"])
def test_ms_deals_1_to_1000_equal_pysol_cards(game: str) -> None:
    for n in range(1, 1001):
        expected = pysol_board(game, n, MS)
        deal = Deal.from_number(game, n)
        assert deal.to_text() == expected, n
        assert Deal.parse(game, expected) == deal, n


def test_bakers_dozen_deals_1_to_1000_equal_pysol_cards() -> None:
    for n in range(1, 1001):
        expected = pysol_board("bakers_dozen", n, PYSOLFC)
        deal = Deal.from_number("bakers_dozen", n)
        assert deal.to_text() == expected, n
        assert Deal.parse("bakers_dozen", expected) == deal, n


@pytest.mark.parametrize(("preset", "pysol_game"), [
    ("king_only_bakers_game", "ko_bakers_game"), ("relaxed_freecell", "relaxed_freecell"),
    ("beleaguered_castle", "beleaguered_castle"), ("streets_and_alleys", "streets_and_alleys"),
    ("citadel", "citadel"), ("eight_off", "eight_off"), ("seahaven_towers", "seahaven"),
    ("relaxed_seahaven_towers", "relaxed_seahaven"), ("forecell", "forecell"),
])
def test_pysolfc_presets_deal_as_pysol_cards(preset: str, pysol_game: str) -> None:
    for n in (*range(1, 201), 32000, 32001, 10**6, 2**40, MAX_PYSOL_NUMBER):
        expected = pysol_board(pysol_game, n, PYSOLFC)
        deal = Deal.from_number(preset, n)
        assert Deal.parse(preset, expected) == deal, n  # pysol-cards omits trailing cells


@pytest.mark.parametrize("n", [32000, 32001, 10**6, 2**31 - 1, 2**31, 2**31 + 1, 2**32 - 1,
                               2**32, 2**32 + 5, 2**33 - 2, MAX_MS_NUMBER])
@pytest.mark.parametrize("game", ["freecell", "bakers_game"])
def test_big_ms_numbers_equal_pysol_cards(game: str, n: int) -> None:
    assert Deal.from_number(game, n).to_text() == pysol_board(game, n, MS)


@pytest.mark.parametrize("n", [32000, 32001, 32002, 10**6, 2**31, 2**33, 2**40, 10**19,
                               MAX_PYSOL_NUMBER])
def test_big_pysol_numbers_equal_pysol_cards(n: int) -> None:
    assert Deal.from_number("bakers_dozen", n).to_text() == \
        pysol_board("bakers_dozen", n, PYSOLFC)


@pytest.mark.parametrize("n", [1, 617, 32000, 32001, 10**6, 2**40])
def test_pysol_numbered_freecell_equals_pysol_freecell(n: int) -> None:
    variant = Variant("fc_pysol", build="alternate", numbering="pysol")
    assert Deal.from_number(variant, n).to_text() == pysol_board("freecell", n, PYSOLFC)


@pytest.mark.parametrize("n", [1, 2, 11982, 32000])
def test_bakers_dozen_deals_the_ms_pack_from_the_other_end(n: int) -> None:
    assert shuffled_deck("bakers_dozen", n) == shuffled_deck("freecell", n)[::-1]


def test_shuffled_deck_of_ms_1_starts_as_microsoft_deal_1() -> None:
    deck = shuffled_deck(find_variant("freecell"), 1)
    assert deck[:8] == list(cards("JD 2D 9H JC 5D 7H 7C 5H"))
    assert sorted(deck) == sorted(full_deck(52))


@pytest.mark.parametrize("variant", VARIANTS, ids=str)
def test_shuffled_deck_holds_the_variant_deck(variant: Variant) -> None:
    low, high = number_range(variant)
    for n in (low, 617, 32001, high):
        assert sorted(shuffled_deck(variant, n)) == sorted(full_deck(variant.deck))


@pytest.mark.parametrize("game", ["freecell36", "bulochnik", "fc10", "aces7"])
def test_small_decks_and_aces_home_follow_the_ms_dealing_order(game: str) -> None:
    variant = find_variant(game) if game in PRESETS else next(v for v in CUSTOM
                                                            if v.name == game)
    ranks = deck_ranks(variant.deck)
    for n in (1, 2, 617, 11982, 2**32 + 5):
        order = [c for c in dealing_order(pysol_board("freecell", n, MS)) if c.rank in ranks]
        if variant.kings_to_bottom:
            order.reverse()
        if variant.aces_on_foundations:
            order = [c for c in order if c.rank != 1]
        columns = tuple(tuple(order[i::variant.columns]) for i in range(variant.columns))
        if variant.kings_to_bottom:
            columns = tuple(map(_kings_down, columns))
        assert Deal.from_number(variant, n).columns == columns


def test_bulochnik_boards_1_to_1000(data_dir: Path) -> None:
    lines = (data_dir / "bulochnik_boards_1-1000.jsonl").read_text().splitlines()
    assert len(lines) == 1000
    for line in lines:
        record = json.loads(line)
        deal = Deal.from_number("bulochnik", record["n"])
        assert deal.to_text() == record["board"], record["n"]
        assert Deal.parse("bulochnik", record["board"]) == deal


@pytest.mark.parametrize("path", sorted((Path(__file__).parent / "data" / "boards").glob(
    "*.board")), ids=lambda p: p.name)
def test_board_files_are_the_numbered_deals(path: Path) -> None:
    text = path.read_text()
    n = int(re.search(r"(\d+)\.board$", path.name).group(1))
    games = ["bakers_dozen"] if path.name.startswith("bakers_dozen") else [
        "freecell", "bakers_game"]
    for game in games:
        deal = Deal.parse(game, text)
        assert deal == Deal.from_number(game, n)
        assert deal.to_text() == text


@pytest.mark.parametrize("variant", VARIANTS, ids=str)
@pytest.mark.parametrize("n", [0, -1, 2**64, 10**30])
def test_bad_numbers_name_the_number_and_the_range(variant: Variant, n: object) -> None:
    low, high = number_range(variant)
    with pytest.raises(InvalidDealError, match=re.escape(f"{n!r}"[:12])) as info:
        Deal.from_number(variant, n)  # type: ignore[arg-type]
    assert f"{low}..{high}" in str(info.value)
    assert len(str(info.value)) < 200


def test_a_number_of_thousands_of_digits_is_out_of_range() -> None:
    # (Python's repr() refuses such an int: the message gives its size instead.)
    with pytest.raises(InvalidDealError, match="deal number of about 5000 digits is out of range"):
        Deal.from_number("freecell", 10**4999)


@pytest.mark.parametrize("n", [1.0, True, "5", "x", None])
def test_a_number_of_another_type_is_a_type_error(n: object) -> None:
    # Not "out of range": the number is of the wrong type, and the message says which.
    with pytest.raises(TypeError, match=f"a deal number is an int, not {type(n).__name__}"):
        Deal.from_number("freecell", n)  # type: ignore[arg-type]


def test_numbers_just_past_the_range() -> None:
    assert number_range("freecell") == (1, 2**33 - 1)
    assert number_range("bakers_dozen") == (1, 2**64 - 1)
    with pytest.raises(InvalidDealError, match=r"8589934592 is out of range.*1\.\.8589934591"):
        Deal.from_number("freecell", 2**33)
    with pytest.raises(InvalidDealError, match=str(2**64)):
        Deal.from_number("bakers_dozen", 2**64)
    with pytest.raises(UnknownVariantError, match="'freecel'"):
        Deal.from_number("freecel", 1)


# --------------------------------------------------------------------------- layouts


def assert_first_position(deal: Deal) -> None:
    """Check the shape of a first position of a preset or custom game."""
    variant = deal.variant
    lengths = tuple(map(len, deal.columns))
    assert [k for k, card in enumerate(deal.cells) if card] == list(variant.dealt_cells)
    if variant.deal_to_foundations:  # a card home while dealing leaves its column short
        assert all(a <= b for a, b in zip(lengths, variant.column_lengths, strict=True))
        assert sum(lengths) + sum(deal.foundations) + len(variant.dealt_cells) == variant.deck
    else:
        assert lengths == variant.column_lengths
        if variant.aces_on_foundations:
            assert deal.foundations == (1,) * 4
        elif variant.base_from_deal:  # three of the base rank home, the fourth dealt first
            base = deal.base_rank
            assert sorted(deal.foundations) == [0, base, base, base]
            assert deal.columns[0][0] == Card(deal.foundations.index(0), base)
        else:
            assert sorted(deal.foundations) == [0] * (4 - variant.home_aces) + \
                [1] * variant.home_aces
    ranks = set(deck_ranks(variant.deck))
    assert all(c.rank in ranks for col in deal.columns for c in col)
    # Good Measure's kings go down before two aces leave the pack, shifting them.
    if variant.kings_to_bottom and not variant.home_aces:
        for col in deal.columns:
            kings = [row for row, c in enumerate(col) if c.rank == 13]
            assert kings == list(range(len(kings))), col


@pytest.mark.parametrize("variant", VARIANTS, ids=str)
def test_first_positions_have_the_variant_layout(variant: Variant) -> None:
    for n in (1, 24, 617, 11982, 32001, 10**6):
        assert_first_position(Deal.from_number(variant, n))
    for seed in (0, 1, 2, 10**30):
        assert_first_position(Deal.from_seed(variant, seed))


def test_preset_column_lengths() -> None:
    lengths = {name: tuple(map(len, Deal.from_number(name, 1).columns)) for name in PRESETS}
    assert lengths == {
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
        "citadel": (6, 3, 6, 6, 5, 6, 4, 5),
        "streets_and_alleys": (7, 7, 7, 7, 6, 6, 6, 6),
        "stronghold": (7, 7, 7, 7, 6, 6, 6, 6),
        "portuguese_solitaire": (4,) * 13,
        "spanish_patience_ii": (4,) * 13,
        "tuxedo": (8, 7, 7, 8, 7, 7, 8),
        "penguin": (7,) * 7,
        "opus": (7,) * 7,
    }
    assert not any(c.rank in (2, 3, 4, 5)
                   for col in Deal.from_number("freecell36", 1).columns for c in col)
    bulochnik = Deal.from_number("bulochnik", 1)
    assert bulochnik.foundations == (1, 1, 1, 1)
    assert not any(c.rank == 1 for col in bulochnik.columns for c in col)


@pytest.mark.parametrize(("column", "expected"), [
    ("5H 7C KS", "KS 7C 5H"),          # the king swaps with the lowest non-king
    ("5H KS KD", "KS KD 5H"),          # kings keep their order
    ("KS 5H KD 2C", "KS KD 5H 2C"),    # a king already at the bottom stays
    ("KS KD KH KC", "KS KD KH KC"),
    ("2C 3C 4C", "2C 3C 4C"),
    ("", ""),
])
def test_kings_down(column: str, expected: str) -> None:
    assert _kings_down(cards(column)) == cards(expected)


def test_from_seed_is_pinned() -> None:
    # The derivation is stable forever: these lines must never change.
    assert Deal.from_seed("freecell", 0).to_text().splitlines()[0] == \
        " ".join(str(c) for c in pinned_seed_order(52, 0)[0::8])
    assert Deal.from_seed("freecell", 1).to_text() == (
        "9S TS KC 6H 4S 5C KH\n9D 7D 8S 6D AS 6S KD\n2D TH 3S 7S 8D 2H 5S\n"
        "4H TC 8C KS 9H 5H 7H\n3C 3H QS QH AD TD\n8H 2C QC 3D 4C 4D\n"
        "7C 6C JD QD AH 9C\n2S AC JH JS 5D JC\n")
    assert Deal.from_seed("bakers_dozen", 2**64).columns[3] == cards("KS JD 4S 3S")
    assert Deal.from_seed("bulochnik", 2).foundations == (1, 1, 1, 1)


def pinned_seed_order(deck: int, seed: int) -> list[Card]:
    """Return the documented seeded shuffle, written out independently."""
    order = full_deck(deck)
    rng = random.Random(seed)
    for i in range(len(order) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        order[i], order[j] = order[j], order[i]
    return order


@pytest.mark.parametrize("variant", VARIANTS, ids=str)
def test_from_seed_follows_the_documented_shuffle(variant: Variant) -> None:
    for seed in (0, 7, 2**64 + 3):
        order = pinned_seed_order(variant.deck, seed)
        if variant.aces_on_foundations:
            order = [c for c in order if c.rank != 1]
        if variant.base_from_deal:  # the first card's rank first, three of them home
            base = order[0].rank
            order = [c for c in order if c.rank == base][3:] + \
                [c for c in order if c.rank != base]
        kings_down = variant.kings_to_bottom
        if variant.home_aces:  # kings down in the whole pack, then the last aces go home
            n = variant.columns
            by_column = [order[i::n] for i in range(n)]
            by_column = [list(_kings_down(col)) for col in by_column]
            order = [by_column[i % n][i // n] for i in range(len(order))]
            aces = [i for i, c in enumerate(order) if c.rank == 1][-variant.home_aces:]
            order = [c for i, c in enumerate(order) if i not in aces]
            kings_down = False
        last = len(order) - len(variant.dealt_cells)
        order, held = order[:last], order[last:]
        row = len(order) - len(variant.last_row)
        order, last_row = order[:row], order[row:]
        if variant.deal_to_foundations:  # a card that goes home leaves its slot empty
            ranks = (0, *deck_ranks(variant.deck))
            tops = [1 if variant.aces_on_foundations else 0] * 4
            slots: list[Card | None] = []
            for c in order:
                home = ranks.index(c.rank) == ranks.index(tops[c.suit]) + 1
                tops[c.suit] = c.rank if home else tops[c.suit]
                slots.append(None if home else c)
            order = slots
        columns = tuple(tuple(c for c in order[i::variant.columns] if c is not None)
                        for i in range(variant.columns))
        if kings_down:
            columns = tuple(map(_kings_down, columns))
        for i, card in zip(variant.last_row, last_row, strict=True):
            columns = (*columns[:i], (*columns[i], card), *columns[i + 1:])
        deal = Deal.from_seed(variant, seed)
        assert deal.columns == columns
        assert [deal.cells[k] for k in variant.dealt_cells] == held
        assert (deal.seed, deal.number) == (seed, None)


def test_random_records_its_seed() -> None:
    deal = Deal.random("freecell", random.Random(5))
    assert deal.seed is not None and deal == Deal.from_seed("freecell", deal.seed)
    assert Deal.random("bakers_dozen").seed is not None


def test_bad_seeds() -> None:
    with pytest.raises(InvalidDealError, match=re.escape("seed -1")):
        Deal.from_seed("freecell", -1)
    for seed in (1.5, True, "3", None):
        with pytest.raises(TypeError, match=f"a seed is an int, not {type(seed).__name__}"):
            Deal.from_seed("freecell", seed)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- the record


def test_equality_ignores_number_and_seed() -> None:
    deal = Deal.from_number("freecell", 617)
    same = Deal(find_variant("freecell"), deal.columns)
    assert same == deal and hash(same) == hash(deal)
    assert same.number is None and deal.number == 617
    assert Deal.from_number("bakers_game", 617) != deal  # another variant
    with pytest.raises(AttributeError):
        deal.number = 5  # type: ignore[misc]


def test_constructor_takes_texts_and_lists() -> None:
    deal = Deal.from_number("freecell", 1)
    columns = [[str(c) for c in col] for col in deal.columns]
    assert Deal("freecell", columns, [None] * 4, [0, 0, 0, 0]) == deal
    assert Deal("fc", columns).cells == (None,) * 4
    with pytest.raises(CardParseError, match="'ZZ'"):
        Deal("freecell", [["ZZ"], *columns[1:]])
    with pytest.raises(CardParseError, match="None"):
        Deal("freecell", [[None], *columns[1:]])


@pytest.mark.parametrize("deal", [
    Deal.from_number("freecell", 617),
    Deal.from_number("bakers_dozen", 10**6),
    Deal.from_seed("bulochnik", 3),
    Deal.from_number(CUSTOM[0], 5),
    Deal.from_seed(CUSTOM[1], 5),
], ids=repr)
def test_repr_rebuilds(deal: Deal) -> None:
    names = {"Deal": Deal, "Variant": Variant, "find_variant": find_variant}
    assert eval(repr(deal), names) == deal  # noqa: S307


def test_repr_forms() -> None:
    assert repr(Deal.from_number("freecell", 617)) == \
        "Deal.from_number(find_variant('freecell'), 617)"
    assert repr(Deal.from_seed("bakers_game", 9)) == \
        "Deal.from_seed(find_variant('bakers_game'), 9)"
    deal = mid_game()
    assert repr(deal).startswith("Deal.parse('freecell', 'Foundations: H-3 C-0 D-A S-K\\n")
    # a number that does not rebuild the position is not used
    moved = Deal(deal.variant, deal.columns, deal.cells, deal.foundations, number=1)
    assert repr(moved).startswith("Deal.parse(")


# --------------------------------------------------------------------------- board text


def mid_game() -> Deal:
    """Return a hand-built FreeCell position with cells, foundations and empty columns."""
    text = """\
Foundations: H-3 C-0 D-A S-K
Freecells: - 3D TC -
:
4H 5H 6H 7H 8H 9H TH JH QH KH
AC 2C 3C 4C 5C 6C 7C 8C 9C
:
JC QC KC 2D
4D 5D 6D 7D 8D 9D TD JD QD KD
:
:
"""
    return Deal.parse("freecell", text)


def test_mid_game_text_round_trip() -> None:
    deal = mid_game()
    assert deal.foundations == (3, 0, 1, 13)
    assert deal.cells == (None, Card.parse("3D"), Card.parse("TC"), None)
    assert [len(c) for c in deal.columns] == [0, 10, 9, 0, 4, 10, 0, 0]
    assert Deal.parse("freecell", deal.to_text()) == deal
    assert deal.to_text().splitlines()[:2] == ["Foundations: H-3 C-0 D-A S-K",
                                               "Freecells: - 3D TC -"]


def test_text_spellings() -> None:
    text = """\
# Microsoft deal 1, as fc-solve prints it, with variations
  founds:  s-0   h-0
Freecells:
: jd kd 2s 4c 3s 6d 6s
: 2D KC KS 5C 10d 8S 9C
9H 9S 9D TS 4S 8D 2H
# a comment is not a column
JC 5S QD QH th QS 6H
5D AD JS 4H 8H 6C
7H QC AS AC 2C 3D
7C KH AH 4D JH 8C
5H 3H 3C 7S 7D 10C


"""
    assert Deal.parse("Free Cell", text) == Deal.from_number("freecell", 1)


def test_empty_columns_between_and_at_the_ends() -> None:
    deal = Deal.parse(
        "freecell", "Foundations: H-K C-K D-Q S-K\nFreecells: KD\n:\n\n\n:\n\n:\n:\n:\n\n\n")
    assert deal.columns == ((),) * 8 and deal.cells[0] == Card.parse("KD")
    assert Deal.parse("freecell", deal.to_text()) == deal
    assert deal.to_text().count(":") == 10  # 2 in the headers, 8 empty columns


def test_freecells_fill_in_the_order_written(data_dir: Path) -> None:
    # Freecell Solver prints its cells four characters each, an empty one blank, but
    # reads a board's cells in the order written, whatever the spacing: a board given
    # to it as ``Freecells:      8H  2H  4S`` has 8H in cell 0, and its solution's
    # "freecell 0" is that card. bakers reads boards the same way.
    text = (data_dir / "solutions" / "freecell_ms24_fcsolve_verbose.txt").read_text()
    line = "Freecells:      8H  2H  4S"
    at = text.index(line)
    block = text[text.rindex("Foundations:", 0, at):].split("\n\n")[0]
    deal = Deal.parse("freecell", block)
    assert deal.cells == (*cards("8H 2H 4S"), None)
    assert Deal.parse("freecell", block.replace(line, "Freecells: 8H 2H 4S")) == deal
    kept = Deal.parse("freecell", block.replace(line, "Freecells: -  8H\t2H 4S"))
    assert kept.cells == (None, *cards("8H 2H 4S"))
    assert kept.to_text().splitlines()[1] == "Freecells: - 8H 2H 4S"


@pytest.mark.parametrize("name", ["freecell_ms24", "bakers_game_ms1"])
def test_every_position_of_fc_solve_verbose_output_parses(data_dir: Path, name: str) -> None:
    game = name.rsplit("_", 1)[0]
    text = (data_dir / "solutions" / f"{name}_fcsolve_verbose.txt").read_text()
    blocks = re.findall(r"^Foundations:.*\n(?:.*\S.*\n)+", text, re.MULTILINE)
    deals = [Deal.parse(game, block) for block in blocks]
    assert len(deals) > 100
    assert deals[0] == Deal.from_number(game, int(re.search(r"\d+$", name).group()))
    assert deals[-1].foundations == (13, 13, 13, 13)
    assert deals[-1].columns == ((),) * 8
    for deal in deals:
        assert Deal.parse(game, deal.to_text()) == deal
    home = [sum(deal.foundations) for deal in deals]
    assert home == sorted(home)


# --------------------------------------------------------------------------- JSON


def test_json_schema() -> None:
    data = json.loads(Deal.from_number("freecell", 617).to_json())
    assert list(data) == ["game", "number", "columns", "cells", "foundations"]
    assert data["game"] == "freecell" and data["number"] == 617
    assert data["columns"][0] == ["7D", "TD", "TH", "KD", "4C", "4S", "JD"]
    assert data["cells"] == [None] * 4
    assert data["foundations"] == {"H": 0, "C": 0, "D": 0, "S": 0}
    seeded = json.loads(Deal.from_seed("bulochnik", 4).to_json(indent=2))
    assert seeded["seed"] == 4 and "number" not in seeded
    assert seeded["foundations"] == {"H": 1, "C": 1, "D": 1, "S": 1}


def test_json_round_trips() -> None:
    for deal in (mid_game(), Deal.from_number("bakers_dozen", 2**40),
                 Deal.from_number(CUSTOM[3], 7), Deal.from_seed(CUSTOM[1], 8)):
        again = Deal.from_json(deal.to_json())
        assert again == deal and (again.number, again.seed) == (deal.number, deal.seed)
        assert Deal.from_json(deal.to_dict()) == deal
    assert json.loads(Deal.from_number(CUSTOM[0], 1).to_json())["game"]["columns"] == 10


def test_json_short_forms() -> None:
    assert Deal.from_json('{"game": "bakers_dozen", "number": 64}') == \
        Deal.from_number("bakers_dozen", 64)
    assert Deal.from_json({"game": "bg", "seed": 3}) == Deal.from_seed("bakers_game", 3)
    columns = [[str(c) for c in col] for col in Deal.from_number("freecell", 2).columns]
    assert Deal.from_json({"game": "freecell", "columns": columns}) == \
        Deal.from_number("freecell", 2)


# --------------------------------------------------------------------------- hypothesis


@st.composite
def positions(draw: st.DrawFn) -> Deal:
    """Draw any position of a preset or custom game (not necessarily reachable)."""
    variant = draw(st.sampled_from(VARIANTS))
    ranks = deck_ranks(variant.deck)
    low = 1 if variant.aces_on_foundations else 0
    if variant.base_from_deal:  # foundations from any base, one at least not empty
        ranks = variant.foundation_ranks(draw(st.integers(1, 13)))
        low = draw(st.integers(1, 13))
    home = [draw(st.integers(low, len(ranks))) for _ in SUITS]
    foundations = tuple(ranks[h - 1] if h else 0 for h in home)
    rest = draw(st.permutations([Card(s, r) for s in range(4) for r in ranks[home[s]:]]))
    k = draw(st.integers(0, min(variant.cells, len(rest))))
    cells: list[Card | None] = [None] * variant.cells
    for slot, card in zip(draw(st.permutations(range(variant.cells)))[:k], rest[:k],
                          strict=False):
        cells[slot] = card
    rest = rest[k:]
    cuts = sorted(draw(st.lists(st.integers(0, len(rest)), min_size=variant.columns - 1,
                                max_size=variant.columns - 1)))
    bounds = [0, *cuts, len(rest)]
    columns = [rest[a:b] for a, b in zip(bounds, bounds[1:], strict=False)]
    return Deal(variant, columns, cells, foundations)


@settings(max_examples=200, deadline=None)
@given(positions())
def test_any_position_round_trips(deal: Deal) -> None:
    assert Deal.parse(deal.variant, deal.to_text()) == deal
    assert Deal.from_json(deal.to_json()) == deal


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(min_value=0, max_value=2**70))
def test_seeded_deals_round_trip(variant: Variant, seed: int) -> None:
    deal = Deal.from_seed(variant, seed)
    assert_first_position(deal)
    assert Deal.parse(variant, deal.to_text()) == deal
    assert Deal.from_json(deal.to_json()) == deal
    assert eval(repr(deal), {"Deal": Deal, "Variant": Variant,  # noqa: S307
                             "find_variant": find_variant}) == deal


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(min_value=1, max_value=MAX_MS_NUMBER))
def test_numbered_deals_round_trip(variant: Variant, n: int) -> None:
    deal = Deal.from_number(variant, n)
    assert_first_position(deal)
    assert Deal.parse(variant, deal.to_text()) == deal
    assert Deal.from_json(deal.to_json()) == deal


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_damaged_texts_raise_only_deal_errors(data: st.DataObject) -> None:
    deal = data.draw(positions())
    text = deal.to_text()
    i = data.draw(st.integers(0, len(text)))
    j = data.draw(st.integers(i, min(len(text), i + 6)))
    junk = data.draw(st.text(alphabet="AKQJT1098765432HCDSx:-#* \n\t", max_size=6))
    try:
        again = Deal.parse(deal.variant, text[:i] + junk + text[j:])
    except (DealParseError, InvalidDealError):
        return
    assert Deal.parse(deal.variant, again.to_text()) == again


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_any_text_parses_or_raises_a_deal_error(text: str) -> None:
    with pytest.raises((DealParseError, InvalidDealError)):
        Deal.parse("freecell", text)


# --------------------------------------------------------------------------- errors


def freecell_1_columns() -> list[list[str]]:
    return [[str(c) for c in col] for col in Deal.from_number("freecell", 1).columns]


def test_duplicate_card_names_both_places() -> None:
    cells = [None, "2H", None, None]  # 2H is also the top of column 3
    with pytest.raises(InvalidDealError,
                       match=r"card '2H' appears twice: column 3 and cell b"):
        Deal("freecell", freecell_1_columns(), cells)


def test_the_eighth_cell_is_named_as_the_move_notation_names_it() -> None:
    # h is the foundations in the notation, so the eighth cell is i there and here.
    cells = [None] * 7 + ["2H"]
    with pytest.raises(InvalidDealError,
                       match=r"card '2H' appears twice: column 3 and cell i"):
        Deal(find_variant("freecell").replace(cells=8), freecell_1_columns(), cells)


def test_duplicate_card_in_text_says_the_lines() -> None:
    text = "Freecells: - 6S\n" + Deal.from_number("freecell", 1).to_text()
    with pytest.raises(InvalidDealError, match=re.escape(
            "card '6S' appears twice: column 1 (line 2, column 19) and cell b "
            "(line 1, column 14)")):
        Deal.parse("freecell", text)


def test_missing_cards_are_named() -> None:
    columns = freecell_1_columns()
    columns[7].pop()
    with pytest.raises(InvalidDealError, match=r"missing card 'TC'"):
        Deal("freecell", columns)
    columns[6].pop()
    with pytest.raises(InvalidDealError, match=r"missing cards '8C', 'TC'"):
        Deal("freecell", columns)


def test_card_not_in_the_deck() -> None:
    text = Deal.from_number("freecell36", 1).to_text().replace("JD", "3H", 1)
    with pytest.raises(InvalidDealError,
                       match=r"card '3H' in column 1 \(line 1, column 1\) is not in the "
                             r"36-card deck of freecell36"):
        Deal.parse("freecell36", text)


def test_wrong_column_count() -> None:
    text = "".join(Deal.from_number("bakers_dozen", 1).to_text().splitlines(True)[:12])
    with pytest.raises(InvalidDealError,
                       match=re.escape("bakers_dozen has 13 columns, the text has 12 "
                                       "(lines 1-12)")):
        Deal.parse("bakers_dozen", text)
    with pytest.raises(InvalidDealError, match="freecell has 8 columns, the deal has 7"):
        Deal("freecell", freecell_1_columns()[:7])
    with pytest.raises(InvalidDealError, match=r"the text has 0 \(no column lines\)"):
        Deal.parse("freecell", "# nothing\n")


def test_wrong_cell_count() -> None:
    with pytest.raises(InvalidDealError, match="freecell has 4 cells, the deal has 2"):
        Deal("freecell", freecell_1_columns(), [None, None])
    columns = freecell_1_columns()
    card = columns[0].pop()
    text = f"Freecells: - - - - {card}\n" + "\n".join(map(" ".join, columns))
    with pytest.raises(InvalidDealError, match=re.escape(
            "freecell has 4 cells, the text puts '6S' in cell 5 (line 1, column 20)")):
        Deal.parse("freecell", text)


def test_foundation_rank_not_in_the_deck() -> None:
    text = "Foundations: H-3\n" + Deal.from_number("freecell36", 1).to_text()
    with pytest.raises(InvalidDealError, match=re.escape(
            "foundation 'H-3' at the H foundation (line 1, column 14) is not in the 36-card "
            "deck of freecell36")):
        Deal.parse("freecell36", text)
    with pytest.raises(InvalidDealError, match=r"foundation 'C-14'"):
        Deal("freecell", freecell_1_columns(), foundations=(0, 14, 0, 0))


def test_card_in_play_below_its_foundation_top() -> None:
    text = "Foundations: D-2 S-A\n" + Deal.from_number("freecell", 1).to_text()
    with pytest.raises(InvalidDealError, match=re.escape(
            "card '2D' is in column 2 (line 3, column 1) but the D foundation "
            "(line 1, column 14) is already up to '2D'")):
        Deal.parse("freecell", text)


def test_aces_must_start_home_in_bulochnik() -> None:
    board = Deal.from_number("bulochnik", 1).to_text().replace("C-A", "C-0")
    with pytest.raises(InvalidDealError, match=r"aces on the foundations.*'C-0'"):
        Deal.parse("bulochnik", board)


@pytest.mark.parametrize(("line", "token", "col"), [
    ("JD KD 2S 4C 3S 6D XS", "XS", 19),
    ("  : JD KD 1S 4C 3S 6D 6S", "1S", 11),
    ("JD KD 2S 4C 3S 6D 6S:", "6S:", 19),
])
def test_malformed_card_says_line_and_column(line: str, token: str, col: int) -> None:
    text = Deal.from_number("freecell", 1).to_text().replace("JD KD 2S 4C 3S 6D 6S", line)
    with pytest.raises(DealParseError,
                       match=re.escape(f"line 1, column {col}: not a card: {token!r}")):
        Deal.parse("freecell", text)


@pytest.mark.parametrize(("header", "message"), [
    ("Foundations: H-A C-X", "line 1, column 18: not a foundation: 'C-X'"),
    ("Founds: HA", "line 1, column 9: not a foundation: 'HA'"),
    ("Foundations: H-A h-2", "line 1, column 18: foundation 'h-2' repeats suit 'H'"),
    ("Freecells: 3D QQ", "line 1, column 15: not a card: 'QQ'"),
])
def test_malformed_headers(header: str, message: str) -> None:
    text = header + "\n" + Deal.from_number("freecell", 1).to_text()
    with pytest.raises(DealParseError, match=re.escape(message)):
        Deal.parse("freecell", text)


def test_misplaced_and_repeated_headers() -> None:
    board = Deal.from_number("freecell", 1).to_text()
    with pytest.raises(DealParseError, match=re.escape(
            "line 9, column 1: header 'Foundations' must come before the columns")):
        Deal.parse("freecell", board + "Foundations: H-0\n")
    with pytest.raises(DealParseError, match=re.escape(
            "line 2, column 1: a second freecells line 'freecells' (the first is line 1)")):
        Deal.parse("freecell", "Freecells: -\nfreecells: -\n" + board)


def test_parse_needs_text_and_a_known_game() -> None:
    with pytest.raises(DealParseError, match="'bytes'"):
        Deal.parse("freecell", b"JD")  # type: ignore[arg-type]
    with pytest.raises(UnknownVariantError, match="'klondike'"):
        Deal.parse("klondike", "JD")


@pytest.mark.parametrize(("change", "message"), [
    ({"colour": 1}, "unknown key 'colour'"),
    ({"game": None}, "missing key 'game'"),
    ({"game": "spider"}, "key 'game': unknown game 'spider'"),
    ({"game": {"name": "x", "deck": 40}}, "key 'game': variant 'x': deck=40"),
    ({"game": {"name": "x", "wings": 2}}, "key 'game':"),
    ({"number": "617"}, "key 'number': '617' is not an integer"),
    ({"columns": "JD KD"}, "key 'columns': 'JD KD' is not a list"),
    ({"columns": [["JD", "1X"]]}, "key 'columns[0][1]': not a card: '1X'"),
    ({"columns": [["JD", 7]]}, "key 'columns[0][1]': 7 is not a card text"),
    ({"cells": [None, "ZZ"]}, "key 'cells[1]': not a card: 'ZZ'"),
    ({"foundations": [0, 0, 0, 0]}, "key 'foundations': [0, 0, 0, 0] is not an object"),
    ({"foundations": {"X": 1}}, "key 'foundations.X': 'X' is not a suit"),
    ({"foundations": {"H": "A"}}, "key 'foundations.H': 'A' is not a rank 0..13"),
])
def test_bad_json_names_the_key(change: dict, message: str) -> None:
    data = Deal.from_number("freecell", 617).to_dict()
    data.update(change)
    if change.get("game", "") is None:
        del data["game"]
    with pytest.raises(DealParseError, match=re.escape(message)):
        Deal.from_json(data)


def test_bad_json_text() -> None:
    with pytest.raises(DealParseError, match=r"not JSON: .* line 1, column 10"):
        Deal.from_json('{"game": ]')
    with pytest.raises(DealParseError, match="is an object, not 'list'"):
        Deal.from_json("[1, 2]")
    with pytest.raises(DealParseError, match=r"key 'number': deal number 0 is out of range"):
        Deal.from_json({"game": "freecell", "number": 0})
    with pytest.raises(DealParseError, match=r"missing key 'columns'"):
        Deal.from_json({"game": "freecell"})
    with pytest.raises(InvalidDealError, match="missing card"):
        Deal.from_json({"game": "freecell", "columns": [[]] * 8})
