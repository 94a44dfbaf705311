"""Writing a user's file in one step: readers see the old file or the new one."""

from __future__ import annotations

import os
import re
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# Read once, on import (the main thread): a temporary file is created 0600,
# and an exported chart or table should get the mode any new file would.
_NEW_FILE_MODE = 0o666 & ~_umask()


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
        raise error(f"cannot write {given}: {reason}") from None
    finally:
        Path(tmp).unlink(missing_ok=True)
    return given
