"""Writing solutions for people and programs: standard notation, Freecell Solver's
verbose style, and JSON."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names of the annotations alone: the commands import this early
    from .board import Board
    from .notation import Move
    from .solution import Solution

__all__ = ["fcs_verbose", "FORMATS"]

FORMATS = ("standard", "fcs-verbose", "json")


def _fcs_place(kind: str, index: int) -> str:
    if kind == "column":
        return f"stack {index}"
    if kind == "cell":
        return f"freecell {index}"
    return "the foundations"


def fcs_verbose(solution: Solution, start: Board, *, boards: bool = False) -> str:
    """Return the solution in Freecell Solver's verbose style ("Move a card from stack 3
    to freecell 0", "Move 3 cards from stack 0 to stack 4", all places 0-based), one move
    a line; with ``boards``, the position after each move as well.

    Raises IllegalMoveError if a move is illegal from ``start``.
    """
    board = start.copy()
    lines: list[str] = []
    if boards:
        lines += [str(board), "", "===================="]
    for move in solution:
        resolved: Move = board.resolve(move)
        count = resolved.count or 1
        what = "a card" if count == 1 else f"{count} cards"
        lines.append(f"Move {what} from {_fcs_place(*resolved.src)} to "
                     f"{_fcs_place(*resolved.dst)}")
        board.push(move)
        if boards:
            lines += ["", str(board), "", "===================="]
    return "\n".join(lines) + "\n"


def result_json(data: dict[str, Any]) -> str:
    """Return ``data`` as one line of JSON."""
    import json  # here: only --format json needs it

    return json.dumps(data, ensure_ascii=False)
