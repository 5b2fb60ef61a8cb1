"""The ``bakers-fc-solve`` command: ``fc-solve``'s command line, bakers' search.

Exit status 0 for every run that finishes, whatever its verdict (a program running
``fc-solve`` reads the verdict from the output; PySolFC takes status 1 for "solver not
found"); 255 with one line on standard error, as ``fc-solve`` does, for a command line
or a board it cannot take; 130 for Ctrl-C, with no verdict printed (``fc-solve`` dies
of the signal, which a shell reports as 130); 141 when standard output closes early.
The board is read with the `bakers` command's reader and cap (`read_text`,
`MAX_BOARD_BYTES`), numbers with its readers (`options`), so both commands refuse the
same input alike.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
from collections.abc import Sequence
from typing import TextIO

from .. import __version__
from ..cli.common import EXIT_INTERRUPTED, EXIT_PIPE, MAX_BOARD_BYTES, read_text
from ..errors import BakersError, DealParseError, InvalidOptionError
from ..limits import Limits
from .games import to_variant
from .options import FcsOptions, parse_options

__all__ = ["main", "EXIT_REFUSED", "FCS_COMPATIBLE", "PROGRAM"]

EXIT_REFUSED = 255
#: The ``fc-solve`` version whose command line and output this command speaks.
FCS_COMPATIBLE = "5.0.0"
#: The name every message of this command starts with.
PROGRAM = "bakers-fc-solve"

HELP = f"""\
fc-solve [flags] [board_file|-]

bakers-fc-solve {__version__}: the bakers solver behind Freecell Solver's command line.
Reads the board from standard input by default or if a "-" is specified.

Output: -m (moves), -sam (states and moves), -sn / -snx (moves in standard notation),
        -p, -t, -sel, -hoi, -opt, -i/--iter-output, --iter-output-step N, -s,
        -o/--output FILE
Game:   -g/--game/--preset NAME, --decks-num N, --stacks-num N, --freecells-num N,
        --sequences-are-built-by suit|alternate_color|rank,
        --sequence-move limited|unlimited, --empty-stacks-filled-by all|kings|none,
        --reset
Search: -mi/--max-iters N (positions expanded), -mss/--max-stored-states N (positions
        stored), --max-seconds S (wall clock, default 60), --max-memory SIZE (default 2G)
Set aside, with a line on standard error (they tune Freecell Solver's own search):
        -l/--load-config NAME, -to, -dto, -dto2, -me/--method, -asw, -seed, -sp,
        -opt-to, -step, --st-name, --prelude, --scans-synergy, -nst, -nht, -ni,
        -nf/--next-flare, --flare-name, --flares-plan, --flares-choice, -fif,
        -md, -tmss, --cache-limit, --patsolve-x-param, --patsolve-y-param,
        --reparent-states, --calc-real-depth, -c, -pi

Every foundation move is listed. -opt is accepted (bakers' lines are its own); -hoi too,
but a run that hits a limit prints no moves (bakers keeps no line to the position it
reached); -i prints "Depth: 0" (bakers' searches report no depth); -s acts as -i.
"""

#: A face-down card, ``<4C>``. No ``<`` inside, so that a search of a line costs time
#: in proportion to its length: each try stops at the next ``<``, ``>`` or blank.
_FACE_DOWN = re.compile(r"<[^<>\s]*>")


def _read_board(source: str) -> str:
    """Return the board text of file ``source`` or of standard input for ``-``: UTF-8,
    a byte-order mark dropped, as ``fc-solve`` reads it.

    Raises InvalidOptionError for a file that cannot be read, is longer than any board
    (refused before it is read whole) or is not UTF-8, DealParseError for face-down cards.
    """
    text = read_text(source, "board", MAX_BOARD_BYTES).removeprefix("\ufeff")
    for number, line in enumerate(text.splitlines(), start=1):
        hidden = _FACE_DOWN.search(line)
        if hidden:
            raise DealParseError(
                f"line {number}, column {hidden.start() + 1}: face-down card "
                f"{hidden.group()!r}: bakers plays open games, every card face up")
    return text


def _open_output(path: str | None) -> TextIO:
    """Return the stream of ``-o FILE`` (standard output without it).

    Raises InvalidOptionError for a file that cannot be written."""
    if path is None:
        return sys.stdout
    try:
        return open(path, "w", encoding="utf-8")  # noqa: SIM115  # closed by `main`
    except OSError as exc:
        raise InvalidOptionError(f"cannot write the output file {path!r}: "
                                 f"{exc.strerror}") from None


def _run(options: FcsOptions, out: TextIO) -> int:
    """Read the board, solve it by the options' game and limits, print the run as
    ``fc-solve`` prints it on ``out``; return the exit status."""
    # Imported here: --version, --help and a bad command line need no search.
    from ..deals import Deal
    from ..solving import SearchProgress, default_method, solve
    from .output import ProgressLines, listed_moves, plain_board, write_run

    variant = to_variant(options.game)
    deal = Deal.parse(variant, _read_board(options.board))
    method = default_method(variant)
    meter = None
    if options.iter_output:
        meter = ProgressLines(out, options.step, method)
        meter.write(0, 0)

    def progress(report: SearchProgress) -> None:
        assert meter is not None
        meter.write(report.expanded, report.stored)

    limits = Limits(nodes=options.max_iters, states=options.max_stored,
                    seconds=options.max_seconds, memory=options.max_memory)
    result = solve(deal, limits=limits, method=method, progress=progress if meter else None)
    if result.reason == "interrupted":  # no verdict: fc-solve prints none either
        raise KeyboardInterrupt
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
              show_exceeded=options.show_exceeded, tens_as_t=options.tens_as_t,
              notation=options.notation)
    out.flush()
    return 0


def _say(text: str) -> None:
    sys.stderr.write(f"{PROGRAM}: {text}\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``fc-solve``'s command line ``argv`` (default: the process's); return the
    exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    out: TextIO | None = None
    try:
        options = parse_options(args)
        if options.help:
            sys.stdout.write(HELP)
            return 0
        if options.version:
            sys.stdout.write(f"fc-solve\nbakers-fc-solve {__version__}, compatible with "
                             f"libfreecell-solver version {FCS_COMPATIBLE}\n")
            return 0
        if options.ignored:
            _say(f"ignored (they tune Freecell Solver's own search or display; bakers "
                 f"searches its own way): {', '.join(options.ignored)}")
        out = _open_output(options.output)
        return _run(options, out)
    except BakersError as exc:
        _say(f"error: {exc}")
        return EXIT_REFUSED
    except ImportError as exc:  # the compiled core, imported when first needed
        _say(f"error: {exc}")
        return EXIT_REFUSED
    except KeyboardInterrupt:
        _say("interrupted: no answer")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader of standard output has gone (``... | head``): point stdout at
        # /dev/null so that the interpreter's final flush does not fail too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_PIPE
    except OSError as exc:  # the output file cannot be written (a full disk)
        _say(f"error: cannot write the output: {exc.strerror or exc}")
        return EXIT_REFUSED
    finally:
        if out is not None and out is not sys.stdout:
            with contextlib.suppress(OSError):  # a write error was reported by the flush
                out.close()


if __name__ == "__main__":
    raise SystemExit(main())
