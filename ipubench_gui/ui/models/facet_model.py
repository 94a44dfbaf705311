"""FacetModel: the values of one facet, with counts and check states."""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from ipubench_gui.domain.format import format_number

VALUE_ROLE = Qt.ItemDataRole.UserRole + 1
COUNT_ROLE = Qt.ItemDataRole.UserRole + 2
NAME_ROLE = Qt.ItemDataRole.UserRole + 3  # the value as listed, without its count

_Index = QModelIndex | QPersistentModelIndex

# As plain values: data() and flags() run for every painted row, and each
# Qt.X.Y spelled there is a Python-level enum lookup (| builds a new flag).
_DISPLAY = int(Qt.ItemDataRole.DisplayRole)
_CHECK = int(Qt.ItemDataRole.CheckStateRole)
_FOREGROUND = int(Qt.ItemDataRole.ForegroundRole)
_TOOLTIP = int(Qt.ItemDataRole.ToolTipRole)
_VALUE, _COUNT, _NAME = int(VALUE_ROLE), int(COUNT_ROLE), int(NAME_ROLE)
_CHECKED, _UNCHECKED = Qt.CheckState.Checked, Qt.CheckState.Unchecked
_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable


SORTS = {"count": "By count", "name": "By name"}  # key -> label
_COUNT_ROLES = [_DISPLAY, _FOREGROUND, _TOOLTIP, _COUNT]


def name_key(v: object) -> tuple:
    """Values by name: numbers by value, text ignoring case (then by case),
    blank last."""
    if v is None:
        return (True, 0, "", "")
    if isinstance(v, (int, float)):
        return (False, v, "", "")
    return (False, 0, str(v).casefold(), str(v))


class FacetModel(QAbstractListModel):
    """Every known value of a facet with its count under the other filters.

    The order holds while filtering, so the value under the pointer stays
    there: by how many results of the whole store hold it (``"count"``, most
    first) or by name (``"name"``). New counts change rows in place; a value
    no result matches is greyed, never moved or hidden. Only ``set_sort`` and
    a new universe reorder.
    """

    def __init__(self, parent=None):
        super().__init__(parent)
        self._labels: Mapping[object, str] = {}
        self._tips: Mapping[object, str] = {}
        self._totals: dict[object, int] = {}
        self._counts: dict[object, int] = {}
        self._checked: frozenset = frozenset()
        self._sort = "count"
        self._order: list[object] = []
        self._row: dict[object, int] = {}

    # -- our API -------------------------------------------------------------
    def set_universe(
        self,
        values: list[object],
        totals: dict[object, int] | None = None,
        labels: Mapping[object, str] | None = None,
        tips: Mapping[object, str] | None = None,
    ) -> None:
        """Every value the store holds and, per value, how many rows hold it
        (the "by count" order; values not in it sort last). ``labels``: the
        text to list a value as, where it is not the value itself (a source's
        title for its file id); the value is still what is filtered on.
        ``tips``: a longer name for the tooltip (the title whole, its date)."""
        self.beginResetModel()
        self._labels = dict(labels or {})
        self._tips = dict(tips or {})
        self._totals = dict(totals or {})
        extra = [v for v in (*self._counts, *self._checked) if v not in self._totals]
        self._set_order(self._sorted([*values, *extra]))
        self.endResetModel()

    def set_sort(self, sort: str) -> None:
        """Order by ``"count"`` or ``"name"``: the rows move, the current and
        selected items stay on the same values."""
        if sort not in SORTS:
            raise ValueError(f"unknown facet order {sort!r}; known: {', '.join(SORTS)}")
        if sort == self._sort:
            return
        self._sort = sort
        self.layoutAboutToBeChanged.emit()
        old = self.persistentIndexList()
        values = [self._order[ix.row()] for ix in old]
        self._set_order(self._sorted(self._order))
        self.changePersistentIndexList(
            old, [self.index(self._row[v], 0) for v in values]
        )
        self.layoutChanged.emit()

    @property
    def sort(self) -> str:
        return self._sort

    def set_counts(self, counts: dict[object, int], checked: frozenset) -> None:
        if counts == self._counts and checked == self._checked:
            return  # e.g. the facet just filtered on: its counts ignore itself
        old, self._counts = self._counts, counts
        self._add_missing([*counts, *checked])
        changed = [v for v in {*old, *counts} if old.get(v, 0) != counts.get(v, 0)]
        self._changed(changed, _COUNT_ROLES)
        self.set_checked(checked)

    def set_checked(self, checked: frozenset) -> None:
        if checked == self._checked:
            return  # a filter change elsewhere: nothing to redraw here
        old, self._checked = self._checked, checked
        self._add_missing(checked)
        self._changed(old ^ checked, [_CHECK])

    def values(self) -> list[object]:
        return list(self._order)

    def count(self, value: object) -> int:
        return self._counts.get(value, 0)

    def text(self, value: object) -> str:
        """How ``value`` is listed: its label, else the value itself."""
        return self._labels.get(value) or value_text(value)

    def look(self, row: int) -> tuple[str, bool, bool]:
        """Row ``row`` as listed: its text, whether it is ticked, and whether
        any row matches it (else it is greyed); what ``data`` answers."""
        v = self._order[row]
        n = self._counts.get(v, 0)
        return self._display(v, n), v in self._checked, n > 0

    @staticmethod
    def grey() -> QColor:
        """The text colour of a value no result matches."""
        return QApplication.palette().color(
            QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text
        )

    # -- inside ----------------------------------------------------------------
    def _display(self, v: object, n: int) -> str:
        return f"{self.text(v)}  ({format_number(n)})"

    def _sorted(self, values) -> list[object]:
        vals = sorted(
            dict.fromkeys(values), key=lambda v: name_key(self._labels.get(v, v))
        )
        if self._sort == "count":
            vals.sort(key=lambda v: -self._totals.get(v, 0))  # stable: by name next
        return vals

    def _set_order(self, order: list[object]) -> None:
        self._order = order
        self._row = {v: i for i, v in enumerate(order)}

    def _add_missing(self, values) -> None:
        """Values the universe did not list (a saved view's, rows written since)
        are added at the end, not sorted in: nothing listed moves."""
        new = [v for v in dict.fromkeys(values) if v not in self._row]
        if new:
            n = len(self._order)
            self.beginInsertRows(QModelIndex(), n, n + len(new) - 1)
            self._set_order(self._order + new)
            self.endInsertRows()

    def _changed(self, values, roles: list[int]) -> None:
        """One dataChanged over the rows of ``values`` (few signals: one span)."""
        rows = [self._row[v] for v in values if v in self._row]
        if rows:
            self.dataChanged.emit(
                self.index(min(rows), 0), self.index(max(rows), 0), roles
            )

    # -- Qt overrides ----------------------------------------------------------
    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._order)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        v = self._order[index.row()]
        n = self._counts.get(v, 0)
        if role == _DISPLAY:
            return self._display(v, n)
        if role == _NAME:
            return self.text(v)
        if role == _CHECK:
            return _CHECKED if v in self._checked else _UNCHECKED
        if role == _FOREGROUND and n == 0:
            return self.grey()
        if role == _TOOLTIP:
            return f"{self._tips.get(v) or self.text(v)}: " + (
                f"{format_number(n)} result(s) with the other filters applied"
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


def value_text(v: object) -> str:
    if v is None:
        return "(blank)"
    return format_number(v) if isinstance(v, int) else str(v)
