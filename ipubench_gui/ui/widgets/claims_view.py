"""ClaimsView: every claim and comparison with its verdict; one explained."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ipubench_gui.domain.claims import Audit, counts

COLUMNS = ("Claim", "Stated", "Recomputed", "Verdict", "Rests on", "Results used")
LOADING = "Checking every claim against the stored results…"
SHOWN = 10  # claims the dock shows at once when there is room (1920x1080)
HINT = (
    "Choose a claim: the results it was checked against are selected in the "
    "table, and its numbers are explained here."
)


class ClaimsView(QWidget):
    """A table of audits; the chosen one's explanation below. No logic."""

    claimChosen = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setAccessibleName("Claims")
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        # One line a claim, as the results table (a style's default row is
        # half as tall again): ten and more show in the dock at 1920x1080.
        self.table.verticalHeader().setDefaultSectionSize(
            self.fontMetrics().height() + 6
        )
        self.table.setWordWrap(False)
        head = self.table.horizontalHeader()
        head.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        head.setStretchLastSection(True)
        self.table.itemSelectionChanged.connect(self._on_table_selection_changed)
        self.explain = QPlainTextEdit()
        self.explain.setReadOnly(True)
        self.explain.setAccessibleName("Explain this number")
        self.explain.setFont(
            QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        )
        self.explain.setPlaceholderText(HINT)
        self.status = QLabel(LOADING)
        self.status.setWordWrap(True)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)
        split.addWidget(self.explain)
        # The list of claims takes what the dock gains; the explanation keeps
        # its lines (it scrolls).
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 0)
        split.setSizes([self.rows_height(SHOWN), self.fontMetrics().height() * 8])
        self.split = split
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.status)
        lay.addWidget(split, 1)
        self.setFocusProxy(self.table)
        self._ids: list[str] = []

    def rows_height(self, n: int) -> int:
        """The table's height showing ``n`` claims and its header."""
        t = self.table
        head = t.horizontalHeader().sizeHint().height()
        return head + n * t.verticalHeader().defaultSectionSize() + 2 * t.frameWidth()

    def preferred_height(self) -> int:
        """The dock's height showing ``SHOWN`` claims and the explanation."""
        return (
            self.status.sizeHint().height()
            + self.rows_height(SHOWN)
            + self.split.handleWidth()
            + self.fontMetrics().height() * 8
        )

    def show_audits(self, audits: list[Audit]) -> None:
        self._ids = [a.claim_id for a in audits]
        self.table.setRowCount(len(audits))
        for i, a in enumerate(audits):
            cells = (
                a.claim_id,
                a.stated,
                a.recomputed_text or "—",
                a.verdict,
                a.rests_on,
                ", ".join(a.result_ids) or "—",
            )
            for j, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(a.reason if j == 3 and a.reason else text)
                self.table.setItem(i, j, item)
        self.table.resizeColumnsToContents()
        # Long statements would push the verdict out of sight: cap each column
        # (the full text is in its tooltip and in the explanation below).
        widest = self.fontMetrics().horizontalAdvance("x" * 36)
        for j in range(len(COLUMNS) - 1):
            self.table.setColumnWidth(j, min(self.table.columnWidth(j), widest))
        self.status.setText(
            f"{len(audits)} claims and comparisons: {counts(audits)}. Ratios "
            "recomputed here are derived, not published figures; a verdict says "
            "whose figures it rests on (the vendor's own, or independent ones)."
        )

    def show_error(self, message: str) -> None:
        self.status.setText(f"The claims could not be checked: {message}")

    def show_explanation(self, text: str) -> None:
        self.explain.setPlainText(text)

    def choose(self, claim_id: str) -> None:
        """Select ``claim_id``'s row (as a click would)."""
        self.table.selectRow(self._ids.index(claim_id))

    def _on_table_selection_changed(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        if rows:
            self.claimChosen.emit(self._ids[rows[0].row()])
