"""Panels taller than the window scroll; their y title stays in sight beside
them (at 1280x720 the grid's own, centred on the whole grid, was cut), while
an export still writes the grid's own."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication

from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.plots import build_plot
from ipubench_gui.service import browse


def _plot(db):
    spec = ChartSpec(kind="scaling")
    return build_plot(spec, browse.chart_data(db, FilterState(), spec))


def _canvas(qtbot, plot, width: int, height: int):
    from ipubench_gui.ui.widgets.chart_canvas import ChartCanvas

    canvas = ChartCanvas()
    qtbot.addWidget(canvas)
    canvas.resize(width, height)
    canvas.show()
    qtbot.waitExposed(canvas)
    canvas.render(plot)
    canvas.finish()
    QApplication.processEvents()  # laid out and painted
    return canvas


class _Painted(QObject):
    """Pixels of the paint events a widget gets."""

    def __init__(self, widget) -> None:
        super().__init__()
        self.px = 0
        widget.installEventFilter(self)

    def eventFilter(self, _obj, e) -> bool:  # noqa: N802 (Qt API)
        if e.type() == QEvent.Type.Paint:
            r = e.region().boundingRect()
            self.px += r.width() * r.height()
        return False


@pytest.mark.scale
def test_the_y_title_of_scrolling_panels_stays_in_view(qtbot, db):
    plot = _plot(db)
    canvas = _canvas(qtbot, plot, 930, 330)
    area, view = canvas.panels_scroll, canvas.panels_view
    port = area.viewport()
    assert view.height() > port.height()  # the grid scrolls
    pinned = canvas.y_title
    assert pinned.isVisible()
    assert view.ci.getItem(0, 0).text == ""  # not in the grid as well
    # the chart's y title, cut after whole words to the view's height
    shown = pinned.text()
    assert shown.endswith(" …") and plot.y_title.startswith(shown[:-2])
    assert plot.y_title[len(shown) - 2] == " "  # cut between words
    assert pinned.toolTip() == plot.y_title
    # beside the view, as tall as it
    geo = pinned.geometry()
    assert geo.right() < port.geometry().left()
    assert (geo.top(), geo.height()) == (port.geometry().top(), port.height())
    # it stays where it is, drawn the same, at either end of the grid
    before = area.grab(geo).toImage()
    bar = area.verticalScrollBar()
    painted = _Painted(view.viewport())
    bar.setValue(40)
    QApplication.processEvents()
    # the view's pixels moved, only the strip scrolled into view painted
    # (a title over the view made each step paint all of it)
    assert 0 < painted.px < port.width() * port.height() / 2
    bar.setValue(bar.maximum())
    QApplication.processEvents()
    assert bar.value() > 40 and pinned.geometry() == geo
    after = area.grab(geo).toImage()
    assert after == before
    ink = {
        before.pixel(x, y)
        for x in range(before.width())
        for y in range(0, before.height(), 3)
    }
    assert len(ink) > 2  # text drawn, not a blank strip


@pytest.mark.scale
def test_panels_that_fit_show_the_whole_title(qtbot, db):
    plot = _plot(db)
    canvas = _canvas(qtbot, plot, 930, 1100)
    assert canvas.panels_view.height() <= canvas.panels_scroll.viewport().height()
    assert canvas.y_title.isVisible()
    assert canvas.y_title.text() == plot.y_title
    assert canvas.y_title.toolTip() == ""
    # made smaller than the grid: cut to the view's new height
    canvas.resize(930, 330)
    QApplication.processEvents()
    assert canvas.y_title.text().endswith(" …")


@pytest.mark.scale
def test_an_export_writes_the_y_title_in_its_grid(qtbot, db):
    """An export at the window's small size: no scrolling there, the title
    whole, left of the grid, as before."""
    from ipubench_gui.charts.export import ExportOptions, compose

    plot = _plot(db)
    w = compose(plot, ExportOptions(width=1280, height=720))
    qtbot.addWidget(w)
    grid = w.ci.getItem(2, 0)
    assert grid.getItem(0, 0).text == plot.y_title
