"""ResultPicker: find results by any text and add them to the comparison."""

from __future__ import annotations

from PySide6.QtCore import QSortFilterProxyModel, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QTableView,
    QVBoxLayout,
)

from ipubench_gui.ui.models.results_model import ID_ROLE, ResultsModel


class ResultPicker(QDialog):
    """Searches the rows of the current page (all columns, case-insensitive)."""

    picked = Signal(str)

    def __init__(self, model: ResultsModel, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Add results to the comparison")
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(model)
        self.proxy.setFilterKeyColumn(-1)  # every column
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.search = QLineEdit(
            placeholderText="Type any part of a model, platform, framework, id…",
            clearButtonEnabled=True,
        )
        self.search.textChanged.connect(self.proxy.setFilterFixedString)
        self.view = QTableView()
        self.view.setModel(self.proxy)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.verticalHeader().hide()
        self.view.doubleClicked.connect(self._add_current)
        self.view.activated.connect(self._add_current)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        add = buttons.addButton("Add", QDialogButtonBox.ButtonRole.ActionRole)
        add.clicked.connect(self._add_selected)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(
            QLabel(
                "Results matching the current filters; Enter or double-click adds one."
            )
        )
        lay.addWidget(self.search)
        lay.addWidget(self.view, 1)
        lay.addWidget(buttons)
        em = self.fontMetrics().horizontalAdvance("M")
        self.resize(em * 90, em * 45)

    def _add_current(self, index) -> None:
        if index.isValid():
            self.picked.emit(index.data(ID_ROLE))

    def _add_selected(self) -> None:
        for ix in self.view.selectionModel().selectedRows():
            self.picked.emit(ix.data(ID_ROLE))
