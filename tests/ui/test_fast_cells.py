"""The table's cells and the facet lists' rows painted from their models'
strings (ui/widgets/table_cells, facet_cells) look exactly as Qt's
own delegates drew them: the word-cutting one for text, Qt's plain one for
numbers."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QStyledItemDelegate

from ipubench_gui.domain.filters import FilterState
from ipubench_gui.ui.models.facet_model import VALUE_ROLE
from ipubench_gui.ui.widgets.facet_cells import FacetCells
from ipubench_gui.ui.widgets.table_cells import TableCells
from ipubench_gui.ui.widgets.word_elide import WordElideDelegate
from tests.ui.test_word_elide import PACKED


def _grab(table) -> QImage:
    table.viewport().repaint()
    return table.viewport().grab().toImage()


def _qt_delegates(table) -> None:
    """The table as it was painted before: Qt's delegate for numbers, the
    word-cutting one for text."""
    words, plain = WordElideDelegate(table), QStyledItemDelegate(table)
    table.setItemDelegate(plain)
    for i, f in enumerate(table.results.fields):
        if not f.numeric:
            table.setItemDelegateForColumn(i, words)


@pytest.mark.scale
def test_cells_look_as_qt_draws_them(qtbot, session):
    w = session.window
    table, m = w.table, w.model
    assert isinstance(table.itemDelegate(), TableCells)
    col = {f.name: i for i, f in enumerate(m.fields)}
    fm = table.fontMetrics()
    # a text column cut by whole words, a number column cut at its right
    table.setColumnWidth(col["variant"], fm.horizontalAdvance(PACKED) * 2 // 3)
    table.setColumnWidth(col["value"], fm.horizontalAdvance("9,99"))
    row = next(r for r in range(m.rowCount()) if m.display(r, col["variant"]) == PACKED)
    table.scrollTo(m.index(row, col["variant"]))
    # a selected row with the focus on one of its cells
    table.setFocus()
    table.selectRow(row)
    table.selectionModel().setCurrentIndex(
        m.index(row, col["model"]), QItemSelectionModel.SelectionFlag.NoUpdate
    )
    qtbot.waitUntil(table.hasFocus)
    ours = _grab(table)
    _qt_delegates(table)
    theirs = _grab(table)
    assert ours.size() == theirs.size()
    assert ours == theirs
    # what was compared holds cut cells of both kinds and plain ones
    assert "…" in table.itemDelegateForColumn(col["variant"]).shown_text(
        _option(table, m.index(row, col["variant"])), m.index(row, col["variant"])
    )
    shown = range(table.rowAt(0), table.rowAt(table.viewport().height() - 1))
    assert any(
        fm.horizontalAdvance(m.display(r, col["value"]))
        > table.columnWidth(col["value"])
        for r in shown
    )


def _option(table, index):
    from PySide6.QtWidgets import QStyleOptionViewItem

    opt = QStyleOptionViewItem()
    table.initViewItemOption(opt)
    opt.rect = table.visualRect(index)
    return opt


@pytest.mark.scale
def test_facet_rows_look_as_qt_draws_them(qtbot, session):
    """Every facet list, in a narrow dock (cut names), with PyTorch on Bow
    ticked (ticked rows, greyed rows of no match) and the focus on a row."""
    w = session.window
    w.resizeDocks([w.facet_dock], [1], Qt.Orientation.Horizontal)
    qtbot.waitUntil(lambda: w.facet_dock.width() < 300)
    session.state.set_filters(
        FilterState()
        .with_values("framework", ["PyTorch"])
        .with_values("generation", ["Bow"])
    )
    seen = {"ticked": 0, "greyed": 0, "cut": 0}
    for name, box in w.facets.boxes.items():
        view, ours = box.list, box.delegate
        assert isinstance(ours, FacetCells)
        if name == "framework":
            view.setFocus()
            view.setCurrentIndex(view.model().index(1, 0))
            qtbot.waitUntil(view.hasFocus)
        got = _grab(view)
        theirs = WordElideDelegate(view, fit_width=True, tip_names_it=True)
        theirs.set_where(ours._where)
        view.setItemDelegate(theirs)
        assert _grab(view) == got, name
        view.setItemDelegate(ours)
        for r in range(view.model().rowCount()):
            ix = view.model().index(r, 0)
            if view.visualRect(ix).intersects(view.viewport().rect()):
                value, n = ix.data(VALUE_ROLE), box.model.count(ix.data(VALUE_ROLE))
                seen["ticked"] += value in session.state.filters.values(name)
                seen["greyed"] += n == 0
                seen["cut"] += ours.shown_text(_option(view, ix), ix) != ix.data()
    assert all(seen.values()), seen
