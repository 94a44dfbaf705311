"""MLPerfTableModel: a thin table model over an immutable MLPerfTable (a row
per system and framework, a column per benchmark); sorting reorders the
table's rows (a few hundred), nothing is queried again."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)

from ipubench_gui.domain.mlperf_table import KEYS, Cell, MLPerfTable

Index = QModelIndex | QPersistentModelIndex
_ROOT = QModelIndex()
RAW_ROLE = Qt.ItemDataRole.UserRole  # the figure (or key) as a number or text
RESULT_ROLE = Qt.ItemDataRole.UserRole + 1  # a cell's result id


class MLPerfTableModel(QAbstractTableModel):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._table = MLPerfTable((), ())

    @property
    def table(self) -> MLPerfTable:
        return self._table

    def set_table(self, table: MLPerfTable) -> None:
        self.beginResetModel()
        self._table = table
        self.endResetModel()

    def cell(self, index: Index) -> Cell | None:
        if not index.isValid():
            return None
        return self._table.cell(index.row(), index.column())

    # -- Qt ----------------------------------------------------------------
    def rowCount(self, parent: Index = _ROOT) -> int:
        return 0 if parent.isValid() else len(self._table.rows)

    def columnCount(self, parent: Index = _ROOT) -> int:
        return 0 if parent.isValid() else len(self._table.headers)

    def headerData(
        self,
        section: int,
        orientation: Qt.Orientation,
        role: int = Qt.ItemDataRole.DisplayRole,
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return None
        if not 0 <= section < len(self._table.headers):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self._table.headers[section]
        if role == Qt.ItemDataRole.ToolTipRole and section >= len(KEYS):
            return f"{self._table.headers[section]}: {self._table.unit}"
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row, col = index.row(), index.column()
        if not (0 <= row < len(self._table.rows) and 0 <= col < self.columnCount()):
            return None
        per_chip = self._table.per_chip
        if col < len(KEYS):
            v = self._table.rows[row].keys[col]
            if role in (Qt.ItemDataRole.DisplayRole, RAW_ROLE):
                return "" if v is None and role == Qt.ItemDataRole.DisplayRole else v
            if role == Qt.ItemDataRole.TextAlignmentRole and isinstance(v, int):
                return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            return None
        c = self._table.cell(row, col)
        if role == Qt.ItemDataRole.DisplayRole:
            return c.text(per_chip) if c else ""
        if role == RAW_ROLE:
            return c.value(per_chip) if c else None
        if role == RESULT_ROLE:
            return c.result_id if c else None
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole and c is not None:
            return _tooltip(c, self._table, row, col)
        return None

    def sort(
        self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder
    ) -> None:
        if not 0 <= column < self.columnCount():
            return
        self.layoutAboutToBeChanged.emit()
        self._table = self._table.sorted_by(
            column, order == Qt.SortOrder.DescendingOrder
        )
        self.layoutChanged.emit()


def _tooltip(c: Cell, table: MLPerfTable, row: int, col: int) -> str:
    keys = dict(zip((k for k, _ in KEYS), table.rows[row].keys, strict=True))
    lines = [
        f"{table.headers[col]} · {keys['submitter']} · {keys['system_name']}",
        f"MLPerf Training v{keys['mlperf_round']}, {keys['division']} division, "
        f"{keys['category']}",
    ]
    figure = c.text(table.per_chip)
    if figure and figure != "logs missing":
        lines.append(
            f"{figure} chip-minutes (derived: {c.minutes:.2f} min × "
            f"{c.accelerators} accelerators)"
            if table.per_chip
            else f"{figure} minutes"
        )
    elif c.status != "scored":
        lines.append(f"No score: {c.status}")
    if c.mlperf_id:
        lines.append(f"MLPerf result ID {c.mlperf_id}")
    lines.append(f"Result {c.result_id} (choose it for details, compare, explain)")
    return "\n".join(lines)
