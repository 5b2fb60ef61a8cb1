"""The command line as a newcomer and a breaker use it: round trips between commands,
exit codes that never pass a fault or an undecided deal for an answer, one error
prefix, messages in the flags' words, and no traceback for any bad input."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from helpers_cli import Run, one_error_line


def test_grade_of_an_undecided_deal_says_so(bakers: Run) -> None:
    # Baker's Dozen 417 is never decided within the default 200,000 positions: once
    # "hard (score 100.0 ...)" with exit 0.
    code, out, err = bakers("grade", "bakers_dozen", "417", "--playouts", "2")
    assert code == 3 and out.startswith("undecided: no win found and none ruled out"), out
    code, out, err = bakers("grade", "bakers_dozen", "417", "--playouts", "2", "--format", "json")
    assert code == 3 and json.loads(out)["verdict"] == "unknown"
    code, out, err = bakers("grade", "freecell", "617", "--playouts", "4")
    assert code == 0 and "higher is harder" in out


# -- range --resume: a lock on the file, duplicates named ------------------------------

def test_a_second_run_on_one_file_is_refused_naming_the_first(bakers: Run, tmp_path: Path) -> None:
    # Two runs on one file once wrote 2,990 duplicate rows of 3,000. Baker's Dozen 417 is
    # never decided: the first run holds the file while the second starts.
    out = tmp_path / "rows.tsv"
    code = ("import sys; from bakers.cli import main; sys.exit(main(sys.argv[1:]))")
    first = subprocess.Popen([sys.executable, "-c", code, "range", "bakers_dozen", "417", "417",
                              "--out", str(out), "--max-seconds", "60", "--max-memory", "1G",
                              "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while not (out.exists() and out.stat().st_size) and time.monotonic() < deadline:
            time.sleep(0.05)  # the header is written once the lock is held
        assert first.poll() is None
        for again in (["--resume"], ["--force"]):
            code, stdout, err = bakers("range", "bakers_dozen", "1", "3", "--out", str(out),
                                       "--quiet", *again)
            assert (code, stdout) == (2, "")
            assert f"is being written by process {first.pid}" in one_error_line(err)
        assert out.read_text().count("\n") == 1  # the header alone: nothing written twice
    finally:
        first.kill()
        first.communicate()
    code, _, err = bakers("range", "bakers_game", "1", "2", "--out", str(out), "--force",
                          "--quiet")
    assert (code, err) == (0, "")  # the lock went with its process


def test_resume_warns_of_duplicate_rows(bakers: Run, tmp_path: Path) -> None:
    out = tmp_path / "rows.tsv"
    assert bakers("range", "bakers_game", "1", "3", "--out", str(out), "--quiet",
                  "--ordered")[0] == 0
    lines = out.read_text().splitlines(keepends=True)
    out.write_text("".join([*lines, lines[2], lines[2]]))  # deal 2, three times in all
    code, _, err = bakers("range", "bakers_game", "1", "4", "--out", str(out), "--resume",
                          "--quiet")
    assert code == 0
    assert one_error_line(err) == (f"bakers: warning: {str(out)!r} holds 2 duplicate rows "
                                   f"(deals 2); each deal counts once and is not decided again")
    assert out.read_text().count("\tbakers_game\t") == 0 and len(out.read_text().splitlines()) == 7
