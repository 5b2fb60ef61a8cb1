"""Progress of lost deals: a finished search reports exactly how many cards at most
could go home; a search cut short reports a lower bound only."""

from __future__ import annotations

from pathlib import Path

import pytest
from bakers import Deal, Limits, find_variant, solve


def impossible_bakers_game_deals(data_dir: Path, count: int) -> list[int]:
    rows = (data_dir / "bakers_game_ms_1-1000.tsv").read_text().splitlines()[1:]
    return [int(row.split("\t")[0]) for row in rows if row.split("\t")[1] == "impossible"][:count]


def test_impossible_deals_report_exact_progress(data_dir: Path) -> None:
    deals = [("freecell", 11982)] + [("bakers_game", n)
                                      for n in impossible_bakers_game_deals(data_dir, 5)]
    for game, number in deals:
        result = solve(Deal.from_number(find_variant(game), number))
        assert result.verdict == "impossible", (game, number)
        assert 0 <= result.most_home < 52 and result.most_home_exact
        assert result.to_dict()["most_home_exact"] is True


@pytest.mark.parametrize(("game", "number"), [("freecell", 11982), ("bakers_game", 10),
                                              ("freecell", 1)])
def test_a_tiny_node_limit_gives_a_lower_bound(game: str, number: int) -> None:
    result = solve(Deal.from_number(find_variant(game), number), limits=Limits(nodes=2))
    assert result.verdict == "unknown" and not result.most_home_exact
    assert 0 <= result.most_home < 52
    exact = solve(Deal.from_number(find_variant(game), number))
    assert exact.most_home >= result.most_home
