"""What ``fc-solve`` prints: progress lines, the verbose moves, boards, the verdict and
its two counters, in its words and layout.

Every foundation move is listed, the aces that a game like Baker's Dozen sends home by
itself included: a program replaying the moves (PySolFC's demo, with its own automatic
moves off) plays exactly what is listed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import TextIO

from ..board import Board
from ..cards import SUITS, Card
from ..deals import Deal
from ..notation import CELL, COLUMN, Move, Place
from ..solution import Solution

__all__ = ["HEADER", "SEPARATOR", "listed_moves", "plain_board", "move_text",
           "standard_text", "board_text", "ProgressLines", "write_run"]

HEADER = "-=-=-=-=-=-=-=-=-=-=-=-"
SEPARATOR = "===================="
SOLVED = "This game is solveable."
UNSOLVED = "I could not solve this game."
EXCEEDED = "Iterations count exceeded."


def _place(place: Place) -> str:
    if place.kind == COLUMN:
        return f"stack {place.index}"
    if place.kind == CELL:
        return f"freecell {place.index}"
    return "the foundations"


def move_text(move: Move) -> str:
    """Return a move (its count resolved) in ``fc-solve``'s words: "Move a card from stack
    3 to freecell 0", "Move 2 cards from stack 0 to stack 4" (a column-to-column move
    always gives its count, "Move 1 cards ...", as ``fc-solve`` writes it)."""
    both_columns = move.src.kind == move.dst.kind == COLUMN
    what = f"{move.count or 1} cards" if both_columns else "a card"
    return f"Move {what} from {_place(move.src)} to {_place(move.dst)}"


def _standard_place(place: Place) -> str:
    """Return a place in ``fc-solve -sn``'s letters: stacks from 1 (``10`` past 9, as it
    prints them), free cells ``a``-``g`` then ``k`` (``h`` names the foundations; it
    skips ``h``, ``i`` and ``j`` after the seventh cell)."""
    if place.kind == COLUMN:
        return str(place.index + 1)
    if place.kind == CELL:
        return chr(ord("a") + place.index + (3 if place.index >= 7 else 0))
    return "h"


def standard_text(move: Move, after: Board, extended: bool) -> str:
    """Return a move (its count resolved; ``after``: the position it leads to) in
    ``fc-solve -sn``'s standard notation: ``3a``, ``a8``, ``54``, ``3h``. With
    ``extended`` (``-snx``), a move of several cards that fills an empty stack is
    followed by ``v`` and the count in hexadecimal (``46v8``, ``82vc``)."""
    text = _standard_place(move.src) + _standard_place(move.dst)
    count = move.count or 1
    if (extended and move.src.kind == move.dst.kind == COLUMN and count > 1
            and len(after.columns[move.dst.index]) == count):
        text += f"v{count:x}"
    return text


def _exposed_aces(board: Board) -> Iterator[Move]:
    """Send home the exposed aces, as the referee's automatic moves do (columns in order,
    again until none is left); yield each move."""
    found = True
    while found:
        found = False
        for i, column in enumerate(board.columns):
            if column and column[-1].rank == 1 and board.foundations[column[-1].suit] == 0:
                move = Move(Place.column(i), Place.foundation())
                board.push(move)
                found = True
                yield move


def plain_board(deal: Deal) -> Board:
    """Return the position of ``deal`` on its game's rules without automatic moves (an
    exposed ace stays where it is until a move sends it home)."""
    rules = dataclasses.replace(deal.variant, auto_aces=False)
    return Board(dataclasses.replace(deal, variant=rules))


def listed_moves(deal: Deal, solution: Solution) -> list[tuple[Move, Board]]:
    """Return the moves to print for ``solution`` (a line of ``deal``'s game), each with
    its count resolved and the position after it: the solution's moves, and in a game
    that sends aces home by itself those automatic moves too, in the order the referee
    makes them. The moves are played on the same rules without automatic moves, so
    every one is a move that the rules allow at once.

    Raises IllegalMoveError if a move of ``solution`` is illegal (a bug, never input).
    """
    board = plain_board(deal)
    automatic = deal.variant.auto_aces
    out: list[tuple[Move, Board]] = []

    def aces() -> None:
        if automatic:
            for move in _exposed_aces(board):
                out.append((move, board.copy(stack=False)))

    aces()
    for move in solution:
        resolved = board.resolve(move)
        board.push(move)
        out.append((resolved, board.copy(stack=False)))
        aces()
    return out


def _card(card: Card | None, tens_as_t: bool) -> str:
    if card is None:
        return ""
    text = str(card)
    return text.replace("T", "10", 1) if not tens_as_t and text[0] == "T" else text


def board_text(board: Board, tens_as_t: bool) -> str:
    """Return a position as ``fc-solve -p`` prints it: foundations H C D S, the free
    cells four characters each (blank when empty), a line ``: ...`` a column."""
    names = [*"0A23456789", "T" if tens_as_t else "10", *"JQK"]
    foundations = " ".join(f"{SUITS[s]}-{names[board.foundations[s]]}" for s in range(4))
    cells = "".join(" " + _card(card, tens_as_t).rjust(3) for card in board.cells)
    lines = [f"Foundations: {foundations} ", f"Freecells:{cells}"]
    lines += [": " + " ".join(_card(c, tens_as_t) for c in column) for column in board.columns]
    return "\n".join(lines) + "\n"


class ProgressLines:
    """The ``--iter-output`` lines: "Iteration: N", "Depth: 0", "Stored-States: S" and
    "Scan: NAME", written whenever the count of positions expanded passes another
    multiple of ``step``. bakers' searches do not report a depth; it is written as 0."""

    def __init__(self, stream: TextIO, step: int, scan: str) -> None:
        self.stream = stream
        self.step = step
        self.scan = scan
        self.last = -1

    def write(self, expanded: int, stored: int) -> None:
        """Write the lines for ``expanded`` if it reached a new multiple of the step."""
        iteration = expanded // self.step * self.step
        if iteration <= self.last:
            return
        self.last = iteration
        self.stream.write(f"Iteration: {iteration}\nDepth: 0\nStored-States: {stored}\n"
                          f"Scan: {self.scan}\n\n")
        self.stream.flush()


def _standard_lines(stream: TextIO, moves: list[tuple[Move, Board]], extended: bool) -> None:
    """Write ``moves`` as ``fc-solve -m -sn`` does: each token and a space, ten to a
    line, then an empty line (two after a full line of ten)."""
    for number, (move, after) in enumerate(moves, start=1):
        stream.write(standard_text(move, after, extended) + " ")
        if number % 10 == 0:
            stream.write("\n")
    stream.write("\n\n")


def write_run(stream: TextIO, *, start: Board | None, moves: list[tuple[Move, Board]] | None,
              verdict: str, expanded: int, stored: int, show_moves: bool, show_states: bool,
              show_exceeded: bool, tens_as_t: bool, notation: str | None = None) -> None:
    """Write the end of a run: with a line of ``moves``, the header, each move (and with
    ``show_states`` the position before the first and after each), then the verdict
    (``'solved'``, ``'impossible'`` or ``'unknown'``) and the two counters. ``notation``
    ``'sn'`` or ``'snx'`` writes the moves in standard notation (`standard_text`), as
    ``fc-solve -sn``/``-snx`` does: ten to a line with moves alone, ``Move: 3a`` between
    positions; None in words (`move_text`)."""
    if moves is not None and start is not None:
        stream.write(HEADER + "\n\n")
        extended = notation == "snx"
        if notation is not None and show_moves and not show_states:
            _standard_lines(stream, moves, extended)
            moves = []
        if show_states:
            stream.write(board_text(start, tens_as_t) + "\n\n" + SEPARATOR + "\n\n")
        for move, after in moves:
            if show_moves:
                words = move_text(move) if notation is None else (
                    f"Move: {standard_text(move, after, extended)} ")
                stream.write(words + "\n\n")
            if show_states:
                stream.write(board_text(after, tens_as_t) + "\n\n")
            stream.write(SEPARATOR + "\n\n")
    if verdict == "solved":
        stream.write(SOLVED + "\n")
    elif verdict == "unknown" and show_exceeded:
        stream.write(EXCEEDED + "\n")
    else:
        stream.write(UNSOLVED + "\n")
    stream.write(f"Total number of states checked is {expanded}.\n"
                 f"This scan generated {stored} states.\n")
