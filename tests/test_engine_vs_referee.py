"""The C++ engine against the pure-Python referee, on many positions of every game.

* ``_core.legal_moves`` lists exactly the referee's legal moves, up to the pruning that
  ``cpp/core/moves.hpp`` documents (a move to a cell only to the first empty cell, to an
  empty column only to the first empty column, never a whole column into an empty
  column, never cell to cell);
* ``_core.settle`` makes only foundation moves the referee accepts, each one provably
  safe, and leaves no safe one undone;
* ``_core.deal`` deals the same cards as `bakers.deals.Deal.from_number`.
"""

from __future__ import annotations

import itertools
import zlib
from collections import Counter
from collections.abc import Iterable

import pytest
from bakers import PRESETS, Variant, find_variant
from bakers.board import Board
from bakers.cards import deck_ranks
from bakers.deals import Deal
from bakers.limits import Limits
from bakers.notation import Move
from bakers.solving import solve
from helpers_positions import (
    board_from_core,
    core_position,
    is_next_home,
    line_positions,
    random_positions,
    safe_to_send_home,
)

core = pytest.importorskip("bakers._core")

CoreMove = tuple[int, int, int, int, int]
COLUMN, CELL, FOUNDATION = 0, 1, 2

CUSTOM = (
    Variant("freecell_2cells_kings", build="alternate", cells=2, empty="kings"),
    Variant("bakers_game_sequence", build="suit", moves="sequence"),
    Variant("suit36_3cells", deck=36, columns=6, cells=3, build="suit"),
    Variant("freecell_single", build="alternate", moves="single"),
    Variant("any_1cell_kings", columns=10, cells=1, build="any", empty="kings"),
    Variant("alternate36_sequence_auto", deck=36, columns=7, cells=1, build="alternate",
            moves="sequence", auto_aces=True),
)
VARIANTS = (*PRESETS.values(), *CUSTOM)

#: Positions of random games per variant (games of at most RANDOM_STEPS moves, from deals
#: 1, 2, ...): about 16 000 positions in all.
RANDOM_POSITIONS = 1500
RANDOM_STEPS = 80
#: Deals whose winning lines (found by the engine, replayed by the referee) are walked:
#: they reach the end game, with its empty columns and long sequences.
LINE_DEALS = (1, 2, 3, 5, 8)


def _name(variant: Variant) -> str:
    return variant.name


# --------------------------------------------------------------------------- helpers


def engine_moves(board: Board) -> list[CoreMove]:
    """Return the moves the engine lists in ``board``, as it lists them."""
    return [tuple(m) for m in core.legal_moves(board.variant.rules(), *core_position(board))]


def referee_moves(board: Board) -> list[CoreMove]:
    """Return the referee's legal moves in ``board`` with explicit counts."""
    return [board.resolve(move).to_core() for move in board.legal_moves]


def normalise(board: Board, moves: Iterable[CoreMove]) -> set[CoreMove]:
    """Drop the moves that the engine's documented pruning leaves out."""
    free_cells = [i for i, card in enumerate(board.cells) if card is None]
    first_cell = free_cells[0] if free_cells else None
    empties = [i for i, column in enumerate(board.columns) if not column]
    first_empty = empties[0] if empties else None
    kept = set()
    for move in moves:
        src_kind, src, dst_kind, dst, count = move
        if dst_kind == CELL and (src_kind == CELL or dst != first_cell):
            continue
        if dst_kind == COLUMN and not board.columns[dst]:
            if dst != first_empty:
                continue
            if src_kind == COLUMN and count == len(board.columns[src]):
                continue
        kept.add(move)
    return kept


def describe(moves: Iterable[CoreMove]) -> str:
    """Return moves in notation with their counts, sorted, for messages."""
    def text(m: CoreMove) -> str:
        notation = Move.from_core(m).notation()
        return notation if "x" in notation else f"{notation}x{m[4]}"
    return "{" + ", ".join(sorted(text(m) for m in moves)) + "}"


def mismatch_message(board: Board, engine: Iterable[CoreMove], referee: Iterable[CoreMove],
                     what: str) -> str:
    engine, referee = set(engine), set(referee)
    return (f"{what} in {board.variant.name}:\n{board}\n"
            f"engine:  {describe(engine)}\nreferee: {describe(referee)}\n"
            f"only the engine: {describe(engine - referee)}\n"
            f"only the referee: {describe(referee - engine)}")


def check_legal_moves(board: Board) -> None:
    """Assert that the engine's moves are the referee's, up to the documented pruning."""
    listed = engine_moves(board)
    repeated = [m for m, n in Counter(listed).items() if n > 1]
    assert not repeated, mismatch_message(board, listed, referee_moves(board),
                                          f"the engine lists {describe(repeated)} twice")
    engine = set(listed)
    referee = normalise(board, referee_moves(board))
    assert normalise(board, engine) == referee, mismatch_message(
        board, engine, referee, "legal moves differ")
    assert engine == referee, mismatch_message(
        board, engine, referee, "the engine lists moves its documented pruning leaves out")


def winning_line_positions(variant: Variant, numbers: Iterable[int]) -> Iterable[Board]:
    """Yield the positions along the engine's winning lines of some deals."""
    for number in numbers:
        start = Board.from_number(variant, number)
        result = solve(start, limits=Limits(nodes=200_000))
        if result.solved:
            yield from line_positions(start, result.solution)


# --------------------------------------------------------------------------- legal moves


@pytest.mark.parametrize("variant", VARIANTS, ids=_name)
def test_legal_moves_match_referee_in_random_play(variant: Variant) -> None:
    boards = random_positions(variant, itertools.count(1), RANDOM_STEPS,
                              seed=zlib.crc32(variant.name.encode()))
    for board in itertools.islice(boards, RANDOM_POSITIONS):
        check_legal_moves(board)


@pytest.mark.parametrize("variant", VARIANTS, ids=_name)
def test_legal_moves_match_referee_along_winning_lines(variant: Variant) -> None:
    positions = 0
    for board in winning_line_positions(variant, LINE_DEALS):
        check_legal_moves(board)
        positions += 1
    if variant.name != "bakers_dozen":  # its deals are hard; random play covers it
        assert positions > 0, "no deal was solved, so no line was walked"


@pytest.mark.parametrize("variant", [v for v in VARIANTS if v.cells > 0], ids=_name)
def test_legal_moves_match_referee_with_no_room(variant: Variant) -> None:
    # Every cell full and no column empty: only top cards move (the engine then lists
    # moves from the tops alone, without walking the runs).
    boards = random_positions(variant, itertools.count(1), RANDOM_STEPS,
                              seed=zlib.crc32(variant.name.encode()) + 1)
    checked = 0
    for board in itertools.islice(boards, 600):
        while None in board.cells:
            to_cell = [m for m in board.legal_moves if m.dst.kind == "cell"
                       and m.src.kind == "column" and len(board.columns[m.src.index]) > 1]
            if not to_cell:
                break
            board.push(to_cell[0])
        if None in board.cells or not all(board.columns):
            continue
        check_legal_moves(board)
        checked += 1
    assert checked >= 100, f"only {checked} positions without room"


LONG = "KS QH JS TH 9S 8H 7S 6H 5S 4H 3S 2H"


def test_legal_moves_on_hand_made_positions() -> None:
    boards = [
        # supermove limits with free cells and several empty columns
        Board.from_position("freecell", [LONG, "KH", "", "", "", "QS JH TS 9H", "",
                                         "8S 7H 6S 5H 4S 3H 2S"]),
        Board.from_position("freecell", [LONG, "KH", "", "", "", "QS JH TS 9H", "",
                                         "8S 7H 6S 5H 4S 3H 2S"], cells=["KD", "KC"]),
        # kings-only empty columns with long suit sequences
        Board.from_position("bulochnik", ["4S KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H", "", "",
                                          "3S 5S", "KS QS JS TS 9S 8S 7S 6S", "", "", ""]),
        # a 36-card deck: nothing goes on a six
        Board.from_position("freecell36", ["KH 6D", "QS 7D", "KS QH", "", "8D 9D TD",
                                           "JD QD KD"], cells=["KC"]),
        # an ace in a cell of a game whose exposed aces go home by themselves
        Board.from_position("freecell36", ["KH 6D", "QS 7D", "KS QH", "", "8D 9D TD",
                                           "JD QD KD"], cells=["AD"], foundations=[11, 13, 0, 11]),
        # Baker's Dozen: no cells, empty columns take nothing
        Board.from_position("bakers_dozen", ["KH QS", "KD JD", "QD", "", "KS", "", "", "",
                                             "", "", "", "", ""]),
    ]
    for board in boards:
        check_legal_moves(board)


# --------------------------------------------------------------------------- safe moves


def check_settle(board: Board) -> None:
    """Assert that the engine's safe foundation moves are legal, safe and complete."""
    moves, position = core.settle(board.variant.rules(), *core_position(board))
    replay = board.copy(stack=False)
    for number, raw in enumerate(moves, start=1):
        move = Move.from_core(tuple(raw))
        where = f"safe move {number} {move} of {[str(Move.from_core(m)) for m in moves]}"
        assert raw[2] == FOUNDATION, f"{where} is not a foundation move in:\n{board}"
        card = (replay.columns[move.src.index][-1] if move.src.kind == "column"
                else replay.cells[move.src.index])
        assert card is not None, f"{where} moves from an empty place in:\n{board}"
        assert is_next_home(replay, card), f"{where}: {card} is not next home in:\n{board}"
        assert safe_to_send_home(replay, card), (
            f"{where}: {card} is not safe (not clear: a card that builds on it is neither "
            f"home nor next and clear) in:\n{board}")
        replay.push(move)
    settled = board_from_core(board.variant, position, board.base_rank)
    assert settled == replay, (f"settle's position differs from the referee's after its "
                               f"moves {[str(Move.from_core(m)) for m in moves]}:\n{board}\n"
                               f"engine:\n{settled}\nreferee:\n{replay}")
    tops = [column[-1] for column in replay.columns if column]
    waiting = [card for card in (*tops, *filter(None, replay.cells))
               if is_next_home(replay, card) and safe_to_send_home(replay, card)]
    assert not waiting, (f"settle left the safe foundation moves of "
                         f"{[str(c) for c in waiting]} undone, from:\n{board}\nto:\n{replay}")
    if board.variant.build == "suit":  # but the base of a wrapping game: a king goes on it
        left = [card for card in (*tops, *filter(None, replay.cells))
                if is_next_home(replay, card)
                and not (board.variant.wrap and replay.foundations[card.suit] == 0)]
        assert not left, (f"in a suit-building game every foundation move is safe, but "
                          f"{[str(c) for c in left]} were left, from:\n{board}")


@pytest.mark.parametrize("variant", VARIANTS, ids=_name)
def test_settle_makes_only_safe_foundation_moves(variant: Variant) -> None:
    positions = 0
    for board in random_positions(variant, range(101, 113), 60, seed=7, home_bias=0.1):
        check_settle(board)
        positions += 1
    assert positions >= 100


def test_settle_finishes_a_won_end_game() -> None:
    board = Board.from_position("freecell", ["KH QS JH TS", "KS QH JS TH", "", "", "", "",
                                             "", ""], foundations=[9, 13, 13, 9])
    moves, (columns, cells, heights) = core.settle(board.variant.rules(), *core_position(board))
    assert len(moves) == 8
    assert heights == [13, 13, 13, 13] and not any(columns) and not any(cells)


# --------------------------------------------------------------------------- dealing


def heights_of(deal: Deal) -> list[int]:
    """Return the foundation heights (cards home per suit) of a deal's top ranks."""
    ranks = deck_ranks(deal.variant.deck)
    return [0 if top == 0 else ranks.index(top) + 1 for top in deal.foundations]


def check_same_deal(variant: Variant, number: int) -> None:
    deal = Deal.from_number(variant, number)
    columns, cells, heights = core.deal(variant.rules(), number)
    expected = ([[c.code for c in column] for column in deal.columns],
                [0 if c is None else c.code for c in deal.cells], heights_of(deal))
    if variant.base_from_deal:  # dealt relabelled, the base rank reading as the ace
        expected = core_position(Board(deal))
    if (columns, cells, heights) != expected:
        engine = board_from_core(variant, (columns, cells, heights), deal.base_rank)
        pytest.fail(f"{variant.name} deal {number}: the engine deals\n{engine}\n"
                    f"but bakers.deals deals\n{Board(deal)}")


@pytest.mark.parametrize("variant", PRESETS.values(), ids=_name)
def test_engine_deals_numbers_1_to_1000_as_python(variant: Variant) -> None:
    for number in range(1, 1001):
        check_same_deal(variant, number)


LARGE_NUMBERS = [(name, n) for name in PRESETS
                 for n in (2**31 - 1, 2**31, 2**31 + 1, 2**32 - 1, 2**32, 2**32 + 1, 2**33 - 1)]
LARGE_NUMBERS += [("bakers_dozen", n) for n in (32000, 32001, 10**6, 2**40, 2**63, 2**64 - 1)]


@pytest.mark.parametrize(("game", "number"), LARGE_NUMBERS)
def test_engine_deals_large_numbers_as_python(game: str, number: int) -> None:
    check_same_deal(find_variant(game), number)
