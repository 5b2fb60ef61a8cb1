"""`bakers range GAME --deals FILE`, a table's second pass: the deals that a file lists
(a list of numbers, or the rows of an earlier run kept to some verdicts) get the rows
that deciding them in a range gives; bad lists get one line and exit 2; and on a Dask
cluster `--worker-resources` sends every chunk to the workers that have them."""

from __future__ import annotations

import lzma
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from bakers import InvalidDealError, InvalidOptionError, solve_range
from bakers.bulk.deal_lists import read_deals
from helpers_cli import Run, one_error_line

TIMING = ("seconds",)
GAME = "bakers_game"
#: A first pass with this node limit leaves some of Baker's Game 1..40 unknown.
FIRST_PASS_NODES = "300"


def rows(path_or_text: Path | str) -> list[tuple[str, ...]]:
    """Return the rows of a TSV of `bakers range` in file order, timing left out."""
    text = path_or_text.read_text(encoding="utf-8") if isinstance(path_or_text, Path) \
        else path_or_text
    _, header, *lines = text.splitlines()  # the record of the settings, the header
    names = header.split("\t")
    keep = [i for i, name in enumerate(names) if name not in TIMING]
    return [tuple(line.split("\t")[i] for i in keep) for line in lines]


def by_deal(table: list[tuple[str, ...]]) -> dict[int, tuple[str, ...]]:
    return {int(row[1]): row for row in table}


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> dict[int, tuple[str, ...]]:
    """Return the rows of Baker's Game 1..40 decided in one range, no limit, by deal."""
    from bakers.cli import main

    out = tmp_path_factory.mktemp("whole") / "whole.tsv"
    assert main(["range", GAME, "1", "40", "--out", str(out), "--quiet", "--threads", "2"]) == 0
    return by_deal(rows(out))


@pytest.fixture
def first_pass(bakers: Run, tmp_path: Path) -> tuple[Path, list[int]]:
    """Return a first pass of Baker's Game 1..40 with a tiny node limit, and its
    unknown deals in file order."""
    out = tmp_path / "first.tsv"
    code, _, err = bakers("range", GAME, "1", "40", "--max-nodes", FIRST_PASS_NODES,
                          "--out", str(out), "--quiet", "--threads", "2")
    assert code == 0, err
    unknown = [int(r[1]) for r in rows(out) if r[2] == "unknown"]
    assert 0 < len(unknown) < 40  # the limit leaves some deals, not all
    return out, unknown


def test_a_number_list_gives_the_range_rows_in_its_order(
        bakers: Run, tmp_path: Path, whole: dict[int, tuple[str, ...]]) -> None:
    listed = tmp_path / "deals.txt"
    listed.write_text("# deals to decide again\n7\n\n3\n5   # a comment\n3\n+12\n",
                      encoding="utf-8")
    code, out, err = bakers("range", GAME, "--deals", str(listed), "--ordered", "--quiet")
    assert code == 0, err
    assert rows(out) == [whole[n] for n in (7, 3, 5, 12)]  # each once, in the list's order


def test_unknown_rows_of_a_first_pass_get_their_second_pass(
        bakers: Run, tmp_path: Path, first_pass: tuple[Path, list[int]],
        whole: dict[int, tuple[str, ...]]) -> None:
    first, unknown = first_pass
    second = tmp_path / "second.tsv"
    code, _, err = bakers("range", GAME, "--deals", str(first), "--verdict", "unknown",
                          "--out", str(second), "--ordered", "--quiet")
    assert code == 0, err
    assert rows(second) == [whole[n] for n in unknown]
    assert {r[2] for r in rows(second)} <= {"solved", "impossible"}  # no limit: all decided
    # The API reads the same list and decides the same deals.
    assert read_deals(GAME, first, verdicts=["unknown"]) == unknown
    api = list(solve_range(GAME, deals=unknown, ordered=True, threads=2))
    assert [r.number for r in api] == unknown
    assert [r.index for r in api] == list(range(len(unknown)))
    assert [r.verdict for r in api] == [whole[n][2] for n in unknown]


def test_an_xz_file_and_standard_input_list_the_same_deals(
        bakers: Run, tmp_path: Path, first_pass: tuple[Path, list[int]]) -> None:
    first, unknown = first_pass
    packed = tmp_path / "first.tsv.xz"
    packed.write_bytes(lzma.compress(first.read_bytes()))
    code, out_xz, err = bakers("range", GAME, "--deals", str(packed), "--verdict", "unknown",
                               "--ordered", "--quiet")
    assert code == 0, err
    code, out_stdin, err = bakers("range", GAME, "--deals", "-", "--verdict", "unknown",
                                  "--ordered", "--quiet", stdin=first.read_text("utf-8"))
    assert code == 0, err
    assert [int(r[1]) for r in rows(out_xz)] == unknown
    assert rows(out_stdin) == rows(out_xz)
    # A comma list and a repeated --verdict keep the rows of both verdicts.
    everything = [int(r[1]) for r in rows(first)]
    both = [n for n, r in zip(everything, rows(first), strict=True)
            if r[2] in ("unknown", "impossible")]
    assert read_deals(GAME, packed, verdicts=["unknown", "impossible"]) == both
    code, out, err = bakers("range", GAME, "--deals", str(packed), "--verdict",
                            "unknown,impossible", "--ordered", "--quiet")
    assert code == 0 and [int(r[1]) for r in rows(out)] == both, err


def test_other_row_files(tmp_path: Path) -> None:
    # The lists of bench/tables.py (a deal and its verdict, no header), a CSV and JSON
    # lines of bakers range, and a TSV of another program with a header naming deal.
    open_list = tmp_path / "x.open.tsv"
    open_list.write_text("21\timpossible\n23\tunknown\n25\tunknown\n", encoding="utf-8")
    assert read_deals(GAME, open_list, verdicts="unknown") == [23, 25]
    assert read_deals(GAME, open_list) == [21, 23, 25]
    other = tmp_path / "second-pass.tsv"
    other.write_text("deal\tsearch\tverdict\n484\tbeam\tunknown\n9\tbeam\tsolved\n",
                     encoding="utf-8")
    assert read_deals(GAME, other, verdicts=["unknown"]) == [484]
    csv_rows = tmp_path / "x.csv"
    csv_rows.write_text("game,deal,verdict\nbakers_game,4,unknown\nbakers_game,2,solved\n",
                        encoding="utf-8")
    assert read_deals(GAME, csv_rows, verdicts=["unknown"]) == [4]
    jsonl = tmp_path / "x.jsonl"
    jsonl.write_text('{"game": "bakers_game", "deal": 8, "verdict": "unknown"}\n'
                     '{"game": "bakers_game", "deal": 6, "verdict": "solved"}\n',
                     encoding="utf-8")
    assert read_deals(GAME, jsonl, verdicts=["unknown"]) == [8]
    with pytest.raises(InvalidDealError, match=r"x.csv' line 3 is a 'freecell' deal"):
        csv_rows.write_text("game,deal\nbakers_game,4\nfreecell,5\n", encoding="utf-8")
        read_deals(GAME, csv_rows)


@pytest.mark.parametrize(("text", "where", "token"), [
    ("12\nx7\n", "line 2", "'x7'"),
    ("# first\n\n3\n0\n", "line 4", "deal 0 is out of range"),
    ("1 2\n", "line 1", "'1 2'"),
])
def test_a_bad_token_is_named_with_its_file_and_line(
        bakers: Run, tmp_path: Path, text: str, where: str, token: str) -> None:
    listed = tmp_path / "bad.txt"
    listed.write_text(text, encoding="utf-8")
    code, out, err = bakers("range", GAME, "--deals", str(listed), "--quiet")
    line = one_error_line(err)
    assert code == 2 and out == ""
    assert line.startswith("bakers: error: --deals ") and "bad.txt" in line
    assert where in line and token in line


@pytest.mark.parametrize(("argv", "words"), [
    ((), "FIRST LAST, or --deals FILE"),
    (("1", "5", "--deals", "{list}"), "not both"),
    (("1", "--deals", "{list}"), "not both"),
    (("1",), "FIRST LAST, or --deals FILE"),
    (("1", "5", "--verdict", "unknown"), "--verdict needs --deals"),
    (("--deals", "{list}", "--verdict", "unknown"), "--verdict needs rows"),
    (("--deals", "{rows}", "--verdict", "lost"), "--verdict 'lost'"),
    (("--deals", "{missing}"), "cannot read it"),
    (("1", "5", "--worker-resources", "BIG=1"), "--worker-resources needs --cluster"),
])
def test_bad_forms_get_one_line_and_exit_2(bakers: Run, tmp_path: Path, argv: tuple[str, ...],
                                           words: str) -> None:
    listed, table = tmp_path / "list.txt", tmp_path / "rows.tsv"
    listed.write_text("1\n2\n", encoding="utf-8")
    table.write_text("deal\tverdict\n1\tunknown\n", encoding="utf-8")
    files = {"list": str(listed), "rows": str(table), "missing": str(tmp_path / "no.txt")}
    code, out, err = bakers("range", GAME, *(a.format(**files) for a in argv), "--quiet")
    assert code == 2 and out == ""
    assert words in one_error_line(err)


def test_api_takes_one_form() -> None:
    with pytest.raises(InvalidOptionError, match="not both"):
        solve_range(GAME, 1, 5, deals=[1])
    with pytest.raises(InvalidOptionError, match="first and last, or deals"):
        solve_range(GAME)
    with pytest.raises(InvalidDealError, match=r"deals\[1\] 0 is out of range"):
        solve_range(GAME, deals=[3, 0])
    with pytest.raises(InvalidOptionError, match="iterable of deal numbers"):
        solve_range(GAME, deals="deals.txt")  # type: ignore[arg-type]


def test_resume_with_deals_decides_only_the_missing(
        bakers: Run, tmp_path: Path, whole: dict[int, tuple[str, ...]]) -> None:
    listed = tmp_path / "deals.txt"
    listed.write_text("9\n4\n30\n17\n", encoding="utf-8")
    out = tmp_path / "out.tsv"
    code, _, err = bakers("range", GAME, "--deals", str(listed), "--ordered", "--out",
                          str(out), "--quiet")
    assert code == 0, err
    text = out.read_text(encoding="utf-8").splitlines(keepends=True)
    out.write_text("".join(text[:4]) + text[4][:10], encoding="utf-8")  # 9, 4, half of 30
    code, _, err = bakers("range", GAME, "--deals", str(listed), "--ordered", "--out",
                          str(out), "--resume")
    assert code == 0
    assert "4 of 4" not in err and "(2 already in the file)" in err
    assert sorted(rows(out)) == sorted(whole[n] for n in (9, 4, 30, 17))


def test_parquet_in_and_out(bakers: Run, tmp_path: Path,
                            first_pass: tuple[Path, list[int]]) -> None:
    pytest.importorskip("pyarrow")
    first, unknown = first_pass
    dataset = tmp_path / "first.parquet"
    code, _, err = bakers("range", GAME, "1", "40", "--max-nodes", FIRST_PASS_NODES,
                          "--out", str(dataset), "--chunk", "15", "--quiet")
    assert code == 0, err
    assert sorted(read_deals(GAME, dataset, verdicts=["unknown"])) == sorted(unknown)
    second = tmp_path / "second.parquet"
    code, _, err = bakers("range", GAME, "--deals", str(dataset), "--verdict", "unknown",
                          "--out", str(second), "--quiet")
    assert code == 0, err
    assert sorted(read_deals(GAME, second)) == sorted(unknown)
    assert read_deals(GAME, second, verdicts=["unknown"]) == []
    with pytest.raises(InvalidDealError, match="holds 'bakers_game' deals, not 'freecell'"):
        read_deals("freecell", second)
    (tmp_path / "empty.parquet").mkdir()
    code, _, err = bakers("range", GAME, "--deals", str(tmp_path / "empty.parquet"), "--quiet")
    assert code == 2 and "no Parquet files" in one_error_line(err)


# --------------------------------------------------------------------------- cluster


@pytest.fixture(scope="module")
def one_big_worker() -> Iterator[Any]:
    """Yield a client of a cluster of two worker processes, of which only the second
    has the resource BIG."""
    distributed = pytest.importorskip("distributed")
    from bakers.bulk import cluster

    spec = {
        name: {"cls": distributed.Nanny,
               "options": {"nthreads": 1, "resources": resources, "memory_limit": 0,
                           "preload": [cluster.__name__],
                           "env": {cluster.THREADS_VARIABLE: "1"}}}
        for name, resources in (("small", {}), ("big", {"BIG": 1}))}
    scheduler = {"cls": distributed.Scheduler, "options": {"dashboard_address": ":0"}}
    with distributed.SpecCluster(workers=spec, scheduler=scheduler, asynchronous=False,
                                 silence_logs=50) as spec_cluster, \
            distributed.Client(spec_cluster, set_as_default=False) as client:
        client.wait_for_workers(2)
        yield client


@pytest.mark.slow
def test_chunks_asking_for_a_resource_run_on_its_worker_alone(
        one_big_worker: Any, whole: dict[int, tuple[str, ...]]) -> None:
    import distributed
    from bakers.bulk import cluster

    deals = [31, 2, 17, 5, 40, 11, 23, 8]
    workers = one_big_worker.scheduler_info()["workers"]
    big = [address for address, info in workers.items() if info["resources"].get("BIG")]
    assert len(big) == 1 and len(workers) == 2
    with distributed.get_task_stream(client=one_big_worker) as stream:
        got = list(cluster.solve_range(GAME, deals=deals, cluster=one_big_worker, chunk=2,
                                       ordered=True, resources={"BIG": 1}))
    assert [r.number for r in got] == deals
    assert [r.verdict for r in got] == [whole[n][2] for n in deals]
    ran = [t for t in stream.data if str(t["key"]).startswith("bakers-range-")]
    assert len(ran) == 4  # the four chunks, every one on the worker with BIG
    assert {t["worker"] for t in ran} == set(big)


@pytest.mark.slow
def test_an_absent_resource_is_refused_in_one_line(bakers: Run, one_big_worker: Any,
                                                   tmp_path: Path) -> None:
    from bakers.bulk import cluster

    address = one_big_worker.scheduler.address
    code, out, err = bakers("range", GAME, "1", "5", "--cluster", address,
                            "--worker-resources", "GPU=1", "--quiet")
    line = one_error_line(err)
    assert code == 2 and out == ""
    assert "--worker-resources GPU=1" in line and "none of the cluster's 2 workers" in line
    with pytest.raises(cluster.ClusterError, match="GPU=1"):
        cluster.solve_range(GAME, deals=[1], cluster=one_big_worker, resources={"GPU": 1})
    with pytest.raises(InvalidOptionError, match="positive"):
        cluster.solve_range(GAME, 1, 2, cluster=one_big_worker, resources={"BIG": 0})
    code, out, err = bakers("range", GAME, "1", "5", "--cluster", address,
                            "--worker-resources", "BIG", "--quiet")
    assert code == 2 and "NAME=N" in one_error_line(err)


@pytest.mark.slow
def test_cli_local_cluster_with_resources_decides_the_deals(
        bakers: Run, tmp_path: Path, first_pass: tuple[Path, list[int]],
        whole: dict[int, tuple[str, ...]]) -> None:
    pytest.importorskip("distributed")
    first, unknown = first_pass
    out = tmp_path / "second.tsv"
    code, _, err = bakers("range", GAME, "--deals", str(first), "--verdict", "unknown",
                          "--cluster", "local:2", "--worker-resources", "BIG=1",
                          "--chunk", "3", "--ordered", "--out", str(out), "--quiet")
    assert code == 0, err
    assert rows(out) == [whole[n] for n in unknown]
