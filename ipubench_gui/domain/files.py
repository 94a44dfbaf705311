"""Writing a user's file in one step: readers see the old file or the new one."""

from __future__ import annotations

import os
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


def atomic_write(
    path: Path,
    save: Callable[[str], object],
    error: type[Exception] = OSError,
) -> Path:
    """``save(tmp_name)`` writes a file by name beside ``path``; it is renamed
    over ``path`` only when complete and removed if anything fails. Failures
    raise ``error`` with a message naming ``path`` and the reason. The new file
    keeps the mode of the one it replaces, else the usual mode for new files."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise error(f"cannot write {path}: folder {folder} does not exist")
    try:
        fd, tmp = tempfile.mkstemp(
            prefix=f".{path.stem}.", suffix=path.suffix, dir=folder
        )
        os.close(fd)
    except OSError as exc:
        raise error(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        save(tmp)
        try:
            mode = path.stat().st_mode & 0o7777
        except OSError:
            mode = _NEW_FILE_MODE
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except OSError as exc:
        raise error(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        Path(tmp).unlink(missing_ok=True)
    return path
