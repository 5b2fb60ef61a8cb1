"""The rows that the core writes for `bakers range` (`bakers.bulk.batches`) are byte for
byte the lines of `bakers.cli.range.formats`, on every kind of field, and a run through
them holds the same rows as the Python path."""

from __future__ import annotations

import math

import pytest
from bakers import Limits, solve_range
from bakers._native import core
from bakers.bulk.batches import RowBatches
from bakers.bulk.rows import COLUMNS, values
from bakers.cli.range.formats import Csv, Format, Jsonl
from bakers.variants import find_variant
from hypothesis import given, settings
from hypothesis import strategies as st

PYTHON_FORMATS = {"tsv": Format(COLUMNS), "csv": Csv(COLUMNS), "jsonl": Jsonl(COLUMNS)}

reasons = st.sampled_from(["", "node limit", "memory limit", "interrupted",
                           'error: a "quoted", comma', "tab\there", "line\nbreak",
                           "back\\slash", "control\x01\x1f", "ünïcode"])
seconds = st.one_of(st.floats(0, 1e6, allow_nan=False), st.sampled_from(
    [0.0, 1e-7, 4.9999e-7, 5e-7, 5.0001e-7, 1e-6, 1.5e-5, 1e-4, 0.000123456789, 0.1,
     0.5, 1.0, 12.3456785, 1e15, 1e16, 123456789.123456]))
counts = st.integers(0, 2**64 - 1)


@settings(max_examples=400, deadline=None)
@given(fmt=st.sampled_from(sorted(PYTHON_FORMATS)),
       game=st.sampled_from(["freecell", "bakers_game", "a,b", 'q"uote']),
       deal=counts, verdict=st.sampled_from(["solved", "impossible", "unknown"]),
       moves=st.integers(0, 10**7), most_home=st.integers(0, 104), exact=st.booleans(),
       expanded=counts, stored=counts, peak=counts, seconds=seconds, reason=reasons)
def test_core_rows_are_the_python_formats_lines(fmt: str, game: str, deal: int,
                                                verdict: str, moves: int, most_home: int,
                                                exact: bool, expanded: int, stored: int,
                                                peak: int, seconds: float,
                                                reason: str) -> None:
    row = {"game": game, "deal": deal, "verdict": verdict,
           "moves": moves if verdict == "solved" else None, "most_home": most_home,
           "most_home_exact": exact, "expanded": expanded, "stored": stored,
           "peak_bytes": peak, "seconds": round(seconds, 6), "reason": reason}
    made = core().row_text(fmt, game, deal, verdict, moves, most_home, exact, expanded,
                           stored, peak, seconds, reason)
    assert made == PYTHON_FORMATS[fmt].line(row)


@pytest.mark.parametrize("value", [0.0, 1e-6, 2.5e-5, 1e-4, 0.25, 3.0, 1e16, 2.0**60])
def test_seconds_in_json_lines_read_back_as_the_rounded_value(value: float) -> None:
    line = core().row_text("jsonl", "freecell", 1, "solved", 1, 52, True, 1, 1, 1, value, "")
    import json
    assert math.isclose(json.loads(line)["seconds"], round(value, 6), rel_tol=0, abs_tol=0)


@pytest.mark.parametrize("fmt", ["tsv", "csv", "jsonl"])
@pytest.mark.parametrize("threads", [1, 2])
def test_batches_hold_every_deal_once_with_the_python_paths_fields(fmt: str,
                                                                   threads: int) -> None:
    variant = find_variant("freecell")
    limits = Limits(nodes=2000)  # some deals stop unknown at the node limit
    numbers = list(range(1, 121)) + [11982]
    text, counts, rows = "", {"solved": 0, "impossible": 0, "unknown": 0}, 0
    for batch in RowBatches(variant, numbers, threads=threads, limits=limits, ordered=False,
                            method="dive", fmt=fmt):
        assert batch.text.endswith("\n") and batch.text.count("\n") == batch.rows
        assert len(batch.seconds) == batch.rows
        text += batch.text
        rows += batch.rows
        for verdict, n in batch.counts.items():
            counts[verdict] += n
    assert rows == len(numbers)
    python = {r.number: r for r in solve_range(variant, deals=numbers, threads=1,
                                               limits=limits, method="dive")}
    assert counts == {v: sum(r.verdict == v for r in python.values()) for v in counts}
    reader = PYTHON_FORMATS[fmt]
    seen = []
    for line in text.splitlines(keepends=True):
        fields = dict(zip(COLUMNS, reader.fields(line), strict=True)) if fmt != "jsonl" \
            else __import__("json").loads(line)
        number = int(fields["deal"])
        seen.append(number)
        want = values(python[number], solutions=False)
        want["seconds"] = float(fields["seconds"])  # each run times itself
        expected = reader.line(want)
        assert line == expected
    assert sorted(seen) == numbers
