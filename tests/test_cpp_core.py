"""The C++ core's own tests (cpp/tests/): configured, built with AddressSanitizer and
UBSan in a Debug build (asserts on, so the search checks every key it makes), and run in
as many processes as there are cores (each a share of the tests: ``--shard K/N``).

cmake and ninja come from PATH or from their PyPI packages (the ``test`` extra installs
both). A missing tool fails the test rather than skipping it, so CI cannot pass without
running the C++ tests.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

# Generous bounds: a cold sanitized build on two cores takes a minute or two.
CONFIGURE_TIMEOUT = 300
BUILD_TIMEOUT = 1200
RUN_TIMEOUT = 600


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


def _run(args: list[str], timeout: int, what: str) -> str:
    """Run a command; fail the test with its output if it fails; return its output."""
    try:
        proc = subprocess.run(
            args, cwd=REPO, capture_output=True, text=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"{what} took more than {timeout} s:\n{exc.stdout or ''}{exc.stderr or ''}")
    output = proc.stdout + proc.stderr
    if proc.returncode != 0:
        pytest.fail(f"{what} failed (exit code {proc.returncode}):\n{output}")
    return output


@pytest.mark.slow
def test_cpp_core_tests_pass_under_sanitizers(tmp_path: Path) -> None:
    cmake, ninja = _cmake(), _ninja()
    build = tmp_path / "build"
    _run(
        [
            cmake, "-S", str(REPO), "-B", str(build), "-G", "Ninja",
            f"-DCMAKE_MAKE_PROGRAM={ninja}",
            "-DBAKERS_TESTS=ON", "-DBAKERS_SANITIZE=ON", "-DCMAKE_BUILD_TYPE=Debug",
        ],
        CONFIGURE_TIMEOUT,
        "configuring the C++ tests",
    )
    _run([cmake, "--build", str(build)], BUILD_TIMEOUT, "building the C++ tests")
    binary = str(build / "bakers_tests")
    names = _run([binary, "--list"], CONFIGURE_TIMEOUT, "listing the C++ tests").split()
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
                    [binary, "--shard", f"{k}/{shares}"], cwd=REPO, stdout=out, stderr=out
                )
            )
    try:
        for proc in procs:
            proc.wait(timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        pytest.fail(f"bakers_tests took more than {RUN_TIMEOUT} s")
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    outputs = [file.read_text() for file in files]
    for k, (proc, out) in enumerate(zip(procs, outputs, strict=True)):
        if proc.returncode != 0:
            what = f"bakers_tests --shard {k}/{shares}"
            pytest.fail(f"{what} failed (exit code {proc.returncode}):\n{out}")
    return outputs
