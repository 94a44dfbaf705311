"""The app's version, its data's build date and its libraries' versions, as
``--version`` prints them and Help → About shows them."""

from __future__ import annotations

from ipubench_gui import __version__


def version_text() -> str:
    """The app's version, its data's build date, and its libraries' versions."""
    import duckdb
    import pyqtgraph
    import PySide6
    from PySide6.QtCore import qVersion

    from ipubench_gui import paths
    from ipubench_gui.store.bundled.build import built_at

    try:
        when = built_at(paths.data_dir(), paths.user_dir("cache"))
    except paths.UserFolderError:  # no cache folder: no store built there
        when = None
    data = f"built {when}" if when else "not built yet (it is built on first start)"
    return (
        f"ipubench-gui {__version__}\n"
        f"data: {data}\n"
        f"Qt {qVersion()} (PySide6 {PySide6.__version__}), pyqtgraph "
        f"{pyqtgraph.__version__}, DuckDB {duckdb.__version__}"
    )
