"""Where things live: bundled resources and data, user state.

The only module that knows how the app was installed. ``data/`` and
``resources/`` are top-level folders of the repository; the build puts them
elsewhere, and ``root()`` is the folder that holds both:

- frozen (PyInstaller): the bundle folder (``sys._MEIPASS``);
- installed from a wheel (pip, pipx): the package folder, where ``setup.py``
  copies them (``site-packages/ipubench_gui/data``);
- a source checkout (also an editable install): the repository.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

APP_NAME = "ipubench-gui"
ORG_NAME = "ipubench"
HOME_ENV = "IPUBENCH_GUI_HOME"


def root() -> Path:
    """The folder holding ``data/`` and ``resources/`` (see the module's text)."""
    if getattr(sys, "frozen", False):
        return Path(getattr(sys, "_MEIPASS", Path(sys.executable).parent))
    package = Path(__file__).resolve().parent
    if (package / "data").is_dir():  # installed: the wheel carries them inside
        return package
    return package.parent


def data_dir() -> Path:
    return root() / "data"


def resource(*parts: str) -> Path:
    """Path of a file under ``resources/``; raises if it does not exist."""
    p = root().joinpath("resources", *parts)
    if not p.exists():
        raise FileNotFoundError(f"missing resource: {p}")
    return p


class UserFolderError(OSError):
    """A user folder that cannot be made or used; the message names it and
    says what to do."""


# What is said about a user folder that cannot be used, by cause.
NOT_A_FOLDER = (
    "{what} is a file, not a folder: move or rename it, and the app makes {its} there"
)
NOT_WRITABLE = (
    "{folder} cannot be written ({why}): make it writable, or set "
    f"{HOME_ENV} to a folder that is"
)
CANNOT_MAKE = "{folder} cannot be made ({why})"


def _folder_problem(folder: Path, exc: OSError) -> str:
    """Why ``folder`` cannot be made, in words (see the messages above)."""
    for p in (*reversed(folder.parents), folder):
        if p.exists() and not p.is_dir():
            its = "the folder" if p == folder else "its folders"
            return NOT_A_FOLDER.format(what=p, its=its)
    why = exc.strerror or str(exc)
    if isinstance(exc, PermissionError) or exc.errno == 30:  # EROFS
        # the folder that is there and may not be written: one answer for
        # every user folder under it
        there = next((p for p in (folder, *folder.parents) if p.exists()), folder)
        return NOT_WRITABLE.format(folder=there, why=why)
    return CANNOT_MAKE.format(folder=folder, why=why)


def user_dir(kind: str = "data") -> Path:
    """A per-user folder (``data``, ``cache`` or ``config``), created; raises
    UserFolderError saying which folder and what to do when it cannot be
    (a file in its place, a read-only parent).

    ``$IPUBENCH_GUI_HOME`` puts all user state under one folder (portable use,
    tests); otherwise Qt's standard locations for this platform are used.
    """
    home = os.environ.get(HOME_ENV)
    if home:
        p = Path(home) / kind
    else:
        from PySide6.QtCore import QCoreApplication, QStandardPaths

        QCoreApplication.setOrganizationName(ORG_NAME)
        QCoreApplication.setApplicationName(APP_NAME)
        loc = {
            "data": QStandardPaths.StandardLocation.AppDataLocation,
            "cache": QStandardPaths.StandardLocation.CacheLocation,
            "config": QStandardPaths.StandardLocation.AppConfigLocation,
        }[kind]
        p = Path(QStandardPaths.writableLocation(loc))
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserFolderError(_folder_problem(p, exc)) from None
    return p
