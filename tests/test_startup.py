"""What starting loads: ``import bakers`` and `bakers range` without a progress bar load
none of the libraries that only some paths need, ``bakers-fc-solve --version`` no search,
the API's names still import from `bakers`, and the parser built for one command parses
it as the whole parser does."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import bakers
import pytest
from bakers import cli

#: Libraries imported only where they are used: rich for a progress bar or a table
#: shown, pyarrow and dask for a Parquet dataset or a cluster, difflib for the
#: suggestions of an unknown game's name.
LATER = ("rich", "pyarrow", "dask", "distributed", "difflib")


def _loaded(code: str) -> list[str]:
    """Run ``code`` in a fresh interpreter; return the modules of `LATER` it loaded."""
    probe = (f"{code}\nimport json, sys\n"
             f"print(json.dumps([m for m in {LATER!r} if m in sys.modules]))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_import_bakers_loads_none_of_the_later_libraries() -> None:
    assert _loaded("import bakers") == []


def test_import_bakers_loads_no_module_of_the_api() -> None:
    code = ("import sys, bakers\n"
            "print(sorted(m for m in sys.modules if m.startswith('bakers.')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['bakers._old_names']"


def test_a_range_without_a_bar_loads_none_of_the_later_libraries() -> None:
    code = ("import sys\nfrom bakers.cli import main\n"
            "assert main(['range', 'freecell', '1', '2', '--quiet']) == 0")
    assert _loaded(code) == []


def test_fc_solve_version_loads_no_search() -> None:
    code = ("import sys\nfrom bakers.fc_solve.command import main\n"
            "assert main(['--version']) == 0\n"
            "print(sorted(m for m in ('bakers.solving', 'bakers.deals', 'bakers.board')"
            " if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "libfreecell-solver version" in done.stdout
    assert done.stdout.splitlines()[-1] == "[]"


def test_an_unknown_game_still_gets_suggestions() -> None:
    with pytest.raises(bakers.UnknownVariantError, match="did you mean 'freecell'"):
        bakers.find_variant("frecell")


@pytest.mark.parametrize("name", bakers.__all__)
def test_every_name_of_the_api_imports_from_bakers(name: str) -> None:
    value = getattr(bakers, name)
    module = getattr(value, "__module__", None)
    if module is not None:  # a class or a function: the one its module defines
        assert getattr(sys.modules[module], name) is value


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'solver'"):
        bakers.solver  # noqa: B018


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(sub.choices)


def test_each_command_has_its_group() -> None:
    assert set(_commands(cli.build_parser())) == set(cli._GROUP_OF)


@pytest.mark.parametrize("command", sorted(cli._GROUP_OF))
def test_a_command_parser_alone_parses_as_the_whole(command: str) -> None:
    whole = _commands(cli.build_parser())[command]
    alone = _commands(cli.build_parser(command))[command]
    assert alone.format_help() == whole.format_help()
    assert [a.dest for a in alone._actions] == [a.dest for a in whole._actions]
    assert alone.get_default("run") is whole.get_default("run")
