"""The C++ core's own tests (cpp/tests/): configured, built with AddressSanitizer and
UBSan in a Debug build (asserts on, so the search checks every key it makes), and run.

cmake and ninja come from PATH or from their PyPI packages (the ``test`` extra installs
both). A missing tool fails the test rather than skipping it, so CI cannot pass without
running the C++ tests.
"""

from __future__ import annotations

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
    output = _run([str(build / "bakers_tests")], RUN_TIMEOUT, "bakers_tests")
    summary = output.strip().splitlines()[-1] if output.strip() else ""
    match = re.fullmatch(r"(\d+) passed, (\d+) failed", summary)
    assert match, f"bakers_tests did not end with its summary line:\n{output}"
    assert int(match.group(2)) == 0 and int(match.group(1)) > 0, output
