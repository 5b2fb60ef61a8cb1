"""`bakers range --out DIR.parquet` and `bakers.bulk.dataset`: a Parquet dataset of one
file a chunk, written by this process or by the workers of a Dask cluster, holds the
same rows as the TSV run; `--resume` decides only the deals missing from its files;
a directory with files is refused without --resume; no pyarrow gets one line; and
bench/tables.py reads the dataset as it reads the TSV."""

from __future__ import annotations

import fcntl
import importlib.util
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from bakers import InvalidOptionError, find_variant
from bakers.bulk import dataset
from bakers.bulk.dataset import DealRanges
from bakers.bulk.rows import columns
from bakers.cli.range import formats, writers
from bakers.errors import DatasetError
from helpers_cli import Run, interrupt_on_cluster, kill_a_busy_worker, one_error_line

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

REPO = Path(__file__).resolve().parent.parent
#: The columns compared between runs: all but the engine's time.
SAME = ("deal", "verdict", "moves", "most_home", "most_home_exact", "expanded", "stored",
        "reason", "solution")


@pytest.fixture(scope="module")
def client() -> Any:
    """Yield a client of a local cluster of two worker processes, as ``local:2`` makes."""
    pytest.importorskip("distributed")
    from bakers.bulk import cluster

    client = cluster.connect("local:2")
    try:
        yield client
    finally:
        client.close()


def tsv_rows(path: Path) -> list[tuple[str, ...]]:
    """Return the rows of a TSV file of `bakers range`, `SAME`'s columns, by deal."""
    _, header, *lines = path.read_text(encoding="utf-8").splitlines()  # record, header
    names = header.split("\t")
    keep = [names.index(c) for c in SAME if c in names]
    return sorted((tuple(line.split("\t")[i] for i in keep) for line in lines),
                  key=lambda row: int(row[0]))


def dataset_files(path: Path) -> list[Path]:
    return sorted(p for p in path.iterdir() if not p.name.startswith("."))


def dataset_rows(path: Path) -> list[tuple[str, ...]]:
    """Return the rows of a dataset as the TSV writes them, `SAME`'s columns, by deal."""
    rows = []
    for file in dataset_files(path):
        table = pq.read_table(file)
        names = [c for c in SAME if c in table.column_names]
        for row in table.select(names).to_pylist():
            rows.append(tuple(formats.text(row[c]) for c in names))
    return sorted(rows, key=lambda row: int(row[0]))


def deals_of(path: Path) -> list[int]:
    """Return every deal in the dataset's files, in order, a deal twice if it is twice."""
    return sorted(d for f in dataset_files(path)
                  for d in pq.read_table(f, columns=["deal"]).column("deal").to_pylist())


def test_threaded_dataset_holds_the_rows_of_the_tsv_run(bakers: Run, tmp_path: Path) -> None:
    out, tsv = tmp_path / "bg.parquet", tmp_path / "bg.tsv"
    argv = ["range", "bakers_game", "1", "60", "--threads", "2", "--solutions", "--quiet"]
    assert bakers(*argv, "--out", str(out), "--chunk", "7") == (0, "", "")
    assert bakers(*argv, "--out", str(tsv))[0] == 0
    assert dataset_rows(out) == tsv_rows(tsv)
    assert {row[1] for row in tsv_rows(tsv)} == {"solved", "impossible"}
    files = dataset_files(out)
    assert len(files) == 9 and all(f.suffix == ".parquet" for f in files)  # 60 = 8 * 7 + 4
    for file in files:  # named by the first and last deal it holds, which are in order
        deals = pq.read_table(file, columns=["deal"]).column("deal").to_pylist()
        assert deals == sorted(deals)
        assert file.name == f"bakers_game-{deals[0]:012d}-{deals[-1]:012d}.parquet"
    types = pq.read_schema(files[0])
    assert types.names == list(columns(True))
    assert types.field("deal").type == pa.uint64()
    assert types.field("moves").type == pa.uint16()
    assert types.field("seconds").type == pa.float32()
    assert pa.types.is_dictionary(types.field("verdict").type)
    assert pq.ParquetFile(files[0]).metadata.row_group(0).column(1).compression == "ZSTD"


def test_cluster_workers_write_the_same_rows(bakers: Run, client: Any, tmp_path: Path) -> None:
    out, tsv = tmp_path / "fc.parquet", tmp_path / "fc.tsv"
    argv = ["range", "freecell36", "1", "40", "--solutions", "--quiet"]
    assert bakers(*argv, "--cluster", client.scheduler.address, "--chunk", "6",
                  "--out", str(out)) == (0, "", "")
    assert bakers(*argv, "--threads", "2", "--out", str(tsv))[0] == 0
    assert dataset_rows(out) == tsv_rows(tsv)
    assert len(dataset_files(out)) == 7
    assert not [p for p in out.iterdir() if p.name.endswith(".tmp")]


def test_write_range_yields_the_chunks_summaries(client: Any, tmp_path: Path) -> None:
    from bakers import solve_range
    from bakers.bulk import cluster

    out = tmp_path / "bg.parquet"
    summaries = list(cluster.write_range("bakers_game", 1, 50, cluster=client, out=out,
                                         chunk=8))
    threaded = list(solve_range("bakers_game", 1, 50, threads=2))
    assert sum(s.deals for s in summaries) == 50
    assert sorted(s.file for s in summaries if s.file) == [f.name for f in dataset_files(out)]
    impossible = sorted(n for s in summaries for n in s.impossible)
    assert impossible == sorted(r.number for r in threaded if r.verdict == "impossible")
    assert sum(s.counts.get("solved", 0) for s in summaries) == sum(
        r.verdict == "solved" for r in threaded)
    assert sum(s.moves for s in summaries) == sum(r.solution_length or 0 for r in threaded)
    assert deals_of(out) == list(range(1, 51))
    with pytest.raises(InvalidOptionError, match="holds files: add --resume"):
        cluster.write_range("bakers_game", 1, 50, cluster=client, out=out)
    again = list(cluster.write_range("bakers_game", 1, 60, cluster=client, out=out,
                                     resume=True, chunk=8))
    assert sum(s.deals for s in again) == 10
    assert deals_of(out) == list(range(1, 61))


def test_resume_decides_only_the_deals_missing(bakers: Run, tmp_path: Path) -> None:
    out = tmp_path / "bd.parquet"
    argv = ["range", "bakers_game", "1", "50", "--threads", "2", "--chunk", "10",
            "--ordered", "--out", str(out)]
    assert bakers(*argv, "--quiet")[0] == 0
    files = dataset_files(out)
    kept = {f.name: f.stat().st_mtime_ns for f in files if f != files[2]}
    files[2].unlink()  # deals 21..30
    stray = out / f".{files[2].name}.0123.tmp"  # a write that never finished
    stray.write_bytes(b"PAR1")
    code, _, err = bakers(*argv, "--resume")
    assert code == 0
    assert "10 of 50 (40 already in the file)" in err
    assert deals_of(out) == list(range(1, 51))
    assert {f.name: f.stat().st_mtime_ns for f in dataset_files(out)
            if f.name in kept} == kept
    assert not stray.exists()


def test_a_complete_run_removes_a_dead_writers_temporary_file(
        bakers: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "t.parquet"
    write = dataset.write_chunk
    stray = out / ".bakers_game-000000000001-000000000005.parquet.99.tmp"

    def and_a_stray(*args: Any) -> Any:
        stray.write_bytes(b"PAR1")  # as a worker killed in the middle of its write leaves
        return write(*args)

    monkeypatch.setattr(dataset, "write_chunk", and_a_stray)
    assert bakers("range", "bakers_game", "1", "12", "--chunk", "5", "--out", str(out),
                  "--quiet")[0] == 0
    assert not stray.exists() and deals_of(out) == list(range(1, 13))


def test_ctrl_c_keeps_the_finished_rows_and_resume_completes(
        bakers: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "i.parquet"
    put = writers.ChunkWriter._put
    calls = []

    def interrupt_once(self: Any, result: Any) -> None:
        calls.append(1)
        if len(calls) == 23:
            raise KeyboardInterrupt
        put(self, result)

    monkeypatch.setattr(writers.ChunkWriter, "_put", interrupt_once)
    argv = ["range", "bakers_game", "1", "120", "--threads", "2", "--chunk", "10", "--out",
            str(out), "--quiet"]
    code, _, err = bakers(*argv)
    assert code == 130
    done = deals_of(out)
    assert 22 <= len(done) < 120 and len(set(done)) == len(done)
    # 22 rows or so fill no whole number of chunks of 10: a stopped chunk's file is marked.
    assert any(".part-" in f.name for f in dataset_files(out))
    assert one_error_line(err) == (f"bakers: interrupted: {len(done)} of 120 deals done, in "
                                   f"{str(out)!r}; --resume continues")
    monkeypatch.setattr(writers.ChunkWriter, "_put", put)
    assert bakers(*argv, "--resume")[0] == 0
    assert deals_of(out) == list(range(1, 121))  # none lost, none twice


@pytest.mark.parametrize(("setup", "argv", "words"), [
    ("file", [], "holds files: add --resume to continue it or --force"),
    ("plain", [], "is a file; a Parquet --out is a directory"),
    ("file", ["--resume", "--solutions"], "was written without --solutions"),
])
def test_bad_dataset_one_line_exit_2(bakers: Run, tmp_path: Path, setup: str,
                                     argv: list[str], words: str) -> None:
    out = tmp_path / "d.parquet"
    if setup == "plain":
        out.write_text("not a directory\n", encoding="utf-8")
    else:
        assert bakers("range", "freecell", "1", "3", "--out", str(out), "--quiet")[0] == 0
    before = sorted(p.name for p in tmp_path.rglob("*"))
    code, stdout, err = bakers("range", "freecell", "1", "5", "--out", str(out), *argv)
    assert (code, stdout) == (2, "")
    assert words in one_error_line(err)
    assert sorted(p.name for p in tmp_path.rglob("*")) == before


def test_a_dataset_being_written_is_refused(bakers: Run, tmp_path: Path) -> None:
    out = tmp_path / "l.parquet"
    with dataset.open_dataset(out, find_variant("freecell"), solutions=False):
        code, _, err = bakers("range", "freecell", "1", "3", "--out", str(out), "--resume")
    assert code == 2
    assert one_error_line(err) == (f"bakers: error: --out {str(out)!r} is being written by "
                                   "another bakers range: wait for it to finish, or stop it "
                                   "and --resume")
    assert bakers("range", "freecell", "1", "3", "--out", str(out), "--resume",
                  "--quiet")[0] == 0  # unlocked when closed


def test_force_replaces_the_files(bakers: Run, tmp_path: Path) -> None:
    out = tmp_path / "f.parquet"
    assert bakers("range", "freecell", "1", "9", "--out", str(out), "--quiet")[0] == 0
    assert bakers("range", "freecell", "4", "6", "--out", str(out), "--force",
                  "--quiet")[0] == 0
    assert deals_of(out) == [4, 5, 6]


def test_no_pyarrow_one_line_exit_2(bakers: Run, tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [m for m in sys.modules if m == "pyarrow" or m.startswith("pyarrow.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # import pyarrow: ImportError
    out = tmp_path / "none.parquet"
    code, stdout, err = bakers("range", "freecell", "1", "5", "--out", str(out))
    assert (code, stdout) == (2, "")
    assert one_error_line(err) == ("bakers: error: a Parquet --out needs pyarrow: pip install "
                                   "'bakers[parquet]'")
    assert not out.exists()
    with pytest.raises(DatasetError, match=r"pip install 'bakers\[parquet\]'"):
        dataset.open_dataset(out, find_variant("freecell"), solutions=False)


def test_bench_tables_reads_a_dataset_as_the_tsv(bakers: Run, tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("bench_tables", REPO / "bench" / "tables.py")
    assert spec is not None and spec.loader is not None
    tables = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tables)
    out, tsv = tmp_path / "t.parquet", tmp_path / "t.tsv"
    argv = ["range", "bakers_game", "1", "40", "--threads", "2", "--quiet"]
    assert bakers(*argv, "--out", str(out), "--chunk", "9")[0] == 0
    assert bakers(*argv, "--out", str(tsv))[0] == 0
    from_dataset: list[tuple[int, str]] = []
    from_tsv: list[tuple[int, str]] = []
    # The last two cells are the engine's time, which differs between the two runs.
    row = tables.summary([out], from_dataset).split("|")[:-3]
    assert row == tables.summary([tsv], from_tsv).split("|")[:-3]
    assert " 1..40 " in row and sorted(from_dataset) == sorted(from_tsv) and from_tsv
    # The same rows' times read back from 32 bits give the TSV's 6 decimals.
    times = {int(r["deal"]): r["seconds"] for r in tables.rows(out)}
    assert all(len(t.split(".")[1]) == 6 for t in times.values())


def test_deal_ranges() -> None:
    done = DealRanges([(5, 9), (1, 2), (8, 12), (20, 20)])
    assert done.ranges == [(1, 2), (5, 12), (20, 20)] and done.duplicates == 2
    assert list(done.missing(1, 22)) == [3, 4, 13, 14, 15, 16, 17, 18, 19, 21, 22]
    assert list(done.missing(6, 11)) == [] and list(done.missing(13, 13)) == [13]
    assert done.count(2, 20) == 1 + 8 + 1 and len(done) == 11
    assert 12 in done and 13 not in done and 0 not in done


def test_histogram_quantiles_are_within_a_bin() -> None:
    times = [0.0001 * 1.07**i for i in range(200)]
    bins: dict[int, int] = {}
    for t in times:
        bins[dataset.seconds_bin(t)] = bins.get(dataset.seconds_bin(t), 0) + 1
    for n in (0, 100, 198):
        assert abs(dataset.nth_seconds(bins, n) / sorted(times)[n] - 1) < 0.024


@pytest.mark.slow
def test_a_worker_killed_mid_run_loses_no_deal_and_writes_none_twice(
        client: Any, tmp_path: Path) -> None:
    from bakers.bulk import cluster

    client.wait_for_workers(2, timeout=30)
    pids = client.run(os.getpid)
    out = tmp_path / "k.parquet"
    summaries = cluster.write_range("bakers_dozen", 1, 160, cluster=client, out=out, chunk=8)
    got = [next(summaries)]
    kill_a_busy_worker(client, pids)
    got.extend(summaries)
    assert sum(s.deals for s in got) == 160
    assert deals_of(out) == list(range(1, 161))  # none lost, none twice
    assert not [p for p in out.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.slow
def test_sigint_on_a_cluster_writes_the_finished_deals_and_resume_completes(
        bakers: Run, client: Any, tmp_path: Path) -> None:
    out = tmp_path / "stopped.parquet"
    argv = ["range", "bakers_dozen", "1", "250", "--max-nodes", "200000", "--quiet",
            "--cluster", client.scheduler.address, "--chunk", "250", "--threads", "1",
            "--out", str(out)]
    # One chunk of 250 deals on one thread: Ctrl-C comes while it runs, so the file holds
    # the deals that the chunk had finished.
    returncode, stderr = interrupt_on_cluster(argv, client, tmp_path)
    assert returncode == 130, stderr
    assert "Traceback" not in stderr and "bakers: interrupted:" in stderr
    kept = deals_of(out)
    assert 0 < len(kept) < 250 and len(set(kept)) == len(kept)
    assert len(dataset_files(out)) == 1
    code_, _, err = bakers(*argv, "--resume")
    assert (code_, err) == (0, "")
    assert deals_of(out) == list(range(1, 251))


def test_the_lock_file_goes_with_the_run(bakers: Run, tmp_path: Path) -> None:
    out = tmp_path / "l.parquet"
    lock = out / dataset.LOCK_NAME
    assert bakers("range", "freecell", "1", "3", "--out", str(out), "--quiet")[0] == 0
    assert not lock.exists()
    assert bakers("range", "freecell", "1", "3", "--out", str(out))[0] == 2  # refused
    assert not lock.exists()
    freecell = find_variant("freecell")
    with dataset.open_dataset(out, freecell, solutions=False, resume=True):
        early = os.open(lock, os.O_RDWR)  # a second run that opened it, not yet locked
    assert not lock.exists()
    try:
        fcntl.flock(early, fcntl.LOCK_EX | fcntl.LOCK_NB)  # a lock on a removed file...
        with dataset.open_dataset(out, freecell, solutions=False, resume=True):
            assert lock.exists()  # ... is no lock on the dataset
            with pytest.raises(InvalidOptionError, match="being written by another"):
                dataset.open_dataset(out, freecell, solutions=False, resume=True)
    finally:
        os.close(early)


def test_a_lock_taken_on_a_removed_lock_file_is_taken_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The run before removes its lock file between this run's open and its lock.
    out = tmp_path / "r.parquet"
    out.mkdir()
    flock = fcntl.flock
    calls = []

    def removed_first(fd: int, how: int) -> None:
        calls.append(fd)
        if len(calls) == 1:
            (out / dataset.LOCK_NAME).unlink()
        flock(fd, how)

    monkeypatch.setattr(dataset.fcntl, "flock", removed_first)
    with dataset.open_dataset(out, find_variant("freecell"), solutions=False) as run:
        assert len(calls) == 2
        named = os.stat(out / dataset.LOCK_NAME)
        held = os.fstat(run._lock)
        assert (named.st_dev, named.st_ino) == (held.st_dev, held.st_ino)
    assert not (out / dataset.LOCK_NAME).exists()


def _named_spans(path: Path) -> list[tuple[int, int]]:
    """Return the first and last deal that each file of a dataset is named for."""
    return sorted((int(f.name.split("-")[1]), int(f.name.split("-")[2].split(".")[0]))
                  for f in dataset_files(path))


@pytest.mark.parametrize("where", ["threads", "cluster"])
def test_files_are_named_for_the_deals_their_chunk_was_given(
        bakers: Run, client: Any, tmp_path: Path, where: str) -> None:
    # Rows that finish out of order fill no file past its chunk: the names never overlap.
    out = tmp_path / "n.parquet"
    runner = (["--threads", "2"] if where == "threads"
              else ["--cluster", client.scheduler.address])
    assert bakers("range", "freecell", "1", "300", *runner, "--chunk", "50", "--out",
                  str(out), "--quiet")[0] == 0
    assert _named_spans(out) == [(n, n + 49) for n in range(1, 300, 50)]
    for f in dataset_files(out):
        low, high = int(f.name.split("-")[1]), int(f.name.split("-")[2].split(".")[0])
        assert pq.read_table(f, columns=["deal"]).column("deal").to_pylist() == list(
            range(low, high + 1))


def _rewrite(path: Path, change: Any) -> None:
    """Rewrite the one file of a dataset through ``change(table) -> table``."""
    (file,) = dataset_files(path)
    pq.write_table(change(pq.read_table(file)), file)


WORDS = pa.dictionary(pa.int8(), pa.string())


@pytest.mark.parametrize(("change", "words"), [
    (lambda t: t.replace_schema_metadata(None), "does not record the method and limits"),
    (lambda t: t.set_column(1, pa.field("deal", pa.uint64(), nullable=False),
                            pa.array([0, 2, 3], type=pa.uint64())),
     "holds deal 0, not among the deals of this run (1..5)"),
    (lambda t: t.set_column(2, pa.field("verdict", WORDS, nullable=False),
                            pa.array(["solved", "bogus", "solved"]).cast(WORDS)),
     "holds the verdict 'bogus'"),
    (lambda t: t.set_column(1, pa.field("deal", pa.int64(), nullable=False),
                            pa.array([1, 2, 3], type=pa.int64())),
     "does not have the column types of bakers range"),
], ids=["no-record", "deal-0", "bogus-verdict", "signed-deals"])
def test_resume_checks_each_file_of_a_dataset(bakers: Run, tmp_path: Path, change: Any,
                                              words: str) -> None:
    out = tmp_path / "c.parquet"
    assert bakers("range", "freecell", "1", "3", "--out", str(out), "--quiet")[0] == 0
    _rewrite(out, change)
    code, _, err = bakers("range", "freecell", "1", "5", "--out", str(out), "--resume")
    assert code == 2 and words in one_error_line(err)


def test_a_dataset_of_other_settings_needs_resume_any(bakers: Run, tmp_path: Path) -> None:
    out = tmp_path / "s.parquet"
    assert bakers("range", "freecell", "1", "3", "--out", str(out), "--max-nodes", "5000",
                  "--quiet")[0] == 0
    code, _, err = bakers("range", "freecell", "1", "5", "--out", str(out), "--resume")
    assert code == 2
    assert "was made with --max-nodes 5000, this run has no --max-nodes" in one_error_line(err)
    assert "--resume-any" in err
    assert bakers("range", "freecell", "1", "5", "--out", str(out), "--resume",
                  "--resume-any", "--quiet")[0] == 0
    assert deals_of(out) == [1, 2, 3, 4, 5]
