"""generate() and daily(): seeded attempts derived as documented, deals proved winnable
(and of the asked grade), a clear error when the attempts run out, and daily deals
pinned for fixed dates so that any change to the derivation is caught."""

from __future__ import annotations

import datetime
import hashlib

import pytest
from bakers import (
    AttemptsExhaustedError,
    BakersError,
    Deal,
    InvalidOptionError,
    Limits,
    UnknownVariantError,
    find_variant,
)
from bakers.difficulty import grade
from bakers.generating import (
    DAILY_LIMITS,
    GENERATE_LIMITS,
    Generated,
    daily,
    daily_seed,
    derive_seed,
    generate,
    parse_date,
)

# (game, date) -> (daily seed, attempt that gave the deal, first line, SHA-256 of the text)
PINNED = {
    ("freecell", "2024-01-01"): (8827024278256310282, 1, "QS KH JC 2H 3H 9D 9S",
                                 "103b257d3ca268cc"),
    ("freecell", "2025-07-04"): (12164930801840436299, 1, "JD 3D 5D AS 6S JS KS",
                                 "01c7cfca4748712e"),
    ("bakers_game", "2024-01-01"): (6581134630101970268, 2, "8C 2C QS AH 4S 9D QH",
                                    "6ca86cfe6359ef1a"),
    ("bakers_game", "2025-07-04"): (1326194300147166465, 2, "4S TH 3H 6S QS 3D 4D",
                                    "dc2bd4f3ce7ebd06"),
}


def test_seed_derivation_is_sha256_as_documented() -> None:
    digest = hashlib.sha256(b"bakers-generate:12345:7").digest()
    assert derive_seed(12345, 7) == int.from_bytes(digest[:8], "big") == 4603502513967683726
    assert derive_seed(0, 1) == 16698437299532417611
    digest = hashlib.sha256(b"bakers-daily:freecell:2024-01-01").digest()
    assert daily_seed("freecell", "2024-01-01") == int.from_bytes(digest[:8], "big")


@pytest.mark.parametrize(("game", "date"), list(PINNED))
def test_daily_deals_are_pinned(game: str, date: str) -> None:
    seed, attempt, first_line, digest = PINNED[(game, date)]
    assert daily_seed(game, date) == seed
    deal = daily(game, date)
    text = deal.to_text()
    assert text.splitlines()[0] == first_line
    assert hashlib.sha256(text.encode()).hexdigest()[:16] == digest
    assert deal.seed == derive_seed(seed, attempt)
    assert deal == Deal.from_seed(find_variant(game), derive_seed(seed, attempt))
    # every earlier candidate is proved impossible, so no engine or limit could pick
    # another deal for this date
    from bakers import solve

    for earlier in range(1, attempt):
        candidate = Deal.from_seed(find_variant(game), derive_seed(seed, earlier))
        assert solve(candidate).verdict == "impossible"


def test_daily_takes_dates_and_texts_alike() -> None:
    day = datetime.date(2024, 1, 1)
    assert daily("fc", day) == daily("freecell", "2024-01-01")
    assert daily_seed("freecell", datetime.datetime(2024, 1, 1, 23, 59)) == daily_seed(
        "freecell", day)
    assert daily_seed("freecell", "2024-01-02") != daily_seed("freecell", day)
    assert daily_seed("bakers_game", day) != daily_seed("freecell", day)


def test_daily_limits_are_machine_independent() -> None:
    for limits in (DAILY_LIMITS, GENERATE_LIMITS):
        assert limits.seconds is None and limits.nodes is not None


@pytest.mark.parametrize("bad", ["2024-13-01", "2024-02-30", "20240101", "", "tomorrow",
                                 20240101, None])
def test_bad_dates(bad: object) -> None:
    with pytest.raises(InvalidOptionError, match="date"):
        parse_date(bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError):
        daily("freecell", bad)  # type: ignore[arg-type]


def test_generate_is_deterministic_and_winnable() -> None:
    made = generate("freecell", seed=42)
    assert isinstance(made, Generated) and made.seed == 42 and made.attempts >= 1
    assert made.deal.seed == derive_seed(42, made.attempts)
    assert made.solution is not None
    replay = made.solution.replay(made.deal)
    assert replay.won and replay.error is None
    again = generate(find_variant("freecell"), seed=42)
    assert again.deal == made.deal and again.attempts == made.attempts
    data = made.to_dict()
    assert data["seed"] == 42 and data["deal_seed"] == made.deal.seed
    assert Deal.parse("freecell", data["deal"]) == made.deal


def test_generate_skips_impossible_deals() -> None:
    """Baker's Game has many impossible deals: the attempts before the one kept are
    each impossible or unknown."""
    from bakers import solve

    for seed in range(6):
        made = generate("bakers_game", seed=seed)
        for attempt in range(1, made.attempts):
            earlier = Deal.from_seed(find_variant("bakers_game"), derive_seed(seed, attempt))
            assert not solve(earlier, limits=GENERATE_LIMITS).solved
        if made.attempts > 1:
            return
    pytest.fail("no Baker's Game seed in 0..5 needed a second attempt")


def test_generate_without_winnable_takes_the_first_deal() -> None:
    made = generate("bulochnik", seed=3, winnable=False)
    assert made.attempts == 1 and made.solution is None and made.result is None
    assert made.deal == Deal.from_seed(find_variant("bulochnik"), derive_seed(3, 1))


def test_generate_without_seed_draws_one() -> None:
    made = generate("freecell36")
    assert 0 <= made.seed < 2**64
    assert generate("freecell36", seed=made.seed).deal == made.deal


@pytest.mark.parametrize("difficulty", ["easy", "hard"])
def test_generate_a_difficulty(difficulty: str) -> None:
    made = generate("freecell", seed=1, difficulty=difficulty, max_attempts=30)
    assert made.grade is not None and made.grade.grade == difficulty
    assert grade(made.deal).grade == difficulty  # the same measure, redone


def test_attempts_exhausted() -> None:
    with pytest.raises(AttemptsExhaustedError, match=r"in 3 attempts .*3 unknown") as info:
        generate("freecell", seed=1, max_attempts=3, limits=Limits(nodes=1))
    assert isinstance(info.value, BakersError) and isinstance(info.value, ValueError)
    assert "nodes=1" in str(info.value)
    with pytest.raises(AttemptsExhaustedError, match="1 attempt "):
        generate("freecell", seed=1, max_attempts=1, difficulty="easy",
                 limits=Limits(nodes=1))


def test_bad_arguments() -> None:
    with pytest.raises(UnknownVariantError):
        generate("freecel")
    with pytest.raises(InvalidOptionError, match="difficulty"):
        generate("freecell", difficulty="trivial")
    with pytest.raises(InvalidOptionError, match="winnable"):
        generate("freecell", difficulty="easy", winnable=False)
    for bad in (0, -1, True, 2.5):
        with pytest.raises(InvalidOptionError, match="max_attempts"):
            generate("freecell", max_attempts=bad)  # type: ignore[arg-type]
    for bad_seed in (-1, True, "7"):
        with pytest.raises(InvalidOptionError, match="seed"):
            generate("freecell", seed=bad_seed)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="limits"):
        generate("freecell", seed=1, limits=5)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="attempt"):
        derive_seed(1, 0)
