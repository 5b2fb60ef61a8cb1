"""`bakers range --cluster` and `bakers.bulk.cluster` on a real Dask `LocalCluster` of two
worker processes: the rows equal the threaded run's, a worker killed in the middle of a
run costs no row and repeats none, and a scheduler that cannot be reached, or a bad
address, gets one line and exit 2."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import pytest
from bakers import InvalidOptionError, solve_range
from bakers.bulk import cluster
from helpers_cli import Run, interrupt_on_cluster, kill_a_busy_worker, one_error_line

distributed = pytest.importorskip("distributed")
dask = pytest.importorskip("dask")

TIMING = ("seconds",)


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    """Yield a client of a local cluster of two worker processes, as ``local:2`` makes."""
    client = cluster.connect("local:2")
    try:
        yield client
    finally:
        client.close()


def key(result: Any) -> tuple[Any, ...]:
    """Return what a row says of its deal, timing left out."""
    st = result.stats
    return (result.number, result.index, result.verdict, result.solution_length,
            st.expanded, st.stored, result.most_home, result.most_home_exact, result.reason)


def file_rows(path: Path) -> Counter[tuple[str, ...]]:
    """Return the rows of a TSV file of `bakers range` as a multiset, timing left out."""
    _, header, *lines = path.read_text(encoding="utf-8").splitlines()  # record, header
    names = header.split("\t")
    keep = [i for i, name in enumerate(names) if name not in TIMING]
    return Counter(tuple(line.split("\t")[i] for i in keep) for line in lines)


def test_rows_equal_the_threaded_run(client: Any) -> None:
    rows = list(cluster.solve_range("bakers_game", 1, 60, cluster=client, chunk=7))
    threaded = {r.number: r for r in solve_range("bakers_game", 1, 60, threads=2)}
    assert sorted(r.number for r in rows) == list(range(1, 61))
    assert sorted(r.index for r in rows) == list(range(60))
    assert {key(r) for r in rows} == {key(r) for r in threaded.values()}
    assert {r.verdict for r in rows} == {"solved", "impossible"}
    for r in rows:
        expected = threaded[r.number].solution
        assert (r.solution is None) == (expected is None)
        if expected is not None:
            assert r.solution.notation(None) == expected.notation(None)


def test_ordered_rows_come_in_deal_order(client: Any) -> None:
    rows = cluster.solve_range("freecell", 100, 150, cluster=client, chunk=4, ordered=True,
                               solutions=False)
    got = list(rows)
    assert [r.number for r in got] == list(range(100, 151))
    assert all(r.solution is None and r.solution_length is None for r in got)


def test_cli_local_cluster_matches_the_threaded_file(bakers: Run, tmp_path: Path) -> None:
    out, threaded = tmp_path / "cluster.tsv", tmp_path / "threads.tsv"
    code, stdout, err = bakers("range", "freecell36", "1", "30", "--cluster", "local:2",
                               "--chunk", "4", "--solutions", "--out", str(out), "--quiet")
    assert (code, stdout, err) == (0, "", "")
    assert bakers("range", "freecell36", "1", "30", "--threads", "2", "--solutions",
                  "--out", str(threaded), "--quiet")[0] == 0
    assert file_rows(out) == file_rows(threaded)
    assert sum(file_rows(out).values()) == 30


def test_cli_resume_on_a_cluster_writes_each_deal_once(bakers: Run, client: Any,
                                                       tmp_path: Path) -> None:
    out, threaded = tmp_path / "part.tsv", tmp_path / "threads.tsv"
    assert bakers("range", "bakers_game", "1", "40", "--threads", "2", "--ordered",
                  "--out", str(threaded), "--quiet")[0] == 0
    lines = threaded.read_text(encoding="utf-8").splitlines(keepends=True)
    out.write_text("".join(lines[:16]) + lines[16][:9], encoding="utf-8")  # cut mid-row
    code, _, err = bakers("range", "bakers_game", "1", "40", "--cluster",
                          client.scheduler.address, "--chunk", "6", "--resume",
                          "--out", str(out), "--quiet")
    assert (code, err) == (0, "")
    assert file_rows(out) == file_rows(threaded)


def _wait_for_workers(client: Any, count: int) -> dict[str, int]:
    client.wait_for_workers(count, timeout=30)
    return client.run(os.getpid)


@pytest.mark.slow
def test_a_worker_killed_mid_run_costs_no_row_and_repeats_none(client: Any) -> None:
    pids = _wait_for_workers(client, 2)
    expected = {key(r) for r in solve_range("bakers_dozen", 1, 160, threads=2,
                                            solutions=False)}
    rows = cluster.solve_range("bakers_dozen", 1, 160, cluster=client, chunk=8,
                               solutions=False)
    got = [next(rows)]
    victim = kill_a_busy_worker(client, pids)
    got.extend(rows)
    assert sorted(r.number for r in got) == list(range(1, 161))  # none lost, none twice
    assert {key(r) for r in got} == expected
    after = _wait_for_workers(client, 2)
    assert pids[victim] not in after.values()  # the worker did die, and was replaced


def test_a_chunk_that_kills_every_worker_is_a_cluster_error() -> None:
    # With no failure allowed, the first worker lost with the chunk on it ends the run.
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        lone = cluster.connect("local:1")
    try:
        pid = next(iter(lone.run(os.getpid).values()))
        rows = cluster.solve_range("bakers_dozen", 1, 400, cluster=lone, chunk=400,
                                   threads=1, solutions=False)
        killer = threading.Thread(target=_kill_when_busy, args=(lone, pid))
        killer.start()
        with pytest.raises(cluster.ClusterError,
                           match=r"^the chunk of deals 1\.\.400 was lost with every worker"):
            next(rows)
        killer.join()
    finally:
        lone.close()


def _kill_when_busy(client: Any, pid: int) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not any(client.processing().values()):
        time.sleep(0.02)
    time.sleep(0.3)
    os.kill(pid, signal.SIGKILL)


@pytest.mark.slow
def test_sigint_keeps_the_rows_a_running_chunk_finished(bakers: Run, client: Any,
                                                        tmp_path: Path) -> None:
    out, threaded = tmp_path / "stopped.tsv", tmp_path / "threads.tsv"
    argv = ["range", "bakers_dozen", "1", "250", "--max-nodes", "200000", "--quiet"]
    # One chunk of 250 deals on one thread: Ctrl-C comes while it runs, so every row
    # in the file was finished by a chunk that had not returned yet.
    cluster_argv = [*argv, "--cluster", client.scheduler.address, "--chunk", "250",
                    "--threads", "1", "--out", str(out)]
    returncode, stderr = interrupt_on_cluster(cluster_argv, client, tmp_path)
    assert returncode == 130, stderr
    assert "Traceback" not in stderr and "bakers: interrupted:" in stderr
    kept = file_rows(out)
    assert 0 < sum(kept.values()) < 250 and max(kept.values()) == 1
    code_, _, err = bakers(*cluster_argv[:-2], "--out", str(out), "--resume")
    assert (code_, err) == (0, "")
    assert bakers(*argv, "--threads", "2", "--out", str(threaded))[0] == 0
    assert file_rows(out) == file_rows(threaded)


def test_unreachable_scheduler_one_line_exit_2(bakers: Run, tmp_path: Path) -> None:
    with socket.socket() as sock:  # a port that nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    out = tmp_path / "none.tsv"
    start = time.monotonic()
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        code, stdout, err = bakers("range", "freecell", "1", "10", "--cluster",
                                   f"tcp://127.0.0.1:{port}", "--out", str(out))
    assert code == 2 and stdout == ""
    line = one_error_line(err)
    assert line.startswith(f"bakers: error: --cluster 'tcp://127.0.0.1:{port}': no Dask "
                           "scheduler answers there")
    assert not out.exists()
    assert time.monotonic() - start < 20


def test_a_worker_memory_cap_too_small_one_line_exit_2(bakers: Run, client: Any,
                                                      tmp_path: Path) -> None:
    out = tmp_path / "small.tsv"
    code, stdout, err = bakers("range", "freecell", "1", "10", "--cluster",
                               client.scheduler.address, "--max-memory", "20M",
                               "--out", str(out))
    assert (code, stdout) == (2, "")
    line = one_error_line(err)
    assert line.startswith("bakers: error: --max-memory 20M is too small for a worker: it "
                           "already holds")
    assert out.read_text(encoding="utf-8").count("\n") == 2  # record, header, no row


@pytest.mark.parametrize(("argv", "words"), [
    (["--cluster", "local:0"], "--cluster 'local:0': give local:N"),
    (["--cluster", "local:two"], "--cluster 'local:two': give local:N"),
    (["--cluster", "no such host"], "--cluster 'no such host' is not a scheduler address"),
    (["--chunk", "5"], "--chunk needs --cluster"),
    (["--cluster", "local:1", "--chunk", "0"], "--chunk 0: give 1.."),
])
def test_bad_cluster_options_one_line_exit_2(bakers: Run, argv: list[str],
                                             words: str) -> None:
    code, stdout, err = bakers("range", "freecell", "1", "10", *argv)
    assert (code, stdout) == (2, "")
    assert words in one_error_line(err)


def test_api_checks_its_arguments_when_called(client: Any) -> None:
    with pytest.raises(InvalidOptionError, match=r"cluster=3 must be a scheduler address"):
        cluster.solve_range("freecell", 1, 5, cluster=3)
    with pytest.raises(InvalidOptionError, match=r"chunk=0: give 1\.\."):
        cluster.solve_range("freecell", 1, 5, cluster=client, chunk=0)
    with pytest.raises(InvalidOptionError, match=r"threads=0 must be"):
        cluster.solve_range("freecell", 1, 5, cluster=client, threads=0)


#: The greeting of a Dask scheduler as it sends it on each new connection.
GREETING = (b":\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00*\x00\x00\x00\x00\x00"
            b"\x00\x00\x83\xabcompression\xc0\xa6python\x93\x03\x0b\x07\xafpickle-protocol\x05")


@contextmanager
def peer(greeting: bytes) -> Iterator[str]:
    """Yield the address of a TCP peer that sends ``greeting`` on each connection, then
    stays silent; it closes each connection after 25 s, so that a client waiting on it
    without a bound ends, late, rather than hanging the tests."""
    server = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:  # closed
                return
            held.append(conn)
            with suppress(OSError):
                conn.sendall(greeting)
            threading.Timer(25, conn.close).start()

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        server.close()
        for conn in held:
            conn.close()


@pytest.mark.parametrize(("greeting", "words"), [
    (b"", "is not a Dask scheduler: it accepted the connection but sent no Dask greeting "
          "within 1 s"),
    (b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n",
     "is not a Dask scheduler: it answered b'HTTP/1.1'"),
    (b"\x00\x00\x00\x00\x10\x00\x00\x00" + b"x" * 64, "is not a Dask scheduler: it answered"),
    (GREETING, "no Dask scheduler answers there (no handshake within 1 s)"),
], ids=["silent", "http", "huge-length", "greets-then-silent"])
def test_a_peer_that_is_no_scheduler_one_line_exit_2(bakers: Run, tmp_path: Path,
                                                    greeting: bytes, words: str) -> None:
    # A silent peer, an HTTP server, a length of 64 GiB, a peer that greets and then
    # says nothing: each refused within the connect timeout, nothing allocated for it.
    out = tmp_path / "none.tsv"
    with peer(greeting) as address:
        start = time.monotonic()
        with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
            code, stdout, err = bakers("range", "freecell", "1", "10", "--cluster", address,
                                       "--out", str(out))
        took = time.monotonic() - start
    assert (code, stdout) == (2, "")
    line = one_error_line(err)
    assert line.startswith(f"bakers: error: --cluster {address!r}") and words in line
    assert not out.exists()
    assert took < 20


def _start(argv: list[str], log: Path) -> subprocess.Popen[bytes]:
    with open(log, "wb") as f:
        return subprocess.Popen([sys.executable, "-m", *argv], stdout=subprocess.DEVNULL,
                                stderr=f, start_new_session=True)


@pytest.mark.slow
def test_a_lost_scheduler_is_one_line_and_resume_completes(bakers: Run,
                                                           tmp_path: Path) -> None:
    # An external scheduler and worker in processes of their own; the scheduler is
    # killed once rows are written. Dask's traceback of the lost connection goes to
    # the file that bakers' line names, not to the terminal.
    log = tmp_path / "scheduler.log"
    scheduler = _start(["distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port",
                        "0", "--no-dashboard"], log)
    worker = run = None
    try:
        deadline = time.monotonic() + 60
        while "Scheduler at:" not in log.read_text() and time.monotonic() < deadline:
            time.sleep(0.1)
        address = log.read_text().split("Scheduler at:")[1].split()[0]
        worker = _start(["distributed.cli.dask_worker", address, "--nthreads", "1",
                         "--no-dashboard"], tmp_path / "worker.log")
        out = tmp_path / "lost.tsv"
        argv = ["range", "freecell", "1", "4000", "--cluster", address, "--chunk", "20",
                "--threads", "1", "--out", str(out), "--quiet"]
        run = subprocess.Popen([sys.executable, "-m", "bakers", *argv], text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env={**os.environ,
                                    "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "2s"})
        while (time.monotonic() < deadline and run.poll() is None
               and (not out.exists() or out.read_text().count("\n") < 30)):
            time.sleep(0.05)
        scheduler.kill()
        stdout, stderr = run.communicate(timeout=120)
    finally:
        for process in (scheduler, worker, run):
            if process is not None:
                process.kill()
                process.wait()
    assert (run.returncode, stdout) == (2, ""), stderr
    line = one_error_line(stderr)
    assert line.startswith("bakers: error: the connection to the Dask scheduler was lost")
    kept = file_rows(out)
    assert 29 <= sum(kept.values()) < 4000 and max(kept.values()) == 1
    if "(Dask's log: " in line:
        assert Path(line.split("(Dask's log: ")[1].rstrip(")")).read_text()
    code, _, err = bakers("range", "freecell", "1", "4000", "--threads", "2", "--out",
                          str(out), "--resume", "--quiet")
    assert (code, err) == (0, "")
    assert sorted(int(row[1]) for row in file_rows(out)) == list(range(1, 4001))
