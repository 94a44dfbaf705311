"""The user's database as a window follows it: whether the file changed since
the copy the window reads was taken, and a fresh copy (another process, an
import from the command line, may write the file while the window is open)."""

from __future__ import annotations

from pathlib import Path

from ipubench_gui.store.db import Database, UserLocked
from ipubench_gui.store.health import file_stamp

__all__ = ["UserLocked", "changed", "reread", "watched_file"]


def watched_file(db: Database) -> Path | None:
    """The user's database file ``db`` reads a copy of, if it can read it
    again (a window's store); None otherwise."""
    return db.user_file if db.reopen is not None else None


def changed(db: Database) -> bool:
    """The file is not what ``db``'s copy was taken from."""
    return db.user_file is not None and file_stamp(db.user_file) != db.user_stamp


def reread(db: Database) -> Database:
    """A fresh copy of the file, read as ``db`` reads it; raises UserLocked
    at once while another process writes it."""
    assert db.reopen is not None
    return db.reopen("peek")
