"""Positions for cross-checking the engine against the referee.

Everything here is built from the referee (`bakers.board.Board`) alone: random positions
reached by random legal play, positions along a winning line, the conversion of a board
to the engine's arguments, and a plain exhaustive search over the referee's moves that
decides small positions without any of the engine's pruning.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator

from bakers.board import Board
from bakers.cards import Card, deck_ranks, full_deck
from bakers.notation import COLUMN, FOUNDATION, Move
from bakers.solution import Solution
from bakers.solving import _core_position
from bakers.variants import Variant

CorePosition = tuple[list[list[int]], list[int], list[int]]


def core_position(board: Board) -> CorePosition:
    """Return ``board`` as the engine takes it: (columns of card codes, cell codes with
    0 for an empty cell, foundation heights = cards home per suit H, C, D, S), relabelled
    where the foundations start at another rank than the ace (`solve`'s conversion)."""
    return _core_position(board)


def board_from_core(variant: Variant, position: CorePosition, base: int = 1) -> Board:
    """Return the referee board of an engine position (the inverse of `core_position`;
    ``base``: the rank the foundations start at, which the engine reads as the ace)."""
    columns, cells, heights = position
    ranks = variant.foundation_ranks(base) if base != 1 else deck_ranks(variant.deck)

    def card(code: int) -> Card:
        return Card.from_code(code) if base == 1 else Card(code >> 4, ranks[(code & 15) - 1])

    return Board.from_position(
        variant,
        columns=[[card(code) for code in column] for column in columns],
        cells=[None if code == 0 else card(code) for code in cells],
        foundations=[0 if h == 0 else ranks[h - 1] for h in heights])


def random_positions(variant: Variant, numbers: Iterable[int], steps: int,
                     seed: int, home_bias: float = 0.4,
                     cell_bias: float = 0.3) -> Iterator[Board]:
    """Yield the positions of random games: from each numbered deal, up to ``steps``
    random legal moves. A foundation move, when there is one, is taken with probability
    ``home_bias``, and a move into a cell, when there are others, with probability
    ``cell_bias``, so that games get past their opening instead of filling the cells and
    stopping. Each yielded board is a copy."""
    rng = random.Random(seed)
    for number in numbers:
        board = Board.from_number(variant, number)
        for _ in range(steps):
            yield board.copy(stack=False)
            moves = list(board.legal_moves)
            if not moves or board.is_won():
                break
            home = [m for m in moves if m.dst.kind == FOUNDATION]
            other = [m for m in moves if m.dst.kind == COLUMN]
            if home and rng.random() < home_bias:
                board.push(rng.choice(home))
            elif other and rng.random() >= cell_bias:
                board.push(rng.choice(other))
            else:
                board.push(rng.choice(moves))


def line_positions(start: Board, moves: Solution | list[Move]) -> Iterator[Board]:
    """Yield ``start`` and the position after each move of ``moves`` (copies)."""
    board = start.copy(stack=False)
    yield board.copy(stack=False)
    for move in moves:
        board.push(move)
        yield board.copy(stack=False)


def builds_on(variant: Variant, card: Card, onto: Card) -> bool:
    """Return whether ``card`` may be placed on ``onto`` in a column (docs/rules.md; with
    ``wrap`` a king on an ace too)."""
    corner = variant.wrap and card.rank == 13 and onto.rank == 1
    if card.rank != onto.rank - 1 and not corner:
        return False
    if variant.build == "suit":
        return card.suit == onto.suit
    if variant.build == "alternate":
        return card.suit % 2 != onto.suit % 2
    return True


def is_home(board: Board, card: Card) -> bool:
    """Return whether ``card`` is on its foundation."""
    ranks = board.variant.foundation_ranks(board.base_rank)
    top = board.foundations[card.suit]
    return top != 0 and ranks.index(card.rank) <= ranks.index(top)


def is_next_home(board: Board, card: Card) -> bool:
    """Return whether ``card`` is the next card of its foundation."""
    ranks = board.variant.foundation_ranks(board.base_rank)
    top = board.foundations[card.suit]
    following = ranks[0] if top == 0 else (
        ranks[ranks.index(top) + 1] if top != ranks[-1] else None)
    return following == card.rank


def is_clear(board: Board, card: Card) -> bool:
    """Return whether every card of the deck that builds on ``card`` is home, or is next
    on its foundation and clear itself."""
    return all(is_home(board, other) or (is_next_home(board, other) and is_clear(board, other))
               for other in full_deck(board.variant.deck)
               if builds_on(board.variant, other, card))


def safe_to_send_home(board: Board, card: Card) -> bool:
    """Return whether ``card`` is clear: the criterion under which sending it home
    cannot lose a win (the proof is in cpp/core/moves.cpp)."""
    return is_clear(board, card)


def exhaustive_search(start: Board, max_positions: int) -> bool | None:
    """Decide ``start`` with the referee alone: a depth-first search over every legal
    move, positions identified by `Board.key` (equal up to the order of cells and of
    columns), with no other pruning. Return True (won), False (no win) or None when more
    than ``max_positions`` positions would be needed."""
    if start.is_won():
        return True
    seen = {start.key()}
    stack = [start.copy(stack=False)]
    while stack:
        board = stack.pop()
        for move in list(board.legal_moves):
            child = board.copy(stack=False)
            child.push(move)
            if child.is_won():
                return True
            key = child.key()
            if key not in seen:
                if len(seen) >= max_positions:
                    return None
                seen.add(key)
                stack.append(child)
    return False
