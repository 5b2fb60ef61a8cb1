"""The method and limits that a `bakers range` output was made with, recorded in it so
that ``--resume`` adds rows of the same settings only (``--resume-any`` mixes them).

A TSV or CSV file records them in a comment line before its header
(``# bakers range {"method": ..., ...}``), a JSON-lines file in a first line of its own
(``{"bakers_range": {...}}``), a Parquet file in its schema's metadata (key
``bakers_range``). A file written before the record existed has none: its settings are
unknown, and resuming it needs ``--resume-any``.
"""

from __future__ import annotations

import json
from typing import Any

from ..errors import InvalidOptionError

__all__ = ["KEY", "COMMENT", "settings", "comment_line", "json_line", "from_comment",
           "from_json", "from_metadata", "metadata", "check_same"]

#: The name of the record in a JSON line and in Parquet metadata.
KEY = "bakers_range"
#: The start of the record's comment line in a TSV or CSV file.
COMMENT = "# bakers range "
#: Each setting and the flag that sets it, in the order messages name them.
FLAGS = {"method": "--method", "max_nodes": "--max-nodes", "max_states": "--max-states",
         "max_memory": "--max-memory", "max_seconds": "--max-seconds", "forget": "--forget"}


def settings(method: str, *, nodes: int | None, states: int | None, memory: int | None,
             seconds: float | None, forget: bool) -> dict[str, Any]:
    """Return the record of a run's settings: its method (resolved, never None) and
    limits (None: no limit; ``memory`` in bytes)."""
    return {"method": method, "max_nodes": nodes, "max_states": states,
            "max_memory": memory, "max_seconds": None if seconds is None else float(seconds),
            "forget": bool(forget)}


def comment_line(record: dict[str, Any]) -> str:
    """Return the record as the comment line of a TSV or CSV file."""
    return COMMENT + json.dumps(record) + "\n"


def json_line(record: dict[str, Any]) -> str:
    """Return the record as the first line of a JSON-lines file."""
    return json.dumps({KEY: record}) + "\n"


def metadata(record: dict[str, Any]) -> dict[bytes, bytes]:
    """Return the record as Parquet schema metadata."""
    return {KEY.encode(): json.dumps(record).encode()}


def _checked(value: object) -> dict[str, Any] | None:
    """Return ``value`` if it is a record of the settings' keys, else None."""
    if isinstance(value, dict) and set(value) == set(FLAGS):
        return value
    return None


def from_comment(line: str) -> dict[str, Any] | None:
    """Return the record of a TSV or CSV comment line, or None when it is not one."""
    if not line.startswith(COMMENT):
        return None
    try:
        return _checked(json.loads(line[len(COMMENT):]))
    except (ValueError, RecursionError):
        return None


def from_json(value: object) -> dict[str, Any] | None:
    """Return the record of a JSON line's value, or None when it is not one."""
    if isinstance(value, dict) and set(value) == {KEY}:
        return _checked(value[KEY])
    return None


def from_metadata(meta: dict[bytes, bytes] | None) -> dict[str, Any] | None:
    """Return the record in Parquet schema metadata, or None when there is none."""
    raw = (meta or {}).get(KEY.encode())
    if raw is None:
        return None
    try:
        return _checked(json.loads(raw))
    except (ValueError, RecursionError):
        return None


def _shown(key: str, value: object) -> str:
    flag = FLAGS[key]
    if key == "forget":
        return flag if value else f"no {flag}"
    if value is None:
        return f"no {flag}"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return f"{flag} {value}"


def check_same(found: dict[str, Any] | None, wanted: dict[str, Any], where: str,
               mix: bool) -> None:
    """Refuse to resume the output ``where`` (as messages name it) made under settings
    ``found`` (None: unknown) with a run of settings ``wanted``, unless ``mix``.

    Raises InvalidOptionError naming the settings that differ and --resume-any.
    """
    if mix:
        return
    if found is None:
        raise InvalidOptionError(f"{where} does not record the method and limits it was "
                                 "made with (written before bakers recorded them): add "
                                 "--resume-any to add rows of this run's settings to it")
    differ = [key for key in FLAGS if found.get(key) != wanted.get(key)]
    if differ:
        was = ", ".join(_shown(key, found.get(key)) for key in differ)
        now = ", ".join(_shown(key, wanted.get(key)) for key in differ)
        raise InvalidOptionError(f"{where} was made with {was}, this run has {now}: resume "
                                 "with the same method and limits, or add --resume-any to "
                                 "mix them")
