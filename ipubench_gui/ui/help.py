"""Help: the keyboard shortcuts (F1), read from the window's own actions, and
About with versions and the data's sources."""

from __future__ import annotations

import html

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QMessageBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ipubench_gui import __version__


def shortcut_rows(window: QWidget) -> list[tuple[str, str, str]]:
    """(where, action, keys) for every action under ``window`` that has a key:
    the list is the actions themselves, so it cannot drift from them."""
    out = set()
    for act in window.findChildren(QAction):
        keys = [k for k in act.shortcuts() if not k.isEmpty()]
        if not keys or not act.text():
            continue
        owner = act.parent()
        where = (
            "Window"
            if owner is window
            else (
                getattr(owner, "accessibleName", lambda: "")() or type(owner).__name__
            )
        )
        text = act.text().replace("&&", "\0").replace("&", "").replace("\0", "&")
        shown = ", ".join(
            k.toString(QKeySequence.SequenceFormat.NativeText) for k in keys
        )
        out.add((where, text.rstrip(".…"), shown))
    return sorted(out, key=lambda r: (r[0] != "Window", r[0], r[1].lower()))


class ShortcutsDialog(QDialog):
    def __init__(self, window: QWidget):
        super().__init__(window)
        self.setWindowTitle("Keyboard shortcuts")
        rows = shortcut_rows(window)
        self.table = QTableWidget(len(rows), 3)
        self.table.setHorizontalHeaderLabels(["Where", "Action", "Keys"])
        self.table.setAccessibleName("Keyboard shortcuts")
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        for i, row in enumerate(rows):
            for j, text in enumerate(row):
                self.table.setItem(i, j, QTableWidgetItem(text))
        h = self.table.horizontalHeader()
        h.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        for c in (0, 2):
            h.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        lay = QVBoxLayout(self)
        lay.addWidget(self.table)
        lay.addWidget(buttons)
        self.resize(560, 480)

    def rows(self) -> list[tuple[str, ...]]:
        t = self.table
        return [
            tuple(t.item(i, j).text() for j in range(3)) for i in range(t.rowCount())
        ]


def about_html(sources_html: str) -> str:
    from ipubench_gui.cli import version_text  # the text --version prints

    versions = "<br>".join(html.escape(ln) for ln in version_text().splitlines())
    return (
        f"<h3>IPU Benchmark Explorer {__version__}</h3>"
        "<p>Published AI-accelerator benchmark results, filterable, with the "
        f"source of every figure.</p><p><b>Versions</b><br>{versions}</p>"
        "<p><b>Data sources</b></p>"
        + sources_html
        + "<p>Press F1 for the keyboard shortcuts.</p>"
        "<p>MLPerf is a trademark of MLCommons Association in the United States "
        "and other countries.</p>"
    )


def show_about(window: QWidget, sources_html: str) -> QMessageBox:
    box = QMessageBox(window)
    box.setWindowTitle("About IPU Benchmark Explorer")
    box.setText(about_html(sources_html))
    box.setStandardButtons(QMessageBox.StandardButton.Ok)
    box.open()
    return box
