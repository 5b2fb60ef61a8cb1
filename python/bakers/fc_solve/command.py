"""The ``bakers-fc-solve`` command: ``fc-solve``'s command line, bakers' search.

Exit status 0 for every run that finishes, whatever its verdict (a program running
``fc-solve`` reads the verdict from the output; PySolFC takes status 1 for "solver not
found"); 255 with one line on standard error, as ``fc-solve`` does, for a command line
or a board it cannot take.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from pathlib import Path

from .. import __version__
from ..deals import Deal
from ..errors import BakersError, DealParseError, InvalidOptionError
from ..limits import Limits
from ..solving import SearchProgress, default_method, solve
from .games import to_variant
from .options import FcsOptions, parse_options
from .output import ProgressLines, listed_moves, plain_board, write_run

__all__ = ["main", "EXIT_REFUSED", "FCS_COMPATIBLE"]

EXIT_REFUSED = 255
#: The ``fc-solve`` version whose command line and output this command speaks.
FCS_COMPATIBLE = "5.0.0"

HELP = f"""\
fc-solve [flags] [board_file|-]

bakers-fc-solve {__version__}: the bakers solver behind Freecell Solver's command line.
Reads the board from standard input by default or if a "-" is specified.

Output: -m (moves), -sam (states and moves), -p, -t, -sel, -hoi, -opt,
        -i/--iter-output, --iter-output-step N, -s
Game:   -g/--game/--preset NAME, --decks-num N, --stacks-num N, --freecells-num N,
        --sequences-are-built-by suit|alternate_color|rank,
        --sequence-move limited|unlimited, --empty-stacks-filled-by all|kings|none
Search: --max-iters N (positions expanded), --max-seconds S (wall clock, default 60),
        --max-memory SIZE (default 2G), --load-config NAME / -l NAME (accepted; bakers
        searches its own way)

Every foundation move is listed. -opt is accepted (bakers' lines are its own); -hoi too,
but a run that hits a limit prints no moves (bakers keeps no line to the position it
reached); -i prints "Depth: 0" (bakers' searches report no depth); -s acts as -i.
"""

_FACE_DOWN = re.compile(r"<[^>\s]*>")


def _read_board(source: str) -> str:
    """Return the board text of file ``source`` or of standard input for ``-``: UTF-8,
    a byte-order mark dropped, as ``fc-solve`` reads it.

    Raises InvalidOptionError for a file that cannot be read, DealParseError for text
    that is not UTF-8 or holds face-down cards.
    """
    try:
        data = sys.stdin.buffer.read() if source == "-" else Path(source).read_bytes()
    except OSError as exc:
        raise InvalidOptionError(f'Could not open file "{source}" for input: '
                                 f"{exc.strerror}.") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DealParseError(f"the board is not UTF-8 text (byte {exc.start})") from None
    for number, line in enumerate(text.splitlines(), start=1):
        hidden = _FACE_DOWN.search(line)
        if hidden:
            raise DealParseError(
                f"line {number}, column {hidden.start() + 1}: face-down card "
                f"{hidden.group()!r}: bakers plays open games, every card face up")
    return text


def _run(options: FcsOptions) -> None:
    """Read the board, solve it by the options' game and limits, and print the run as
    ``fc-solve`` prints it."""
    variant = to_variant(options.game)
    deal = Deal.parse(variant, _read_board(options.board))
    out = sys.stdout
    method = default_method(variant)
    meter = None
    if options.iter_output:
        meter = ProgressLines(out, options.step, method)
        meter.write(0, 0)

    def progress(report: SearchProgress) -> None:
        assert meter is not None
        meter.write(report.expanded, report.stored)

    limits = Limits(nodes=options.max_iters, seconds=options.max_seconds,
                    memory=options.max_memory)
    result = solve(deal, limits=limits, method=method, progress=progress if meter else None)
    if meter is not None:
        meter.write(result.stats.expanded, result.stats.stored)
    moves = None
    if result.solution is not None:
        moves = listed_moves(deal, result.solution)
    write_run(out, start=plain_board(deal),
              moves=moves, verdict=result.verdict, expanded=result.stats.expanded,
              stored=result.stats.stored,
              show_moves=options.moves or options.states_and_moves,
              show_states=options.states_and_moves or not options.moves,
              show_exceeded=options.show_exceeded, tens_as_t=options.tens_as_t)
    out.flush()


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``fc-solve``'s command line ``argv`` (default: the process's); return the
    exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        options = parse_options(args)
        if options.help:
            sys.stdout.write(HELP)
            return 0
        if options.version:
            sys.stdout.write(f"fc-solve\nbakers-fc-solve {__version__}, compatible with "
                             f"libfreecell-solver version {FCS_COMPATIBLE}\n")
            return 0
        _run(options)
    except BakersError as exc:
        sys.stderr.write(f"{exc}\n")
        return EXIT_REFUSED
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 141
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
