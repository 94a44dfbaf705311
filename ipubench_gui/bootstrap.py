"""Open the bundled results store for the app and the command line."""

from __future__ import annotations

import os
import stat
import tempfile
import threading
from concurrent.futures import Future
from dataclasses import replace
from pathlib import Path

from ipubench_gui import paths, trace
from ipubench_gui.store.db import Database
from ipubench_gui.store.user.userdb import open_combined

# What is said when a user folder cannot be used (paths says which and why).
NO_CACHE = (
    "Your cache folder cannot be used: {why}. Meanwhile the results store is "
    "built in {where}."
)
NO_DATA = "Importing is off: {why}."
NO_HOME = "{why}. Meanwhile importing is off and the results store is built in {where}."


def open_store(
    data_dir: Path | None = None, user: bool = True, mode: str = "read"
) -> Database:
    """The bundled results (built once if needed) plus the user's imports,
    held as ``mode`` says (store.userdb.open_combined: "read" for a command
    that reads, "write" for an import, "snapshot" for a window).

    The bundled data is never written: a store that does not match it is built
    into the user's cache folder and reused while the data is unchanged. The
    user's own results live in ``user_db_path()``; ``db.user_status`` says if
    they could not be opened and what was done about it.
    """
    data = data_dir or paths.data_dir()
    said: list[str] = []
    no_cache = no_data = None
    try:
        cache = paths.user_dir("cache")
    except paths.UserFolderError as exc:
        cache, no_cache = private_cache(), str(exc)
    user_db = None
    if user:
        try:
            user_db = user_db_path()
        except paths.UserFolderError as exc:
            no_data = str(exc)
    if no_cache and no_cache == no_data:  # the home folder itself
        said.append(NO_HOME.format(why=_sentence(no_cache), where=cache))
    else:
        if no_cache:
            said.append(NO_CACHE.format(why=no_cache, where=cache))
        if no_data:
            said.append(NO_DATA.format(why=no_data))
    db, status = open_combined(data, cache, user_db, mode)
    if said:
        db.user_status = replace(
            status, message=" ".join([*said, status.message]).strip()
        )
    return db


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def private_cache() -> Path:
    """A cache folder of this user's own under the system's temporary folder,
    for when the usual one cannot be used: made 0700, and used only if it is
    a real folder that this user owns (another user could plant a link)."""
    base = Path(tempfile.gettempdir())
    uid = os.getuid() if hasattr(os, "getuid") else 0
    p = base / f"ipubench-gui-cache-{uid}"
    try:
        p.mkdir(mode=0o700, exist_ok=True)
        st = os.lstat(p)
        if stat.S_ISDIR(st.st_mode) and getattr(st, "st_uid", uid) == uid:
            return p
    except OSError:
        pass
    return Path(tempfile.mkdtemp(prefix="ipubench-gui-cache-"))


def open_store_async(data_dir: Path | None = None) -> Future[Database]:
    """``open_store`` on a thread of its own; the Future holds the Database or
    the error opening raised."""
    fut: Future[Database] = Future()

    def run() -> None:
        try:
            db = open_store(data_dir, mode="snapshot")
            trace.mark("store open")
            fut.set_result(db)
        except BaseException as exc:  # handed to whoever waits on the Future
            fut.set_exception(exc)

    threading.Thread(target=run, name="ipubench-open", daemon=True).start()
    return fut


def damage_message(exc: BaseException) -> str:
    """What to say (and do) about a damaged block a command met: the
    damaged file found, marked or removed (store.userdb.damage_found)."""
    from ipubench_gui.store.bundled.build import store_places
    from ipubench_gui.store.user.userdb import damage_found

    try:
        user: Path | None = user_db_path()
    except paths.UserFolderError:
        user = None
    try:
        stores = list(store_places(paths.data_dir(), paths.user_dir("cache")))
    except paths.UserFolderError:
        stores = [paths.data_dir() / "results.duckdb"]
    return damage_found(exc, user, stores)


def user_db_path() -> Path:
    """Where the user's imported results are kept (raises
    paths.UserFolderError when the folder cannot be made)."""
    return paths.user_dir("data") / "user.duckdb"


if __name__ == "__main__":  # hold the store as a command would (tests)
    import sys
    import time

    held = open_store(mode=sys.argv[1])
    print("holding", flush=True)
    time.sleep(float(sys.argv[2]))
    held.close()
