"""Open the bundled results store for the app and the command line."""

from __future__ import annotations

import threading
from concurrent.futures import Future
from pathlib import Path

from ipubench_gui import paths, trace
from ipubench_gui.store.db import Database
from ipubench_gui.store.userdb import open_combined


def open_store(data_dir: Path | None = None, user: bool = True) -> Database:
    """The bundled results (built once if needed) plus the user's imports.

    The bundled data is never written: a store that does not match it is built
    into the user's cache folder and reused while the data is unchanged. The
    user's own results live in ``user_db_path()``; ``db.user_status`` says if
    they could not be opened and what was done about it.
    """
    data = data_dir or paths.data_dir()
    db, _status = open_combined(
        data, paths.user_dir("cache"), user_db_path() if user else None
    )
    return db


def open_store_async(data_dir: Path | None = None) -> Future[Database]:
    """``open_store`` on a thread of its own; the Future holds the Database or
    the error opening raised."""
    fut: Future[Database] = Future()

    def run() -> None:
        try:
            db = open_store(data_dir)
            trace.mark("store open")
            fut.set_result(db)
        except BaseException as exc:  # handed to whoever waits on the Future
            fut.set_exception(exc)

    threading.Thread(target=run, name="ipubench-open", daemon=True).start()
    return fut


def user_db_path() -> Path:
    return paths.user_dir("data") / "user.duckdb"
