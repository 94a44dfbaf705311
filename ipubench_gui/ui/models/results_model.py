"""ResultsModel: a read-only table model over one immutable QueryResult, grown
by later pages as the view scrolls (Qt's canFetchMore/fetchMore)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from operator import itemgetter

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from ipubench_gui.domain.fields import TABLE_COLUMNS, Field
from ipubench_gui.domain.format import format_cell, provenance_lines, shown_unit
from ipubench_gui.store.db import QueryResult

RAW_ROLE = Qt.ItemDataRole.UserRole + 1
ID_ROLE = Qt.ItemDataRole.UserRole + 2

_Index = QModelIndex | QPersistentModelIndex

# Roles and alignments as plain ints: data() runs for every painted cell, and
# each Qt.ItemDataRole.X spelled there is a Python-level enum lookup.
_DISPLAY = int(Qt.ItemDataRole.DisplayRole)
_ALIGN = int(Qt.ItemDataRole.TextAlignmentRole)
_TOOLTIP = int(Qt.ItemDataRole.ToolTipRole)
_RAW, _ID = int(RAW_ROLE), int(ID_ROLE)
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_LEFT = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)


UNIT_KEYS = ("unit", "unit_family")


class ResultsModel(QAbstractTableModel):
    """Rows of a QueryResult; display text formatted, raw values by RAW_ROLE."""

    def __init__(self, columns: tuple[Field, ...] = TABLE_COLUMNS, parent=None):
        super().__init__(parent)
        self.fields = columns
        self._result = QueryResult((), ())
        self._pos: dict[str, int] = {}
        self._ids: dict[str, int] = {}
        self._units: dict[str, str] = {}  # field name -> unit shown, if it varies
        self._headers: dict[int, str] = {}  # column -> its title (header repaints)
        # Each row's display strings, made the first time the row is painted:
        # data(DisplayRole) is then two indexings (a paint asks every cell).
        self._text: list[tuple[str, ...] | None] = []
        self._picks: list[int | None] = []  # field -> position in the rows
        # Who brings the rows after the first n (``fetchMore``); asked once a page.
        self._more: Callable[[int], None] | None = None
        self._asking = False

    # -- our API -------------------------------------------------------------
    def set_result(
        self, result: QueryResult, more: Callable[[int], None] | None = None
    ) -> None:
        """Show ``result``; when it is truncated, ``more(n)`` is asked for the
        rows after the first ``n`` as the view scrolls to them, and answers
        through :meth:`append`."""
        self.beginResetModel()
        self._result = result
        self._pos = {c: i for i, c in enumerate(result.columns)}
        self._picks = [self._pos.get(f.name) for f in self.fields]
        self._ids = {}
        self._text = []
        self._index_rows(result.rows)
        self._more, self._asking = more, False
        self.endResetModel()

    def append(self, rows: QueryResult) -> None:
        """Add the rows after those shown (``more``'s answer)."""
        self._asking = False
        if not rows.rows:
            self._result = replace(self._result, truncated=False)
            return
        first = len(self._result.rows)
        self.beginInsertRows(QModelIndex(), first, first + len(rows.rows) - 1)
        self._result = replace(
            self._result, rows=self._result.rows + rows.rows, truncated=rows.truncated
        )
        self._index_rows(rows.rows)
        self.endInsertRows()

    def _index_rows(self, rows: tuple) -> None:
        first = len(self._text)
        self._text.extend([None] * len(rows))
        id_col = self._pos.get("result_id")
        if id_col is not None:
            ids = map(itemgetter(id_col), rows)  # one pass in C, not a Python loop
            self._ids.update(zip(ids, range(first, first + len(rows))))

    @property
    def result(self) -> QueryResult:
        return self._result

    def set_unit(self, name: str, unit: str) -> None:
        """Name the unit of column ``name`` in its header, for a column whose
        unit follows the rows shown ("images/s, derived")."""
        if self._units.get(name) == unit:
            return
        self._units[name] = unit
        self._headers.clear()
        col = next(i for i, f in enumerate(self.fields) if f.name == name)
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, col, col)

    def header(self, column: int) -> str:
        """Column ``column``'s title with its unit: "Latency (ms)"."""
        title = self._headers.get(column)
        if title is None:
            f = self.fields[column]
            title = replace(f, unit=self._units.get(f.name, f.unit)).header
            self._headers[column] = title
        return title

    def row_dict(self, row: int) -> dict:
        return dict(zip(self._result.columns, self._result.rows[row]))

    def row_of(self, result_id: str) -> int | None:
        return self._ids.get(result_id)

    def result_id(self, row: int) -> str:
        return self._result.rows[row][self._pos["result_id"]]

    def raw(self, row: int, column: int) -> object:
        pos = self._picks[column]
        return None if pos is None else self._result.rows[row][pos]

    def display(self, row: int, column: int) -> str:
        """Cell (``row``, ``column``)'s display text (as ``data`` gives it)."""
        return (self._text[row] or self._texts(row))[column]

    def _texts(self, row: int) -> tuple[str, ...]:
        r = self._result.rows[row]
        text = tuple(
            self._unit_text(r)
            if f.name == "unit"
            else format_cell(None if p is None else r[p])
            for f, p in zip(self.fields, self._picks, strict=True)
        )
        self._text[row] = text
        return text

    def _unit_text(self, r: tuple) -> str:
        """The Unit cell: what the figure counts ('images/s' where the page
        printed items/sec), as the comparator and Details say it."""
        return shown_unit({k: r[self._pos[k]] for k in UNIT_KEYS if k in self._pos})

    # -- Qt overrides ----------------------------------------------------------
    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._result.rows)

    def more_failed(self) -> None:
        """Bringing more rows failed (said in the status bar): asked no more
        for this page, since a view still at its end would ask again at once,
        for ever; a new filter or sort asks afresh (``set_result``)."""
        self._more, self._asking = None, False

    def canFetchMore(self, parent: _Index = QModelIndex()) -> bool:  # noqa: B008
        return (
            not parent.isValid()
            and self._result.truncated
            and self._more is not None
            and not self._asking
        )

    def fetchMore(self, parent: _Index = QModelIndex()) -> None:  # noqa: B008
        if self.canFetchMore(parent) and self._more is not None:
            self._asking = True
            self._more(len(self._result.rows))

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.fields)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        r, c = index.row(), index.column()
        if role == _DISPLAY:
            return (self._text[r] or self._texts(r))[c]
        if role == _ALIGN:
            return _RIGHT if self.fields[c].numeric else _LEFT
        if role == _RAW:
            v = self.raw(r, c)
            return v.item() if hasattr(v, "item") else v
        if role == _ID:
            return self.result_id(r)
        if role == _TOOLTIP:
            v = self.raw(r, c)
            head = f"{self.fields[c].label}: {v!r}" if isinstance(v, float) else ""
            lines = provenance_lines(self.row_dict(r))
            return "\n".join(([head] if head else []) + lines)
        return None

    def headerData(
        self,
        section: int,
        orientation: Qt.Orientation,
        role: int = Qt.ItemDataRole.DisplayRole,
    ):
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(self.fields):
            if role == Qt.ItemDataRole.DisplayRole:
                return self.header(section)
            if (
                role == Qt.ItemDataRole.TextAlignmentRole
                and self.fields[section].numeric
            ):
                return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            return None
        if (
            orientation == Qt.Orientation.Vertical
            and role == Qt.ItemDataRole.DisplayRole
        ):
            return section + 1
        return None
