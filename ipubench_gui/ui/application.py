"""The QApplication, made once with the app's names and icon (no widgets).

What the command line's chart export and the self-test need of Qt; importing
it does not import the window (``app.py`` does).
"""

from __future__ import annotations

import sys

from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from ipubench_gui import __version__, paths


def app_icon() -> QIcon:
    return QIcon(str(paths.resource("icons", "app.svg")))


def ensure_app(argv: list[str] | None = None) -> QApplication:
    """The running QApplication, made now if there is none, named for settings."""
    app = QApplication.instance()
    if app is None:
        app = QApplication(argv or [sys.argv[0]])
    app.setOrganizationName(paths.ORG_NAME)
    app.setApplicationName(paths.APP_NAME)
    app.setApplicationDisplayName("IPU Benchmark Explorer")
    app.setApplicationVersion(__version__)
    app.setWindowIcon(app_icon())
    return app  # type: ignore[return-value]
