"""`bakers.solve`: verdicts against reference data and positions built by hand, every
solution replayed by the referee, limits, and the result record.

A wrong "impossible" is the worst bug a solver can have, so impossible verdicts are
checked against proofs from elsewhere: Freecell Solver's exhaustive scans (tests/data),
and for small positions a plain exhaustive search over the referee's own moves.
"""

from __future__ import annotations

import csv
import itertools
import json
import time
from pathlib import Path

import pytest
from bakers import Variant, find_variant
from bakers.board import Board
from bakers.cards import Card
from bakers.deals import Deal
from bakers.errors import InvalidOptionError
from bakers.limits import Limits
from bakers.notation import Move
from bakers.solving import SolveResult, solve
from helpers_positions import exhaustive_search, random_positions

pytest.importorskip("bakers._core")

DATA = Path(__file__).resolve().parent / "data"
DATA_VERDICTS = {"winnable": "solved", "impossible": "impossible"}
RESULT_KEYS = {"game", "verdict", "reason", "moves", "solution", "most_home",
               "most_home_exact", "expanded", "stored", "peak_bytes", "seconds"}


def _table(name: str) -> dict[int, str]:
    with open(DATA / name, newline="") as f:
        return {int(row["deal"]): row["verdict"] for row in csv.DictReader(f, delimiter="\t")}


BAKERS_GAME = _table("bakers_game_ms_1-1000.tsv")
FREECELL = _table("freecell_ms_1-1000.tsv")
BAKERS_DOZEN = _table("bakers_dozen_pysol_1-1000.tsv")
with open(DATA / "bulochnik_boards_1-1000.jsonl") as _f:
    BULOCHNIK = {row["n"]: row for row in map(json.loads, _f)}


# --------------------------------------------------------------------------- helpers


def assert_won(result: SolveResult, start: Board | Deal, what: str = "") -> None:
    """Assert that ``result`` is solved and that both of its solutions, the single moves
    and the supermoves, replayed by the referee from a fresh ``start``, win."""
    label = what or f"{result.start.variant.name} position"
    assert result.verdict == "solved", (
        f"{label}: verdict {result.verdict!r} ({result.reason}), expected 'solved'")
    assert result.solution is not None and result.supermoves is not None
    for name, line in (("solution", result.solution), ("supermoves", result.supermoves)):
        board = start.copy(stack=False) if isinstance(start, Board) else Board(start)
        replay = line.replay(board)
        assert replay.error is None, f"{label}: the referee rejects the {name}: {replay.error}"
        assert replay.won, (f"{label}: the {name} ({len(line)} moves) does not win: "
                            f"{replay.board.foundation_count()} cards home")
    deck = result.start.variant.deck
    assert result.most_home == deck, f"{label}: most_home {result.most_home} != {deck}"
    if result.start.variant.moves == "supermove":
        multi = [str(m) for m in result.solution if m.count not in (None, 1)]
        assert not multi, f"{label}: the solution has multi-card moves {multi}"


def assert_referee_agrees(start: Board | Deal, max_positions: int, what: str) -> bool | None:
    """Decide ``start`` with the referee's exhaustive search (no move made by itself) and
    with the engine; return None if the search needs more than ``max_positions``
    positions, else assert that the engine's verdict is the referee's and that an engine
    win replays (`assert_won`), and return the referee's verdict (True: won)."""
    referee = exhaustive_search(start if isinstance(start, Board) else Board(start), max_positions)
    if referee is None:
        return None
    result = solve(start)
    assert result.verdict == ("solved" if referee else "impossible"), (
        f"{what}: engine {result.verdict!r}, referee {'won' if referee else 'impossible'}")
    if result.solved:
        assert_won(result, start, what)
    return referee


def assert_verdict(result: SolveResult, expected: str, what: str) -> None:
    assert result.verdict == expected, (
        f"{what}: verdict {result.verdict!r} ({result.reason or 'no reason'}), expected "
        f"{expected!r}; {result.stats}")
    deck = result.start.variant.deck
    assert 0 <= result.most_home <= deck, f"{what}: most_home {result.most_home}"
    if expected == "impossible":
        assert result.solution is None and result.supermoves is None
        assert result.most_home < deck


def solve_deal(game: str, number: int, limits: Limits | None = None) -> SolveResult:
    return solve(Deal.from_number(game, number), limits=limits)


# --------------------------------------------------------------------------- Baker's Game

#: Every fifth deal, and every deal that Freecell Solver proved impossible.
BAKERS_GAME_SAMPLE = sorted(n for n, verdict in BAKERS_GAME.items()
                            if n % 5 == 0 or verdict == "impossible")


@pytest.mark.parametrize("number", BAKERS_GAME_SAMPLE)
def test_bakers_game_ms_deal_verdict_matches_data(number: int) -> None:
    expected = DATA_VERDICTS[BAKERS_GAME[number]]
    result = solve_deal("bakers_game", number)
    assert_verdict(result, expected, f"bakers_game MS deal {number}")
    if expected == "solved":
        assert_won(result, Deal.from_number("bakers_game", number),
                   f"bakers_game MS deal {number}")


def test_bakers_game_sample_has_both_verdicts() -> None:
    verdicts = [BAKERS_GAME[n] for n in BAKERS_GAME_SAMPLE]
    assert verdicts.count("impossible") == 234 and verdicts.count("winnable") >= 150


# --------------------------------------------------------------------------- FreeCell


def test_freecell_ms_11982_is_impossible() -> None:
    started = time.perf_counter()
    result = solve_deal("freecell", 11982)
    assert_verdict(result, "impossible", "freecell MS deal 11982")
    assert time.perf_counter() - started < 30


#: Every fifth deal, and deals that were the slowest to solve at some point.
FREECELL_SAMPLE = sorted({*range(5, 1001, 5), 36, 179, 325, 479, 753})


@pytest.mark.parametrize("number", FREECELL_SAMPLE)
def test_freecell_ms_deal_is_solved(number: int) -> None:
    assert FREECELL[number] == "winnable"
    result = solve_deal("freecell", number, Limits(nodes=5_000_000))
    assert_won(result, Deal.from_number("freecell", number), f"freecell MS deal {number}")


# --------------------------------------------------------------------------- Baker's Dozen


def test_bakers_dozen_pysol_64_is_impossible() -> None:
    assert BAKERS_DOZEN[64] == "impossible"
    result = solve_deal("bakers_dozen", 64)
    assert_verdict(result, "impossible", "bakers_dozen PySol deal 64")


def test_bakers_dozen_pysol_64_is_impossible_for_the_referee_too() -> None:
    assert exhaustive_search(Board.from_number("bakers_dozen", 64), 100_000) is False


def test_bakers_dozen_24_board_is_solved() -> None:
    deal = Deal.parse("bakers_dozen", (DATA / "boards" / "bakers_dozen_24.board").read_text())
    assert deal == Deal.from_number("bakers_dozen", 24)
    assert_won(solve(deal), deal, "bakers_dozen_24.board")


# --------------------------------------------------------------------------- Bulochnik

_WINNABLE = sorted(n for n, row in BULOCHNIK.items() if row["fcsolve"] == "winnable")
BULOCHNIK_WINNABLE_SAMPLE = _WINNABLE[::18] + [_WINNABLE[-1]]
#: Boards where fc-solve found no win (not a proof) with the fewest positions to search.
BULOCHNIK_NOT_FOUND_SMALL = (30, 70, 107, 419, 452, 516, 552, 752)


def bulochnik_board(number: int) -> Deal:
    return Deal.parse("bulochnik", BULOCHNIK[number]["board"])


@pytest.mark.parametrize("number", BULOCHNIK_WINNABLE_SAMPLE)
def test_bulochnik_winnable_board_is_solved(number: int) -> None:
    deal = bulochnik_board(number)
    assert_won(solve(deal, limits=Limits(nodes=5_000_000)), deal, f"bulochnik board {number}")


def test_bulochnik_boards_fcsolve_did_not_solve_are_decided() -> None:
    undecided = [n for n, row in BULOCHNIK.items()
                 if row["fcsolve"] != "winnable"
                 and solve(bulochnik_board(n), limits=Limits(nodes=5_000_000)).verdict
                 == "unknown"]
    assert not undecided, f"bulochnik boards left undecided: {undecided}"


@pytest.mark.parametrize("number", BULOCHNIK_NOT_FOUND_SMALL)
def test_bulochnik_impossible_verdict_agrees_with_the_referee(number: int) -> None:
    assert BULOCHNIK[number]["fcsolve"] == "not_found"
    referee = assert_referee_agrees(bulochnik_board(number), 100_000, f"bulochnik board {number}")
    assert referee is not None, "the referee's search needs more positions than allowed"


# --------------------------------------------------------------------------- freecell36


@pytest.mark.parametrize("number", range(1, 51))
def test_freecell36_deal_is_decided(number: int) -> None:
    deal = Deal.from_number("freecell36", number)
    result = solve(deal)
    assert result.verdict in ("solved", "impossible"), (
        f"freecell36 deal {number}: {result.verdict} ({result.reason})")
    if result.solved:
        assert_won(result, deal, f"freecell36 deal {number}")
    else:
        assert exhaustive_search(Board(deal), 100_000) is False, (
            f"freecell36 deal {number}: the engine says impossible, the referee's search "
            f"does not agree")


# --------------------------------------------------------------------------- random positions

#: Games with small position spaces, where the referee's search can check "impossible".
SMALL_GAMES = (
    find_variant("freecell36"),
    Variant("suit36_3cells", deck=36, columns=6, cells=3, build="suit"),
    Variant("alternate36_sequence_auto", deck=36, columns=7, cells=1, build="alternate",
            moves="sequence", auto_aces=True),
)


@pytest.mark.parametrize("variant", SMALL_GAMES, ids=lambda v: v.name)
def test_verdicts_of_random_positions_agree_with_the_referee(variant: Variant) -> None:
    """Every 10th position of random games: a win replays; "impossible" is confirmed by
    the referee's exhaustive search."""
    boards = random_positions(variant, itertools.count(1), 40, seed=3, home_bias=0.2)
    confirmed = 0
    for board in itertools.islice(boards, 0, 1000, 10):
        result = solve(board)
        if result.solved:
            assert_won(result, board, f"{variant.name} position\n{board}")
            continue
        assert_verdict(result, "impossible", f"{variant.name} position\n{board}")
        referee = exhaustive_search(board, 20_000)
        assert referee is not True, (
            f"the engine says impossible, the referee's search wins, in {variant.name}:\n"
            f"{board}")
        confirmed += referee is False
    assert confirmed >= 20, f"only {confirmed} impossible verdicts were confirmed"


# --------------------------------------------------------------------------- by hand


def test_one_move_from_a_win_in_a_column() -> None:
    board = Board.from_position("freecell", ["KS", "", "", "", "", "", "", ""])
    result = solve(board)
    assert_won(result, board)
    assert [str(m) for m in result.solution] == ["1h"]


def test_one_move_from_a_win_in_a_cell() -> None:
    board = Board.from_position("bakers_game", [""] * 8, cells=["-", "-", "KD"])
    result = solve(board)
    assert_won(result, board)
    assert [str(m) for m in result.solution] == ["ch"]


def test_won_position_needs_no_move() -> None:
    board = Board.from_position("freecell", [""] * 8)
    result = solve(board)
    assert_won(result, board)
    assert len(result.solution) == 0


def _stuck_bakers_game() -> Board:
    """Cells full of nines, tops all kings and fives, aces buried: no legal move."""
    buried = [Card.parse(r + s) for r in "A234678TJQ" for s in "HCDS"]
    tops = [Card.parse(t) for t in ("KH", "KC", "KD", "KS", "5H", "5C", "5D", "5S")]
    columns = [buried[i::8] + [tops[i]] for i in range(8)]
    return Board.from_position("bakers_game", columns, cells=["9H", "9C", "9D", "9S"])


def test_position_without_a_legal_move_is_impossible() -> None:
    board = _stuck_bakers_game()
    assert not board.legal_moves
    result = solve(board)
    assert_verdict(result, "impossible", f"a position with no legal move:\n{board}")
    assert result.most_home == 0


def _dozen(*columns: str, **kwargs: object) -> Board:
    return Board.from_position("bakers_dozen", [*columns] + [""] * (13 - len(columns)),
                               **kwargs)


def test_bakers_dozen_two_on_its_own_ace_without_moves_is_impossible() -> None:
    board = _dozen("AH 2H", "3H 4H 5H 6H 7H 8H 9H TH JH QH KH")
    assert not board.legal_moves
    result = solve(board)
    assert_verdict(result, "impossible", f"2H on its own ace:\n{board}")
    assert result.most_home == 39


def test_bakers_dozen_two_on_its_own_ace_with_useless_moves_is_impossible() -> None:
    board = _dozen("AH 2H", "3H 4H 5H 6H 7H 8H 9H TH JH QH KH", "KC", "KD", "KS")
    assert board.legal_moves
    result = solve(board)
    assert_verdict(result, "impossible", f"2H on its own ace:\n{board}")
    # A dead end from the start (2H waits on AH below it, and no 3 can be exposed for
    # it): the search stops there, so the three kings that could still go home are not
    # counted, and the count is a lower bound.
    assert result.stats.expanded == 1 and result.most_home == 52 - 16
    assert not result.most_home_exact and board.variant.cuts_dead_ends
    assert exhaustive_search(board, 10_000) is False


def test_bakers_dozen_two_freed_by_a_three_is_won() -> None:
    board = _dozen("AH 2H", "KH QH JH TH 9H 8H 7H 6H 5H 4H 3H")
    result = solve(board)
    assert_won(result, board)
    assert str(result.solution[0]) == "12"


#: A ten-card sequence QH..3C over all four aces; the other columns hold only black
#: cards, which never build on one another and cannot go home before the aces: the
#: sequence must go onto KC or KS at once, which four free cells and one empty column
#: allow, (4 + 1) * 2 = 10, and nothing else does.
_LONG_JUNK = "KD KH QD JD JH TD 9D 9H 8D 7D 7H 6D 5D 5H 4D 3D 3H 2D 2H AH AD AC AS"
_LONG_SEQUENCE = "QH JC TH 9C 8H 7C 6H 5C 4H 3C"
_LONG = [f"{_LONG_JUNK} {_LONG_SEQUENCE}", "2S 4S KC", "3S 6S 8S", "5S TS QS", "7S JS KS",
         "9S 2C 4C", "6C 8C TC QC", ""]


def test_freecell_win_needs_a_ten_card_supermove() -> None:
    board = Board.from_position("freecell", _LONG)
    assert board.is_legal(Move.parse("12x10")) and board.is_legal(Move.parse("15x10"))
    result = solve(board)
    assert_won(result, board, f"a ten-card supermove:\n{board}")


def test_freecell_without_room_for_the_supermove_is_impossible() -> None:
    # QC fills the empty column: at most (4 + 1) * 1 = 5 cards, or 8 with QC in a cell
    tight = [*_LONG[:6], "6C 8C TC", "QC"]
    board = Board.from_position("freecell", tight)
    assert not board.is_legal(Move.parse("12x10"))
    result = solve(board)
    assert_verdict(result, "impossible", f"no room for ten cards:\n{board}")
    assert exhaustive_search(board, 50_000) is False


def test_mid_game_board_is_solved_from_where_it_stands() -> None:
    board = Board.from_number("freecell", 5)
    for token in ["2h", "53", "8a", "8h", "2b", "1c"]:
        board.push_notation(token)
    before = board.copy()
    result = solve(board)
    assert board == before and board.move_stack == before.move_stack, "solve changed the board"
    assert result.start == board
    assert_won(result, board, "freecell deal 5 after 6 moves")
    replay = result.solution.replay(board)
    assert replay.won and replay.board.move_stack[:6] == board.move_stack


def test_board_text_with_game_is_solved() -> None:
    text = (DATA / "boards" / "ms1.board").read_text()
    result = solve(text, game="freecell")
    assert_won(result, Deal.parse("freecell", text), "ms1.board")
    assert result.start == Board.from_number("freecell", 1)


def test_custom_variant_is_solved() -> None:
    variant = find_variant("freecell").replace(name="freecell_3cells", cells=3)
    deal = Deal.from_number(variant, 1)
    assert_won(solve(deal, limits=Limits(nodes=5_000_000)), deal, "freecell with 3 cells")


def test_solve_without_check_returns_the_same_verdict() -> None:
    deal = Deal.from_number("bakers_game", 1)
    checked, unchecked = solve(deal), solve(deal, check=False)
    assert unchecked.verdict == checked.verdict == "solved"
    assert_won(unchecked, deal, "bakers_game deal 1, check=False")


# --------------------------------------------------------------------------- limits

#: Baker's Dozen PySol 417: undecided after billions of positions (no search ends it soon).
HARD = ("bakers_dozen", 417)


def test_node_limit_gives_unknown() -> None:
    result = solve_deal(*HARD, Limits(nodes=5))
    assert (result.verdict, result.reason) == ("unknown", "node limit")
    assert result.solution is None and not result.most_home_exact
    assert 0 <= result.most_home <= 52


def test_state_limit_gives_unknown() -> None:
    result = solve_deal(*HARD, Limits(states=100))
    assert (result.verdict, result.reason) == ("unknown", "state limit")


def test_time_limit_gives_unknown_in_time() -> None:
    started = time.perf_counter()
    result = solve_deal(*HARD, Limits(seconds=0.3))
    elapsed = time.perf_counter() - started
    assert (result.verdict, result.reason) == ("unknown", "time limit")
    assert elapsed < 5, f"a 0.3 s limit took {elapsed:.1f} s"
    assert 0 <= result.most_home <= 52


def test_memory_limit_gives_unknown() -> None:
    result = solve_deal(*HARD, Limits(memory="1K"))
    assert (result.verdict, result.reason) == ("unknown", "memory limit")


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("cap", ["2M", "9M", pytest.param("40M", marks=pytest.mark.slow)])
def test_memory_limit_holds_the_search_under_it(cap: str, threads: int) -> None:
    """A search that runs into its memory limit stops below it (the engine counts its
    table, nodes and open lists; growth steps are checked before they happen)."""
    result = solve(Deal.from_number("bakers_dozen", 417), limits=Limits(memory=cap),
                   threads=threads)
    assert (result.verdict, result.reason) == ("unknown", "memory limit")
    assert result.stats.peak_bytes <= Limits(memory=cap).memory


def test_limits_large_enough_do_not_change_the_verdict() -> None:
    result = solve_deal("freecell", 1, Limits(nodes=10**7, states=10**7, memory="1G",
                                              seconds=60))
    assert_won(result, Deal.from_number("freecell", 1), "freecell deal 1 with limits")


@pytest.mark.parametrize(("kwargs", "shown"), [
    ({"nodes": -1}, "-1"),
    ({"nodes": 0}, "0"),
    ({"nodes": 2**64}, "18446744073709551616"),
    ({"states": 10**30}, "(31 digits)"),
    ({"memory": 2**64}, "18446744073709551616"),
    ({"states": -3}, "-3"),
    ({"memory": "lots"}, "'lots'"),
    ({"memory": -5}, "-5"),
    ({"memory": 0}, "0"),
    ({"seconds": 0}, "0"),
    ({"seconds": -1.5}, "-1.5"),
    ({"seconds": float("nan")}, "nan"),
])
def test_bad_limit_raises_invalid_option_naming_the_value(kwargs: dict, shown: str) -> None:
    with pytest.raises(InvalidOptionError) as info:
        Limits(**kwargs)
    assert isinstance(info.value, ValueError)
    assert shown in str(info.value), f"the message {str(info.value)!r} does not show {shown}"


@pytest.mark.parametrize(("kwargs", "expected"), [
    ({"nodes": 2.5}, "is an int, not float"),
    ({"seconds": "10"}, "is a number, not str"),
    ({"memory": [1]}, "an int or a str"),
    ({"forget": 1}, "True or False"),
])
def test_a_limit_of_another_type_is_a_type_error(kwargs: dict, expected: str) -> None:
    with pytest.raises(TypeError, match=expected):
        Limits(**kwargs)


def test_a_limit_past_64_bits_never_reaches_the_engine() -> None:
    # Once a raw TypeError of the bindings: now refused by name before the search.
    with pytest.raises(InvalidOptionError, match=r"limit nodes=.* below 2\*\*64"):
        solve(Deal.from_number("freecell", 1), limits=Limits(nodes=10**30))


def test_memory_limit_reads_units() -> None:
    assert Limits(memory="1K").memory == 1024
    assert Limits(memory="2M").memory == 2 * 2**20


@pytest.mark.parametrize("position", [42, None, 3.5, ["JD KD"]])
def test_solve_rejects_what_is_not_a_position(position: object) -> None:
    with pytest.raises(InvalidOptionError):
        solve(position)  # type: ignore[arg-type]


def test_solve_text_without_game_raises() -> None:
    text = (DATA / "boards" / "ms1.board").read_text()
    with pytest.raises(InvalidOptionError, match="game"):
        solve(text)


def test_solve_rejects_limits_that_are_not_limits() -> None:
    with pytest.raises(InvalidOptionError):
        solve(Deal.from_number("freecell", 1), limits={"nodes": 5})  # type: ignore[arg-type]


# --------------------------------------------------------------------------- results


def test_to_dict_of_a_solved_deal() -> None:
    result = solve_deal("freecell", 1)
    data = result.to_dict()
    assert set(data) == RESULT_KEYS
    assert data["game"] == "freecell" and data["verdict"] == "solved"
    assert data["moves"] == len(result.solution)
    assert data["solution"].split() == [str(m) for m in result.solution]
    assert data["most_home"] == 52 and data["most_home_exact"] is True
    assert json.loads(json.dumps(data)) == data


def test_to_dict_of_an_impossible_and_an_unknown_deal() -> None:
    impossible = solve_deal("freecell", 11982).to_dict()
    assert set(impossible) == RESULT_KEYS
    assert impossible["solution"] is None and impossible["moves"] is None
    assert impossible["most_home_exact"] is True and 0 <= impossible["most_home"] < 52
    unknown = solve_deal(*HARD, Limits(nodes=50)).to_dict()
    assert unknown["verdict"] == "unknown" and unknown["reason"] == "node limit"
    assert unknown["most_home_exact"] is False and 0 <= unknown["most_home"] <= 52


def test_most_home_is_the_deck_size_for_a_solved_36_card_deal() -> None:
    result = solve_deal("freecell36", 1)
    assert_won(result, Deal.from_number("freecell36", 1), "freecell36 deal 1")
    assert result.most_home == 36
