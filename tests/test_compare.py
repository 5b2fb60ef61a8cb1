"""bench/compare.py: bakers timed as the `bakers range` command a user runs (a whole
process, on a copy of the package made at the start) as fc-solve is (its range tool),
CPU and wall time side by side with both ratios; its refusals before anything is timed."""

from __future__ import annotations

import argparse
import csv
import hashlib
import importlib
import json
import shutil
import statistics
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / "bench" / "compare.py"
DATA = REPO / "tests" / "data"
HAS_RANGE_TOOL = shutil.which("freecell-solver-range-parallel-solve") is not None


@pytest.fixture
def compare(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(REPO / "bench"))
    return importlib.import_module("compare")


def run_script(tmp_path: Path, *args: str) -> tuple[int, str, str, dict[str, Any]]:
    """Run compare.py with ``args`` and --json; return (status, stdout, stderr, the JSON
    results or {} when it wrote none)."""
    results = tmp_path / "results.json"
    done = subprocess.run([sys.executable, str(SCRIPT), *args, "--json", str(results)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    data = json.loads(results.read_text()) if results.exists() else {}
    return done.returncode, done.stdout, done.stderr, data


def reference(name: str) -> dict[int, str]:
    """The verdicts of a tests/data file, in the engine's words."""
    words = {"winnable": "solved", "impossible": "impossible"}
    with (DATA / name).open(newline="") as handle:
        return {int(row["deal"]): words[row["verdict"]]
                for row in csv.DictReader(handle, delimiter="\t")}


def row_of(data: dict[str, Any], solver: str) -> dict[str, str]:
    row = next(row for row in data["rows"] if row[data["headers"].index("solver")] == solver)
    return dict(zip(data["headers"], row, strict=True))


def test_bakers_is_timed_as_the_bakers_range_process(tmp_path: Path) -> None:
    status, _, stderr, data = run_script(tmp_path, "--game", "freecell", "--last", "20",
                                         "--no-fcs", "--lengths", "5",
                                         "--limit-nodes", "100000")
    assert status == 0, stderr
    # The command a user runs, with the limit given as its own flag.
    assert any("python -m bakers range freecell 1 20 --threads 1 --out ROWS.tsv --quiet "
               "--max-nodes 100000, the whole process" in note for note in data["notes"])
    # The verdicts are those of the rows it wrote, one a deal.
    assert [row["deal"] for row in data["bakers_rows"]] == list(range(1, 21))
    assert {int(n): v for n, v in data["verdicts"]["bakers"].items()} == \
        {n: v for n, v in reference("freecell_ms_1-1000.tsv").items() if n <= 20}
    (run,) = data["runs"]["bakers"]
    assert run["cpu"] > 0 and run["wall"] > 0 and run["max_rss"] > 2**20
    assert run["peak_bytes"] == max(row["peak_bytes"] for row in data["bakers_rows"])
    row = row_of(data, "bakers")
    assert row["cpu s"] == f"{run['cpu']:.2f}" and row["wall s"] == f"{run['wall']:.2f}"
    assert row["ratio cpu"] == row["ratio wall"] == "-"  # fc-solve not run
    assert row["mean moves"] != "-"


@pytest.mark.skipif(not HAS_RANGE_TOOL, reason="Freecell Solver's range tool is not installed")
def test_both_ratios_are_medians_of_pairs_on_threads_against_processes(
        tmp_path: Path) -> None:
    status, _, stderr, data = run_script(tmp_path, "--game", "bakers_game", "--last", "12",
                                         "--threads", "2", "--repeat", "2", "--lengths", "3")
    assert status == 0, stderr
    assert data["headers"][3] == "threads"
    assert data["verdicts"]["bakers"] == data["verdicts"]["fc-solve"]
    runs = data["runs"]
    bakers = row_of(data, "bakers")
    assert bakers["threads"] == "2 threads" and row_of(data, "fc-solve")["threads"] == \
        "2 processes"
    for what in ("cpu", "wall"):
        ratios = [f[what] / b[what] for b, f in zip(runs["bakers"], runs["fc-solve"],
                                                    strict=True)]
        assert bakers[f"ratio {what}"] == f"{statistics.median(ratios):.2f}"
        assert bakers[f"{what} s"] == \
            f"{statistics.median(run[what] for run in runs['bakers']):.2f}"
    assert any("--threads 2 --out ROWS.tsv" in note for note in data["notes"])


def test_the_engine_given_is_the_one_the_command_runs(tmp_path: Path) -> None:
    from bakers import _core

    engine = tmp_path / "engine.so"
    shutil.copyfile(_core.__file__, engine)
    status, _, stderr, data = run_script(tmp_path, "--last", "3", "--no-fcs", "--lengths",
                                         "0", "--engine", str(engine))
    assert status == 0, stderr
    digest = hashlib.sha256(engine.read_bytes()).hexdigest()[:12]
    assert any(f"its core {engine} (sha256 {digest})" in note for note in data["notes"])


def test_an_engine_that_does_not_load_is_refused_before_anything_is_timed(
        tmp_path: Path) -> None:
    engine = tmp_path / "engine.so"
    engine.write_text("not a shared object\n")
    status, stdout, stderr, data = run_script(tmp_path, "--last", "3", "--no-fcs",
                                              "--engine", str(engine))
    assert status == 1 and not data and "run 1/1" not in stderr
    assert "does not import: ImportError" in stderr and len(stderr.splitlines()) == 1


@pytest.mark.parametrize(("args", "message"), [
    (["--limit-memory", "1X"], "--limit-memory 1X: not a memory size"),
    (["--limit-nodes", "-1"], "--limit-nodes and --limit-seconds are not negative"),
    (["--engine", "no-such.so"], "--engine no-such.so: no such file"),
])
def test_bad_options_are_refused_in_the_flags_words(tmp_path: Path, args: list[str],
                                                    message: str) -> None:
    status, _, stderr, _ = run_script(tmp_path, "--last", "3", "--no-fcs", *args)
    assert status == 2 and message in stderr and "Traceback" not in stderr


def test_a_limit_bakers_range_refuses_stops_the_comparison_before_timing(
        tmp_path: Path) -> None:
    status, _, stderr, _ = run_script(tmp_path, "--last", "3", "--no-fcs", "--limit-memory",
                                      "1M")
    assert status == 1 and "run 1/1" not in stderr
    assert "--max-memory 1M is too small" in stderr and "Traceback" not in stderr


def test_the_snapshot_holds_the_package_and_its_core(compare: ModuleType,
                                                     tmp_path: Path) -> None:
    import bakers
    from bakers import _core

    package = compare.snapshot_package(tmp_path)
    copy = package.root / "bakers"
    assert (copy / "__init__.py").read_text() == Path(bakers.__file__).read_text()
    core = copy / Path(_core.__file__).name
    assert core.read_bytes() == Path(_core.__file__).read_bytes()
    assert package.core_hash == hashlib.sha256(core.read_bytes()).hexdigest()[:12]
    assert package.env()["PYTHONPATH"].split(":")[0] == str(package.root)


def test_a_child_that_imports_bakers_from_elsewhere_is_refused(compare: ModuleType,
                                                              tmp_path: Path) -> None:
    empty = compare.Package(tmp_path, "0" * 12)  # no copy there: bakers comes from the path
    with pytest.raises(SystemExit, match="imports bakers from .* not from the copy"):
        compare.check_snapshot(empty)


def test_rows_are_read_in_deal_order_and_a_missing_deal_is_refused(
        compare: ModuleType, tmp_path: Path) -> None:
    rows = tmp_path / "rows.tsv"
    rows.write_text("game\tdeal\tverdict\tmoves\tmost_home\tmost_home_exact\texpanded\t"
                    "stored\tpeak_bytes\tseconds\treason\n"
                    "freecell\t2\tsolved\t90\t52\ttrue\t60\t61\t9000\t0.0001\t\n"
                    "freecell\t1\tunknown\t\t30\ttrue\t10\t11\t900\t0.5\tnode limit\n")
    first, second = compare.read_bakers_rows(rows, 1, 2)
    assert (first["deal"], first["verdict"], first["moves"], first["expanded"],
            first["seconds"], first["reason"]) == (1, "unknown", 0, 10, 0.5, "node limit")
    assert (second["deal"], second["moves"], second["peak_bytes"]) == (2, 90, 9000)
    with pytest.raises(SystemExit, match="2 rows .* not one for each deal 1..3"):
        compare.read_bakers_rows(rows, 1, 3)


def test_the_options_given_pass_to_bakers_range_in_its_flags(compare: ModuleType) -> None:
    def options(**given: Any) -> list[str]:
        defaults = {"method": None, "limit_nodes": 0, "limit_seconds": 0.0,
                    "limit_memory": "0", "limit_memory_bytes": 0}
        return compare.range_options(argparse.Namespace(**(defaults | given)))

    assert options() == []
    assert options(method="beam", limit_nodes=5, limit_seconds=1.5, limit_memory="2G",
                   limit_memory_bytes=2**31) == ["--method", "beam", "--max-nodes", "5",
                                                 "--max-seconds", "1.5", "--max-memory", "2G"]
