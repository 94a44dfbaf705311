"""ResultsView: the results table with header sorting, column menu and TSV copy."""

from __future__ import annotations

from PySide6.QtCore import QItemSelection, QItemSelectionModel, Qt
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QMenu, QTableView

from ipubench_gui.domain.format import to_tsv
from ipubench_gui.ui.models.results_model import RAW_ROLE, ResultsModel
from ipubench_gui.ui.state import AppState
from ipubench_gui.ui.widgets.table_cells import TableCells

HIDDEN_BY_DEFAULT = (
    "result_id",
    "table",
    "source_file",
    "throughput_per_accelerator",
)


class ResultsView(QTableView):
    """Sorting is done by the store (header click -> AppState.sort -> query)."""

    def __init__(self, model: ResultsModel, state: AppState, parent=None):
        super().__init__(parent)
        self._state = state
        self.setModel(model)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setAlternatingRowColors(True)
        # Tab leaves the table (arrows move inside it); was ~3,500 cell stops.
        self.setTabKeyNavigation(False)
        self.setWordWrap(False)
        # Cells painted from the model's strings (TableCells); cut text cells
        # keep whole words and their last word (the full text is in the
        # tooltip); columns are resized by dragging their header edges.
        self._cells = TableCells(self, model)
        self.setItemDelegate(self._cells)
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        self.verticalHeader().hide()
        h = self.horizontalHeader()
        h.setSectionsMovable(True)
        h.setSortIndicatorShown(True)
        h.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        h.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        h.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        h.customContextMenuRequested.connect(self._on_header_menu)
        h.sectionClicked.connect(self._on_header_clicked)
        self.reset_columns()
        copy = QAction("Copy rows as TSV", self)
        copy.setShortcut(QKeySequence.StandardKey.Copy)
        copy.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        copy.triggered.connect(self.copy_selection)
        self.addAction(copy)
        self.copy_action = copy
        self.selectionModel().selectionChanged.connect(self._on_selection_changed)
        state.selectionChanged.connect(self._on_state_selection_changed)

    def reset(self) -> None:
        """New rows (the model reset): shown from the top, and laid out now
        rather than by Qt's delayed-layout timer, which fired after the paint
        the reset caused, so the table and its header were painted twice a
        filter change. From the top: the old rows' scroll offset,
        clamped to the new rows, fetched a second page no one scrolled to."""
        super().reset()
        self.scrollToTop()
        self.executeDelayedItemsLayout()

    @property
    def results(self) -> ResultsModel:
        return self.model()  # type: ignore[return-value]

    def reset_columns(self) -> None:
        h = self.horizontalHeader()
        for i, f in enumerate(self.results.fields):
            h.moveSection(h.visualIndex(i), i)
            self.setColumnHidden(i, f.name in HIDDEN_BY_DEFAULT)
        fm = self.fontMetrics()
        em = fm.horizontalAdvance("M")
        for i, f in enumerate(self.results.fields):
            header = fm.horizontalAdvance(self.results.header(i)) + 3 * em  # sort arrow
            self.setColumnWidth(i, max(header, em * (7 if f.numeric else 11)))

    def visible_columns(self) -> list[int]:
        """Logical column indexes in on-screen order, hidden ones left out."""
        h = self.horizontalHeader()
        cols = [h.logicalIndex(v) for v in range(h.count())]
        return [c for c in cols if not h.isSectionHidden(c)]

    def selected_rows(self) -> list[int]:
        return sorted({ix.row() for ix in self.selectionModel().selectedRows()})

    def selection_tsv(self) -> str:
        cols = self.visible_columns()
        m = self.results
        headers = [m.header(c) for c in cols]
        rows = [
            [m.index(r, c).data(RAW_ROLE) for c in cols] for r in self.selected_rows()
        ]
        return to_tsv(headers, rows)

    def copy_selection(self) -> None:
        if self.selected_rows():
            QGuiApplication.clipboard().setText(self.selection_tsv())

    def current_row(self) -> dict | None:
        """The row of the current cell (else the first selected), as a dict."""
        ix = self.currentIndex()
        if not ix.isValid():
            picked = self.selectionModel().selectedRows()
            ix = picked[0] if picked else ix
        return self.results.row_dict(ix.row()) if ix.isValid() else None

    def select_ids(self, ids: tuple[str, ...], scroll: bool = True) -> None:
        m = self.results
        sel = QItemSelection()
        rows = [r for r in (m.row_of(i) for i in ids) if r is not None]
        for r in rows:
            sel.select(m.index(r, 0), m.index(r, m.columnCount() - 1))
        self.selectionModel().select(
            sel, QItemSelectionModel.SelectionFlag.ClearAndSelect
        )
        if rows and scroll:
            self.scrollTo(
                m.index(rows[0], 0), QAbstractItemView.ScrollHint.PositionAtCenter
            )
            self.selectionModel().setCurrentIndex(
                m.index(rows[0], 0), QItemSelectionModel.SelectionFlag.NoUpdate
            )

    def focusInEvent(self, e) -> None:  # noqa: N802 (Qt API)
        """Tabbing in selects the row the focus box is on, so what is marked is
        what is selected (and shown in the chart and the details)."""
        super().focusInEvent(e)
        if e.reason() not in (
            Qt.FocusReason.TabFocusReason,
            Qt.FocusReason.BacktabFocusReason,
        ):
            return
        m = self.results
        rows = self.selected_rows()
        if rows:
            self.selectionModel().setCurrentIndex(
                m.index(rows[0], self.currentIndex().column()),
                QItemSelectionModel.SelectionFlag.NoUpdate,
            )
            return
        ix = self.currentIndex()
        if not ix.isValid() and m.rowCount():
            ix = m.index(0, self.visible_columns()[0] if self.visible_columns() else 0)
        if ix.isValid():
            self.selectionModel().setCurrentIndex(
                ix,
                QItemSelectionModel.SelectionFlag.ClearAndSelect
                | QItemSelectionModel.SelectionFlag.Rows,
            )

    def _on_selection_changed(self, *_):
        ids = tuple(self.results.result_id(r) for r in self.selected_rows())
        self._state.set_selection(ids)

    def _on_state_selection_changed(self, ids: tuple[str, ...]) -> None:
        current = tuple(self.results.result_id(r) for r in self.selected_rows())
        if set(current) != set(ids):
            self.select_ids(ids)

    def _on_header_clicked(self, logical: int) -> None:
        name = self.results.fields[logical].name
        col, desc = self._state.sort
        if col == name:
            desc = not desc
        else:
            desc = self.results.fields[logical].numeric  # biggest numbers first
        self._state.set_sort(name, desc)

    def show_sort(self, column: str | None, descending: bool) -> None:
        names = [f.name for f in self.results.fields]
        h = self.horizontalHeader()
        if column in names:
            h.setSortIndicator(
                names.index(column),
                Qt.SortOrder.DescendingOrder
                if descending
                else Qt.SortOrder.AscendingOrder,
            )
        else:
            h.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)

    def _on_header_menu(self, pos) -> None:
        menu = QMenu(self)
        for i in range(len(self.results.fields)):
            act = menu.addAction(self.results.header(i))
            act.setCheckable(True)
            act.setChecked(not self.isColumnHidden(i))
            act.toggled.connect(lambda on, c=i: self.setColumnHidden(c, not on))
        menu.addSeparator()
        menu.addAction("Reset columns", self.reset_columns)
        menu.exec(self.horizontalHeader().mapToGlobal(pos))
