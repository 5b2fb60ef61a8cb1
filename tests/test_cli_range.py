"""`bakers range`: rows in three formats, resuming an interrupted file, the progress bar
and summary, Ctrl-C keeping complete rows, and bad input answered by one line, exit 2."""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from bakers import Deal, Solution, solve_range
from bakers.bulk import batches
from bakers.cli.range import progress
from bakers.cli.range import run as cli_range
from helpers_cli import Run, interrupt_cli, one_error_line

COLUMNS = list(cli_range.COLUMNS)
TIMING = ("seconds",)




def parse_lines(text: str, ext: str) -> list[dict[str, object]]:
    """Return the data rows of a `bakers range` output, each as a dict of strings (TSV,
    CSV) or of JSON values; every line must be complete."""
    assert text == "" or text.endswith("\n"), "the last line is truncated"
    lines = text.splitlines(keepends=True)
    if ext == ".jsonl":
        assert "bakers_range" in json.loads(lines[0])  # the record of the settings
        return [json.loads(line) for line in lines[1:]]
    assert lines[0].startswith("# bakers range {")  # the record of the settings
    text = "".join(lines[1:])
    rows = (list(csv.reader(io.StringIO(text))) if ext == ".csv"
            else [line.split("\t") for line in text.splitlines()])
    header, data = rows[0], rows[1:]
    assert header[:len(COLUMNS)] == COLUMNS
    assert all(len(row) == len(header) for row in data)
    return [dict(zip(header, row, strict=True)) for row in data]


def rows_of(path: Path) -> list[dict[str, object]]:
    return parse_lines(path.read_text(encoding="utf-8"), path.suffix)


def without_timing(rows: list[dict[str, object]]) -> Counter[tuple[tuple[str, str], ...]]:
    """Return the rows as a multiset, timing columns left out."""
    return Counter(tuple(sorted((k, str(v)) for k, v in row.items() if k not in TIMING))
                   for row in rows)



@pytest.mark.parametrize("ext", [".tsv", ".csv", ".jsonl"])
def test_rows_match_the_api(bakers: Run, tmp_path: Path, ext: str) -> None:
    out = tmp_path / f"deals{ext}"
    code, stdout, err = bakers("range", "bakers_game", "1", "30", "--threads", "2",
                               "--out", str(out), "--quiet")
    assert (code, stdout, err) == (0, "", "")
    rows = rows_of(out)
    expected = {r.number: r for r in solve_range("bakers_game", 1, 30, threads=2)}
    assert sorted(int(row["deal"]) for row in rows) == list(range(1, 31))
    for row in rows:
        r = expected[int(row["deal"])]
        assert row["game"] == "bakers_game" and row["verdict"] == r.verdict
        empty = None if ext == ".jsonl" else ""
        moves = empty if r.solution_length is None else r.solution_length
        assert row["moves"] == (moves if ext == ".jsonl" else str(moves))
        assert str(row["expanded"]) == str(r.stats.expanded)
        assert str(row["most_home_exact"]).lower() == "true"


def test_stdout_tsv_ordered_with_solutions(bakers: Run) -> None:
    code, out, err = bakers("range", "freecell36", "1", "12", "--threads", "2", "--ordered",
                            "--solutions", "--quiet")
    assert code == 0 and err == ""
    rows = parse_lines(out, ".tsv")
    assert [int(row["deal"]) for row in rows] == list(range(1, 13))
    for row in rows:
        assert row["verdict"] in ("solved", "impossible")
        if row["verdict"] == "solved":
            solution = Solution.parse(str(row["solution"]))
            assert len(solution) == int(row["moves"])
            assert solution.replay(Deal.from_number("freecell36", int(row["deal"]))).won
        else:
            assert row["solution"] == "" and row["moves"] == ""


def test_limits_and_unknown_rows(bakers: Run, tmp_path: Path) -> None:
    out = tmp_path / "u.jsonl"
    code, _, _ = bakers("range", "freecell", "1", "4", "--max-nodes", "5", "--max-memory",
                        "256M", "--max-seconds", "10", "--out", str(out), "--quiet")
    assert code == 0
    for row in rows_of(out):
        assert row["verdict"] == "unknown" and row["moves"] is None
        assert row["most_home_exact"] is False and row["reason"]


@pytest.mark.parametrize("ext", [".tsv", ".csv", ".jsonl"])
@pytest.mark.parametrize("ordered", [True, False])
def test_resume_gives_the_uninterrupted_file(bakers: Run, tmp_path: Path, ext: str,
                                             ordered: bool) -> None:
    order = ["--ordered"] if ordered else []
    full = tmp_path / f"full{ext}"
    assert bakers("range", "bakers_game", "1", "40", "--threads", "2", "--out", str(full),
                  "--quiet", *order)[0] == 0
    lines = full.read_text(encoding="utf-8").splitlines(keepends=True)
    head, data = (lines[:0], lines) if ext == ".jsonl" else (lines[:1], lines[1:])
    # An interrupted run: some rows (a prefix, or for rows written as they finish any
    # subset), then the first half of a row whose write was cut short.
    kept = data[:15] if ordered else data[::3]
    partial = tmp_path / f"partial{ext}"
    partial.write_text("".join(head + kept) + data[20][:len(data[20]) // 2], encoding="utf-8")
    code, _, _ = bakers("range", "bakers_game", "1", "40", "--threads", "2", "--out",
                        str(partial), "--resume", "--quiet", *order)
    assert code == 0
    assert without_timing(rows_of(partial)) == without_timing(rows_of(full))
    if ordered:
        assert [int(r["deal"]) for r in rows_of(partial)] == list(range(1, 41))
    # Resuming a finished file decides nothing more.
    code, _, err = bakers("range", "bakers_game", "1", "40", "--out", str(partial),
                          "--resume")
    assert code == 0 and "0 of 40" in err and "40 already in the file" in err
    assert len(rows_of(partial)) == 40


def test_resume_of_an_empty_or_missing_file(bakers: Run, tmp_path: Path) -> None:
    missing = tmp_path / "new.tsv"
    assert bakers("range", "bakers_game", "1", "5", "--out", str(missing), "--resume",
                  "--quiet")[0] == 0
    assert len(rows_of(missing)) == 5
    cut = tmp_path / "cut.tsv"
    cut.write_text("game\tde", encoding="utf-8")  # even the header was cut short
    assert bakers("range", "bakers_game", "1", "5", "--out", str(cut), "--resume",
                  "--quiet")[0] == 0
    assert without_timing(rows_of(cut)) == without_timing(rows_of(missing))


def test_force_overwrites(bakers: Run, tmp_path: Path) -> None:
    out = tmp_path / "f.csv"
    out.write_text("anything\n", encoding="utf-8")
    assert bakers("range", "bakers_game", "1", "3", "--out", str(out), "--force",
                  "--quiet")[0] == 0
    assert len(rows_of(out)) == 3


@pytest.fixture
def python_sigint() -> Iterator[None]:
    """SIGINT raising KeyboardInterrupt, as Python sets it up under a terminal: a test
    started in the background (where the shell ignores SIGINT, and the command leaves it
    ignored) gets the handler that Ctrl-C meets in use."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.mark.usefixtures("python_sigint")
@pytest.mark.parametrize("solutions", [False, True])
@pytest.mark.parametrize("ordered", [True, False])
def test_interrupt_keeps_finished_rows(bakers: Run, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch, ordered: bool,
                                       solutions: bool) -> None:
    # Ctrl-C (a real SIGINT to this process) while rows are written: the rows core
    # batches (without --solutions) and the Python path's rows (with it).
    out = tmp_path / "i.tsv"
    flags = (["--ordered"] if ordered else []) + (["--solutions"] if solutions else [])
    monkeypatch.setattr(batches, "BATCH_ROWS", 3)
    calls = []
    add, add_batch = progress.Tally.add, progress.Tally.add_batch

    def interrupt_at_fifth(tally: progress.Tally, *args: object) -> None:
        calls.append(1)
        if len(calls) == 5:
            os.kill(os.getpid(), signal.SIGINT)
        (add_batch if isinstance(args[0], batches.RowBatch) else add)(tally, *args)

    monkeypatch.setattr(progress.Tally, "add", interrupt_at_fifth)
    monkeypatch.setattr(progress.Tally, "add_batch", interrupt_at_fifth)
    # Deals enough that the workers are still deciding when the signal comes (a quick
    # range could be done before the fifth batch reaches the writer).
    deals = 2000
    code, _, err = bakers("range", "bakers_game", "1", str(deals), "--threads", "2", "--out",
                          str(out), "--quiet", *flags)
    assert code == 130
    done = len(rows_of(out))
    assert 5 <= done < deals  # the rows being written when Ctrl-C came are kept
    if ordered:
        assert [int(r["deal"]) for r in rows_of(out)] == list(range(1, done + 1))
    assert one_error_line(err) == (f"bakers: interrupted: {done:,} of {deals:,} deals done, in "
                                   f"{str(out)!r}; --resume continues")
    monkeypatch.setattr(progress.Tally, "add", add)
    monkeypatch.setattr(progress.Tally, "add_batch", add_batch)
    assert bakers("range", "bakers_game", "1", str(deals), "--threads", "2", "--out", str(out),
                  "--resume", "--quiet", *flags)[0] == 0
    assert sorted(int(r["deal"]) for r in rows_of(out)) == list(range(1, deals + 1))


def test_progress_bar_and_summary(bakers: Run, tmp_path: Path) -> None:
    out = tmp_path / "p.tsv"
    code, _, err = bakers("range", "bakers_game", "1", "25", "--threads", "2", "--out",
                          str(out), "--progress")
    assert code == 0
    assert "deals/s" in err and "winnable" in err and "impossible" in err
    for words in ("bakers range", "deals searched", "share winnable", "seconds per deal",
                  "median", "p99", "total time", "peak memory"):
        assert words in err, words
    # Not a terminal and no --progress: the summary only; --quiet: nothing.
    code, _, err = bakers("range", "bakers_game", "1", "25", "--out", str(out), "--force")
    assert code == 0 and "deals/s" not in err and "share winnable" in err
    code, _, err = bakers("range", "bakers_game", "1", "25", "--out", str(out), "--force",
                          "--quiet", "--progress")
    assert (code, err) == (0, "")


def test_progress_bar_on_a_terminal(bakers: Run, tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code, _, err = bakers("range", "freecell", "1", "10", "--out", str(tmp_path / "t.tsv"))
    assert code == 0 and "deals/s" in err and "share winnable" in err


@pytest.mark.parametrize("argv", [
    ["bakers_game", "5", "3"],
    ["bakers_game", "0", "3"],
    ["bakers_game", "1", "8589934592"],
    ["bakers_dozen", "1", str(2**64)],
    ["bakers_game", "x", "3"],
    ["bakers_game", "1", "3", "--threads", "0"],
    ["bakers_game", "1", "3", "--threads", "many"],
    ["no_such_game", "1", "3"],
    ["bakers_game", "1", "3", "--out", "x.xls"],
    ["bakers_game", "1", "3", "--out", "noext"],
    ["bakers_game", "1", "3", "--resume"],
    ["bakers_game", "1", "3", "--out", "r.tsv", "--resume", "--force"],
    ["bakers_game", "1", "3", "--out", "r.tsv", "--resume-any"],
    ["bakers_game", "1", "3", "--out", "r.parquet", "--resume-any"],
    ["bakers_game", "1", "3", "--max-memory", "lots"],
    ["bakers_game", "1", "3", "--max-memory", "20M"],  # less than the process holds
    ["bakers_game", "1", "3", "--max-seconds", "-1"],
    ["bakers_game", "1", "3", "--max-nodes", "0"],
])
def test_bad_input_is_one_line(bakers: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                               argv: list[str]) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = bakers("range", *argv)
    assert code == 2 and out == ""
    assert one_error_line(err).startswith("bakers: error: ")
    assert list(tmp_path.iterdir()) == []  # nothing written


@pytest.mark.parametrize(("content", "extra", "words"), [
    ("old rows\n", [], "exists"),
    ("game\tdeal\n", ["--resume"], "header"),
    ("game\tdeal\nbakers_game\t1\tso", ["--resume"], "header"),
    ("\t".join(cli_range.COLUMNS) + "\nfreecell\t1\tsolved\t9\t52\ttrue\t1\t1\t1\t0.100000\t\n",
     ["--resume"], "'freecell' deal"),
    ("\t".join(cli_range.COLUMNS) + "\nbakers_game\tone" + "\t" * 9 + "\n", ["--resume"],
     "line 2"),
    ("\t".join(cli_range.COLUMNS) + "\n", ["--resume", "--solutions"], "without --solutions"),
])
def test_an_existing_file_is_kept(bakers: Run, tmp_path: Path, content: str,
                                  extra: list[str], words: str) -> None:
    out = tmp_path / "old.tsv"
    out.write_text(content, encoding="utf-8")
    code, _, err = bakers("range", "bakers_game", "1", "3", "--out", str(out), *extra)
    assert code == 2 and words in one_error_line(err)
    assert out.read_text(encoding="utf-8") == content


def test_jsonl_resume_checks_its_rows(bakers: Run, tmp_path: Path) -> None:
    out = tmp_path / "old.jsonl"
    assert bakers("range", "bakers_game", "1", "3", "--out", str(out), "--solutions",
                  "--quiet")[0] == 0
    code, _, err = bakers("range", "bakers_game", "1", "5", "--out", str(out), "--resume")
    assert code == 2 and "with --solutions" in one_error_line(err)
    out.write_text('{"deal": 1}\n', encoding="utf-8")
    code, _, err = bakers("range", "bakers_game", "1", "5", "--out", str(out), "--resume")
    assert code == 2 and "line 1" in one_error_line(err)


@pytest.mark.parametrize(("game", "order"), [("bakers_dozen", []),
                                             ("freecell", ["--ordered"])])
def test_sigint_stops_a_slow_run(tmp_path: Path, game: str, order: list[str]) -> None:
    out = tmp_path / "slow.tsv"
    argv = ["range", game, "1", "100000", "--threads", "2", "--out", str(out),
            "--max-seconds", "5", "--max-memory", "1G", *order]
    ended = interrupt_cli(
        argv, ready=lambda: out.exists() and out.read_text(encoding="utf-8").count("\n") >= 4,
        cwd=tmp_path, env={"COLUMNS": "100"})
    stderr = ended.stderr
    assert ended.returncode == 130, stderr
    assert "Traceback" not in stderr and "bakers: interrupted:" in stderr
    rows = rows_of(out)  # complete lines only
    assert 3 <= len(rows) < 100000
    assert len({r["deal"] for r in rows}) == len(rows)
    if order:
        assert [int(r["deal"]) for r in rows] == list(range(1, len(rows) + 1))
    assert all(r["verdict"] in ("solved", "impossible", "unknown") for r in rows)


@pytest.mark.parametrize(("target", "extra", "kind"), [
    ("/dev/null", ["--resume"], "a character device"),
    ("/dev/full", ["--force"], "a character device"),
    ("fifo", ["--force"], "a FIFO"),
    ("fifo", ["--resume"], "a FIFO"),
])
def test_out_is_a_regular_file(bakers: Run, tmp_path: Path, target: str, extra: list[str],
                               kind: str) -> None:
    # A link to a device, or a FIFO: an endless or blocking read, a write that fails.
    out = tmp_path / "rows.tsv"
    if target == "fifo":
        os.mkfifo(out)
    else:
        out.symlink_to(target)
    code, stdout, err = bakers("range", "bakers_game", "1", "3", "--out", str(out), *extra)
    assert (code, stdout) == (2, "")
    assert one_error_line(err) == (f"bakers: error: --out {str(out)!r} is {kind}, not a "
                                   "regular file: give a file's path")


@pytest.mark.parametrize("how", ["--resume", "--deals"])
def test_a_jsonl_line_nested_deep_names_file_and_line(bakers: Run, tmp_path: Path,
                                                      how: str) -> None:
    rows = tmp_path / "deep.jsonl"
    rows.write_text('{"deal": ' + "[" * 100_000 + "]" * 100_000 + "}\n", encoding="utf-8")
    if how == "--resume":
        argv = ["1", "3", "--out", str(rows), "--resume"]
    else:
        argv = ["--deals", str(rows), "--out", str(tmp_path / "out.tsv")]
    code, stdout, err = bakers("range", "bakers_game", *argv)
    assert (code, stdout) == (2, "")
    line = one_error_line(err)
    assert f"{str(rows)!r} line 1" in line


def _made(bakers: Run, path: Path, *argv: str) -> list[str]:
    assert bakers("range", "bakers_game", "1", "5", "--ordered", "--out", str(path),
                  "--quiet", *argv)[0] == 0
    return path.read_text(encoding="utf-8").splitlines(keepends=True)


@pytest.mark.parametrize(("column", "value", "words"), [
    (1, "0", "line 4: deal 0 is not among the deals of this run (1..5)"),
    (1, "-5", "deal '-5' is not as bakers range writes it"),
    (1, "99999999999999", "deal 99999999999999 is not among the deals of this run"),
    (2, "bogus", "verdict 'bogus' is not as bakers range writes it"),
    (3, "", "moves '' is not as bakers range writes it"),
    (6, "many", "expanded 'many' is not as bakers range writes it"),
    (5, "yes", "most_home_exact 'yes' is not"),
    (9, "nan", "seconds 'nan' is not"),
])
def test_resume_checks_each_row_as_the_writer_writes_it(
        bakers: Run, tmp_path: Path, column: int, value: str, words: str) -> None:
    out = tmp_path / "rows.tsv"
    lines = _made(bakers, out)
    fields = lines[3].rstrip("\n").split("\t")  # deal 2, solved
    fields[column] = value
    content = "".join(lines[:3]) + "\t".join(fields) + "\n"
    out.write_text(content, encoding="utf-8")
    code, _, err = bakers("range", "bakers_game", "1", "5", "--out", str(out), "--resume")
    assert code == 2
    line = one_error_line(err)
    assert line.startswith(f"bakers: error: {str(out)!r} line 4") and words in line
    assert out.read_text(encoding="utf-8") == content  # the file is left as it was


def test_resume_checks_jsonl_rows_and_their_order(bakers: Run, tmp_path: Path) -> None:
    out = tmp_path / "rows.jsonl"
    lines = _made(bakers, out)
    row = json.loads(lines[2])
    for bad, words in [({**row, "expanded": "12"}, "expanded '12' is not"),
                       ({**row, "deal": 3.0}, "deal 3.0 is not"),
                       ({"deal": row["deal"], **row}, "in this order")]:
        out.write_text(lines[0] + json.dumps(bad) + "\n", encoding="utf-8")
        code, _, err = bakers("range", "bakers_game", "1", "5", "--out", str(out), "--resume")
        assert code == 2 and words in one_error_line(err)


@pytest.mark.parametrize("ext", [".tsv", ".csv", ".jsonl"])
def test_resume_of_other_settings_needs_resume_any(bakers: Run, tmp_path: Path,
                                                   ext: str) -> None:
    out = tmp_path / f"rows{ext}"
    lines = _made(bakers, out, "--max-nodes", "100000")
    code, _, err = bakers("range", "bakers_game", "1", "8", "--out", str(out), "--resume",
                          "--method", "best-first")
    assert code == 2
    assert one_error_line(err) == (
        f"bakers: error: {str(out)!r} was made with --method dive, --max-nodes "
        "100000, this run has --method best-first, no --max-nodes: resume with the same method "
        "and limits, or add --resume-any to mix them")
    assert out.read_text(encoding="utf-8") == "".join(lines)
    assert bakers("range", "bakers_game", "1", "8", "--out", str(out), "--resume",
                  "--max-nodes", "100000", "--quiet")[0] == 0
    assert len(rows_of(out)) == 8
    # A file written before the settings were recorded: unknown, so --resume-any.
    out.write_text("".join(lines[1:]), encoding="utf-8")
    code, _, err = bakers("range", "bakers_game", "1", "8", "--out", str(out), "--resume")
    assert code == 2 and "does not record the method and limits" in one_error_line(err)
    assert "--resume-any" in err
    code, _, err = bakers("range", "bakers_game", "1", "8", "--out", str(out), "--resume",
                          "--resume-any", "--quiet")
    assert (code, err) == (0, "")
    text = out.read_text(encoding="utf-8")
    assert text.startswith("".join(lines[1:])) and text.count("\n") == len(lines) - 1 + 3
