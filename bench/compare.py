"""Compare bakers with Freecell Solver (``fc-solve``) on the same numbered deals.

Both solvers decide deals ``--first``..``--last`` of one game, in turn, ``--repeat`` times
(the order alternates between repeats), on one thread each or, with ``--threads N``, on N
threads (bakers) against N processes at once (fc-solve; see below), and one table reports
for each solver: deals decided, winnable, impossible and unknown; the median wall-clock
and CPU seconds and deals per second; the ratios of fc-solve's CPU time and wall time to
bakers' (``ratio cpu``, ``ratio wall``: each the median of the ratios of the repeats, each
pair measured back to back); verdict disagreements deal by deal; the mean solution
length; and memory.

What is measured, and how
-------------------------
Both solvers are timed the same way: as whole processes, started with ``subprocess`` and
reaped with ``os.wait4``, whose resource usage gives the **CPU time** (user + system of the
whole process, every thread counted) and the maximum resident set size; the **wall time**
is from the start of the process to its end. The table's ratios are CPU over CPU and wall
over wall: wall time alone flatters a solver that keeps a second thread busy while a
second core happens to be idle.

* **bakers**: the command a user runs, ``bakers range GAME FIRST LAST --threads N --out
  FILE --quiet`` (with ``--method``, ``--max-nodes``, ``--max-seconds`` and
  ``--max-memory`` when ``--method``, ``--limit-nodes``, ``--limit-seconds`` and
  ``--limit-memory`` give them), run as ``python -m bakers`` by the interpreter running
  this script, interpreter start, import and writing the rows included. Its verdicts
  come from the rows of FILE (TSV). The package it runs is a copy made when the
  comparison starts (a temporary directory first on the child's PYTHONPATH and its
  working directory), with the compiled core of the package this script imports or the
  ``--engine`` given; a child process checks that ``bakers`` and ``bakers._core`` import
  from that copy, and one untimed run of the first deal checks that the command runs, so
  a rebuild or an edit of the package during a long comparison cannot mix two builds
  (the core's hash is printed). ``peak MB`` is the largest ``peak_bytes`` of the rows
  (the engine's position table and queue for one deal); ``max RSS MB`` the process's
  maximum resident set size. ``--limit-memory`` is ``bakers range``'s ``--max-memory``:
  the memory of the whole process.
* **fc-solve**, for the games whose deals it numbers as we do (``freecell``,
  ``bakers_game``: Microsoft deal numbers): its range tool
  ``freecell-solver-range-parallel-solve FIRST LAST STEP [--total-iterations-limit N]
  FCS-ARGS``, one process that deals every MS deal itself and solves it on one thread;
  its verdicts come from the tool's ``--binary-output-to`` file (per deal the iteration
  count if solved, -2 for "I could not solve this game", -1 for an iteration limit). This
  is the fairest option measured: on FreeCell MS 1..200 one ``fc-solve`` process per board
  file took about 3.0 s, the range tool 0.14 s, i.e. process start-up was ~95% of the
  per-file cost. The timed run prints no solutions (writing them with ``-sam -p -t`` made
  the FreeCell run 3 to 6 times slower); the solution lengths come from a separate,
  untimed run of the range tool with ``--solutions-directory DIR -sam -p -t`` on the
  first ``--lengths`` deals.
  For ``bakers_dozen`` and ``bulochnik`` (no MS numbering in the range tool) fc-solve runs
  once per deal on a board file written by ``Deal.to_text()`` (``-sel -m FCS-ARGS
  board``), and its time is the sum of those runs, process start-up included (about
  15 ms a deal here); Baker's Dozen needs an fc-solve built for 13 stacks (the Debian
  build allows 10: the script then says so and runs bakers alone);
  ``freecell36`` has a 36-card deck, which fc-solve does not play: bakers runs alone.
  fc-solve's ``max RSS MB`` (and ``peak MB``) is the largest maximum resident set size of
  its processes.
* **Verdicts**: fc-solve's "I could not solve this game" is counted as *impossible*. It is
  a proof only for a complete scan (``-g bakers_game -to 01ABCDE``: atomic moves, no
  iteration limit); with ``-l lg`` it only means that preset's scan ended without a win.
  A *disagreement* is a deal that both decided with different verdicts.
* **Solution length** (``mean moves``): single-card moves, every foundation move counted,
  over the first ``--lengths`` deals of the range that both solved, counted untimed. For
  both solvers the supermove-level solution (bakers: ``solve(deal).supermoves`` in a
  child process running the same copy of the package; fc-solve: its ``-sam -p -t`` moves,
  "Move 3 cards from stack 0 to stack 4" being one supermove) is expanded into
  single-card moves by the referee (``Solution.expand``), so both are counted the same
  way; every expanded solution is replayed by the referee. Below the table are also the
  engine's own single-move count (the ``moves`` of ``bakers range``'s rows) and
  fc-solve's count as printed (a supermove as one move).
* **Positions**: under the table, positions a deal (bakers: expanded; fc-solve: the
  iterations of the deals it solved) and microseconds of CPU a position (the whole
  process's median CPU time over them).

N threads against N processes (``--threads N``, N > 1)
-----------------------------------------------------
* **bakers** decides the range with ``bakers range --threads N``: one process, N worker
  threads (each takes the next deal and searches it alone); its CPU time is that of the
  whole process, all its threads.
* **fc-solve** has no threads in its range tool, so it runs as N processes of it at once,
  each on a contiguous share of the range (1..32000 on 2: 1..16000 and 16001..32000), each
  with its own ``--binary-output-to`` file; the verdicts are merged from the N files. Its
  wall time is from the start of the first process to the end of the last (an uneven
  share shows as idle time, as it would for a user who splits the range so); CPU time is
  the sum of the N processes'. In file mode the N shares run at once, each one fc-solve
  process per deal after another, timed the same way (the board files are written first,
  untimed).
* **memory**: bakers' ``max RSS MB`` is its one process (all threads); fc-solve's is the
  *sum* of the N processes' maximum RSS (they run at the same time, so this bounds their
  footprint from above) and its ``peak MB`` the largest of one process.
* The table gets a ``threads`` column (bakers: threads; fc-solve: processes). N is at
  most the number of deals.

Examples::

    python bench/compare.py --game freecell --first 1 --last 32000
    python bench/compare.py --game bakers_game --first 1 --last 32000
    python bench/compare.py --game bakers_dozen --last 1000 --limit-nodes 200000 --no-fcs
    python bench/compare.py --game freecell --last 2000 --repeat 3 --markdown
    python bench/compare.py --game bakers_game --first 1 --last 32000 --threads 2

Exit status: 0; 1 when the solvers disagree on a deal, bakers contradicts the reference
verdicts of tests/data or a solver fails (its message on standard error); 2 for a bad
option.
"""

from __future__ import annotations

import argparse
import compileall
import csv
import hashlib
import importlib.util
import json
import os
import shlex
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

FCS = "fc-solve"
FCS_RANGE = "freecell-solver-range-parallel-solve"
DATA = Path(__file__).resolve().parent.parent / "tests" / "data"


@dataclass(frozen=True)
class Setup:
    """How fc-solve plays a game: ``mode`` ``'range'`` (its MS range tool), ``'file'``
    (one process per board file) or ``''`` (it cannot: ``why``)."""

    mode: str
    args: str = ""
    iterations: int = 0
    why: str = ""


SETUPS = {
    "freecell": Setup("range", "-l lg"),
    "bakers_game": Setup("range", "-g bakers_game -to 01ABCDE"),
    "bakers_dozen": Setup("file", "-g bakers_dozen", iterations=1_000_000),
    "bulochnik": Setup("file", "--sequences-are-built-by suit --sequence-move unlimited "
                               "--empty-stacks-filled-by kings", iterations=1_000_000),
    "freecell36": Setup("", why="fc-solve does not play a 36-card deck"),
}

#: Reference verdicts in tests/data, by game.
REFERENCE = {"bakers_game": "bakers_game_ms_1-1000.tsv", "freecell": "freecell_ms_1-1000.tsv",
             "bakers_dozen": "bakers_dozen_pysol_1-1000.tsv"}

SOLVED, IMPOSSIBLE, UNKNOWN = "solved", "impossible", "unknown"


@dataclass
class Run:
    """One solver's run over the range: verdicts by deal and what it cost."""

    verdicts: dict[int, str]
    wall: float
    cpu: float
    peak_bytes: int
    max_rss: int
    moves: dict[int, int] = field(default_factory=dict)
    #: bakers: the rows of `bakers range` (column: value, counts as ints), by deal.
    rows: list[dict] = field(default_factory=list)
    #: Positions a deal: bakers' expanded positions; fc-solve's iterations ("states
    #: checked"), which its range tool reports for the deals it solved only.
    positions: dict[int, int] = field(default_factory=dict)


@dataclass
class Measured:
    """All repeats of one solver."""

    solver: str
    runs: list[Run] = field(default_factory=list)
    moves_referee: dict[int, int] = field(default_factory=dict)
    moves_native: dict[int, int] = field(default_factory=dict)
    rejected: list[int] = field(default_factory=list)

    @property
    def verdicts(self) -> dict[int, str]:
        return self.runs[0].verdicts

    def median(self, what: str) -> float:
        return statistics.median(getattr(run, what) for run in self.runs)


# ---------------------------------------------------------------- measuring processes


def run_measured(command: Sequence[str], stdout: Path, env: dict[str, str] | None = None,
                 cwd: Path | None = None) -> tuple[int, float, float, int]:
    """Run ``command`` with its output in ``stdout``; return (exit status, wall seconds,
    CPU seconds, maximum resident set size in bytes) of that process alone."""
    statuses, wall, cpu, rss = run_measured_together([(command, stdout)], env, cwd)
    return statuses[0], wall, cpu, rss[0]


#: Each measured process is started by this small fresh interpreter, which reports the
#: process's own resource usage: a process forked straight from this script would count
#: this script's resident set in its ``ru_maxrss`` (the kernel keeps the peak of the memory
#: a process held before its exec), about 100 MB here. The launcher's own start is not in
#: the CPU time; its resident set (about 10 MB) bounds what is left of that error.
LAUNCHER = """
import os, sys
usage_file, argv = sys.argv[1], sys.argv[2:]
pid = os.posix_spawnp(argv[0], argv, os.environ)
_, status, usage = os.wait4(pid, 0)
with open(usage_file, "w") as f:
    f.write(f"{os.waitstatus_to_exitcode(status)} {usage.ru_utime} {usage.ru_stime} "
            f"{usage.ru_maxrss}")
"""


def run_measured_together(jobs: Sequence[tuple[Sequence[str], Path]],
                          env: dict[str, str] | None = None, cwd: Path | None = None
                          ) -> tuple[list[int], float, float, list[int]]:
    """Start every ``(command, stdout)`` of ``jobs`` at once, each with its output in its
    ``stdout`` file (standard error beside it, ``.err``), in ``env`` and ``cwd`` (None:
    this process's), and wait for all; return their exit statuses, the wall seconds from
    the start of the first to the end of the last, their CPU seconds together (user +
    system of each whole process, every thread counted: ``os.wait4``, taken by
    `LAUNCHER`) and each one's maximum resident set size in bytes."""
    with ExitStack() as files:
        streams = [(files.enter_context(stdout.open("wb")),
                    files.enter_context(stdout.with_suffix(".err").open("wb")))
                   for _, stdout in jobs]
        reports = [stdout.with_suffix(".usage") for _, stdout in jobs]
        start = time.perf_counter()
        processes = [subprocess.Popen([sys.executable, "-S", "-c", LAUNCHER, str(report),
                                       *command], stdout=out, stderr=err, env=env, cwd=cwd)
                     for (command, _), (out, err), report
                     in zip(jobs, streams, reports, strict=True)]
        for process in processes:  # the last wait returns when the last one ends
            process.wait()
        wall = time.perf_counter() - start
    codes, cpu, rss = [], 0.0, []
    for process, report in zip(processes, reports, strict=True):
        if process.returncode != 0 or not report.exists():
            raise SystemExit(f"the launcher of {process.args[5:]} failed: exit "
                             f"{process.returncode}")
        code, user, system, maxrss = report.read_text().split()
        codes.append(int(code))
        cpu += float(user) + float(system)
        rss.append(int(maxrss) * 1024)  # KiB on Linux
    return codes, wall, cpu, rss


def shares(first: int, last: int, parts: int) -> list[tuple[int, int]]:
    """Split ``first..last`` into ``parts`` contiguous ranges of nearly equal size (fewer
    when there are fewer deals), in order: 1..32000 in 2 is 1..16000 and 16001..32000."""
    deals = last - first + 1
    parts = max(1, min(parts, deals))
    bounds = [first + deals * i // parts for i in range(parts + 1)]
    return [(bounds[i], bounds[i + 1] - 1) for i in range(parts)]


def check_status(status: int, command: Sequence[str], stdout: Path) -> None:
    if status != 0:
        error = stdout.with_suffix(".err").read_text(errors="replace").strip()
        raise SystemExit(f"{shlex.join(command)} failed with status {status}: {error}")


# ---------------------------------------------------------------- bakers


@dataclass(frozen=True)
class Package:
    """The copy of the bakers package that every bakers process of a comparison runs:
    ``root`` goes first on their PYTHONPATH (and is their working directory, so that
    ``python -m`` finds no other ``bakers`` first); ``core_hash`` is the short sha256
    of its compiled core."""

    root: Path
    core_hash: str

    def env(self) -> dict[str, str]:
        """This process's environment with `root` first on PYTHONPATH."""
        paths = [str(self.root), *filter(None, [os.environ.get("PYTHONPATH")])]
        return dict(os.environ, PYTHONPATH=os.pathsep.join(paths))


def snapshot_package(scratch: Path, engine: Path | None = None) -> Package:
    """Copy the bakers package this script imports to ``scratch``, with its compiled
    core or ``engine`` (a copy of another build's ``_core*.so``) as the core, and check
    that a child process of this interpreter imports both from the copy.

    Every bakers process of the comparison runs this copy, so a rebuild or an edit of
    the package while the comparison runs does not mix two builds in one table."""
    try:
        spec = importlib.util.find_spec("bakers._core")
    except ImportError as error:
        raise SystemExit(f"bakers does not import: {error}") from None
    if spec is None or spec.origin is None:
        raise SystemExit("bakers._core is not built: pip install -e . --no-build-isolation")
    core = Path(spec.origin)
    root = scratch / "package"
    shutil.copytree(core.parent, root / "bakers",
                    ignore=shutil.ignore_patterns("__pycache__", "_core*.so", "_core*.pyd"))
    copy = root / "bakers" / core.name  # the name this interpreter loads an extension by
    shutil.copyfile(engine or core, copy)
    # Its modules' bytecode compiled once, as pip compiles an installed package's: a run
    # where PYTHONDONTWRITEBYTECODE is set would otherwise compile every module it imports
    # in every process (docs/benchmarks.md, "Starting a process").
    compileall.compile_dir(root / "bakers", quiet=1)
    package = Package(root, hashlib.sha256(copy.read_bytes()).hexdigest()[:12])
    check_snapshot(package)
    return package


def check_snapshot(package: Package) -> None:
    """Exit with a message unless a child process imports bakers and its core from the
    copy in ``package`` (an editable install's import hook could take precedence over
    PYTHONPATH; an engine of another build could fail to load)."""
    probe = "import bakers, bakers._core as core; print(bakers.__file__); print(core.__file__)"
    child = subprocess.run([sys.executable, "-c", probe], env=package.env(),
                           cwd=package.root, capture_output=True, text=True)
    if child.returncode != 0:
        last = (child.stderr.strip().splitlines() or ["no message"])[-1]
        raise SystemExit(f"the copy of bakers in {package.root} does not import: {last}")
    files = [Path(line).resolve() for line in child.stdout.splitlines()]
    root = package.root.resolve()
    if len(files) != 2 or not all(file.is_relative_to(root) for file in files):
        raise SystemExit(f"a child process imports bakers from {', '.join(map(str, files))}, "
                         f"not from the copy in {root}")


def range_options(args: argparse.Namespace) -> list[str]:
    """The options of ``bakers range`` that this script's options give: ``--method``
    and the limits (none when they are not given)."""
    options = ["--method", args.method] if args.method else []
    if args.limit_nodes:
        options += ["--max-nodes", str(args.limit_nodes)]
    if args.limit_seconds:
        options += ["--max-seconds", repr(args.limit_seconds)]
    if args.limit_memory_bytes:
        options += ["--max-memory", args.limit_memory]
    return options


def bakers_command(game: str, first: int, last: int, threads: int, options: list[str],
                   out: Path) -> list[str]:
    """The command a user runs, with this interpreter: ``bakers range`` writing its rows
    to ``out`` (TSV) without a progress bar."""
    return [sys.executable, "-m", "bakers", "range", game, str(first), str(last),
            "--threads", str(threads), "--out", str(out), "--quiet", *options]


def probe_bakers(game: str, first: int, options: list[str], package: Package,
                 scratch: Path) -> None:
    """Run ``bakers range`` on deal ``first`` alone, untimed; exit with its last line of
    standard error if it fails (an engine of another build that this package cannot
    drive, a limit it refuses), before anything is timed."""
    out = scratch / "bakers-probe.tsv"
    command = bakers_command(game, first, first, 1, options, out)
    child = subprocess.run(command, env=package.env(), cwd=package.root,
                           capture_output=True, text=True)
    if child.returncode != 0:
        last = (child.stderr.strip().splitlines() or ["no message"])[-1]
        raise SystemExit(f"bakers range fails with status {child.returncode} on the copy "
                         f"of the package in {package.root}: {last}")
    out.unlink()


def run_bakers(game: str, first: int, last: int, options: list[str], package: Package,
               scratch: Path, threads: int = 1) -> Run:
    """``bakers range`` on deals ``first..last`` with ``threads`` threads, one process,
    timed whole (interpreter start, import and writing the rows included); the verdicts
    come from the rows it writes."""
    out = scratch / "bakers-rows.tsv"
    out.unlink(missing_ok=True)  # bakers range refuses to overwrite a file
    command = bakers_command(game, first, last, threads, options, out)
    status, wall, cpu, rss = run_measured(command, scratch / "bakers-range.txt",
                                          package.env(), package.root)
    if status == 130:  # interrupted (it has written the rows it finished)
        raise KeyboardInterrupt
    check_status(status, command, scratch / "bakers-range.txt")
    rows = read_bakers_rows(out, first, last)
    return Run(verdicts={row["deal"]: row["verdict"] for row in rows}, wall=wall, cpu=cpu,
               peak_bytes=max(row["peak_bytes"] for row in rows), max_rss=rss,
               moves={row["deal"]: row["moves"] for row in rows
                      if row["verdict"] == SOLVED},
               rows=rows, positions={row["deal"]: row["expanded"] for row in rows})


#: The columns of ``bakers range``'s rows that hold counts.
COUNTS = ("deal", "moves", "most_home", "expanded", "stored", "peak_bytes")


def read_bakers_rows(path: Path, first: int, last: int) -> list[dict]:
    """The rows of a ``bakers range`` TSV file, in deal order, counts as ints; exit
    with a message unless they hold each deal ``first..last`` once. (The file's first
    line, ``# bakers range {...}``, records the run's settings.)"""
    with path.open(newline="") as handle:
        lines = (line for line in handle if not line.startswith("#"))
        rows = list(csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))
    for row in rows:
        for column in COUNTS:
            row[column] = int(row[column]) if row[column] else 0
        row["seconds"] = float(row["seconds"])
    rows.sort(key=lambda row: row["deal"])
    if [row["deal"] for row in rows] != list(range(first, last + 1)):
        raise SystemExit(f"bakers range wrote {len(rows)} rows to {path}, not one for each "
                         f"deal {first}..{last}")
    return rows


def worker(spec: str) -> int:
    """A child process that counts bakers' solution lengths (see `count_lengths`) and
    prints them as JSON; it runs with the copy of the package first on its path."""
    job = json.loads(spec)
    json.dump(count_lengths(job["game"], job["numbers"], job["limits"]), sys.stdout)
    return 0


def run_worker(job: dict, package: Package, scratch: Path) -> dict:
    """Run a worker process on the copy of the package; return its JSON answer."""
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", json.dumps(job)]
    out = scratch / "bakers.json"
    status, *_ = run_measured(command, out, package.env(), package.root)
    check_status(status, command[:3], out)
    return json.loads(out.read_text())


# ---------------------------------------------------------------- fc-solve


def fcs_range_command(first: int, last: int, args: list[str], iterations: int,
                      extra: list[str]) -> list[str]:
    limit = ["--total-iterations-limit", str(iterations)] if iterations else []
    return [FCS_RANGE, str(first), str(last), "1000000000", *extra, *limit, *args]


def run_fcs_range(first: int, last: int, args: list[str], iterations: int,
                  scratch: Path, processes: int = 1) -> Run:
    """fc-solve's range tool on ``first..last``: one process, or ``processes`` at once on
    contiguous shares of the range (see `shares`), their verdicts merged. The run's wall
    time is from the first start to the last end, its CPU time their sum, ``peak_bytes``
    the largest process's maximum RSS and ``max_rss`` the sum of them."""
    parts = shares(first, last, processes)
    jobs, binaries = [], []
    for i, (low, high) in enumerate(parts):
        binary = scratch / f"fcs-{i}.bin"
        binary.unlink(missing_ok=True)  # the tool resumes from an existing file
        jobs.append((fcs_range_command(low, high, args, iterations,
                                       ["--binary-output-to", str(binary)]),
                     scratch / f"fcs-range-{i}.txt"))
        binaries.append(binary)
    statuses, wall, cpu, rss = run_measured_together(jobs)
    verdicts: dict[int, str] = {}
    positions: dict[int, int] = {}
    for (command, out), status, binary, (low, high) in zip(jobs, statuses, binaries, parts,
                                                            strict=True):
        check_status(status, command, out)
        share_verdicts, share_positions = read_fcs_binary(binary, low, high, out)
        verdicts.update(share_verdicts)
        positions.update(share_positions)
    return Run(verdicts, wall, cpu, max(rss), sum(rss), positions=positions)


def read_fcs_binary(binary: Path, first: int, last: int, out: Path
                    ) -> tuple[dict[int, str], dict[int, int]]:
    """The verdicts of deals ``first..last`` in the range tool's ``--binary-output-to``
    file (``out``: its standard output, quoted when the file is not whole), and the
    iterations of the deals it solved."""
    data = binary.read_bytes()
    values = struct.unpack(f"<{len(data) // 4}i", data)
    header, results = values[:3], values[3:]
    if header[:2] != (first, last) or len(results) != last - first + 1:
        raise SystemExit(f"{FCS_RANGE} stopped early or wrote an unexpected file: "
                         f"header {header}, {len(results)} results for {last - first + 1} "
                         f"deals ({out.read_text(errors='replace')[-300:]})")
    verdicts = {first + i: SOLVED if r >= 0 else IMPOSSIBLE if r == -2 else UNKNOWN
                for i, r in enumerate(results)}
    return verdicts, {first + i: r for i, r in enumerate(results) if r >= 0}


def fcs_verdict(output: str) -> str:
    if "This game is solveable." in output:
        return SOLVED
    if "I could not solve this game." in output:
        return IMPOSSIBLE
    if "Iterations count exceeded." in output:
        return UNKNOWN
    raise SystemExit(f"{FCS}: unexpected output: {output[-300:]!r}")


def board_file(game: str, number: int, scratch: Path) -> Path:
    from bakers import Deal, find_variant

    path = scratch / "boards" / f"{number}.board"
    if not path.exists():
        path.parent.mkdir(exist_ok=True)
        path.write_text(Deal.from_number(find_variant(game), number).to_text() + "\n")
    return path


def run_fcs_files(game: str, first: int, last: int, args: list[str], iterations: int,
                  lengths_to: int, scratch: Path, processes: int = 1
                  ) -> tuple[Run, dict[int, str]]:
    """One fc-solve process per deal, or ``processes`` contiguous shares of the range at
    once, each one process per deal after another; return the run and the outputs of the
    deals up to ``lengths_to`` that it solved (for the solution lengths).

    One share's wall time is the sum of its processes' (board files are written before);
    with several shares the run's is from the start to the end of the last share, and
    ``max_rss`` the sum of the shares' largest (``peak_bytes``: the largest)."""
    command = [FCS, "-sel", "-m", *(["-mi", str(iterations)] if iterations else []), *args]
    for number in range(first, last + 1):
        board_file(game, number, scratch)
    parts = shares(first, last, processes)
    start = time.perf_counter()
    with ThreadPoolExecutor(len(parts)) as pool:  # a thread waits on each share's processes
        futures = [pool.submit(fcs_files_share, game, low, high, command, lengths_to,
                               scratch, scratch / f"fcs-file-{i}.txt")
                   for i, (low, high) in enumerate(parts)]
        done = [future.result() for future in futures]
    elapsed = time.perf_counter() - start
    verdicts: dict[int, str] = {}
    solutions: dict[int, str] = {}
    for run, outputs in done:
        verdicts.update(run.verdicts)
        solutions.update(outputs)
    wall = done[0][0].wall if len(done) == 1 else elapsed
    return Run(verdicts, wall, sum(run.cpu for run, _ in done),
               max(run.max_rss for run, _ in done),
               sum(run.max_rss for run, _ in done)), solutions


def fcs_files_share(game: str, first: int, last: int, command: list[str], lengths_to: int,
                    scratch: Path, out: Path) -> tuple[Run, dict[int, str]]:
    """``command`` on the board file of each deal ``first..last`` in turn, output in
    ``out``; return the run (wall: the sum of the processes') and the outputs of the
    deals up to ``lengths_to`` that it solved."""
    verdicts: dict[int, str] = {}
    solutions: dict[int, str] = {}
    wall = cpu = 0.0
    rss = 0
    for number in range(first, last + 1):
        run = [*command, str(board_file(game, number, scratch))]
        status, w, c, r = run_measured(run, out)
        check_status(status, run, out)
        wall, cpu, rss = wall + w, cpu + c, max(rss, r)
        output = out.read_text(errors="replace")
        verdicts[number] = fcs_verdict(output)
        if verdicts[number] == SOLVED and number <= lengths_to:
            solutions[number] = output
    return Run(verdicts, wall, cpu, rss, rss), solutions


def probe_fcs(game: str, number: int, args: list[str]) -> str:
    """Return fc-solve's complaint when it cannot play ``game`` (one iteration of the
    first deal, untimed), else ''."""
    with tempfile.TemporaryDirectory(prefix="bakers-probe-") as tmp:
        scratch = Path(tmp)
        out = scratch / "probe.txt"
        command = [FCS, "-sel", "-mi", "1", *args, str(board_file(game, number, scratch))]
        status, *_ = run_measured(command, out)
        if status == 0:
            return ""
        error = out.with_suffix(".err").read_text(errors="replace")
        return " ".join((error or out.read_text(errors="replace")).split())[:200]


def fcs_range_solutions(first: int, last: int, args: list[str], iterations: int,
                        solved: set[int], scratch: Path) -> dict[int, str]:
    """fc-solve's solutions (``-sam -p -t``) of deals first..last from an untimed run."""
    folder = scratch / "solutions"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    command = fcs_range_command(first, last, [*args, "-sam", "-p", "-t"], iterations,
                                ["--solutions-directory", f"{folder}/"])
    out = scratch / "fcs-solutions.txt"
    status, *_ = run_measured(command, out)
    check_status(status, command, out)
    return {n: (folder / f"{n:09d}.sol").read_text(errors="replace")
            for n in range(first, last + 1) if n in solved}


# ---------------------------------------------------------------- solution lengths


def referee_length(game: str, number: int, text: str) -> tuple[int, int]:
    """fc-solve's solution ``text`` of deal ``number``: (single-card moves after the
    referee's expansion, moves as printed). Raises BakersError if the referee rejects it."""
    from bakers import BakersError, Deal, Solution, find_variant

    deal = Deal.from_number(find_variant(game), number)
    printed = Solution.parse(text)
    single = printed.expand(deal)
    if not single.replay(deal).won:
        raise BakersError(f"fc-solve's solution of deal {number} does not win")
    return len(single), len(printed)


def count_lengths(game: str, numbers: list[int],
                  limits: dict[str, int | float]) -> dict[str, list[int] | None]:
    """In a worker: solve ``numbers`` again with `bakers.solve` (which replays the solution
    with the referee); return {number: [referee-expanded length, engine's length]}, None
    for a solution the referee rejects; deals not solved are left out."""
    from bakers import Deal, Limits, find_variant, solve

    method = str(limits["method"])
    limit = Limits(nodes=limits["max_nodes"] or None, states=limits["max_states"] or None,
                   memory=limits["max_bytes"] or None,
                   seconds=limits["max_seconds"] or None)
    variant = find_variant(game)
    lengths: dict[str, list[int] | None] = {}
    for number in numbers:
        deal = Deal.from_number(variant, number)
        result = solve(deal, limits=limit, method=method)
        if result.verdict != SOLVED:
            continue
        single = result.supermoves.expand(deal)
        won = single.replay(deal).won
        lengths[str(number)] = [len(single), len(result.solution)] if won else None
    return lengths


def bakers_lengths(game: str, numbers: list[int], limits: dict[str, int | float],
                   package: Package, scratch: Path, measured: Measured) -> None:
    """Count the solution lengths of bakers on ``numbers`` (in a worker, untimed)."""
    job = {"game": game, "numbers": numbers, "limits": limits}
    lengths = run_worker(job, package, scratch)
    for key, value in lengths.items():
        if value is None:
            measured.rejected.append(int(key))
        else:
            measured.moves_referee[int(key)], measured.moves_native[int(key)] = value


# ---------------------------------------------------------------- reporting


def git_head() -> str:
    """The checkout's commit (with '+changes' when files differ from it), or '?'."""
    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, text=True,
                              capture_output=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=root, text=True, capture_output=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"
    return head + ("+changes" if dirty else "")


def counts(verdicts: dict[int, str]) -> Counter[str]:
    return Counter(verdicts.values())


def disagreements(a: dict[int, str], b: dict[int, str]) -> list[tuple[int, str, str]]:
    return [(n, a[n], b[n]) for n in sorted(a) if n in b and a[n] != b[n]
            and UNKNOWN not in (a[n], b[n])]


def reference_contradictions(game: str, verdicts: dict[int, str]) -> tuple[int, list]:
    name = REFERENCE.get(game)
    if name is None or not (DATA / name).exists():
        return 0, []
    with (DATA / name).open(newline="") as handle:
        reference = {int(row["deal"]): row["verdict"]
                     for row in csv.DictReader(handle, delimiter="\t")}
    checked = [n for n in verdicts if n in reference]
    wrong = [(n, verdicts[n], reference[n]) for n in checked
             if (verdicts[n] == SOLVED and reference[n] == "impossible")
             or (verdicts[n] == IMPOSSIBLE and reference[n] == "winnable")]
    return len(checked), wrong


def positions_note(m: Measured) -> str:
    """Positions a deal (mean, median, 99th percentile) and microseconds of CPU a position
    (the median CPU time of the whole process over all the run's positions), or "" when
    the run has no counts."""
    counts_ = sorted(m.runs[0].positions.values())
    if not counts_:
        return ""
    which = ("iterations of the solved deals" if m.solver == "fc-solve"
             else "expanded positions")
    p99 = counts_[min(len(counts_) - 1, len(counts_) * 99 // 100)]
    return (f"{m.solver} positions a deal ({which}, {len(counts_)} deals): mean "
            f"{statistics.fmean(counts_):.1f}, median {statistics.median(counts_):g}, p99 "
            f"{p99}; {m.median('cpu') * 1e6 / sum(counts_):.2f} us of CPU a position")


def mean(values: Sequence[int]) -> str:
    return f"{statistics.fmean(values):.1f}" if values else "-"


def megabytes(n: float) -> str:
    return f"{n / 2**20:.1f}"


def paired_ratio(bakers: Measured, fcs: Measured, what: str) -> float | None:
    """fc-solve's ``what`` (``'cpu'`` or ``'wall'``) over bakers', the median over the
    repeats of the ratio of each pair of runs measured back to back (None: no pair)."""
    ratios = [getattr(f, what) / getattr(b, what)
              for b, f in zip(bakers.runs, fcs.runs, strict=True) if getattr(b, what) > 0]
    return statistics.median(ratios) if ratios else None


def table_rows(game: str, deals: int, solvers: list[Measured],
               ratios: tuple[float | None, float | None], disagree: int, common: list[int],
               threads: int = 1) -> list[list[str]]:
    """The table's rows, one per solver; ``ratios`` are fc-solve's over bakers' (CPU,
    wall), in bakers' row; with ``threads`` > 1 each row has the ``threads`` column (see
    `headers`) after the solver's name."""
    rows = []
    for m in solvers:
        c = counts(m.verdicts)
        wall = m.median("wall")
        lengths = [m.moves_referee[n] for n in common if n in m.moves_referee]
        parallel = [f"{threads} {'threads' if m.solver == 'bakers' else 'processes'}"
                    ] if threads > 1 else []
        rows.append([
            game, str(deals), m.solver, *parallel, str(c[SOLVED] + c[IMPOSSIBLE]),
            str(c[SOLVED]),
            str(c[IMPOSSIBLE]), str(c[UNKNOWN]), f"{wall:.2f}", f"{m.median('cpu'):.2f}",
            f"{deals / wall:.0f}" if wall > 0 else "-",
            *((f"{ratio:.2f}" if ratio is not None else "-") if m.solver == "bakers" else ""
              for ratio in ratios),
            str(disagree) if len(solvers) > 1 else "-", mean(lengths),
            megabytes(max(run.peak_bytes for run in m.runs)),
            megabytes(max(run.max_rss for run in m.runs))])
    return rows


HEADERS = ["game", "deals", "solver", "decided", "winnable", "impossible", "unknown",
           "wall s", "cpu s", "deals/s", "ratio cpu", "ratio wall", "disagree", "mean moves",
           "peak MB", "max RSS MB"]


def headers(threads: int) -> list[str]:
    """The table's columns: `HEADERS`, with ``threads`` after ``solver`` when > 1."""
    if threads == 1:
        return HEADERS
    at = HEADERS.index("solver") + 1
    return [*HEADERS[:at], "threads", *HEADERS[at:]]


def print_table(rows: list[list[str]], title: str, markdown: bool,
                columns: list[str] = HEADERS) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title)
    for header in columns:
        table.add_column(header, justify="left" if header in ("game", "solver") else "right")
    for row in rows:
        table.add_row(*row)
    console = Console() if sys.stdout.isatty() else Console(width=200)
    console.print(table)
    if markdown:
        print("| " + " | ".join(columns) + " |")
        print("|" + "|".join("---" for _ in columns) + "|")
        for row in rows:
            print("| " + " | ".join(row) + " |")


def parallel_note(first: int, last: int, threads: int, fcs_ran: bool) -> str:
    """What the N-way comparison measured, for the notes under the table."""
    parts = shares(first, last, threads)
    note = f"bakers: bakers range --threads {len(parts)}, one process"
    if fcs_ran:
        note += (f"; fc-solve: {len(parts)} processes at once on deals "
                 + ", ".join(f"{low}..{high}" for low, high in parts)
                 + ", wall from the first start to the last end, cpu summed, max RSS the "
                   "sum of the processes'")
    return note + "."


# ---------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Compare bakers with fc-solve on the same numbered deals "
                    "(see the module docstring for what is measured).")
    parser.add_argument("--game", default="freecell", choices=sorted(SETUPS))
    parser.add_argument("--first", type=int, default=1, help="first deal number (1)")
    parser.add_argument("--last", type=int, default=1000, help="last deal number (1000)")
    parser.add_argument("--fcs-args", default=None,
                        help="fc-solve's arguments (freecell: '-l lg'; bakers_game: "
                             "'-g bakers_game -to 01ABCDE')")
    parser.add_argument("--fcs-iterations", type=int, default=None,
                        help="fc-solve's iteration limit per deal, 0 for none (default: "
                             "none; 1000000 for bakers_dozen and bulochnik)")
    parser.add_argument("--fcs-mode", choices=("range", "file"), default=None,
                        help="how fc-solve is run (default: range for MS games)")
    parser.add_argument("--no-fcs", action="store_true", help="run bakers alone")
    from bakers.solving import METHODS

    parser.add_argument("--method", choices=METHODS, default=None,
                        help="bakers' search (default: the game's own, see "
                        "bakers.solving.default_method)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs of each solver; times are medians (default 1)")
    parser.add_argument("--threads", type=int, default=1,
                        help="bakers range --threads N against N fc-solve processes at once "
                             "on contiguous shares of the range (default 1)")
    parser.add_argument("--limit-seconds", type=float, default=0.0,
                        help="bakers: seconds per deal, its --max-seconds (default: no "
                             "limit)")
    parser.add_argument("--limit-nodes", type=int, default=0,
                        help="bakers: positions expanded per deal, its --max-nodes "
                             "(default: no limit)")
    parser.add_argument("--limit-memory", default="0",
                        help="bakers: memory of the whole bakers range process, its "
                             "--max-memory, like 2G (default: no limit)")
    parser.add_argument("--lengths", type=int, default=1000,
                        help="count solution lengths on the first N deals (default 1000; "
                             "0: none)")
    parser.add_argument("--json", type=Path, help="also write the raw results here")
    parser.add_argument("--markdown", action="store_true",
                        help="also print the table in Markdown")
    parser.add_argument("--engine", type=Path,
                        help="a compiled core (a copy of bakers/_core*.so) to measure "
                             "instead of the installed one, run by this checkout's Python "
                             "package")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return worker(args.worker)

    from bakers import BakersError, find_variant
    from bakers.limits import parse_bytes
    from bakers.solving import default_method

    if not 1 <= args.first <= args.last:
        parser.error("need 1 <= --first <= --last")
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if not 1 <= args.threads <= 1024:
        parser.error("--threads must be 1..1024")
    if args.limit_nodes < 0 or args.limit_seconds < 0:
        parser.error("--limit-nodes and --limit-seconds are not negative")
    try:
        args.limit_memory_bytes = parse_bytes(args.limit_memory)
    except BakersError as error:
        parser.error(f"--limit-memory {args.limit_memory}: {error}")
    if args.engine is not None and not args.engine.is_file():
        parser.error(f"--engine {args.engine}: no such file")
    game, first, last = args.game, args.first, args.last
    deals = last - first + 1
    threads = min(args.threads, deals)
    setup = SETUPS[game]
    # bakers range's own default when --method is not given; the lengths use it too.
    method = args.method or default_method(find_variant(game))
    limits = {"max_nodes": args.limit_nodes, "max_states": 0,
              "max_bytes": args.limit_memory_bytes, "max_seconds": args.limit_seconds,
              "method": method}
    options = range_options(args)

    mode = "" if args.no_fcs else (args.fcs_mode or setup.mode)
    if mode == "range" and setup.mode != "range":
        parser.error(f"{FCS_RANGE} deals Microsoft numbers; it cannot deal {game}")
    notes: list[str] = []
    if not args.no_fcs and not setup.mode:
        notes.append(f"fc-solve not run: {setup.why}.")
        mode = ""
    tool = FCS_RANGE if mode == "range" else FCS
    if mode and shutil.which(tool) is None:
        notes.append(f"fc-solve not run: {tool} is not on PATH "
                     "(Debian/Ubuntu: apt-get install freecell-solver-bin).")
        mode = ""
    fcs_args = shlex.split(args.fcs_args if args.fcs_args is not None else setup.args)
    iterations = (args.fcs_iterations if args.fcs_iterations is not None
                  else setup.iterations)
    if mode == "file":
        refusal = probe_fcs(game, first, fcs_args)
        if refusal:
            notes.append(f"fc-solve not run: it refuses the game ({refusal}).")
            mode = ""

    bakers = Measured("bakers")
    fcs = Measured("fc-solve")
    lengths_to = min(last, first + args.lengths - 1) if args.lengths > 0 else 0
    fcs_outputs: dict[int, str] = {}
    with tempfile.TemporaryDirectory(prefix="bakers-compare-") as tmp:
        scratch = Path(tmp)
        engine = args.engine.resolve() if args.engine else None
        package = snapshot_package(scratch, engine)
        probe_bakers(game, first, options, package, scratch)
        notes.append("bakers: a copy of the package made at the start, its core "
                     + (str(engine) if engine else "that of the package this script imports")
                     + f" (sha256 {package.core_hash}), git {git_head()}; timed: "
                     + shlex.join(["python", *bakers_command(
                         game, first, last, threads, options, Path("ROWS.tsv"))[1:]])
                     + ", the whole process.")
        for repeat in range(args.repeat):
            order = ["bakers", "fc-solve"] if repeat % 2 == 0 else ["fc-solve", "bakers"]
            for solver in order:
                if solver == "bakers":
                    run = run_bakers(game, first, last, options, package, scratch, threads)
                    bakers.runs.append(run)
                elif mode == "range":
                    run = run_fcs_range(first, last, fcs_args, iterations, scratch, threads)
                    fcs.runs.append(run)
                elif mode == "file":
                    run, outputs = run_fcs_files(game, first, last, fcs_args, iterations,
                                                 lengths_to, scratch, threads)
                    fcs_outputs = fcs_outputs or outputs
                    fcs.runs.append(run)
                else:
                    continue
                print(f"run {repeat + 1}/{args.repeat}: {solver:8} {run.wall:9.2f} s wall "
                      f"{run.cpu:9.2f} s cpu", file=sys.stderr, flush=True)
        solvers = [bakers] + ([fcs] if fcs.runs else [])
        for m in solvers:
            changed = [i + 1 for i, run in enumerate(m.runs) if run.verdicts != m.verdicts]
            if changed:
                notes.append(f"{m.solver}: verdicts of repeats {changed} differ from the "
                             "first (a time limit?); the first repeat's are reported.")

        # Solution lengths, untimed, on the first deals of the range.
        if lengths_to:
            sample = range(first, lengths_to + 1)
            bakers_lengths(game, [n for n in sample if bakers.verdicts[n] == SOLVED],
                           limits, package, scratch, bakers)
            if fcs.runs:
                if mode == "range":
                    solved = {n for n in sample if fcs.verdicts[n] == SOLVED}
                    fcs_outputs = fcs_range_solutions(first, lengths_to, fcs_args,
                                                      iterations, solved, scratch)
                from bakers import BakersError

                for number, text in fcs_outputs.items():
                    try:
                        fcs.moves_referee[number], fcs.moves_native[number] = \
                            referee_length(game, number, text)
                    except BakersError:
                        fcs.rejected.append(number)

    # Agreement and ratios.
    ratios: tuple[float | None, float | None] = (None, None)
    disagree: list[tuple[int, str, str]] = []
    if fcs.runs:
        ratios = (paired_ratio(bakers, fcs, "cpu"), paired_ratio(bakers, fcs, "wall"))
        disagree = disagreements(bakers.verdicts, fcs.verdicts)
        notes.append(f"ratio cpu, ratio wall: fc-solve's time over bakers', the median of "
                     f"the ratios of {len(fcs.runs)} pair(s) of runs measured back to back.")
        if disagree:
            shown = ", ".join(f"{n} (bakers {a}, fc-solve {b})" for n, a, b in disagree[:10])
            notes.append(f"DISAGREEMENTS ({len(disagree)}): {shown}")
        decided_by_fcs_only = [n for n, v in bakers.verdicts.items()
                               if v == UNKNOWN and fcs.verdicts.get(n, UNKNOWN) != UNKNOWN]
        decided_by_bakers_only = [n for n, v in fcs.verdicts.items()
                                  if v == UNKNOWN and bakers.verdicts.get(n, UNKNOWN)
                                  != UNKNOWN]
        if decided_by_fcs_only:
            notes.append(f"decided by fc-solve, unknown for bakers: {len(decided_by_fcs_only)}"
                         f" (first: {decided_by_fcs_only[:10]})")
        if decided_by_bakers_only:
            notes.append(f"decided by bakers, unknown for fc-solve: "
                         f"{len(decided_by_bakers_only)} (first: {decided_by_bakers_only[:10]})")
        exhaustive = game == "bakers_game" and "01ABCDE" in fcs_args and not iterations
        notes.append("fc-solve's 'impossible' is " + (
            "a proof (exhaustive atomic-move scan)." if exhaustive else
            "its 'I could not solve this game': a proof only for a complete scan."))
    checked, wrong = reference_contradictions(game, bakers.verdicts)
    if checked:
        notes.append(f"bakers against tests/data/{REFERENCE[game]}: {checked} deals checked, "
                     f"{len(wrong)} contradicted" + (f": {wrong[:10]}" if wrong else "."))

    common = sorted(set(bakers.moves_referee) & set(fcs.moves_referee)) if fcs.runs \
        else sorted(bakers.moves_referee)
    if lengths_to:
        notes.append(
            f"mean moves: single-card moves (referee expansion of the supermove solution), "
            f"deals {first}..{lengths_to} solved by "
            f"{'both' if fcs.runs else 'bakers'}: {len(common)}; bakers' engine's "
            f"own single-move count {mean([bakers.moves_native[n] for n in common])}"
            + (f", fc-solve as printed (supermove = 1) "
               f"{mean([fcs.moves_native[n] for n in common])}" if fcs.runs else "") + ".")
        engine = [n for n in common if bakers.moves_native[n] != bakers.runs[0].moves.get(n)]
        if engine:
            notes.append(f"solve() and bakers range gave different lengths on {engine[:10]}")
        for m in solvers:
            if m.rejected:
                notes.append(f"the referee REJECTED {m.solver}'s solutions of {m.rejected[:10]}")
    for m in solvers:
        note = positions_note(m)
        if note:
            notes.append(note)
    if not fcs.runs and not any(note.startswith("fc-solve not run") for note in notes):
        notes.append("fc-solve not run (--no-fcs).")
    if threads > 1:
        notes.append(parallel_note(first, last, threads, bool(fcs.runs)))

    title = (f"{game} {first}..{last}, median of {args.repeat} run(s), "
             + (f"{threads} threads / processes" if threads > 1 else "one thread each")
             + "; fc-solve: "
             + (f"{tool} {shlex.join(fcs_args)}"
                + (f" (iteration limit {iterations})" if iterations else "")
                if fcs.runs else "not run")
             + f"; bakers search: {limits['method']}"
             + ("; bakers limits: " + shlex.join(options[2:] if args.method else options)
                if len(options) > (2 if args.method else 0) else ""))
    rows = table_rows(game, deals, solvers, ratios, len(disagree), common, threads)
    columns = headers(threads)
    print_table(rows, title, args.markdown, columns)
    for note in notes:
        print(f"- {note}")
    if args.json:
        args.json.write_text(json.dumps({
            "title": title, "headers": columns, "rows": rows, "notes": notes,
            "threads": threads,
            "runs": {m.solver: [{"wall": r.wall, "cpu": r.cpu, "peak_bytes": r.peak_bytes,
                                 "max_rss": r.max_rss} for r in m.runs] for m in solvers},
            "verdicts": {m.solver: m.verdicts for m in solvers},
            "bakers_rows": bakers.runs[0].rows}, indent=1))
    return 1 if disagree or wrong else 0


if __name__ == "__main__":
    sys.exit(main())
