"""WindowPort: what the controllers may ask of the main window, in the words of
what they want (say, explain, select, show the comparison), so that none of
them reads or arranges the window's widgets itself.

Rows come from ``ui/results.Results`` (what the store answered), never from
the table model or the chart's drawing; what the window alone knows (which
cell has the focus, the point a right-click was on) comes from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from ipubench_gui.ui.messages import Message
from ipubench_gui.ui.widgets.message_box import show_message

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMenu

    from ipubench_gui.ui.main_window import MainWindow


@dataclass(frozen=True)
class Cell:
    """The number Explain this number is about, as the focus says.

    ``where``: "mlperf table" (``result_id``), "comparison" (its ``column``,
    and the ``key`` of its row), "chart" (the chosen point: the selection) or
    "table"; ``row``: the table's current row (None: none), which the others
    fall back on.
    """

    where: str
    row: dict | None = None  # the table's current row, if any
    result_id: str | None = None
    column: int = -1
    key: str = ""


class WindowPort:
    """The main window as its controllers see it."""

    def __init__(self, window: MainWindow):
        self._w = window

    @property
    def parent(self) -> QWidget:
        """The window, as the parent of a dialog or a box."""
        return self._w

    @property
    def file_menu(self) -> QMenu:
        return self._w.file_menu

    @property
    def chart_menu_point(self) -> str | None:
        """The result of the point the chart's menu was opened on, if any."""
        return self._w.chart_menu_point

    # -- saying ------------------------------------------------------------------
    def say(self, text: str, ms: int = 0) -> None:
        """``text`` in the status bar (for ``ms``; 0: until replaced)."""
        self._w.statusBar().showMessage(text, ms)

    def tell(self, message: Message, ms: int = 10000) -> QMessageBox | None:
        """``message``'s first line in the status bar and, over a shown window,
        the whole in a box (returned) that does not block the window."""
        self.say(message.text.splitlines()[0] if message.text else "", ms)
        if self._w.isVisible():
            return show_message(self._w, message)
        return None

    # -- showing -----------------------------------------------------------------
    def explain(self, text: str, about: tuple[str, ...] = ()) -> None:
        """``text`` in Details (about the results ``about``), brought forward."""
        w = self._w
        w.details.show_text(text, about)
        w.detail_dock.show()
        w.detail_dock.raise_()

    def show_rows(self, rows: list[dict]) -> None:
        """Details of ``rows`` (results the table may not hold)."""
        self._w.details.show_rows(rows)

    def select(self, ids: tuple[str, ...]) -> None:
        """The table's rows of ``ids`` selected, the first scrolled to."""
        self._w.table.select_ids(ids)

    def show_comparison(self, front: bool = True) -> None:
        """The Compare dock shown; ``front``: raised, on its Comparison tab."""
        w = self._w
        w.compare_dock.show()
        if front:
            w.compare_dock.raise_()
            w.comparator.setCurrentIndex(0)  # the Comparison tab, not the claims

    def show_dock_share(self, dock: QWidget, share: float) -> None:
        """``dock`` given ``share`` of the window's height."""
        w = self._w
        w.resizeDocks([dock], [int(w.height() * share)], Qt.Orientation.Vertical)

    # -- what the focus says -------------------------------------------------------
    def cell_to_explain(self) -> Cell:
        """The cell Explain this number is about: the MLPerf table's current
        cell, the comparator's, the chart's chosen point or the table's, by
        which had the focus (or, from a right-click menu, was clicked last)."""
        w = self._w
        focus = QApplication.focusWidget()
        if focus is w.mlperf_table.view and w.mlperf_table.current_result():
            return Cell("mlperf table", result_id=w.mlperf_table.current_result())
        row = w.table.current_row()
        if focus is not None and (focus is w.canvas or w.canvas.isAncestorOf(focus)):
            return Cell("chart", row)
        if w.cells_in_use() is w.comparator.view:
            ix = w.comparator.view.currentIndex()
            if ix.isValid():
                shown = w.comparator.model.rows()
                key = shown[ix.row()].key if ix.row() < len(shown) else ""
                return Cell("comparison", row, column=ix.column(), key=key)
        return Cell("table", row)
