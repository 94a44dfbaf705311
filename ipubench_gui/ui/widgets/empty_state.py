"""EmptyState: shown instead of a blank table and canvas when nothing matches."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget

MESSAGE = "No results match these filters."


class EmptyState(QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.title = QLabel(f"<h2>{MESSAGE}</h2>")
        self.detail = QLabel()
        self.detail.setWordWrap(True)
        self.clear_button = QPushButton("Clear filters")
        lay = QVBoxLayout(self)
        lay.addStretch(1)
        for w in (self.title, self.detail, self.clear_button):
            lay.addWidget(w, 0, Qt.AlignmentFlag.AlignHCenter)
        lay.addStretch(2)

    def set_description(self, text: str) -> None:
        self.detail.setText(
            f"Active filters: {text}. Remove a filter above, or clear them all."
        )
