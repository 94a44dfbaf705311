"""SourcesDialog: the imported sources, to rename or remove."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)


class SourcesDialog(QDialog):
    renameRequested = Signal(int, str)
    removeRequested = Signal(int)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Imported sources")
        self.table = QTableWidget(0, 5)
        self.table.setHorizontalHeaderLabels(
            ["Label", "File", "Imported", "Rows", "Skipped"]
        )
        self.table.itemChanged.connect(self._on_item_changed)
        self.remove_button = QPushButton("Remove…")
        self.remove_button.clicked.connect(self._on_remove)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        row = QHBoxLayout()
        row.addWidget(QLabel("Double-click a label to rename it."))
        row.addStretch(1)
        row.addWidget(self.remove_button)
        lay = QVBoxLayout(self)
        lay.addWidget(self.table)
        lay.addLayout(row)
        lay.addWidget(close)
        self._ids: list[int] = []
        self._filling = False

    def show_sources(self, sources: list[tuple]) -> None:
        self._filling = True
        self.table.setRowCount(len(sources))
        self._ids = [s[0] for s in sources]
        for i, (_sid, label, file, when, rows, skipped) in enumerate(sources):
            for j, v in enumerate(
                (label, file, str(when)[:19], str(rows), str(skipped))
            ):
                it = QTableWidgetItem(v)
                if j:
                    it.setFlags(it.flags() & ~it.flags().ItemIsEditable)
                self.table.setItem(i, j, it)
        self.table.resizeColumnsToContents()
        self.remove_button.setEnabled(bool(sources))
        self._filling = False

    def _on_item_changed(self, item: QTableWidgetItem) -> None:
        if not self._filling and item.column() == 0 and item.text().strip():
            self.renameRequested.emit(self._ids[item.row()], item.text().strip())

    def _on_remove(self) -> None:
        from PySide6.QtWidgets import QMessageBox

        row = self.table.currentRow()
        if row < 0:
            return
        label = self.table.item(row, 0).text()
        ok = QMessageBox.question(
            self,
            "Remove imported source",
            f"Remove '{label}' and its rows? The file itself is not touched.",
        )
        if ok == QMessageBox.StandardButton.Yes:
            self.removeRequested.emit(self._ids[row])
