"""Open the bundled results store for the app and the command line."""

from __future__ import annotations

from pathlib import Path

from ipubench_gui import paths
from ipubench_gui.store.build import ensure_store
from ipubench_gui.store.db import Database


def open_store(data_dir: Path | None = None) -> Database:
    """Open the store built from the bundled data, building it once if needed.

    The bundled data is never written: a store that does not match it is built
    into the user's cache folder and reused while the data is unchanged.
    """
    data = data_dir or paths.data_dir()
    path, con = ensure_store(data, paths.user_dir("cache"))
    return Database(con, path)
