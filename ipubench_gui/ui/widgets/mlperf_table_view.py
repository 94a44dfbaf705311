"""MLPerfTableView: the MLPerf results table (a row per system and framework,
a column per benchmark), its unit above and the footnote the MLPerf messaging
rules ask for below; choosing a cell chooses its result. No logic."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ipubench_gui.domain.mlperf_table import KEYS, MLPerfTable
from ipubench_gui.ui.models.mlperf_table_model import RESULT_ROLE, MLPerfTableModel

KEY_CHARS = 24  # widest a row's name column starts (the rest is elided)
LOADING = "Putting the MLPerf results into a table…"
EMPTY = (
    "No official MLPerf results match the filters (the Source kind, MLPerf "
    "round, Division and Availability filters choose them)."
)


class MLPerfTableView(QWidget):
    resultChosen = Signal(str)  # a cell's result id
    exportRequested = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = MLPerfTableModel(self)
        self.view = QTableView()
        self.view.setModel(self.model)
        self.view.setAccessibleName("MLPerf results table")
        self.view.setSortingEnabled(True)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setWordWrap(False)
        rows = self.view.verticalHeader()
        rows.hide()
        rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        rows.setDefaultSectionSize(self.fontMetrics().height() + 6)
        head = self.view.horizontalHeader()
        head.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        head.setSortIndicatorShown(True)
        head.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)  # the table's order
        self.view.selectionModel().currentChanged.connect(self._on_view_current)
        self.unit = QLabel(LOADING)
        self.unit.setAccessibleName("MLPerf results table unit")
        self.export_button = QPushButton("Export…")
        self.export_button.setToolTip(
            "Save the table as shown (sorted, filtered): CSV, Markdown or Excel"
        )
        self.export_button.clicked.connect(self.exportRequested)
        top = QHBoxLayout()
        top.addWidget(self.unit, 1)
        top.addWidget(self.export_button)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        small = self.note.font()
        small.setPointSizeF(small.pointSizeF() * 0.85)  # the table keeps the room
        self.note.setFont(small)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addLayout(top)
        lay.addWidget(self.view, 1)
        lay.addWidget(self.note)
        self.setFocusProxy(self.view)

    def show_table(self, table: MLPerfTable) -> None:
        head = self.view.horizontalHeader()
        column, order = head.sortIndicatorSection(), head.sortIndicatorOrder()
        self.model.set_table(table)
        if 0 <= column < self.model.columnCount():
            self.model.sort(column, order)  # the user's order, kept
        self.view.resizeColumnsToContents()
        # long system names and folders elided, so the benchmarks show
        widest = self.fontMetrics().horizontalAdvance("x" * KEY_CHARS)
        for c in range(len(KEYS)):
            if self.view.columnWidth(c) > widest:
                self.view.setColumnWidth(c, widest)
        n = len(table.rows)
        self.unit.setText(
            f"{table.unit} · {n} system{'s' * (n != 1)} × "
            f"{len(table.benchmarks)} benchmarks"
            if n
            else EMPTY
        )
        self.note.setText(table.footnote() if n else "")
        self.export_button.setEnabled(bool(n))

    def show_error(self, message: str) -> None:
        self.unit.setText(f"The MLPerf results table could not be made: {message}")

    def current_result(self) -> str | None:
        """The result id of the current cell, if it is a result."""
        return self.view.currentIndex().data(RESULT_ROLE)

    def _on_view_current(self, index: QModelIndex, _previous: QModelIndex) -> None:
        rid = index.data(RESULT_ROLE) if index.isValid() else None
        if rid:
            self.resultChosen.emit(str(rid))
