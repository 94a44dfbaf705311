"""FacetModel: the values of one facet, with counts and check states."""

from __future__ import annotations

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from ipubench_gui.domain.format import format_number

VALUE_ROLE = Qt.ItemDataRole.UserRole + 1
COUNT_ROLE = Qt.ItemDataRole.UserRole + 2

_Index = QModelIndex | QPersistentModelIndex

# As plain values: data() and flags() run for every painted row, and each
# Qt.X.Y spelled there is a Python-level enum lookup (| builds a new flag).
_DISPLAY = int(Qt.ItemDataRole.DisplayRole)
_CHECK = int(Qt.ItemDataRole.CheckStateRole)
_FOREGROUND = int(Qt.ItemDataRole.ForegroundRole)
_TOOLTIP = int(Qt.ItemDataRole.ToolTipRole)
_VALUE, _COUNT = int(VALUE_ROLE), int(COUNT_ROLE)
_CHECKED, _UNCHECKED = Qt.CheckState.Checked, Qt.CheckState.Unchecked
_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable


class FacetModel(QAbstractListModel):
    """Every known value of a facet (zero counts greyed, not hidden).

    Order: checked values first (so they can always be unticked), then by
    count descending, then by value.
    """

    def __init__(self, parent=None):
        super().__init__(parent)
        self._universe: list[object] = []
        self._counts: dict[object, int] = {}
        self._checked: frozenset = frozenset()
        self._order: list[object] = []

    def set_universe(self, values: list[object]) -> None:
        self._universe = list(values)
        self._resort()

    def set_counts(self, counts: dict[object, int], checked: frozenset) -> None:
        if counts == self._counts and checked == self._checked:
            return  # e.g. the facet just filtered on: its counts ignore itself
        self._counts = counts
        self._checked = checked
        self._resort()

    def set_checked(self, checked: frozenset) -> None:
        if checked == self._checked:
            return  # a filter change elsewhere: nothing to redraw here
        self._checked = checked
        self._resort()

    def values(self) -> list[object]:
        return list(self._order)

    def count(self, value: object) -> int:
        return self._counts.get(value, 0)

    def _resort(self) -> None:
        self.beginResetModel()
        known = set(self._universe)
        extra = [v for v in (*self._counts, *self._checked) if v not in known]
        vals = self._universe + list(dict.fromkeys(extra))
        self._order = sorted(
            vals,
            key=lambda v: (
                v not in self._checked,
                -self._counts.get(v, 0),
                (
                    v is None,
                    str(v) if not isinstance(v, (int, float)) else f"{v:020.6f}",
                ),
            ),
        )
        self.endResetModel()

    # -- Qt overrides ----------------------------------------------------------
    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._order)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        v = self._order[index.row()]
        n = self._counts.get(v, 0)
        if role == _DISPLAY:
            text = (
                "(blank)"
                if v is None
                else (format_number(v) if isinstance(v, int) else str(v))
            )
            return f"{text}  ({format_number(n)})"
        if role == _CHECK:
            return _CHECKED if v in self._checked else _UNCHECKED
        if role == _FOREGROUND and n == 0:
            return QApplication.palette().color(
                QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text
            )
        if role == _TOOLTIP:
            return (
                f"{n} result(s) with the other filters applied"
                if n
                else "no result matches this with the other filters"
            )
        if role == _VALUE:
            return v
        if role == _COUNT:
            return n
        return None

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        # Not ItemIsUserCheckable: the check box is drawn from CheckStateRole, but
        # toggling goes through AppState (the panel handles clicks and keys), so
        # the model never changes itself and cannot drift from the filter.
        return _FLAGS
