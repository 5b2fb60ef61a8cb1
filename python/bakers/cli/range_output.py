"""The output file of `bakers range` (or standard output): refused when it exists
without ``--resume`` or ``--force``, opened to append and locked for the run, and with
``--resume`` continued after the rows it already holds (`range_resume`).
"""

from __future__ import annotations

import argparse
import fcntl
import os
import sys
from pathlib import Path
from typing import IO

from ..errors import InvalidOptionError
from ..variants import Variant
from .range_formats import Format
from .range_resume import done_deals


def open_output(args: argparse.Namespace, fmt: Format,
                variant: Variant) -> tuple[IO[str], set[int]]:
    """Return the output stream (positioned to append) and the deals it already holds.

    Raises InvalidOptionError for an existing file without --resume or --force, a file
    that cannot be resumed, or one that cannot be written.
    """
    if args.out is None:
        if args.resume:
            raise InvalidOptionError("--resume needs --out FILE (the file to continue)")
        header = fmt.header()
        if header:
            sys.stdout.write(header)
        return sys.stdout, set()
    path = Path(args.out)
    if path.is_dir():
        raise InvalidOptionError(f"--out {args.out!r} is a directory")
    if path.exists() and not (args.resume or args.force):
        raise InvalidOptionError(f"--out {args.out!r} exists: add --resume to continue it "
                                 "or --force to overwrite it")
    try:
        # Opened to append (never emptied before the lock is held), then locked for the
        # run: a second run on the file is refused before it reads or writes a byte.
        stream = open(path, "a", encoding="utf-8")  # noqa: SIM115
    except OSError as exc:
        raise InvalidOptionError(f"cannot write {args.out!r}: {exc.strerror}") from None
    try:
        _lock(stream, args.out)
        done: set[int] = set()
        if args.resume:
            done = done_deals(path, fmt, variant, args.solutions)
        else:
            stream.truncate(0)
        stream.seek(0, os.SEEK_END)
    except BaseException:
        stream.close()
        raise
    header = fmt.header()
    if header and stream.tell() == 0:
        stream.write(header)
        stream.flush()
    return stream, done


def _lock(stream: IO[str], name: str) -> None:
    """Take an exclusive lock on the open file ``stream`` for as long as it is open.

    Raises InvalidOptionError naming the process that holds it already.
    """
    try:
        fcntl.flock(stream.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = _lock_holder(os.fstat(stream.fileno()))
        who = f"process {holder}" if holder is not None else "another process"
        raise InvalidOptionError(f"--out {name!r} is being written by {who} (another "
                                 f"bakers range): wait for it to finish, or stop it and "
                                 f"--resume") from None


def _lock_holder(st: os.stat_result) -> int | None:
    """Return the id of the process holding a lock on the file of ``st`` (Linux's
    /proc/locks), or None when it cannot be told."""
    want = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    try:
        with open("/proc/locks", encoding="ascii") as locks:
            for line in locks:
                fields = line.split()
                if len(fields) > 5 and fields[1] == "FLOCK" and fields[5] == want:
                    return int(fields[4])
    except (OSError, ValueError):
        pass
    return None
