"""`bakers-fc-solve`: bakers behind Freecell Solver's command line.

Programs that run ``fc-solve`` (PySolFC's solver dialog and demo among them) write a
position to its standard input and read the verbose moves it prints. This package takes
the same command line (`options`), maps its game options to a `bakers.Variant`
(`games`), solves with bakers and prints what ``fc-solve`` prints (`output`), so that
such a program runs unchanged with ``bakers-fc-solve`` on its PATH as ``fc-solve``.
"""

from __future__ import annotations

from .command import main

__all__ = ["main"]
