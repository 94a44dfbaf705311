"""Warnings that do not block: a window-modal box, shown with ``open()``."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget


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
