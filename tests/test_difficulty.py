"""grade(): a deterministic score from playouts and search effort, graded by the
calibrated thresholds, fast on typical deals, and named errors for bad input."""

from __future__ import annotations

import random

import pytest
from bakers import (
    Board,
    Deal,
    InvalidOptionError,
    Limits,
    NotWinnableError,
    Variant,
    find_variant,
)
from bakers.difficulty import (
    DEFAULT_THRESHOLDS,
    GRADES,
    THRESHOLDS,
    Grade,
    grade,
    grade_of,
    playout,
    thresholds_for,
)
from bakers.variants import PRESETS


@pytest.mark.parametrize("name", list(PRESETS))
def test_grades_are_deterministic_and_consistent(name: str) -> None:
    deal = Deal.from_number(find_variant(name), 25 if name == "opus" else 24)  # 24: no win
    first = grade(deal, playouts=8)
    assert isinstance(first, Grade) and first.grade in GRADES
    assert 0 <= first.score <= 100 and 0 <= first.share <= 1 and 0 <= first.effort <= 1
    assert first.share == first.playouts_won / first.playouts == first.playouts_won / 8
    expected = round(80 * (1 - first.share) + 20 * first.effort, 2)
    assert first.score == expected
    assert first.grade == grade_of(first.score, THRESHOLDS[name])
    again = grade(Board(deal), playouts=8)
    assert (again.score, again.grade, again.expanded) == (first.score, first.grade,
                                                           first.expanded)
    assert first.to_dict()["grade"] == first.grade


def test_grading_is_fast_on_typical_deals() -> None:
    for name in ("freecell", "bakers_game"):
        for number in (1, 2, 3):
            graded = grade(Deal.from_number(find_variant(name), number))
            assert graded.seconds < 2.0


def test_the_seed_changes_the_playouts_only() -> None:
    deal = Deal.from_number(find_variant("freecell"), 5)
    grades = [grade(deal, seed=seed, playouts=8) for seed in range(3)]
    assert len({(g.effort, g.expanded, g.solution_length) for g in grades}) == 1
    assert grade(deal, seed=2, playouts=8).score == grades[2].score


def test_thresholds_split_easy_medium_hard() -> None:
    for low, high in THRESHOLDS.values():
        assert 0 <= low < high <= 100
        assert grade_of(low - 0.01, (low, high)) == "easy"
        assert grade_of(low, (low, high)) == "medium"
        assert grade_of(high, (low, high)) == "hard"
    assert set(THRESHOLDS) == set(PRESETS)


def test_custom_variants_take_the_thresholds_of_the_same_rules() -> None:
    renamed = Variant("my_freecell", build="alternate")
    assert thresholds_for(renamed) == THRESHOLDS["freecell"]
    odd = find_variant("freecell").replace(name="fc3", cells=3)
    assert thresholds_for(odd) == DEFAULT_THRESHOLDS


def test_several_grades_occur_among_a_few_deals() -> None:
    grades = {grade(Deal.from_number(find_variant("freecell"), n), playouts=8).grade
              for n in range(1, 9)}
    assert len(grades) >= 2


def test_playouts_do_not_touch_the_start() -> None:
    board = Board.from_number("bakers_game", 3)
    before = str(board)
    after = playout(board, random.Random(0))
    assert str(board) == before and board.move_stack == []
    assert str(after) != before
    assert str(playout(board, random.Random(0))) == str(after)


def test_a_search_left_unknown_counts_as_full_effort() -> None:
    graded = grade(Deal.from_number(find_variant("freecell"), 1), playouts=4,
                   limits=Limits(nodes=1))
    assert graded.verdict == "unknown" and graded.effort == 1.0
    assert graded.solution_length is None


def test_impossible_deals_are_not_graded() -> None:
    with pytest.raises(NotWinnableError, match="no win"):
        grade(Deal.from_number(find_variant("freecell"), 11982))
    with pytest.raises(NotWinnableError):
        grade(Deal.from_number(find_variant("bakers_game"), 10))


def test_bad_arguments() -> None:
    deal = Deal.from_number(find_variant("freecell"), 1)
    for playouts in (0, -3, True, 1.5, 10_001):
        with pytest.raises(InvalidOptionError, match="playouts"):
            grade(deal, playouts=playouts)  # type: ignore[arg-type]
    for seed in (-1, None, "0"):
        with pytest.raises(InvalidOptionError, match="seed"):
            grade(deal, seed=seed)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="limits"):
        grade(deal, limits={"nodes": 5})  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="Deal or a Board"):
        grade(deal.to_text())  # type: ignore[arg-type]
