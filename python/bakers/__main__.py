"""Run the `bakers` command as ``python -m bakers``."""

from .cli import main

raise SystemExit(main())
