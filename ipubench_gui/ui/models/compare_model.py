"""CompareModel: attributes down, configurations across; differences highlighted."""

from __future__ import annotations

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QSize,
    Qt,
)
from PySide6.QtGui import QColor, QFont, QPalette

from ipubench_gui.domain.compare import CompareRow, shown
from ipubench_gui.domain.likeness import DIFFERS, SAME, UNKNOWN

DIFFERS_ROLE = Qt.ItemDataRole.UserRole + 1
STATUS_ROLE = Qt.ItemDataRole.UserRole + 2  # same | differs | unknown | n/a
_Index = QModelIndex | QPersistentModelIndex
HIGHLIGHT = QColor(230, 159, 0, 70)  # palette orange, translucent: light and dark


class CompareModel(QAbstractTableModel):
    def __init__(self, parent=None):
        super().__init__(parent)
        self._rows: list[CompareRow] = []
        self._ids: list[str] = []
        self._labels: list[str] = []
        self._baseline = 0
        self.only_differences = False
        self._shown: list[CompareRow] = []
        self._flash: tuple[int, QColor] | None = None  # a column just added
        self._header_height = 0  # headers wrapped at words (WordColumns)

    def set_table(
        self,
        rows: list[CompareRow],
        ids: list[str],
        baseline: int,
        labels: list[str] | None = None,
    ) -> None:
        """``labels`` head the columns ("model · platform · batch"); the full
        result id is the header's tooltip."""
        self.beginResetModel()
        self._rows, self._ids, self._baseline = rows, ids, baseline
        self._labels = list(labels) if labels else list(ids)
        self._filter()
        self.endResetModel()

    def set_only_differences(self, on: bool) -> None:
        self.beginResetModel()
        self.only_differences = on
        self._filter()
        self.endResetModel()

    def set_flash(self, column: int | None, color: QColor | None = None) -> None:
        """Paint ``column``'s cells ``color`` (a column just added), or none."""
        self._flash = None if column is None or color is None else (column, color)
        if 0 <= (column or 0) < self.columnCount() and self._shown:
            c = column or 0
            self.dataChanged.emit(
                self.index(0, c),
                self.index(len(self._shown) - 1, c),
                [Qt.ItemDataRole.BackgroundRole],
            )

    def set_header_height(self, height: int) -> None:
        """The headers' height, their labels wrapped to their columns' widths
        (Qt's header sizes itself to one line)."""
        if height != self._header_height and self._ids:
            self._header_height = height
            last = len(self._ids) - 1
            self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, last)

    def flash(self) -> tuple[int, QColor] | None:
        return self._flash

    def _filter(self) -> None:
        self._shown = shown(self._rows, self.only_differences)

    def rows(self) -> list[CompareRow]:
        return list(self._shown)

    def ids(self) -> list[str]:
        return list(self._ids)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._shown)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._ids)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        r, c = self._shown[index.row()], index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return r.shown(c)
        if role == Qt.ItemDataRole.ToolTipRole:
            return _tip(r, c)
        if role == DIFFERS_ROLE:
            return r.differs
        if role == STATUS_ROLE:
            return r.cells[c] if c < len(r.cells) else ""
        if role == Qt.ItemDataRole.BackgroundRole:
            if self._flash is not None and self._flash[0] == c:
                return self._flash[1]
            if _differs(r, c):
                return HIGHLIGHT
        if role == Qt.ItemDataRole.ForegroundRole and r.shown(c) != r.values[c]:
            return QPalette().color(QPalette.ColorRole.PlaceholderText)
        if role == Qt.ItemDataRole.FontRole and r.kind == "ratio":
            f = QFont()
            f.setBold(True)
            return f
        return None

    def headerData(
        self,
        section: int,
        orientation: Qt.Orientation,
        role: int = Qt.ItemDataRole.DisplayRole,
    ):
        horizontal = orientation == Qt.Orientation.Horizontal
        if horizontal and section < len(self._ids):
            if role == Qt.ItemDataRole.ToolTipRole:
                return self._ids[section]
            if role == Qt.ItemDataRole.SizeHintRole and self._header_height:
                return QSize(0, self._header_height)
            if role == Qt.ItemDataRole.DisplayRole:
                mark = " ★ baseline" if section == self._baseline else ""
                return f"{self._labels[section]}{mark}"
        vertical = orientation == Qt.Orientation.Vertical
        if vertical and section < len(self._shown):
            if role == Qt.ItemDataRole.ToolTipRole:  # which side it is on
                return SIDES.get(self._shown[section].side) or None
            if role == Qt.ItemDataRole.DisplayRole:
                return self._shown[section].label
        return None


SIDES = {
    "workload": "Workload: what was run. Any difference here is not like for like.",
    "system": "System: what ran it. What a like-for-like comparison compares.",
}
_STATUS_TIPS = {
    UNKNOWN: "unknown: blank on one side or both, so neither the same nor different",
    DIFFERS: "differs from the baseline",
    SAME: "the same as the baseline",
}


def _differs(r: CompareRow, c: int) -> bool:
    """An attribute cell unlike the baseline's (the whole row when it is)."""
    if r.kind != "attribute":
        return False
    return r.cells[c] == DIFFERS if c < len(r.cells) and r.cells[c] else r.differs


def _tip(r: CompareRow, c: int) -> str:
    text = r.shown(c)
    status = r.cells[c] if c < len(r.cells) else ""
    if r.kind == "attribute" and status in _STATUS_TIPS:
        side = f" ({r.side})" if r.side else ""
        return f"{text}\n{r.label}{side}: {_STATUS_TIPS[status]}"
    return text
