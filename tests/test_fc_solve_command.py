"""`bakers-fc-solve`: Freecell Solver's command line, its output and its refusals."""

from __future__ import annotations

import importlib
import io
import sys
from pathlib import Path
from types import ModuleType

import pytest
from bakers import Board, Deal, find_variant
from bakers.fc_solve.command import main
from bakers.fc_solve.games import to_variant
from bakers.fc_solve.options import parse_options
from bakers.notation import parse_fcs_verbose
from bakers.solution import Solution

MS24 = Deal.from_number("freecell", 24).to_text()
BAKERS_GAME_5 = Deal.from_number("bakers_game", 5).to_text()


@pytest.fixture
def fcs(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch):
    """Run `bakers-fc-solve ARGS` in-process with ``stdin`` bytes; return (code, out, err)."""

    def run(*argv: str, stdin: bytes | str = b"") -> tuple[int, str, str]:
        data = stdin.encode() if isinstance(stdin, str) else stdin
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
        code = main(list(argv))
        out, err = capsys.readouterr()
        assert "Traceback" not in err
        return code, out, err

    return run


def _replays_to_a_win(out: str, start: str, game: str) -> int:
    moves = parse_fcs_verbose(out)
    rules = find_variant(game).replace(auto_aces=False)
    replay = Solution(moves).replay(Board(Deal.parse(rules, start)))
    assert replay.error is None, replay.error
    assert replay.won
    return len(moves)


def test_probes(fcs) -> None:
    code, out, _ = fcs("--help")
    assert code == 0 and out.startswith("fc-solve")
    code, out, _ = fcs("--version")
    assert code == 0 and "version 5.0.0" in out


@pytest.mark.parametrize(("argv", "said"), [
    (["--bogus"], 'unknown option "--bogus"'),
    (["-g", "no_such_game"], 'argument -g: unknown game "no_such_game"'),
    (["-g", "simple_simon"], 'bakers does not play "simple_simon"'),
    (["-g", "fan"], "18 columns"),
    (["--decks-num", "2"], "one deck"),
    (["--stacks-num", "14"], "1 to 13 stacks"),
    (["--freecells-num", "9"], "0 to 8 freecells"),
    (["--max-iters"], "argument --max-iters: expected one argument"),
    (["--max-iters", "ten"], "argument --max-iters: 'ten' is not a whole number"),
    (["--sequence-move", "sometimes"], 'unknown value "sometimes"'),
    (["--load-config", "nonsense"], 'unknown configuration "nonsense"'),
    (["--max-memory", "lots"], "argument --max-memory: 'lots' is not a size"),
    (["--max-seconds", "-1"], "argument --max-seconds: -1 is not a positive number"),
    (["-m", "a.board", "b.board"], 'one board file is read'),
    (["-m", "/no/such/board"], "no such board file: '/no/such/board'"),
])
def test_refusals_are_one_line_and_exit_255(fcs, argv: list[str], said: str) -> None:
    code, out, err = fcs(*argv, stdin=MS24)
    assert code == 255 and out == ""
    assert err.startswith("bakers-fc-solve: error: ")
    assert said in err and err.count("\n") == 1


def test_freecell_as_pysolfc_asks(fcs) -> None:
    argv = ["-m", "-p", "-opt", "-sel", "-hoi", "--iter-output", "--iter-output-step", "100",
            "--load-config", "video-editing", "--max-iters", "100000", "--decks-num", "1",
            "--stacks-num", "8", "--freecells-num", "4"]
    code, out, _ = fcs(*argv, stdin=MS24)
    assert code == 0
    progress, _, moves = out.partition("-=-=-=-=-=-=-=-=-=-=-=-\n")
    assert progress.startswith("Iteration: 0\nDepth: 0\nStored-States: 0\n")
    end = moves.splitlines()[-3:]
    assert end[0] == "This game is solveable."
    assert end[1].startswith("Total number of states checked is ")
    assert end[2].startswith("This scan generated ")
    assert _replays_to_a_win(moves, MS24, "freecell") > 50


def test_beleaguered_castle_within_pysolfcs_iterations(fcs) -> None:
    """PySol's Beleaguered Castle 10: Freecell Solver wins it within PySolFC's 100,000
    iterations; so does bakers, through the portfolio's restricted pass (before it, the
    limit ended the search: "intractable" to PySolFC)."""
    deal = Deal.from_number("beleaguered_castle", 10)
    code, out, _ = fcs("-m", "-p", "-opt", "-sel", "-hoi", "-g", "beleaguered_castle",
                       "--max-iters", "100000", stdin=deal.to_text())
    assert code == 0 and "This game is solveable." in out
    _replays_to_a_win(out, deal.to_text(), "beleaguered_castle")


@pytest.fixture
def pysolfc_limit(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """``bench/pysolfc_limit.py``: PySolFC's command line and board for each of its games."""
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "bench"))
    return importlib.import_module("pysolfc_limit")


#: For each game PySolFC hands to Freecell Solver, a deal of PySol's 1..1,000 that
#: fc-solve wins within PySolFC's command line and 100,000 iterations (measured by
#: ``bench/pysolfc_limit.py``, docs/benchmarks.md): of those bakers wins in under a
#: second, the one that takes it the most positions. (The packaged fc-solve refuses the
#: boards of Baker's Dozen, Portuguese Solitaire and Spanish Patience II: 13 stacks.)
WON_WITHIN_PYSOLFCS_LIMIT = [
    ("eight_off", 528), ("relaxed_seahaven_towers", 281), ("opus", 317), ("penguin", 428),
    ("king_only_bakers_game", 234), ("tuxedo", 399), ("seahaven_towers", 19),
    ("bakers_game", 134), ("freecell", 456), ("streets_and_alleys", 219),
    ("beleaguered_castle", 160), ("citadel", 527), ("stronghold", 423), ("good_measure", 144),
]


def _pysolfc_run(fcs, bench: ModuleType, game: str, number: int) -> tuple[str, str]:
    """`bakers-fc-solve` on PySol's deal ``number`` of ``game`` as PySolFC runs it; return
    the board and the output after the progress lines."""
    board = bench.pysolfc_board(game, number)
    code, out, _ = fcs(*bench.pysolfc_arguments(game), stdin=board)
    assert code == 0
    return board, out.partition("-=-=-=-=-=-=-=-=-=-=-=-\n")[2]


@pytest.mark.parametrize(("game", "number"), WON_WITHIN_PYSOLFCS_LIMIT)
def test_wins_what_fc_solve_wins_within_pysolfcs_limit(fcs, pysolfc_limit: ModuleType,
                                                      game: str, number: int) -> None:
    board, out = _pysolfc_run(fcs, pysolfc_limit, game, number)
    assert "This game is solveable." in out
    variant = to_variant(parse_options(pysolfc_limit.pysolfc_arguments(game)).game)
    replay = Solution(parse_fcs_verbose(out)).replay(
        Board(Deal.parse(variant.replace(auto_aces=False), board)))
    assert replay.error is None and replay.won


#: Seahaven Towers deals that fc-solve wins within PySolFC's limit (45,221, 74,047 and
#: 39,847 iterations) where depth first alone needed 502,956, 129,812 and 165,757
#: positions: the dive before it wins them in a few hundred.
@pytest.mark.parametrize("number", [10, 864, 937])
def test_seahaven_towers_within_pysolfcs_limit(fcs, pysolfc_limit: ModuleType, number: int) -> None:
    board, out = _pysolfc_run(fcs, pysolfc_limit, "seahaven_towers", number)
    assert "This game is solveable." in out
    variant = to_variant(parse_options(pysolfc_limit.pysolfc_arguments("seahaven_towers")).game)
    replay = Solution(parse_fcs_verbose(out)).replay(
        Board(Deal.parse(variant.replace(auto_aces=False), board)))
    assert replay.error is None and replay.won


def test_bakers_dozen_lists_every_ace(fcs) -> None:
    deal = Deal.from_number("bakers_dozen", 3)
    code, out, _ = fcs("-m", "-p", "--preset", "bakers_dozen", "--stacks-num", "13",
                       stdin=deal.to_text())
    assert code == 0 and "This game is solveable." in out
    moves = parse_fcs_verbose(out)
    assert sum(1 for m in moves if m.dst.kind == "foundation") == 52
    _replays_to_a_win(out, deal.to_text(), "bakers_dozen")


def test_an_ace_exposed_at_the_start_is_listed_first(fcs) -> None:
    deal = Deal.from_number("bakers_dozen", 3)
    text = deal.to_text()
    # Move an ace to the top of its column by hand: the referee would send it home at once.
    columns = [list(c) for c in deal.columns]
    i, j = next((i, j) for i, col in enumerate(columns) for j, c in enumerate(col) if c.rank == 1)
    columns[i].append(columns[i].pop(j))
    text = Deal(deal.variant.replace(auto_aces=False, kings_to_bottom=False),
                tuple(map(tuple, columns))).to_text()
    code, out, _ = fcs("-m", "-g", "bakers_dozen", stdin=text)
    assert code == 0
    first = parse_fcs_verbose(out)[0]
    assert (first.src.kind, first.src.index, first.dst.kind) == ("column", i, "foundation")
    _replays_to_a_win(out, text, "bakers_dozen")


def test_board_quirks_fc_founds_and_bom(fcs) -> None:
    board = Board(Deal.from_number("freecell", 24))
    board.push_notation("7a")
    board.push_notation("7c")
    text = board.to_deal().to_text()
    assert "Freecells: JD - 8H -" in text
    pysolfc_style = text.replace("Freecells:", "FC:")
    code, out, _ = fcs("-m", stdin=b"\xef\xbb\xbf" + pysolfc_style.encode())
    assert code == 0 and "This game is solveable." in out
    _replays_to_a_win(out, text, "freecell")


def test_face_down_cards_are_refused(fcs) -> None:
    text = MS24.replace("4C 2C", "<4C> 2C", 1)
    code, out, err = fcs("-m", stdin=text)
    assert code == 255 and "face-down card '<4C>'" in err and "line 1" in err


def test_states_and_moves_print_boards(fcs) -> None:
    code, out, _ = fcs("-sam", "-p", "-t", stdin=MS24)
    assert code == 0
    assert out.startswith("-=-=-=-=-=-=-=-=-=-=-=-\n\nFoundations: H-0 C-0 D-0 S-0 \n"
                          "Freecells:                \n: 4C 2C 9C 8C QS 4S 2H\n")
    assert "\n====================\n\nMove " in out
    code, out, _ = fcs("-sam", "-p", stdin=MS24)
    assert ": 2D KD 10H 10C 10D 8D\n" in out


def test_verdicts_and_exit_status(fcs) -> None:
    impossible = Deal.from_number("freecell", 11982).to_text()
    code, out, _ = fcs("-m", "-p", "-sel", stdin=impossible)
    assert code == 0 and out.startswith("I could not solve this game.\n")
    # Baker's Game 5 takes more than two positions (a FreeCell search may check its
    # limits only every few dozen positions, and win FreeCell 24 before the first check).
    code, out, _ = fcs("-m", "-p", "-sel", "-g", "bakers_game", "--max-iters", "2",
                       stdin=BAKERS_GAME_5)
    assert code == 0 and out.startswith("Iterations count exceeded.\nTotal number of "
                                        "states checked is ")
    code, out, _ = fcs("-m", "-p", "-g", "bakers_game", "--max-iters", "2",
                       stdin=BAKERS_GAME_5)
    assert code == 0 and out.startswith("I could not solve this game.\n")


def test_a_memory_cap_ends_the_run_as_a_limit(fcs) -> None:
    code, out, _ = fcs("-m", "-sel", "-g", "bakers_game", "--max-memory", "1K",
                       stdin=BAKERS_GAME_5)
    assert code == 0 and out.startswith("Iterations count exceeded.\n")


@pytest.mark.parametrize(("stacks", "cells", "build", "move", "empty"), [
    (13, 0, "rank", "limited", "none"),
    (10, 2, "suit", "unlimited", "kings"),
    (7, 3, "alternate_color", "limited", "all"),
    (9, 1, "rank", "unlimited", "all"),
    (12, 8, "suit", "limited", "kings"),
    (6, 5, "alternate_color", "unlimited", "none"),
])
def test_settings_become_the_rules_played(fcs, stacks: int, cells: int, build: str, move: str,
                                          empty: str) -> None:
    from bakers import Variant
    from bakers.fc_solve.games import BUILD_WORDS, EMPTY_WORDS

    rules = Variant("x", columns=stacks, cells=cells, build=BUILD_WORDS[build],
                    empty=EMPTY_WORDS[empty],
                    moves="sequence" if move == "unlimited" else "supermove")
    text = Deal.from_seed(rules, stacks * 100 + cells).to_text()
    code, out, _ = fcs("-m", "-sel", "--max-iters", "50000", "--stacks-num", str(stacks),
                       "--freecells-num", str(cells), "--sequences-are-built-by", build,
                       "--sequence-move", move, "--empty-stacks-filled-by", empty, stdin=text)
    assert code == 0
    verdict = out.splitlines()[-3]
    assert verdict in ("This game is solveable.", "I could not solve this game.",
                       "Iterations count exceeded.")
    if verdict == "This game is solveable.":
        replay = Solution(parse_fcs_verbose(out)).replay(Board(Deal.parse(rules, text)))
        assert replay.error is None and replay.won


@pytest.mark.parametrize(("cells", "empty", "title"), [
    ("7", "all", "Tuxedo"), ("7", "kings", "Penguin"), ("5", "kings", "Opus")])
def test_pysolfc_round_the_corner_games_are_played_round_the_corner(
        fcs, cells: str, empty: str, title: str) -> None:
    from bakers.cards import Card
    from bakers.fc_solve.games import GameParams, to_variant
    from bakers.solving import _core_position
    from bakers.variants import Variant

    settings = GameParams(stacks=7, freecells=int(cells), build="suit",
                          sequence_move="unlimited", empty=empty)
    variant = to_variant(settings)
    assert variant.wrap and not variant.base_from_deal and title in variant.title
    # Opus 38 as PySolFC writes it (its ranks renamed, the base reading as the ace): won
    # only round the corner, and bakers-fc-solve finds the win.
    deal = Deal.from_number("opus", 38)
    columns, _, _ = _core_position(Board(deal))
    text = "Founds: " + " ".join(f"{s}-A" for s, top in zip("HCDS", deal.foundations,
                                                              strict=True) if top) + "\n"
    text += "".join(" ".join(str(Card.from_code(c)) for c in column) + "\n"
                    for column in columns)
    code, out, _ = fcs("-m", "-sel", "--stacks-num", "7", "--freecells-num", "5",
                       "--sequences-are-built-by", "suit", "--sequence-move", "unlimited",
                       "--empty-stacks-filled-by", "kings", stdin=text)
    assert code == 0 and out.splitlines()[-3] == "This game is solveable."
    played = Variant("opus_as_sent", columns=7, cells=5, empty="kings", moves="sequence",
                     wrap=True)
    replay = Solution(parse_fcs_verbose(out)).replay(Board(Deal.parse(played, text)))
    assert replay.error is None and replay.won
