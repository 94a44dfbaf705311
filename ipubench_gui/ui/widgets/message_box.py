"""The one way the app shows a message box: over a window, a warning that does
not block (``show_warning``); before any window exists, a box that waits
(``show_alone``)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from ipubench_gui.ui.messages import Message


def show_warning(
    parent: QWidget, title: str, text: str, informative: str = ""
) -> QMessageBox:
    """Show ``text`` over ``parent`` and return at once.

    ``QMessageBox.warning`` runs a nested event loop until it is answered, and
    store results keep arriving inside it; a box opened with ``open()`` blocks
    input to its window only. Tests find the real box as ``parent``'s child
    and press its button, as a user would.
    """
    box = QMessageBox(
        QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.Ok, parent
    )
    if informative:  # what to do, under what is wrong
        box.setInformativeText(informative)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()
    return box


def show_alone(title: str, text: str) -> None:
    """A box with no window under it (the app could not start): nothing else
    runs meanwhile, so it waits for its answer."""
    QMessageBox.critical(None, title, text)


def show_message(parent: QWidget, message: Message) -> QMessageBox:
    """``show_warning`` of a declared Message."""
    return show_warning(parent, message.title, message.text, message.todo)
