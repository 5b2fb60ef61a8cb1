"""Positions of the page's games, rebuilt from each request and checked by the referee.

The page keeps no position the server trusts: every request names the game, the deal
(by number, or by the seed that `generate` and `daily` deals carry) and the moves made
since the start, and `Game.replay` plays those moves again on a referee `Board` (or
takes the board that the referee reached by exactly those moves for a recent request).
A move the rules refuse is refused here, whatever the page believed.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..board import Board
from ..cards import SUITS, Card
from ..deals import Deal, number_range
from ..errors import BakersError, IllegalMoveError
from ..notation import CELL, COLUMN, FOUNDATION, Move, Place
from ..variants import PRESETS, Variant, find_variant

__all__ = ["RequestError", "Game", "game_info", "games_info", "click_move", "state_of",
           "MAX_MOVES"]

#: The most moves one request may replay (a game of the longest deal with much undoing
#: and replaying stays far below; the cap bounds the work a request can ask for).
MAX_MOVES = 2_000


class RequestError(BakersError):
    """A request names no game, a bad deal, or sends a field of the wrong type; carries
    the HTTP status it gets (400 by default, 404 for an unknown game)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def _field(body: Mapping[str, Any], key: str, kind: type | tuple[type, ...],
           required: bool = True) -> Any:
    """Return ``body[key]`` checked to be of ``kind`` (bool is never an int here)."""
    if key not in body:
        if required:
            raise RequestError(f"the request has no {key!r}")
        return None
    value = body[key]
    if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
        raise RequestError(f"{key!r} must be {_kind_name(kind)}, not {value!r}")
    if not isinstance(value, kind):
        raise RequestError(f"{key!r} must be {_kind_name(kind)}, not {_short(value)}")
    return value


def _kind_name(kind: type | tuple[type, ...]) -> str:
    names = {str: "a string", int: "an integer", list: "a list", dict: "an object",
             bool: "true or false"}
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def check_keys(body: Mapping[str, Any], allowed: tuple[str, ...]) -> None:
    """Raise RequestError naming the first key of ``body`` not in ``allowed``."""
    for key in body:
        if key not in allowed:
            raise RequestError(f"unknown field {_short(key)}: this request takes "
                               f"{', '.join(map(repr, allowed))}")


def find_game(body: Mapping[str, Any]) -> Variant:
    """Return the preset named by ``body['game']``; RequestError 404 for no such game."""
    name = _field(body, "game", str)
    try:
        return find_variant(name)
    except BakersError as exc:
        raise RequestError(str(exc), status=404) from None


def read_deal(variant: Variant, spec: object) -> Deal:
    """Return the deal of ``spec``: ``{"number": N}`` or ``{"seed": S}``, N and S integers
    or their decimal text (a browser's numbers hold 53 bits; seeds and PySol numbers
    have 64)."""
    if not isinstance(spec, dict):
        raise RequestError(f"'deal' must be an object like {{\"number\": 617}}, "
                           f"not {_short(spec)}")
    if len(spec) != 1 or next(iter(spec)) not in ("number", "seed"):
        raise RequestError(f"'deal' takes exactly one of 'number' or 'seed', not "
                           f"{_short(sorted(spec))}")
    key, value = next(iter(spec.items()))
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 20:
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise RequestError(f"deal {key} must be an integer, not {_short(value)}")
    try:
        if key == "number":
            return Deal.from_number(variant, value)
        return Deal.from_seed(variant, value)
    except BakersError as exc:
        raise RequestError(str(exc)) from None


def deal_spec(deal: Deal) -> dict[str, int | str]:
    """Return the ``{"number": N}`` or ``{"seed": S}`` that `read_deal` rebuilds ``deal``
    from, N or S as text when a browser's number could not hold it exactly."""
    key, value = ("number", deal.number) if deal.number is not None else ("seed", deal.seed)
    assert value is not None
    return {key: value if value < 2**53 else str(value)}


@dataclass
class Game:
    """A game in play: its rules, its deal, and the referee's board after the moves."""

    variant: Variant
    deal: Deal
    board: Board

    @classmethod
    def start(cls, deal: Deal) -> Game:
        """Return the game at the start of ``deal``."""
        return cls(deal.variant, deal, Board(deal))

    @classmethod
    def known(cls, body: Mapping[str, Any]) -> Game | None:
        """Return the game of a request whose board a recent request reached (a copy of
        it: cheap enough for the event loop), or None when its moves must be replayed
        (`replay`, on a worker). Most requests continue the position the previous one
        answered with.

        Raises RequestError naming the bad field.
        """
        variant, deal, moves = _read_game(body)
        known = _BOARDS.get(_key(variant, deal, moves))
        return None if known is None else cls(variant, deal, known.copy())

    @classmethod
    def replay(cls, body: Mapping[str, Any]) -> Game:
        """Return the game of a request: ``game``, ``deal`` and ``moves`` (a list of
        moves in notation), every move checked by the referee (or the board the referee
        reached by exactly those moves for a recent request). Up to `MAX_MOVES` moves:
        a tenth of a second or so, work for a worker thread, not the event loop.

        Raises RequestError naming the bad field, or the move (by its number) that the
        rules refuse.
        """
        variant, deal, moves = _read_game(body)
        known = _BOARDS.get(_key(variant, deal, moves))
        if known is not None:
            return cls(variant, deal, known.copy())
        game = cls.start(deal)
        for number, text in enumerate(moves, 1):
            try:
                game.board.push_notation(text)
            except BakersError as exc:
                raise RequestError(f"move {number}: {exc}") from None
        game.remember()
        return game

    def remember(self) -> None:
        """Keep a copy of the board under its moves, for a request that continues it."""
        moves = [m.notation() for m in self.board.move_stack]
        _BOARDS.put(_key(self.variant, self.deal, moves), self.board.copy())


def _read_game(body: Mapping[str, Any]) -> tuple[Variant, Deal, list[str]]:
    """Return the game, the deal and the moves that a request names, their types checked.

    Raises RequestError naming the bad field.
    """
    variant = find_game(body)
    deal = read_deal(variant, _field(body, "deal", dict))
    moves = _field(body, "moves", list, required=False) or []
    if len(moves) > MAX_MOVES:
        raise RequestError(f"'moves' has {len(moves)} moves; a game here is at most "
                           f"{MAX_MOVES}")
    for number, text in enumerate(moves, 1):
        if not isinstance(text, str):
            raise RequestError(f"move {number} must be a string like '3a', "
                               f"not {_short(text)}")
    return variant, deal, moves


# A kept board counts BOARD_BYTES + MOVE_BYTES * moves: the referee's board of a deal
# with its cache entry (6.8 KB for FreeCell), and each move's undo record, stack entry
# and key text (about 350 bytes), measured with tracemalloc and rounded up.
#: Measured: tests/test_serve_hardening.py, test_the_board_cache_estimate_covers_what_boards_take.
BOARD_BYTES = 8 * 1024
#: Measured: tests/test_serve_hardening.py, test_the_board_cache_estimate_covers_what_boards_take.
MOVE_BYTES = 384
#: The most bytes the kept boards take in all: about 86 games of 2,000 moves (770 KB
#: each), or some thousands of the usual games of a hundred moves or so.
KEPT_BYTES = 64 * 2**20


def board_bytes(moves: int) -> int:
    """Return what `_Boards` counts for a board reached by ``moves`` moves."""
    return BOARD_BYTES + MOVE_BYTES * moves


class _Boards:
    """The boards that recent requests reached, least recently used first out, up to
    ``budget`` bytes as `board_bytes` counts them. Each was reached by the referee from
    its deal by exactly the moves of its key, so a request that sends those moves gets
    the same board without replaying them."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.held = 0
        self.boards: OrderedDict[tuple[Any, ...], Board] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple[Any, ...]) -> Board | None:
        with self.lock:
            board = self.boards.get(key)
            if board is not None:
                self.boards.move_to_end(key)
            return board

    def put(self, key: tuple[Any, ...], board: Board) -> None:
        with self.lock:
            if key in self.boards:
                self.held -= board_bytes(len(key[-1]))
            self.boards[key] = board
            self.boards.move_to_end(key)
            self.held += board_bytes(len(key[-1]))
            while self.held > self.budget and self.boards:
                old, _ = self.boards.popitem(last=False)
                self.held -= board_bytes(len(old[-1]))


_BOARDS = _Boards(KEPT_BYTES)


def _key(variant: Variant, deal: Deal, moves: list[str]) -> tuple[Any, ...]:
    return (variant.name, deal.number, deal.seed, tuple(moves))


def read_move(body: Mapping[str, Any], key: str = "move") -> Move:
    """Return the move in notation at ``body[key]``; RequestError for bad syntax."""
    text = _field(body, key, str)
    try:
        return Move.parse(text)
    except BakersError as exc:
        raise RequestError(str(exc)) from None


def _fits(variant: Variant, card: Card, onto: Card) -> bool:
    """Return whether ``card`` builds on ``onto`` in a column (docs/rules.md)."""
    return variant.builds(card.rank, card.suit, onto.rank, onto.suit)


def _run(variant: Variant, column: list[Card]) -> int:
    """Return how many cards on top of ``column`` move together (0 for an empty column):
    the top card alone in a one-card game, else the built sequence on top."""
    if not column:
        return 0
    if variant.moves == "single":
        return 1
    n = 1
    while n < len(column) and _fits(variant, column[-n], column[-n - 1]):
        n += 1
    return n


def click_move(board: Board, source: Place, count: int) -> Move:
    """Return the move that a click on the ``count`` top cards of ``source`` makes, as
    the games' own pages describe a click: the card home if it goes there, else onto
    the column whose top card it builds on (the leftmost), else into the first free
    cell, else to the leftmost empty column that takes it.

    Raises IllegalMoveError with the reason when no such move is legal.
    """
    if source.kind == FOUNDATION:
        raise IllegalMoveError("a card on the foundations stays there")
    if source.kind == COLUMN:
        if not source.index < len(board.columns) or not board.columns[source.index]:
            raise IllegalMoveError(f"{source.describe()} has no card to move")
        column = board.columns[source.index]
        if not 1 <= count <= len(column):
            raise IllegalMoveError(f"{source.describe()} has {len(column)} cards, "
                                   f"not {count} to move")
        card = column[-count]
    else:
        held = board.cells[source.index] if source.index < len(board.cells) else None
        if held is None:
            raise IllegalMoveError(f"{source.describe()} is empty")
        if count != 1:
            raise IllegalMoveError(f"{source.describe()} holds one card, not {count}")
        card = held
    tries: list[Move] = []
    if count == 1:
        tries.append(Move(source, Place(FOUNDATION, 0)))
    onto = [Place(COLUMN, j) for j, col in enumerate(board.columns)
            if col and not (source.kind == COLUMN and j == source.index)
            and _fits(board.variant, card, col[-1])]
    tries += [Move(source, place, count) for place in onto]
    if count == 1 and source.kind == COLUMN and None in board.cells:
        tries.append(Move(source, Place(CELL, board.cells.index(None))))
    tries += [Move(source, Place(COLUMN, j), count) for j, col in enumerate(board.columns)
              if not col and not (source.kind == COLUMN and j == source.index)]
    first_error: IllegalMoveError | None = None
    for move in tries:
        try:
            board.resolve(move)
        except IllegalMoveError as exc:
            # the most telling refusal is that of the column the card builds on
            if first_error is None and move.dst.kind == COLUMN:
                first_error = exc
            continue
        return move
    if first_error is not None:
        raise first_error
    what = f"{card}" if count == 1 else f"the {count} cards from {card}"
    raise IllegalMoveError(f"{what} cannot go home, onto a column or into a free cell")


def game_info(variant: Variant) -> dict[str, Any]:
    """Return what the page needs to know of a game: its `Variant` fields and deal range."""
    low, high = number_range(variant)
    info: dict[str, Any] = {"name": variant.name, "title": variant.title or variant.name}
    info.update(variant.rules())
    info.update({"numbers": [low, high], "column_lengths": list(variant.column_lengths)})
    return info


def games_info() -> list[dict[str, Any]]:
    """Return `game_info` of every preset, in the presets' order."""
    return [game_info(v) for v in PRESETS.values()]


def state_of(game: Game) -> dict[str, Any]:
    """Return the position as the page draws it: columns (covered card first), cells,
    foundations (top rank per suit), the moves made in canonical form, the top run of
    each column (the cards a click or a drag may take), cards home, won, and whether
    the rest plays itself (autocomplete)."""
    board, variant = game.board, game.variant
    auto = board.autocomplete()
    return {
        "game": variant.name,
        "deal": deal_spec(game.deal),
        "moves": [m.notation() for m in board.move_stack],
        "columns": [[str(c) for c in column] for column in board.columns],
        "cells": [None if c is None else str(c) for c in board.cells],
        "foundations": {SUITS[s]: r for s, r in enumerate(board.foundations)},
        "runs": [_run(variant, column) for column in board.columns],
        "home": board.foundation_count(),
        "deck": variant.deck,
        "won": board.is_won(),
        "autocomplete": auto is not None and bool(auto),
    }
