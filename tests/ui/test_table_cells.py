"""The table's cells painted from the model's strings (ui/widgets/table_cells,
issue 20) look exactly as Qt's own delegates drew them: the word-cutting one
for text, Qt's plain one for numbers."""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QStyledItemDelegate

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
