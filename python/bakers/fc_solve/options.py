"""Freecell Solver's command line, read token by token as ``fc-solve`` reads it.

``fc-solve``'s options are not argparse's kind: single-dash words (``-sel``, ``-opt``),
options applied in order (a game named by ``-g`` resets the settings given before it),
and refusals worded its own way. So they are read here by a table of the options this
command understands; anything else is refused as ``fc-solve`` refuses it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..errors import InvalidOptionError
from ..limits import parse_bytes
from .games import BUILD_WORDS, EMPTY_WORDS, MOVE_WORDS, GameParams, game_params

__all__ = ["FcsOptions", "parse_options", "FLAGS", "VALUED", "SEARCH_CONFIGS"]

#: Options without a value, each with the attribute it sets.
FLAGS = {
    "-m": "moves", "--display-moves": "moves",
    "-p": "parseable", "--parseable-output": "parseable",
    "-t": "tens_as_t", "--display-10-as-t": "tens_as_t",
    "-sam": "states_and_moves", "--display-states-and-moves": "states_and_moves",
    "-sel": "show_exceeded", "--show-exceeded-limits": "show_exceeded",
    "-opt": "optimize", "--optimize-solution": "optimize",
    "-hoi": "hint_on_intractable", "--hint-on-intractable": "hint_on_intractable",
    "-i": "iter_output", "--iter-output": "iter_output",
    "-s": "state_output", "--state-output": "state_output",
    "-h": "help", "--help": "help",
    "--version": "version",
}

#: Options that take a value, each with the name of its kind.
VALUED = {
    "--iter-output-step": "step",
    "--load-config": "config", "-l": "config",
    "-g": "game", "--game": "game", "--preset": "game",
    "-mi": "max_iters", "--max-iters": "max_iters",
    "--decks-num": "decks", "--stacks-num": "stacks", "--freecells-num": "freecells",
    "--sequences-are-built-by": "build",
    "--sequence-move": "sequence_move",
    "--empty-stacks-filled-by": "empty",
    "--max-seconds": "max_seconds",
    "--max-memory": "max_memory",
}

#: The names of Freecell Solver's search configurations (``--load-config``/``-l``),
#: long and short. They tune its own search; bakers accepts them and searches its way.
SEARCH_CONFIGS = frozenset((
    "abra-kadabra", "ak", "amateur-star", "as", "blue-yonder", "by", "children-playing-ball",
    "cpb", "conspiracy-theory", "ct", "cookie-monster", "cm", "cool-jives", "cj", "crooked-nose",
    "cn", "enlightened-ostrich", "eo", "fools-gold", "fg", "foss-nessy", "fn", "good-intentions",
    "gi", "gooey-unknown-thing", "gut", "hello-world", "hw", "john-galt-line", "jgl",
    "looking-glass", "lg", "maliciously-obscure", "mo", "micro-finance", "mf",
    "micro-finance-improved", "mfi", "one-big-family", "obf", "qualified-seed", "qs",
    "qualified-seed-improved", "qsi", "rin-tin-tin", "rtt", "sentient-pearls", "sp", "sand-stone",
    "ss", "slick-rock", "sr", "tea-for-two", "tft", "the-last-mohican", "tlm", "three-eighty",
    "te", "toons-for-twenty-somethings", "tfts", "the-iglu-cabal", "tic", "video-editing", "ve",
    "yellow-brick-road", "ybr",
))

#: The wall-clock cap of a run when ``--max-seconds`` is not given: a program waiting
#: for ``fc-solve`` (PySolFC's solver window) gets an answer within it.
DEFAULT_SECONDS = 60.0
#: The memory cap of a run when ``--max-memory`` is not given.
DEFAULT_MEMORY = "2G"


@dataclass
class FcsOptions:
    """What one command line asks for."""

    moves: bool = False
    parseable: bool = False
    tens_as_t: bool = False
    states_and_moves: bool = False
    show_exceeded: bool = False
    optimize: bool = False
    hint_on_intractable: bool = False
    iter_output: bool = False
    state_output: bool = False
    help: bool = False
    version: bool = False
    step: int = 1
    configs: list[str] = field(default_factory=list)
    max_iters: int | None = None
    max_seconds: float = DEFAULT_SECONDS
    max_memory: int = field(default_factory=lambda: parse_bytes(DEFAULT_MEMORY))
    game: GameParams = field(default_factory=GameParams)
    board: str = "-"


def _integer(option: str, text: str, low: int) -> int:
    if not (text.isascii() and text.isdigit()) or int(text) < low:
        raise InvalidOptionError(
            f'The command line parameter "{option}" takes an integer of at least {low}, '
            f'not "{text}".')
    return int(text)


def _word(option: str, text: str, allowed: Sequence[str]) -> str:
    if text not in allowed:
        raise InvalidOptionError(
            f'Unknown argument "{text}" to "{option}": use one of {", ".join(allowed)}.')
    return text


def _apply(options: FcsOptions, option: str, kind: str, value: str) -> None:
    """Set what ``option`` (of ``kind``) with ``value`` asks for."""
    game = options.game
    if kind == "step":
        options.step = _integer(option, value, 1)
    elif kind == "config":
        if value not in SEARCH_CONFIGS:
            raise InvalidOptionError(f'Unknown configuration "{value}" for "{option}".')
        options.configs.append(value)
    elif kind == "game":
        options.game = game_params(value)
    elif kind == "max_iters":
        options.max_iters = _integer(option, value, 1)
    elif kind == "max_seconds":
        try:
            seconds = float(value)
        except ValueError:
            seconds = math.nan
        if not (math.isfinite(seconds) and seconds > 0):
            raise InvalidOptionError(
                f'The command line parameter "{option}" takes a positive number of '
                f'seconds, not "{value}".')
        options.max_seconds = seconds
    elif kind == "max_memory":
        try:
            options.max_memory = parse_bytes(value)
        except InvalidOptionError:
            options.max_memory = 0
        if options.max_memory <= 0:
            raise InvalidOptionError(
                f'The command line parameter "{option}" takes a size like 2G or 512M, '
                f'not "{value}".') from None
    elif kind in ("decks", "stacks", "freecells"):
        options.game = game.change(**{kind: _integer(option, value, 0)})
    elif kind == "build":
        options.game = game.change(build=_word(option, value, tuple(BUILD_WORDS)))
    elif kind == "sequence_move":
        options.game = game.change(sequence_move=_word(option, value, MOVE_WORDS))
    else:
        options.game = game.change(empty=_word(option, value, tuple(EMPTY_WORDS)))


def parse_options(argv: Sequence[str]) -> FcsOptions:
    """Read ``fc-solve``'s command line (without the program name), in order.

    Raises InvalidOptionError, worded as ``fc-solve`` words it, for an option this
    command does not know, a missing or bad value, a game bakers does not play, or a
    second board file.
    """
    options = FcsOptions()
    boards: list[str] = []
    i = 0
    while i < len(argv):
        token = argv[i]
        i += 1
        if token in FLAGS:
            setattr(options, FLAGS[token], True)
        elif token in VALUED:
            if i >= len(argv):
                raise InvalidOptionError(
                    f'The command line parameter "{token}" requires an argument and was '
                    f'not supplied with one.')
            _apply(options, token, VALUED[token], argv[i])
            i += 1
        elif token.startswith("-") and token != "-":
            raise InvalidOptionError(
                f'Unknown option "{token}". Type "fc-solve --help" for usage information.')
        else:
            boards.append(token)
    if len(boards) > 1:
        raise InvalidOptionError(
            f'Only one board file is read, not "{boards[0]}" and "{boards[1]}".')
    if boards:
        options.board = boards[0]
    if options.state_output:
        options.iter_output = True
    return options
