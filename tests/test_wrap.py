"""Building round the corner, and foundations that start at another rank than the ace:
PySolFC's Tuxedo, Penguin and Opus.

`Variant.wrap` lets a king build on the ace of its suit; `Variant.base_from_deal` starts
the foundations at the rank of the first card dealt (Penguin's beak), an empty column then
taking the rank below it. The referee plays both with real cards; the engine plays such a
game relabelled, the base reading as the ace (`bakers.solving._core_position`). Under the
wrap an ace no longer goes home by itself while its king may still go on it
(cpp/core/moves.cpp): the engine's verdicts are checked here against the referee's
exhaustive search, which sends nothing home by itself.
"""

from __future__ import annotations

import random

import pytest
from bakers import Deal, Variant, find_variant
from bakers.board import Board
from bakers.cards import Card, full_deck
from bakers.errors import IllegalMoveError, InvalidDealError, InvalidVariantError
from bakers.limits import Limits
from bakers.notation import Move
from bakers.solving import _core_position, solve
from helpers_cli import Run
from helpers_positions import is_next_home
from test_solve import assert_referee_agrees, assert_won

core = pytest.importorskip("bakers._core")

WRAPPING = ("tuxedo", "penguin", "opus")


# --------------------------------------------------------------------------- the rule


def test_a_king_builds_on_the_ace_of_its_suit_only_where_the_game_wraps() -> None:
    tuxedo, bakers_game = find_variant("tuxedo"), find_variant("bakers_game")
    assert tuxedo.builds(13, 2, 1, 2)          # KD on AD
    assert not tuxedo.builds(13, 2, 1, 0)      # KD on AH: another suit
    assert not tuxedo.builds(1, 2, 13, 2)      # AD on KD: upwards
    assert tuxedo.builds(12, 3, 13, 3)         # QS on KS, as ever
    assert not bakers_game.builds(13, 2, 1, 2)


@pytest.mark.parametrize(("fields", "word"), [
    ({"wrap": True, "build": "alternate"}, "wrap"),
    ({"wrap": True, "build": "suit", "deck": 36, "columns": 6}, "wrap"),
    ({"wrap": True, "build": "suit", "auto_aces": True}, "wrap"),
    ({"base_from_deal": True}, "base_from_deal"),
    ({"wrap": True, "base_from_deal": True, "aces_on_foundations": True}, "base_from_deal"),
    ({"last_row": (8,)}, "last_row"),
])
def test_bad_wrap_fields_are_refused_by_both_rule_readers(fields: dict[str, object],
                                                          word: str) -> None:
    with pytest.raises(InvalidVariantError, match=word):
        Variant("x", **fields)  # type: ignore[arg-type]
    with pytest.raises(InvalidVariantError, match="last_row"):
        Variant("x", last_row=(3, 1))  # the core takes a set: Python wants the order
    rules = {**find_variant("bakers_game").rules(), **fields}
    with pytest.raises(ValueError, match=word):
        core.deal(rules, 1)


# --------------------------------------------------------------------------- the deals


def test_tuxedo_deals_its_last_row_to_columns_1_4_and_7() -> None:
    deal = Deal.from_number("tuxedo", 1)
    assert [len(column) for column in deal.columns] == [8, 7, 7, 8, 7, 7, 8]
    assert deal.foundations == (0, 0, 0, 0) and deal.base_rank == 1


@pytest.mark.parametrize("game", ["penguin", "opus"])
@pytest.mark.parametrize("number", [1, 2, 5, 32001, 10**9])
def test_the_beak_sets_the_base_rank(game: str, number: int) -> None:
    deal = Deal.from_number(game, number)
    base = deal.base_rank
    assert sorted(deal.foundations) == [0, base, base, base]
    beak = deal.columns[0][0]
    assert beak.rank == base and deal.foundations[beak.suit] == 0
    assert Deal.parse(game, deal.to_text()) == deal
    assert Deal.from_json(deal.to_json()) == deal
    board = Board(deal)
    assert board.base_rank == base
    # The engine takes it relabelled: the base reads as the ace, three of them home.
    columns, cells, heights = _core_position(board)
    assert sorted(heights) == [0, 1, 1, 1] and columns[0][0] & 15 == 1
    assert (columns, cells, heights) == tuple(core.deal(deal.variant.rules(), number))


def end_game_of_penguin() -> Board:
    """Return a Penguin end game with the base J: hearts home from J to 8, clubs and
    diamonds done (up to 10), spades to 9; 9H, TH and TS in play."""
    return Board.from_position("penguin", ["TS 9H", "TH", "", "", "", "", ""])


def test_a_penguin_position_reads_its_base_from_the_foundations() -> None:
    board = end_game_of_penguin()
    assert board.base_rank == 11
    assert board.foundations == [8, 10, 10, 9]
    assert Deal.parse("penguin", board.to_deal().to_text()).base_rank == 11
    assert board.foundation_count() == 49


def test_an_empty_penguin_column_takes_the_rank_below_the_base() -> None:
    board = end_game_of_penguin()
    with pytest.raises(IllegalMoveError, match="takes only a T .the rank below the base J"):
        board.push("13")               # 9H to an empty column
    assert board.is_legal(Move.parse("23"))  # TH, the whole column: legal, if pointless
    assert board.push("12") == Move.parse("12")  # 9H on TH
    assert board.push("1h") == Move.parse("1h")  # TS home on 9S
    for _ in range(2):
        board.push("2h")
    assert board.is_won()


def test_foundations_run_round_the_corner() -> None:
    # Base 5: the hearts foundation holds 5..K and A, 2; 3H goes on it next, 4H last.
    board = Board.from_position("penguin", ["3H 4H", "", "", "", "", "", ""],
                                foundations=[2, 4, 4, 4])
    assert board.base_rank == 5
    assert is_next_home(board, Card.parse("3H"))
    with pytest.raises(IllegalMoveError, match="needs 3H"):
        board.push("1h")
    board.push("12")
    board.push("1h")
    board.push("2h")
    assert board.is_won()


@pytest.mark.parametrize(("foundations", "words"), [
    ((0, 0, 0, 0), "all empty"),
    ((2, 4, 4, 5), "start at one rank"),
])
def test_a_penguin_position_needs_one_base(foundations: tuple[int, ...], words: str) -> None:
    text = "Foundations: " + " ".join(
        f"{s}-{'0A23456789TJQK'[r]}" for s, r in zip("HCDS", foundations, strict=True))
    with pytest.raises(InvalidDealError, match=words):
        Deal.parse("penguin", text + "\n3H 4H\n:\n:\n:\n:\n:\n:\n")


def test_a_run_turns_the_corner_and_moves_whole() -> None:
    hearts = ["4H 3H 2H AH", "KH QH JH", "TH 9H 8H 7H 6H 5H", "", "", "", ""]
    board = Board.from_position("tuxedo", hearts, foundations=[0, 13, 13, 13])
    assert board.push("21") == Move.parse("21x3")  # K Q J onto the ace, the count implied
    assert board.push("13") == Move.parse("13x7")  # 3H..JH: one run across the corner
    assert board.push("32") == Move.parse("32x13")  # the whole suit, into an empty column
    plain = Board.from_position(Variant("no_corner", columns=7, cells=7, moves="sequence"),
                                hearts, foundations=[0, 13, 13, 13])
    with pytest.raises(IllegalMoveError, match="no card of KH QH JH goes on AH"):
        plain.push("21")


# --------------------------------------------------------------------------- the engine


#: Small wrapping games where the referee's search finishes: one with foundations from
#: the ace, one from a base read off the position (played by the engine relabelled).
END_GAMES = (
    Variant("wrap_tight", columns=4, cells=1, build="suit", empty="kings", moves="sequence",
            wrap=True),
    Variant("wrap_single", columns=4, cells=1, build="suit", empty="any", moves="single",
            wrap=True),
    Variant("beak_tight", columns=4, cells=1, build="suit", empty="kings", moves="sequence",
            wrap=True, base_from_deal=True),
)


def wrap_end_game(variant: Variant, rng: random.Random) -> Board:
    """Return a random end game: a base (the ace, or any rank where the game reads it from
    the foundations), each suit home up to a random height, one suit at least started
    where the base must show, 12 to 18 cards left, shuffled into the columns."""
    base = rng.randint(1, 13) if variant.base_from_deal else 1
    ranks = variant.foundation_ranks(base)
    heights = [0, 0, 0, 0]
    while not (12 <= sum(13 - h for h in heights) <= 18
               and (any(heights) or not variant.base_from_deal)):
        heights = [rng.choice((0, 0, rng.randint(1, 13))) for _ in range(4)]
    left = [card for card in full_deck(52) if ranks.index(card.rank) >= heights[card.suit]]
    rng.shuffle(left)
    columns: list[list[Card]] = [[] for _ in range(variant.columns)]
    for i, card in enumerate(left):
        columns[i % variant.columns].append(card)
    return Board.from_position(variant, columns,
                               foundations=[ranks[h - 1] if h else 0 for h in heights])


@pytest.mark.parametrize("variant", END_GAMES, ids=lambda v: v.name)
def test_wrap_end_game_verdicts_equal_the_referees(variant: Variant) -> None:
    """The engine (safe foundation moves made, the wrap's aces kept back) and the
    referee's exhaustive search (no move made by itself) give the same verdict."""
    rng = random.Random(25)
    verdicts = {True: 0, False: 0}
    corner = 0  # end games where a base card waits, next home, with its king in play
    for _ in range(160):
        board = wrap_end_game(variant, rng)
        referee = assert_referee_agrees(board, 20_000, f"{variant.name} end game\n{board}")
        if referee is None:
            continue
        verdicts[referee] += 1
        corner += any(board.foundations[s] == 0 and any(
            card == Card(s, board._ranks[0]) for col in board.columns for card in col)
            for s in range(4))
    assert verdicts[True] >= 15 and verdicts[False] >= 15, verdicts
    assert corner >= 20, corner


def test_opus_verdicts_equal_the_referees_exhaustive_search() -> None:
    """Whole deals: Opus is tight enough (5 cells, an empty column for one rank only) for
    the referee to search every position of a deal, sending nothing home by itself; the
    engine's verdicts, safe foundation moves and all, are the same."""
    verdicts = []
    for number in range(1, 13):
        board = Board.from_number("opus", number)
        referee = assert_referee_agrees(board, 300_000, f"opus {number}")
        assert referee is not None, f"opus {number}: the referee's search did not finish"
        verdicts.append(referee)
    assert verdicts.count(False) >= 4 and verdicts.count(True) >= 6, verdicts


def plain_twin(deal: Deal) -> Board:
    """Return ``deal`` as the engine reads it (relabelled, the base as the ace) in the same
    game without the wrap: what Freecell Solver plays when PySolFC sends it."""
    columns, cells, _ = _core_position(Board(deal))
    v = deal.variant
    plain = Variant("no_wrap", columns=v.columns, cells=v.cells, build="suit", empty=v.empty,
                    moves=v.moves)
    return Board.from_position(plain, [[Card.from_code(c) for c in column] for column in columns],
                               [None if c == 0 else Card.from_code(c) for c in cells])


def test_opus_38_is_won_only_round_the_corner() -> None:
    deal = Deal.from_number("opus", 38)
    result = solve(deal)
    assert_won(result, deal, "opus 38")
    without = solve(plain_twin(deal), limits=Limits(nodes=1_000_000))
    assert without.verdict == "impossible"
    # The win builds across the corner: a card of the rank below the base (A here, the
    # base being 2) lies on a card of the base rank in a pile that moves or is made,
    # which only the wrap allows.
    board = Board(deal)
    base, below = board._ranks[0], board._ranks[-1]
    crossings = 0
    for move in result.solution:
        if move.dst.kind == "column":
            count = board.resolve(move).count or 1
            moved = (board.columns[move.src.index][-count:] if move.src.kind == "column"
                     else [board.cells[move.src.index]])
            pile = board.columns[move.dst.index][-1:] + moved
            crossings += any(a.rank == base and b.rank == below
                             for a, b in zip(pile, pile[1:], strict=False))
        board.push(move)
    assert crossings >= 1


@pytest.mark.parametrize("game", WRAPPING)
def test_every_solution_of_the_presets_replays(game: str) -> None:
    solved = impossible = 0
    for number in range(1, 13):
        deal = Deal.from_number(game, number)
        result = solve(deal, limits=Limits(nodes=300_000))
        if result.solved:
            assert_won(result, deal, f"{game} {number}")
            solved += 1
        impossible += result.impossible
    assert solved >= 6, (solved, impossible)


def test_solve_and_verify_penguin_5(bakers: Run, tmp_path: object) -> None:
    code, out, err = bakers("solve", "penguin", "5")
    assert code == 0 and err.startswith("solved: penguin deal 5"), err
    solution = tmp_path / "penguin5.txt"  # type: ignore[operator]
    solution.write_text(out)
    code, out, err = bakers("verify", "penguin", "5", str(solution))
    assert (code, err) == (0, "") and out.startswith("valid") and "52 cards home" in out


def test_runs_of_many_deals_replay_on_the_real_cards() -> None:
    """The core deals a range itself (relabelled) and hands back places: the lines it
    finds replay on the deals as the referee deals them, base and all."""
    from bakers.bulk import solve_many, solve_range

    results = list(solve_range("opus", 1, 8, solutions=True, threads=1, ordered=True))
    assert [r.verdict for r in results].count("solved") >= 4
    for result in results:
        assert result.deal == Deal.from_number("opus", result.number)
        if result.solved:
            replay = result.solution.replay(Board(result.deal))
            assert replay.error is None and replay.won, result.number
    boards = [Board.from_number("penguin", n) for n in (1, 2, 32001)]
    for board, result in zip(boards, solve_many(boards, threads=1, ordered=True),
                             strict=True):
        assert result.solved and board.base_rank != 1
        replay = result.solution.replay(board.copy(stack=False))
        assert replay.error is None and replay.won


def test_a_checkpoint_remembers_the_wrap(tmp_path: object) -> None:
    """A depth-first checkpoint of a game round the corner is not resumed by the same
    cards without the corner (the rules' byte of aces-at-once carries the wrap)."""
    from bakers.errors import InvalidCheckpointError

    deal = Deal.from_number("opus", 4)
    twin = plain_twin(deal)
    path = tmp_path / "opus4.ck"  # type: ignore[operator]
    first = solve(twin, limits=Limits(nodes=500), checkpoint=path)
    assert first.verdict == "unknown" and path.exists()
    wrapped = Board.from_position(twin.variant.replace(name="wrapped", wrap=True),
                                  twin.columns, twin.cells)
    with pytest.raises(InvalidCheckpointError, match="rules differ"):
        solve(wrapped, checkpoint=path)
    assert solve(twin, checkpoint=path).impossible  # the same game resumes to its proof
