"""Qt's own paint of what a filter change repaints, as a floor.

Each part of the app's window at 1920x1080 (table, facet lists, chart) and a
bare widget of plain Qt or pyqtgraph showing the same texts and points (a
QTableView of the table's cells with its column widths, a QListView per facet
list, a PlotWidget with one plain item per series), of the same size, are
repainted (``repaint()`` of their viewports: synchronous, no event loop) in
turn; the figure is the GUI thread's CPU time, so the box's load sways it
little.
"""

from __future__ import annotations

import statistics
import time

from tests.bench.harness import Row, times_ms


def _bare_widgets(window) -> dict[str, list]:
    """Per part of ``window`` (table, facet lists, chart): its views to
    repaint, and plain Qt/pyqtgraph ones showing the same texts and points,
    each a window of the same size."""
    import pyqtgraph as pg
    from PySide6.QtCore import QStringListModel, Qt
    from PySide6.QtGui import QStandardItem, QStandardItemModel
    from PySide6.QtWidgets import QListView, QTableView

    from ipubench_gui.ui.widgets.facet_panel import _FacetList

    def like(widget, app_view):
        widget.resize(app_view.size())
        widget.show()
        return widget

    model, table = window.model, window.table
    first = max(table.rowAt(0), 0)
    rows = range(first, min(model.rowCount(), first + 100))
    tm = QStandardItemModel(len(rows), model.columnCount())
    for c in range(model.columnCount()):
        head = model.headerData(c, Qt.Orientation.Horizontal)
        tm.setHorizontalHeaderItem(c, QStandardItem(str(head)))
        for k, r in enumerate(rows):
            text = model.index(r, c).data(Qt.ItemDataRole.DisplayRole)
            tm.setItem(k, c, QStandardItem("" if text is None else str(text)))
    bare_table = QTableView()
    bare_table.setModel(tm)
    for c in range(model.columnCount()):
        bare_table.setColumnHidden(c, table.isColumnHidden(c))
        bare_table.setColumnWidth(c, table.columnWidth(c))
    parts: dict[str, list] = {
        "table": [table, like(bare_table, table), tm],
        "facet lists": [],
        "chart": [],
    }
    for fl in window.findChildren(_FacetList):
        if fl.isVisible() and not fl.visibleRegion().isEmpty():
            m = fl.model()
            sm = QStringListModel(
                [str(m.index(i, 0).data()) for i in range(m.rowCount())]
            )
            lv = QListView()
            lv.setModel(sm)
            parts["facet lists"] += [fl, like(lv, fl), sm]
    plot = pg.PlotWidget()
    current = window.canvas.current
    for s in current.series if current is not None else ():
        xs, ys = [p.x for p in s.points], [p.y for p in s.points]
        if s.style == "bars":
            plot.addItem(
                pg.BarGraphItem(x0=0, y=ys, width=xs, height=0.7, brush=s.color)
            )
        elif xs:
            plot.addItem(pg.PlotDataItem(xs, ys, pen=s.color, symbol="o"))
    parts["chart"] = [window.canvas.plot, like(plot, window.canvas.plot)]
    return parts


def paint_floor_rows(session, label: str) -> list[Row]:
    """Each part of the window repainted against the bare widgets' floor."""
    from ipubench_gui.app import ensure_app

    app = ensure_app()
    window = session.window
    window.resize(1920, 1080)
    app.processEvents()
    parts = _bare_widgets(window)
    app.processEvents()
    rows = []
    sums: dict[str, list[float]] = {"app": [0.0] * 75, "bare": [0.0] * 75}
    for part, widgets in parts.items():
        step = 3 if part != "chart" else 2
        mine = [w.viewport() for w in widgets[0::step]]
        bare = [w.viewport() for w in widgets[1::step]]
        got: dict[str, list[float]] = {"app": [], "bare": []}
        for _ in range(5):  # rounds, interleaved
            for name, views in (("app", mine), ("bare", bare)):
                got[name] += times_ms(
                    lambda vs=views: [v.repaint() for v in vs], 15, 2, time.thread_time
                )
        for name in got:
            sums[name] = [a + b for a, b in zip(sums[name], got[name])]
        rows.append(
            Row(
                f"paint floor: {part} repainted, GUI-thread CPU",
                f"{label}, 1920x1080",
                statistics.median(got["app"]),
                "bare Qt/pyqtgraph, same texts/points",
                statistics.median(got["bare"]),
            )
        )
        for w in widgets[1::step]:
            w.close()
    rows.append(
        Row(
            "paint floor: table + facets + chart",
            f"{label}, 1920x1080",
            statistics.median(sums["app"]),
            "bare Qt/pyqtgraph, same texts/points",
            statistics.median(sums["bare"]),
        )
    )
    return rows
