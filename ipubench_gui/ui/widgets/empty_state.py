"""EmptyState: shown instead of a blank table and canvas when nothing matches."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

MESSAGE = "No results match these filters."


class EmptyState(QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.title = QLabel(f"<h2>{MESSAGE}</h2>")
        self.title.setWordWrap(True)
        self.title.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        self.detail = QLabel()
        self.detail.setWordWrap(True)
        self.detail.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        self.detail.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
        )
        self.clear_button = QPushButton("Clear filters")
        # The labels take the whole width (at most a line's worth of words):
        # centred by a layout alignment, a wrapped label got its one-line
        # height and showed the filters cut off at top and bottom.
        self.text = QWidget()
        self.text.setMaximumWidth(self.fontMetrics().horizontalAdvance("M") * 50)
        col = QVBoxLayout(self.text)
        col.setContentsMargins(0, 0, 0, 0)
        col.addWidget(self.title)
        col.addWidget(self.detail)
        col.addWidget(self.clear_button, 0, Qt.AlignmentFlag.AlignHCenter)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.text, 100)
        row.addStretch(1)
        lay = QVBoxLayout(self)
        lay.addStretch(1)
        lay.addLayout(row)
        lay.addStretch(2)

    def set_description(self, text: str) -> None:
        self.detail.setText(
            f"Active filters: {text}. Remove a filter above, or clear them all."
        )
