"""The C++ core's own tests (cpp/tests/): configured, built with AddressSanitizer and
UBSan in a Debug build at -O1 (asserts on, so the search checks every key it makes), and run in
as many processes as there are cores (each a share of the tests: ``--shard K/N``).

The build is kept in ``build/cpp-tests-sanitized`` (git-ignored), so that a second run
compiles only what changed. Every step is bounded in processor seconds, not in
wall-clock seconds: a machine busy with other work stretches the wall clock of a build
or a run but not the processor time it takes, so only a runaway trips a bound.

cmake and ninja come from PATH or from their PyPI packages (the ``test`` extra installs
both). A missing tool fails the test rather than skipping it, so CI cannot pass without
running the C++ tests.
"""

from __future__ import annotations

import os
import re
import resource
import shutil
import signal
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

# Processor seconds of each process (a compiler, a share of the tests), inherited by its
# children: far above what each takes (the slowest file compiles in under a minute, a
# share of the tests runs in about 200 s on one core), so that only a runaway hits them.
CONFIGURE_CPU = 300
BUILD_CPU = 1200
RUN_CPU = 1800
#: The sanitized build, kept between runs.
BUILD_DIR = REPO / "build" / "cpp-tests-sanitized"


def _cpu_bound(seconds: int) -> Callable[[], None]:
    """Return a ``preexec_fn`` that bounds a child's processor time to ``seconds``."""
    def bound() -> None:
        # SIGXCPU at the soft bound ends the process; the hard bound (SIGKILL) is later,
        # for a process that catches that signal
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 10))
    return bound


def _why(returncode: int, seconds: int) -> str:
    """Return how a process ended: its exit code, or the processor time it ran out of."""
    if returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        return f"ran out of its {seconds} s of processor time"
    return f"failed (exit code {returncode})"


def _cmake() -> str:
    """Return the cmake executable, from PATH or the ``cmake`` package; fail if none."""
    found = shutil.which("cmake")
    if found:
        return found
    try:
        import cmake  # type: ignore[import-not-found]
    except ImportError:
        pytest.fail(
            "cmake is needed to build the C++ tests: install the test extra "
            "(pip install -e '.[test]', which brings cmake and ninja) or put cmake on PATH"
        )
    return str(Path(cmake.CMAKE_BIN_DIR) / "cmake")


def _ninja() -> str:
    """Return the ninja executable, from PATH or the ``ninja`` package; fail if none."""
    found = shutil.which("ninja")
    if found:
        return found
    try:
        import ninja  # type: ignore[import-not-found]
    except ImportError:
        pytest.fail(
            "ninja is needed to build the C++ tests: install the test extra "
            "(pip install -e '.[test]', which brings cmake and ninja) or put ninja on PATH"
        )
    return str(Path(ninja.BIN_DIR) / "ninja")


def _run(args: list[str], cpu_seconds: int, what: str) -> str:
    """Run a command; fail the test with its output if it fails; return its output."""
    proc = subprocess.run(args, cwd=REPO, capture_output=True, text=True, check=False,
                          preexec_fn=_cpu_bound(cpu_seconds))
    output = proc.stdout + proc.stderr
    if proc.returncode != 0:
        pytest.fail(f"{what} {_why(proc.returncode, cpu_seconds)}:\n{output}")
    return output


@pytest.mark.slow
def test_cpp_core_tests_pass_under_sanitizers(tmp_path: Path) -> None:
    cmake, ninja = _cmake(), _ninja()
    build = BUILD_DIR
    _run(
        [
            cmake, "-S", str(REPO), "-B", str(build), "-G", "Ninja",
            f"-DCMAKE_MAKE_PROGRAM={ninja}",
            "-DBAKERS_TESTS=ON", "-DBAKERS_SANITIZE=ON", "-DCMAKE_BUILD_TYPE=Debug",
        ],
        CONFIGURE_CPU,
        "configuring the C++ tests",
    )
    _run([cmake, "--build", str(build)], BUILD_CPU, "building the C++ tests")
    binary = str(build / "bakers_tests")
    names = _run([binary, "--list"], CONFIGURE_CPU, "listing the C++ tests").split()
    assert len(names) > 100, names
    outputs = _run_shares(binary, max(1, min(os.cpu_count() or 1, 4)), tmp_path)
    passed = 0
    for output in outputs:
        summary = output.strip().splitlines()[-1] if output.strip() else ""
        match = re.fullmatch(r"(\d+) passed, (\d+) failed", summary)
        assert match, f"bakers_tests did not end with its summary line:\n{output}"
        assert int(match.group(2)) == 0, output
        passed += int(match.group(1))
    assert passed == len(names), "\n".join(outputs)  # every test ran, in one share


def _run_shares(binary: str, shares: int, logs: Path) -> list[str]:
    """Run the test binary's shares at once, one process each (its output in a file, so
    that no share waits on a full pipe); fail if any fails; return their outputs."""
    files = [logs / f"share{k}.txt" for k in range(shares)]
    procs = []
    for k, file in enumerate(files):
        with file.open("w") as out:
            procs.append(
                subprocess.Popen(
                    [binary, "--shard", f"{k}/{shares}"], cwd=REPO, stdout=out, stderr=out,
                    preexec_fn=_cpu_bound(RUN_CPU)
                )
            )
    try:
        for proc in procs:
            proc.wait()
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    outputs = [file.read_text() for file in files]
    for k, (proc, out) in enumerate(zip(procs, outputs, strict=True)):
        if proc.returncode != 0:
            what = f"bakers_tests --shard {k}/{shares}"
            pytest.fail(f"{what} {_why(proc.returncode, RUN_CPU)}:\n{out}")
    return outputs


def test_a_runaway_is_stopped_by_processor_time_not_the_clock() -> None:
    import sys

    spin = [sys.executable, "-c", "while True: pass"]
    with pytest.raises(pytest.fail.Exception, match="ran out of its 1 s of processor time"):
        _run(spin, 1, "spinning")
    assert _run([sys.executable, "-c", "import time; time.sleep(1.5); print('ok')"], 1,
                "sleeping").strip() == "ok"  # a wait (a busy machine) takes no processor time
