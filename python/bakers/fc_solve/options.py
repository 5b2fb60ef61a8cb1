"""Freecell Solver's command line, read token by token as ``fc-solve`` reads it.

``fc-solve``'s options are not argparse's kind: single-dash words (``-sel``, ``-opt``),
options applied in order (a game named by ``-g`` resets the settings given before it),
and refusals worded its own way. So they are read here by tables: the options this
command acts on (`FLAGS`, `VALUED`), those it takes and sets aside because they tune
Freecell Solver's own search (`IGNORED_FLAGS`, `IGNORED_VALUED`); anything else is
refused. Numbers are read by the `bakers` command's own readers (`count`, `seconds`),
so that a number has one bound and one wording in both commands.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..cli.common import count, seconds
from ..errors import InvalidOptionError
from ..limits import MAX_COUNT, parse_bytes
from .games import BUILD_WORDS, EMPTY_WORDS, MOVE_WORDS, GameParams, game_params

__all__ = ["FcsOptions", "parse_options", "FLAGS", "VALUED", "IGNORED_FLAGS",
           "IGNORED_VALUED", "SEARCH_CONFIGS"]

#: Options without a value, each with the attribute it sets.
FLAGS = {
    "-m": "moves", "--display-moves": "moves",
    "-p": "parseable", "--parseable-output": "parseable",
    "-t": "tens_as_t", "--display-10-as-t": "tens_as_t",
    "-sam": "states_and_moves", "--display-states-and-moves": "states_and_moves",
    "-sn": "standard_notation", "--standard-notation": "standard_notation",
    "-snx": "extended_notation", "--standard-notation-extended": "extended_notation",
    "-sel": "show_exceeded", "--show-exceeded-limits": "show_exceeded",
    "-opt": "optimize", "--optimize-solution": "optimize",
    "-hoi": "hint_on_intractable", "--hint-on-intractable": "hint_on_intractable",
    "-i": "iter_output", "--iter-output": "iter_output",
    "-s": "state_output", "--state-output": "state_output",
    "-h": "help", "--help": "help", "--help-configs": "help", "--help-options": "help",
    "--help-real-help": "help", "--help-short-sol": "help", "--help-summary": "help",
    "--version": "version",
    "--reset": "reset",
}

#: Options that take a value, each with the name of its kind.
VALUED = {
    "--iter-output-step": "step",
    "--load-config": "config", "-l": "config",
    "-g": "game", "--game": "game", "--preset": "game",
    "-mi": "max_iters", "--max-iters": "max_iters",
    "-mss": "max_stored", "--max-stored-states": "max_stored",
    "--decks-num": "decks", "--stacks-num": "stacks", "--freecells-num": "freecells",
    "--sequences-are-built-by": "build",
    "--sequence-move": "sequence_move",
    "--empty-stacks-filled-by": "empty",
    "--max-seconds": "max_seconds",
    "--max-memory": "max_memory",
    "-o": "output", "--output": "output",
}

#: Freecell Solver's options without a value that shape its own search or its threads
#: of search (bakers runs its own search, whose verdict does not depend on them) or
#: print what bakers' search does not have (canonized stack order, parent iterations).
IGNORED_FLAGS = frozenset((
    "-c", "--canonized-order-output", "-pi", "--display-parent-iter",
    "--reparent-states", "--calc-real-depth",
    "-nst", "--next-soft-thread", "-nht", "--next-hard-thread",
    "-nf", "--next-flare", "-ni", "--next-instance",
))

#: Freecell Solver's options with a value that tune its own search (moves' order,
#: method, pruning, weights, seeds, soft threads, preludes, flares, caches), taken with
#: their value and set aside.
IGNORED_VALUED = frozenset((
    "-md", "--max-depth", "-tmss", "--trim-max-stored-states",
    "-to", "--tests-order", "-dto", "--depth-tests-order", "-dto2", "--depth-tests-order2",
    "-me", "--method", "-asw", "--a-star-weight", "--a-star-weights", "-seed",
    "-sp", "--set-pruning", "-opt-to", "--optimization-tests-order",
    "--patsolve-x-param", "--patsolve-y-param",
    "-step", "--soft-thread-step", "--st-name", "--prelude", "--scans-synergy",
    "--flare-name", "--flares-plan", "--flares-choice", "-fif", "--flares-iters-factor",
    "--cache-limit",
))

#: Options that would change the game or the search in ways not seen on the command
#: line, refused rather than set aside, with why.
REFUSED = {
    "--read-from-file": "give the options on the command line (bakers-fc-solve does not "
                        "read them from a file)",
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
    """What one command line asks for. ``ignored`` lists the options taken and set
    aside, each with its value, as typed."""

    moves: bool = False
    parseable: bool = False
    tens_as_t: bool = False
    states_and_moves: bool = False
    standard_notation: bool = False
    extended_notation: bool = False
    show_exceeded: bool = False
    optimize: bool = False
    hint_on_intractable: bool = False
    iter_output: bool = False
    state_output: bool = False
    help: bool = False
    version: bool = False
    reset: bool = False
    step: int = 1
    configs: list[str] = field(default_factory=list)
    max_iters: int | None = None
    max_stored: int | None = None
    max_seconds: float = DEFAULT_SECONDS
    max_memory: int = field(default_factory=lambda: parse_bytes(DEFAULT_MEMORY))
    game: GameParams = field(default_factory=GameParams)
    output: str | None = None
    board: str = "-"
    ignored: list[str] = field(default_factory=list)

    @property
    def notation(self) -> str | None:
        """Return how moves are written: ``'snx'``, ``'sn'`` or None (fc-solve's words)."""
        if self.extended_notation:
            return "snx"
        return "sn" if self.standard_notation else None


def _read(option: str, value: str, reader: Callable[[str], object]) -> object:
    """Return ``reader(value)`` (a reader of the `bakers` command); its refusal becomes
    an InvalidOptionError naming ``option``, as the `bakers` command names its flags."""
    try:
        return reader(value)
    except argparse.ArgumentTypeError as exc:
        raise InvalidOptionError(f"argument {option}: {exc}") from None


def _integer(option: str, text: str, low: int) -> int:
    value = _read(option, text, count(low))
    assert isinstance(value, int)
    return value


def _word(option: str, text: str, allowed: Sequence[str]) -> str:
    if text not in allowed:
        raise InvalidOptionError(
            f'argument {option}: unknown value "{text}": use one of {", ".join(allowed)}')
    return text


def _memory(option: str, text: str) -> int:
    """Read ``--max-memory``: a size like 2G, more than 0 and below 2**64 bytes (the
    engine's counters)."""
    try:
        size = parse_bytes(text)
    except InvalidOptionError:
        size = 0
    if not 0 < size < MAX_COUNT:
        raise InvalidOptionError(f"argument {option}: {text!r} is not a size like 2G or "
                                 f"512M (more than 0, below 2**64 bytes)")
    return size


def _apply(options: FcsOptions, option: str, kind: str, value: str) -> None:
    """Set what ``option`` (of ``kind``) with ``value`` asks for."""
    game = options.game
    if kind == "step":
        options.step = _integer(option, value, 1)
    elif kind == "config":
        if value not in SEARCH_CONFIGS:
            raise InvalidOptionError(f'argument {option}: unknown configuration "{value}"')
        options.configs.append(value)
        options.ignored.append(f"{option} {value}")
    elif kind == "game":
        try:
            options.game = game_params(value)
        except InvalidOptionError as exc:
            raise InvalidOptionError(f"argument {option}: {exc}") from None
    elif kind == "max_iters":
        options.max_iters = _integer(option, value, 1)
    elif kind == "max_stored":
        options.max_stored = _integer(option, value, 1)
    elif kind == "max_seconds":
        number = _read(option, value, seconds)
        assert isinstance(number, float)
        options.max_seconds = number
    elif kind == "max_memory":
        options.max_memory = _memory(option, value)
    elif kind == "output":
        options.output = value
    elif kind in ("decks", "stacks", "freecells"):
        # Their range is checked once the whole line is read (`games.to_variant`): a
        # game named later resets them.
        options.game = game.change(**{kind: _integer(option, value, 0)})
    elif kind == "build":
        options.game = game.change(build=_word(option, value, tuple(BUILD_WORDS)))
    elif kind == "sequence_move":
        options.game = game.change(sequence_move=_word(option, value, MOVE_WORDS))
    else:
        options.game = game.change(empty=_word(option, value, tuple(EMPTY_WORDS)))


def _shown(text: str) -> str:
    """Return an option's value for a one-line message: whole when short, else its start;
    quoted as Python quotes it when it holds a line break or another unprintable."""
    shown = text if len(text) <= 40 else f"{text[:20]}... ({len(text)} characters)"
    return shown if shown.isprintable() else repr(shown)


def parse_options(argv: Sequence[str]) -> FcsOptions:
    """Read ``fc-solve``'s command line (without the program name), in order.

    Raises InvalidOptionError naming the option for one this command does not know, a
    missing or bad value, a game bakers does not play, or a second board file.
    """
    options = FcsOptions()
    boards: list[str] = []
    i = 0
    while i < len(argv):
        token = argv[i]
        i += 1
        if token in FLAGS:
            setattr(options, FLAGS[token], True)
            if token == "--reset":  # fc-solve's settings as at the start of the line
                options.game = GameParams()
                options.max_iters = options.max_stored = None
        elif token in IGNORED_FLAGS:
            options.ignored.append(token)
        elif token in VALUED or token in IGNORED_VALUED or token in REFUSED:
            if i >= len(argv):
                raise InvalidOptionError(f"argument {token}: expected one argument")
            if token in REFUSED:
                raise InvalidOptionError(f"argument {token}: {REFUSED[token]}")
            if token in VALUED:
                _apply(options, token, VALUED[token], argv[i])
            else:
                options.ignored.append(f"{token} {_shown(argv[i])}")
            i += 1
        elif token.startswith("-") and token != "-":
            raise InvalidOptionError(
                f'unknown option "{_shown(token)}" (bakers-fc-solve --help lists the options)')
        else:
            boards.append(token)
    if len(boards) > 1:
        raise InvalidOptionError(
            f'one board file is read, not "{_shown(boards[0])}" and "{_shown(boards[1])}"')
    if boards:
        options.board = boards[0]
    if options.state_output:
        options.iter_output = True
    return options
