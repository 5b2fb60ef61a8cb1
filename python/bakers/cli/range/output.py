"""The output file of `bakers range` (or standard output): refused when it exists
without ``--resume`` or ``--force``, opened to append and locked for the run, and with
``--resume`` continued after the rows it already holds (`resume`).
"""

from __future__ import annotations

import argparse
import errno
import fcntl
import os
import stat
import sys
from collections.abc import Container
from pathlib import Path
from typing import IO, Any

from ...errors import InvalidOptionError
from ...variants import Variant
from .formats import Format
from .resume import Resumed, done_deals


def open_output(args: argparse.Namespace, fmt: Format, variant: Variant,
                deals: Container[int], record: dict[str, Any]) -> tuple[IO[str], set[int]]:
    """Return the output stream (positioned to append) and the deals it already holds;
    a new file (or standard output) starts with the ``record`` of the run's settings and
    the header. With --resume, the file's rows are checked to be of ``deals`` and its
    settings to be ``record`` (unless --resume-any).

    Raises InvalidOptionError for an existing file without --resume or --force, a file
    that cannot be resumed, or one that cannot be written.
    """
    header = fmt.header() or ""
    if args.out is None:
        if args.resume:
            raise InvalidOptionError("--resume needs --out FILE (the file to continue)")
        sys.stdout.write(fmt.record(record) + header)
        return sys.stdout, set()
    path = Path(args.out)
    if path.is_dir():
        raise InvalidOptionError(f"--out {args.out!r} is a directory")
    if path.exists() and not (args.resume or args.force):
        raise InvalidOptionError(f"--out {args.out!r} exists: add --resume to continue it "
                                 "or --force to overwrite it")
    stream = _open_regular(path, args.out)
    try:
        _lock(stream, args.out)
        resumed = Resumed()
        if args.resume:
            resumed = done_deals(path, stream.fileno(), fmt, variant, args.solutions, deals,
                                 record, args.resume_any)
        else:
            stream.truncate(0)
        stream.seek(0, os.SEEK_END)
    except BaseException:
        stream.close()
        raise
    start = "" if resumed.record or stream.tell() else fmt.record(record)
    start += "" if resumed.header else header
    if start:
        stream.write(start)
        stream.flush()
    return stream, resumed.done


def _open_regular(path: Path, name: str) -> IO[str]:
    """Return the regular file ``path`` open to append (made if missing; never emptied
    here, before the lock is held).

    Raises InvalidOptionError for a path that is not a regular file (a device such as
    /dev/full, a FIFO, a socket, or a link to one), whose endless or blocking reads and
    failing writes no run could resume, or for a file that cannot be opened.
    """
    # Without blocking: a FIFO with no reader would hold the open itself. The kind is
    # told from the open descriptor, so that a file swapped after a look by name is not
    # taken for the one seen.
    flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(path, flags, 0o666)
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a FIFO with no reader
            raise InvalidOptionError(f"--out {name!r} is a FIFO, not a regular file: give "
                                     "a file's path") from None
        raise InvalidOptionError(f"cannot write {name!r}: {exc.strerror}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise InvalidOptionError(f"--out {name!r} is {_kind(mode)}, not a regular file: "
                                     "give a file's path")
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return open(fd, "a", encoding="utf-8")  # noqa: SIM115


def _kind(mode: int) -> str:
    """Return what a file that is not regular is, for a message."""
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"


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
