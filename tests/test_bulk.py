"""Bulk solving: threaded runs agree with single-threaded ones and with `solve`, every
solution wins when the referee replays it, and bad arguments are refused up front."""

from __future__ import annotations

import csv
import threading
import time
from pathlib import Path

import pytest
from bakers import (
    Board,
    Deal,
    InvalidDealError,
    InvalidOptionError,
    Limits,
    RangeResult,
    UnknownVariantError,
    find_variant,
    solve,
    solve_many,
    solve_range,
)
from bakers.bulk import runs
from bakers.deals import MAX_MS_NUMBER

DATA = Path(__file__).resolve().parent / "data"


def known_verdicts(name: str) -> dict[int, str]:
    """Return deal number -> 'solved' / 'impossible' from a reference table."""
    with open(DATA / name, encoding="utf-8") as f:
        rows = csv.DictReader(f, delimiter="\t")
        words = {"winnable": "solved", "impossible": "impossible"}
        return {int(row["deal"]): words[row["verdict"]] for row in rows
                if row["verdict"] in words}


def summary(results: list[RangeResult]) -> dict[int, tuple[str, int | None, str | None]]:
    """Return number -> (verdict, solution length, solution notation)."""
    return {r.number: (r.verdict, r.solution_length,
                       None if r.solution is None else r.solution.notation(None))
            for r in results}


def assert_wins(result: RangeResult) -> None:
    """Replay a solved result's solution with the referee from its numbered deal."""
    assert result.solution is not None and len(result.solution) == result.solution_length
    start = Deal.from_number(result.variant, result.number) if result.number is not None \
        else result.deal
    replay = result.solution.replay(start)
    assert replay.error is None and replay.won, (result.number, replay.error)


@pytest.mark.parametrize(("game", "last", "table"), [
    ("bakers_game", 60, "bakers_game_ms_1-1000.tsv"),
    ("freecell36", 40, None),
])
def test_threaded_range_equals_single_threaded(game: str, last: int, table: str | None) -> None:
    one = list(solve_range(game, 1, last, threads=1))
    two = list(solve_range(game, 1, last, threads=2))
    assert sorted(r.number for r in two) == list(range(1, last + 1))
    assert sorted(r.index for r in two) == list(range(last))
    assert summary(one) == summary(two)
    for r in two:
        assert r.number == r.index + 1 and r.verdict != "unknown" and r.most_home_exact
        assert r.deal == Deal.from_number(game, r.number)
        if r.solved:
            assert_wins(r)
            assert r.most_home == find_variant(game).deck
        else:
            assert r.solution is None and r.solution_length is None
    if table:
        known = known_verdicts(table)
        assert {r.number: r.verdict for r in two} == {n: known[n] for n in range(1, last + 1)}


def test_solutions_match_solve() -> None:
    for result in solve_range("freecell", 1, 12, threads=2):
        expected = solve(Deal.from_number("freecell", result.number))
        assert result.verdict == expected.verdict
        assert result.solution == expected.solution
        assert result.stats.expanded == expected.stats.expanded


@pytest.mark.parametrize("game", ["bulochnik", "bakers_dozen"])
def test_other_games_replay(game: str) -> None:
    results = list(solve_range(game, 1, 12, threads=2, limits=Limits(nodes=20_000)))
    assert len(results) == 12
    for r in results:
        if r.solved:
            assert_wins(r)
        if r.verdict == "unknown":
            assert r.reason and not r.most_home_exact


def test_ordered_yields_input_order(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runs, "CHUNK", 7)  # several core runs, one after another
    results = list(solve_range("bakers_game", 101, 130, threads=2, ordered=True))
    assert [r.index for r in results] == list(range(30))
    assert [r.number for r in results] == list(range(101, 131))
    unordered = list(solve_range("bakers_game", 101, 130, threads=2))
    assert summary(unordered) == summary(results)


def test_without_solutions() -> None:
    with_lines = list(solve_range("bakers_game", 1, 20, threads=2, ordered=True))
    bare = list(solve_range("bakers_game", 1, 20, threads=2, ordered=True, solutions=False))
    assert [r.verdict for r in bare] == [r.verdict for r in with_lines]
    assert all(r.solution is None and r.solution_length is None for r in bare)


def test_limits_give_unknown() -> None:
    results = list(solve_range("freecell", 1, 6, threads=2, limits=Limits(nodes=5)))
    assert {r.verdict for r in results} == {"unknown"}
    assert all(r.reason and not r.most_home_exact and r.solution is None for r in results)


def test_closing_early_stops_the_run() -> None:
    run = solve_range("bakers_dozen", 1, 500, threads=2, limits=Limits(seconds=5))
    first = next(run)
    assert isinstance(first, RangeResult)
    run.close()  # returns at once: the workers stop


def test_ctrl_c_hands_out_every_finished_result(monkeypatch: pytest.MonkeyPatch) -> None:
    real, calls = runs.SolveStats, []

    def interrupting(*args: object) -> object:
        calls.append(1)
        if len(calls) == 6:  # Ctrl-C while a row is being turned into a result
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(runs, "SolveStats", interrupting)
    got = []
    with pytest.raises(KeyboardInterrupt):
        for result in solve_range("bakers_game", 1, 300, threads=2, ordered=True):
            got.append(result.number)
    assert len(got) >= 6 and got == list(range(1, len(got) + 1))


def mid_game(number: int, moves: int) -> Board:
    """Return the board of a FreeCell deal after the first ``moves`` moves of its win."""
    deal = Deal.from_number("freecell", number)
    board = Board(deal)
    for move in solve(deal).solution[:moves]:
        board.push(move)
    return board


def test_solve_many_equals_solve() -> None:
    won = mid_game(5, 10_000)
    items = [Deal.from_number("freecell", 7), mid_game(3, 25), Board.from_number("freecell", 9),
             Deal.from_number("freecell", 11982), won, mid_game(8, 60)]
    results = list(solve_many(items, threads=2))
    assert sorted(r.index for r in results) == list(range(len(items)))
    for r in results:
        item = items[r.index]
        expected = solve(item)
        assert r.number is None
        assert r.verdict == expected.verdict and r.solution == expected.solution
        assert r.deal == (item.to_deal() if isinstance(item, Board) else item)
        if r.solved:
            assert r.solution.replay(item).won
    assert results[[r.index for r in results].index(3)].impossible
    assert next(r for r in results if r.index == 4).solution_length == 0


def test_solve_many_copies_boards() -> None:
    board = mid_game(3, 10)
    before = board.to_deal()
    run = solve_many([board], threads=1)
    board.push(next(iter(board.legal_moves)))
    (result,) = run
    assert result.deal == before and result.solution.replay(before).won


def test_solve_many_empty_and_ordered() -> None:
    assert list(solve_many([])) == []
    deals = [Deal.from_number("bakers_game", n) for n in range(1, 16)]
    results = list(solve_many(iter(deals), threads=2, ordered=True))
    assert [r.index for r in results] == list(range(15))
    assert [r.verdict for r in results] == [
        r.verdict for r in solve_range("bakers_game", 1, 15, ordered=True)]


@pytest.mark.parametrize(("call", "error", "words"), [
    (lambda: solve_range("bakers_game", 5, 3), InvalidOptionError, "first > last"),
    (lambda: solve_range("bakers_game", 0, 3), InvalidDealError, "out of range"),
    (lambda: solve_range("bakers_game", 1, MAX_MS_NUMBER + 1), InvalidDealError,
     "out of range"),
    (lambda: solve_range("bakers_game", 1.0, 3), InvalidDealError, "out of range"),
    (lambda: solve_range("bakers_game", True, 3), InvalidDealError, "out of range"),
    (lambda: solve_range("no_such_game", 1, 3), UnknownVariantError, "no_such_game"),
    (lambda: solve_range("bakers_game", 1, 3, threads=0), InvalidOptionError, "threads"),
    (lambda: solve_range("bakers_game", 1, 3, threads=2.0), InvalidOptionError, "threads"),
    (lambda: solve_range("bakers_game", 1, 3, limits={"nodes": 5}), InvalidOptionError,
     "Limits"),
    (lambda: solve_many([Deal.from_number("freecell", 1), Deal.from_number("bakers_game", 1)]),
     InvalidOptionError, "one game"),
    (lambda: solve_many([Deal.from_number("freecell", 1), "1"]), InvalidOptionError,
     "item 1"),
    (lambda: solve_many(Deal.from_number("freecell", 1)), InvalidOptionError, "iterable"),
    (lambda: solve_many([], threads=-1), InvalidOptionError, "threads"),
])
def test_bad_arguments_raise_at_the_call(call, error: type[Exception], words: str) -> None:
    with pytest.raises(error, match=words):
        call()  # raised by the call itself, before any iteration


def test_halt_ends_the_rows_without_an_exception() -> None:
    halt = threading.Event()
    rows = runs.solve_numbers(find_variant("bakers_dozen"), range(1, 2001), threads=1,
                         limits=Limits(), ordered=False, solutions=False, halt=halt)
    got = [next(rows)]
    halt.set()
    start = time.monotonic()
    got.extend(rows)
    assert time.monotonic() - start < 5  # far less than the other 1999 deals take
    assert 1 <= len(got) < 2000
    assert len({r.number for r in got}) == len(got)
    assert all(r.verdict != "unknown" or r.reason != "interrupted" for r in got)
