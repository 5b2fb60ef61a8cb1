"""The README's Python examples run as written, so that they cannot rot."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCKS = re.findall(r"^```python\n(.*?)^```$", README.read_text(encoding="utf-8"),
                    flags=re.MULTILINE | re.DOTALL)


def test_the_readme_has_examples() -> None:
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("number", range(len(BLOCKS)))
def test_readme_example_runs(number: int, capsys: pytest.CaptureFixture[str]) -> None:
    code = compile(BLOCKS[number], f"README.md python block {number + 1}", "exec")
    exec(code, {"__name__": f"readme_{number}"})
    capsys.readouterr()
