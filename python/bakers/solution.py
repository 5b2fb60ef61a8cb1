"""Solutions: lists of moves, read from either notation, replayed and checked by the referee."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, SupportsIndex, overload

from .board import Board
from .errors import IllegalMoveError
from .notation import (
    Line,
    Move,
    fcs_verbose_of_lines,
    is_fcs_verbose_line,
    moves_of_lines,
    text_lines,
)

__all__ = ["Solution", "Replay", "replay_text", "replay_chunks"]

@functools.cache
def _fcs_chatter() -> re.Pattern[str]:
    """Lines of Freecell Solver's output around a solution in standard notation
    (compiled when a solution is first read)."""
    return re.compile(
        r"\s*(-=-=|This game is solveable|I could not solve|Total number of states"
        r"|This scan generated|Unable to)", re.IGNORECASE)


@dataclass
class Replay:
    """The outcome of replaying a solution: the final ``board``, whether it is
    ``won``, how many moves were ``applied``, and for the first illegal move its
    1-based number ``failed_move`` and the ``error`` saying why (else both None)."""

    board: Board
    won: bool
    applied: int
    error: IllegalMoveError | None = None
    failed_move: int | None = None
    #: For each move whose token names several counts (standard notation writes a move
    #: to an empty column the same for one card or a run): its 1-based number, the count
    #: read, and the largest count it could name.
    readings: tuple[tuple[int, int, int], ...] = ()

    def raise_for_error(self) -> Replay:
        """Return the replay if every move was legal.

        Raises the IllegalMoveError of the first illegal move.
        """
        if self.error is not None:
            raise self.error
        return self


class Solution(list[Move]):
    """A list of moves. ``Solution.parse(text)`` reads either notation; ``replay(start)``
    checks it against the rules; ``str(solution)`` writes standard notation."""

    def __init__(self, moves: Iterable[Move] = ()) -> None:
        super().__init__(moves)

    @overload
    def __getitem__(self, index: SupportsIndex) -> Move: ...
    @overload
    def __getitem__(self, index: slice) -> Solution: ...

    def __getitem__(self, index: SupportsIndex | slice) -> Move | Solution:
        """Return a move, or for a slice the moves as a `Solution`."""
        if isinstance(index, slice):
            return Solution(super().__getitem__(index))
        return super().__getitem__(index)

    @classmethod
    def parse(cls, text: str) -> Solution:
        """Parse a solution: Freecell Solver's verbose output ("Move a card from stack 3
        to freecell 0", detected by such lines), or moves in standard or extended
        notation (``#`` comment lines and Freecell Solver's own lines around the
        moves, like "This game is solveable.", are skipped).

        Raises InvalidMoveError quoting the token with its move number and line.
        """
        return cls(cls.iter_parse(text))

    @classmethod
    def iter_parse(cls, text: str) -> Iterator[Move]:
        """Yield the moves of `parse` one at a time, each parsed when it is reached: a
        caller that stops at an illegal move never parses the rest.

        Raises InvalidMoveError quoting the token with its move number and line.
        """
        return _parse_lines(lambda: text_lines((text,)))

    def notation(self, per_line: int | None = 10) -> str:
        """Return the moves in notation, space-separated, ``per_line`` moves a line
        (None: all on one line)."""
        tokens = [move.notation() for move in self]
        if not per_line:
            return " ".join(tokens)
        return "\n".join(" ".join(tokens[i:i + per_line])
                         for i in range(0, len(tokens), per_line))

    def __str__(self) -> str:
        return self.notation()

    def __repr__(self) -> str:
        return f"Solution.parse({self.notation(None)!r})"

    def replay(self, start: Any) -> Replay:
        """Play the moves from ``start`` (a Deal or a Board, which is copied and left
        as it is) and report how far they went. An illegal move does not raise: the
        replay stops there and reports it, unless another reading of the ambiguous
        tokens before it (see `Replay.readings`) plays every move.

        Raises InvalidDealError when ``start`` is a deal that is not a valid position.
        """
        board = start.copy() if isinstance(start, Board) else Board(start)
        return _replay(self, board, self)

    def _reread(self, start: Board) -> Replay | None:
        """Return the replay of another reading of the ambiguous tokens (each tried from
        its largest legal count down, depth first, every later move replayed) that plays
        every move legally, or None when none does within a budget of moves replayed
        (64 replays of the line: a wrong reading shows within a few moves)."""
        budget = [64 * (len(self) + 1)]
        readings: list[tuple[int, int, int]] = []

        def play(board: Board, index: int) -> bool:
            pushed = 0
            done = False
            try:
                while index < len(self):
                    move = self[index]
                    counts = board.empty_column_counts(move)
                    if len(counts) > 1:
                        for count in counts:
                            budget[0] -= 1
                            if budget[0] < 0:
                                return False
                            board.push(Move(move.src, move.dst, count))
                            readings.append((index + 1, count, counts[0]))
                            if play(board, index + 1):
                                done = True
                                return True
                            readings.pop()
                            board.pop()
                        return False
                    budget[0] -= 1
                    if budget[0] < 0 or not board.is_legal(move):
                        return False
                    board.push(move)
                    pushed += 1
                    index += 1
                done = True
                return True
            finally:
                if not done:  # leave the board as this call found it
                    for _ in range(pushed):
                        board.pop()

        board = start.copy()
        if not play(board, 0):
            return None
        return Replay(board, board.is_won(), len(self), readings=tuple(readings))

    def expand(self, start: Any) -> Solution:
        """Return the solution with every supermove replaced by the single-card moves it
        stands for (see `Board.expand`), played from ``start`` (a Deal or a Board).

        Raises IllegalMoveError for the first illegal move, with its number.
        """
        board = start.copy() if isinstance(start, Board) else Board(start)
        result = Solution()
        for number, move in enumerate(self, start=1):
            try:
                steps = board.expand(move)
            except IllegalMoveError as exc:
                raise _numbered(exc, number, move) from None
            for step in steps:
                board.push(step)
            result.extend(steps)
        return result


def _parse_lines(lines: Callable[[], Iterable[Line]]) -> Iterator[Move]:
    """Yield the moves of the text whose `text_lines` ``lines()`` gives, in Freecell Solver's
    verbose notation when any line is one of its moves, else in standard notation
    (Freecell Solver's lines around the moves skipped). ``lines()`` is read twice for a
    text in standard notation: once to look for verbose lines, once for the moves."""
    if any(first and is_fcs_verbose_line(line) for _, line, first in lines()):
        return fcs_verbose_of_lines(lines())
    chatter = _fcs_chatter()
    return moves_of_lines(lines(), lambda line: chatter.match(line) is not None)


def replay_text(text: str, start: Board) -> tuple[Solution, Replay]:
    """Parse ``text``'s moves and replay them from ``start`` (left as it is) in one pass;
    return the moves read and the replay (as `Solution.replay`). A move that is illegal
    when no token before it names several counts ends the reading (no other reading
    could make it legal): a long text with a bad move early is refused without parsing
    the rest.

    Raises InvalidMoveError for a token that does not parse before such a move.
    """
    solution = Solution()
    moves = Solution.iter_parse(text)
    return solution, _replay(moves, start.copy(), solution)


#: A streamed replay forgets the moves made every this many moves (`Board.forget_moves`).
_FORGET_EVERY = 4096


def replay_chunks(chunks: Callable[[], Iterable[str]], start: Board
                  ) -> tuple[Replay, dict[int, Move]]:
    """Parse and replay from ``start`` (left as it is) the moves of a text that
    ``chunks()`` gives a chunk at a time (called twice for a text in standard notation,
    as `Solution.parse` reads it), holding neither the text nor the line of moves: the
    memory stays that of a chunk and a position, however long the text. Only from a token
    that names several counts on (see `Replay.readings`) are the moves held (a reference
    each), so that an illegal move after it can be tried under the other readings, as
    `Solution.replay` does.

    Return the replay, whose ``readings`` keep only the tokens read with another count
    than the largest (those a reader should be told of), and those tokens' moves by
    number. Raises InvalidMoveError for a token that does not parse before an illegal
    move.
    """
    moves = _parse_lines(lambda: text_lines(chunks()))
    board = start.copy(stack=False)
    before: Board | None = None  # the position before the first token of several counts
    held = Solution()  # the moves from that token on
    number = 0
    for number, move in enumerate(moves, start=1):
        if before is None and len(board.empty_column_counts(move)) > 1:
            before, first_held = board.copy(stack=False), number
        if before is not None:
            held.append(move)
        try:
            board.push(move)
        except IllegalMoveError as exc:
            failed = Replay(board, board.is_won(), number - 1, _numbered(exc, number, move),
                            number)
            if before is None:  # the line is read one way only up to here
                return failed, {}
            held.extend(moves)
            again = held._reread(before)
            if again is None:
                return failed, {}
            shift = first_held - 1
            readings = tuple((n + shift, count, largest) for n, count, largest in again.readings
                             if count != largest)
            return (Replay(again.board, again.won, shift + again.applied, readings=readings),
                    {n: held[n - 1 - shift] for n, _, _ in readings})
        if number % _FORGET_EVERY == 0:
            board.forget_moves()
    return Replay(board, board.is_won(), number), {}


def _replay(moves: Iterable[Move], board: Board, solution: Solution) -> Replay:
    """Push ``moves`` on ``board``, appending each to ``solution`` (the line itself when
    it is already whole), and return the replay. At an illegal move after an ambiguous
    token the rest of ``moves`` is read into ``solution`` and its other readings tried."""
    first = board.copy()
    whole = moves is solution
    readings = []
    for number, move in enumerate(moves, start=1):
        if not whole:
            solution.append(move)
        counts = board.empty_column_counts(move)
        if len(counts) > 1:  # push reads the token as the largest count
            readings.append((number, counts[0], counts[0]))
        try:
            board.push(move)
        except IllegalMoveError as exc:
            failed = Replay(board, board.is_won(), number - 1, _numbered(exc, number, move),
                            number)
            if not readings:  # the line is read one way only up to here
                return failed
            if not whole:
                solution.extend(moves)
            return solution._reread(first) or failed
    return Replay(board, board.is_won(), len(solution), readings=tuple(readings))


def _numbered(error: IllegalMoveError, number: int, move: Move) -> IllegalMoveError:
    """Return ``error`` restated with the number of the move that caused it."""
    reason = getattr(error, "reason", str(error))
    numbered = IllegalMoveError(f"move {number} {move.notation()!r}: {reason}")
    numbered.move = move  # type: ignore[attr-defined]
    numbered.reason = reason  # type: ignore[attr-defined]
    numbered.move_number = number  # type: ignore[attr-defined]
    return numbered
