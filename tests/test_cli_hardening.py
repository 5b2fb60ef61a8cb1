"""The command line as a newcomer and a breaker use it: round trips between commands,
exit codes that never pass a fault or an undecided deal for an answer, one error
prefix, messages in the flags' words, and no traceback for any bad input."""

from __future__ import annotations

import json

from helpers_cli import Run


def test_grade_of_an_undecided_deal_says_so(bakers: Run) -> None:
    # Baker's Dozen 417 is never decided within the default 200,000 positions: once
    # "hard (score 100.0 ...)" with exit 0.
    code, out, err = bakers("grade", "bakers_dozen", "417", "--playouts", "2")
    assert code == 3 and out.startswith("undecided: no win found and none ruled out"), out
    code, out, err = bakers("grade", "bakers_dozen", "417", "--playouts", "2", "--format", "json")
    assert code == 3 and json.loads(out)["verdict"] == "unknown"
    code, out, err = bakers("grade", "freecell", "617", "--playouts", "4")
    assert code == 0 and "higher is harder" in out
