"""Files a user gives or keeps: written in one step (readers see the old file or
the new one), and read only when they are regular files, never more than they
have reason to hold (a pipe or a device would block or never end)."""

from __future__ import annotations

import os
import re
import stat
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# Read once, on import (the main thread): a temporary file is created 0600,
# and an exported chart or table should get the mode any new file would.
_NEW_FILE_MODE = 0o666 & ~_umask()


class ExportError(Exception):
    """An export (a chart, a table, a comparison) could not be written; the
    message names the path and why. One class for every export, so the
    window and the command line catch one error whatever wrote the file."""


def io_reason(text: str) -> str:
    """The reason in an I/O error's text, without the file it names (which
    may be a temporary one): 'No space left on device', 'Permission denied'."""
    m = re.search(
        r"(No space left on device|Disk quota exceeded|Permission denied|"
        r"Operation not permitted|Read-only file system|File too large|"
        r"Input/output error)",
        text,
    )
    if m:
        return m[1]
    return text.strip().split("\n", 1)[0][:200]


# What to do when a file cannot be written, by the system's reason.
WRITE_FIX = {
    "No space left on device": ": free some space on that disk, or save elsewhere",
    "Disk quota exceeded": ": free some space, or save elsewhere",
    "Permission denied": ": save it in a folder you may write",
    "Read-only file system": " (a read-only disk): save it elsewhere",
    "File too large": " (the disk takes no file that large): save it elsewhere",
}


def writable_target(path: Path, error: type[Exception] = OSError) -> Path:
    """The regular file a write to ``path`` should replace: a symbolic link's
    target (so the link stays a link), ``path`` itself if new; a device, pipe
    or folder is refused (replacing /dev/full with a file helps no one)."""
    path = Path(path)
    if path.is_symlink():
        path = Path(os.path.realpath(path))
    try:
        st = path.stat()
    except FileNotFoundError:
        return path
    except OSError as exc:
        raise error(f"cannot write {path}: {exc.strerror or exc}") from None
    if stat.S_ISDIR(st.st_mode):
        raise error(f"cannot write {path}: it is a folder")
    if not stat.S_ISREG(st.st_mode):
        raise error(
            f"cannot write {path}: it is a device or a pipe, not a regular file"
        )
    return path


def atomic_write(
    path: Path,
    save: Callable[[str], object],
    error: type[Exception] = OSError,
) -> Path:
    """``save(tmp_name)`` writes a file by name beside ``path``; it is renamed
    over ``path`` only when complete and removed if anything fails. Failures
    raise ``error`` with a message naming ``path`` and the reason (never the
    temporary file). The new file keeps the mode of the one it replaces, else
    the usual mode for new files. A symbolic link is written through (its
    target replaced); devices and pipes are refused."""
    given = Path(path)
    path = writable_target(given, error)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise error(f"cannot write {given}: folder {folder} does not exist")
    try:
        fd, tmp = tempfile.mkstemp(
            prefix=f".{path.stem}.", suffix=path.suffix, dir=folder
        )
        os.close(fd)
    except OSError as exc:
        raise error(f"cannot write {given}: {exc.strerror or exc}") from None
    try:
        save(tmp)
        try:
            mode = path.stat().st_mode & 0o7777
        except OSError:
            mode = _NEW_FILE_MODE
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except OSError as exc:
        reason = exc.strerror or io_reason(str(exc))
        reason = reason.replace(tmp, str(given)).replace(Path(tmp).name, given.name)
        fix = WRITE_FIX.get(reason, "")
        raise error(f"cannot write {given}: {reason}{fix}") from None
    finally:
        Path(tmp).unlink(missing_ok=True)
    return given


class NotRegular(OSError):
    """A path that names something other than a regular file (a pipe, a
    device, a socket, a folder); the message names it and what it is."""


def kind_of(mode: int) -> str:
    """What a file of ``mode`` is, in words ("a named pipe (FIFO)", ...)."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def check_regular(path: Path) -> os.stat_result:
    """``path``'s status (following links) when it is a regular file; raises
    NotRegular naming what it is otherwise (OSError when it cannot be seen)."""
    st = os.stat(path)
    if not stat.S_ISREG(st.st_mode):
        raise NotRegular(f"{path} is {kind_of(st.st_mode)}, not a regular file")
    return st


@contextmanager
def open_regular(path: Path, limit: int | None = None) -> Iterator[BinaryIO]:
    """``path`` opened for binary reading, only if it is a regular file (a
    pipe is opened without waiting for a writer, then refused) and, with
    ``limit``, no larger than ``limit`` bytes (OSError naming the size)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotRegular(f"{path} is {kind_of(st.st_mode)}, not a regular file")
        if limit is not None and st.st_size > limit:
            raise OSError(
                f"{path} is too large to be what it should be "
                f"({st.st_size:,} bytes; at most {limit:,})"
            )
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        f = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with f:
        yield f


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them
    (see :func:`open_regular`; a file that grows while read is cut there)."""
    with open_regular(path, limit) as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise OSError(f"{path} grew beyond {limit:,} bytes while it was read")
    return data
