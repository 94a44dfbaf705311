"""A chart drawn over turns of the event loop is made ready to paint in steps
of its own: its paint then only draws. Counted in a window, as
the app paints it (a canvas on its own gets no paint events under pytest)."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pyqtgraph as pg
import pytest
from PySide6 import QtCore
from PySide6.QtWidgets import QApplication

from ipubench_gui.charts.axes import NumberAxis
from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.plots import build_plot
from ipubench_gui.service import browse

TF2 = FilterState().with_values("framework", ["TensorFlow 2"])


def _one_plot(db, scale: float = 1.0):
    """The scaling chart of TensorFlow 2's results (one plot), its
    throughputs times ``scale``."""
    spec = ChartSpec(kind="scaling")
    plot = build_plot(spec, browse.chart_data(db, TF2, spec))
    assert plot.series and not plot.panels
    return dataclasses.replace(
        plot,
        series=tuple(
            dataclasses.replace(
                s,
                points=tuple(dataclasses.replace(p, y=p.y * scale) for p in s.points),
            )
            for s in plot.series
        ),
    )


class Work(Counter):
    """Counts of what is worked out while ``on``: axes' draw specs, curves'
    bounds, paths and line segments, scatters' bounds (pyqtgraph keeps each
    until the view or the data change); ``paints``: the chart views' paints."""

    on = False


@pytest.fixture
def work_left(monkeypatch) -> Work:
    seen = Work()

    def spy(cls, name, key, missing):
        orig = getattr(cls, name)

        def counted(self, *args):
            if seen.on and missing(self):
                seen[key] += 1
            return orig(self, *args)

        monkeypatch.setattr(cls, name, counted)

    spy(NumberAxis, "paint", "axis specs", lambda a: a.picture is None)
    spy(
        pg.PlotCurveItem,
        "boundingRect",
        "curve bounds",
        lambda c: c._boundingRect is None,
    )
    spy(pg.PlotCurveItem, "getPath", "curve path", lambda c: c.path is None)
    spy(
        pg.PlotCurveItem,
        "_getLineSegments",
        "curve segments",
        lambda c: not c._lineSegmentsRendered,
    )
    spy(
        pg.ScatterPlotItem, "boundingRect", "scatter bounds", lambda s: None in s.bounds
    )
    paint = pg.GraphicsView.paintEvent

    def paint_event(view, ev):
        seen["paints"] += seen.on
        return paint(view, ev)

    monkeypatch.setattr(pg.GraphicsView, "paintEvent", paint_event)
    return seen


@pytest.mark.scale
def test_a_plot_whose_axis_widens_is_painted_with_what_its_steps_worked_out(
    session, qtbot, db, work_left
):
    """The new chart's tick labels are wider than the last's: working out
    the axis' specs widens it, and so narrows the view. Laid out again only
    after the steps, the view dropped the specs and every bound worked out
    in them, and they were worked out again before or in the paint."""
    canvas = session.window.canvas
    canvas.steps.budget_ms = 0.0  # a step a turn, as a chart over 1M rows
    narrow, wide = _one_plot(db), _one_plot(db, scale=1234.5)
    left = canvas.item.getAxis("left")
    with qtbot.waitSignal(canvas.rendered, timeout=20_000):
        canvas.render(narrow)
    QApplication.processEvents()  # painted
    width = left.width()
    with qtbot.waitSignal(canvas.rendered, timeout=20_000):
        canvas.render(wide)
        assert canvas.drawing()  # made ready to paint in a later turn
    work_left.on = True  # from the chart whole to its paint
    QApplication.processEvents()  # painted
    assert left.width() > width  # wider tick labels ("500k", not "500")
    assert work_left.pop("paints") >= 1
    assert work_left == {}  # nothing left but drawing


def test_panels_bounds_are_worked_out_in_their_own_steps_only(
    session, qtbot, monkeypatch
):
    """Panels redrawn in place for a new filter, made ready to paint three a
    step: each step applies its own panels' new view transforms. Applied to
    every panel in the first step, they dropped the bounds of the panels left
    to later steps, and the scene worked those out at once, in an event of
    its own between the steps (1M rows: ~9 ms)."""
    from ipubench_gui.ui.widgets import chart_canvas

    w = session.window
    w.canvas.steps.budget_ms = 0.0  # a step a turn, as a chart over 1M rows
    with qtbot.waitSignal(w.canvas.rendered, timeout=20_000):
        session.state.set_chart(session.state.chart.with_(kind="latency-throughput"))
    QApplication.processEvents()  # painted
    cells = len(w.canvas.panels)
    prepared = chart_canvas.prepare_paint
    where: Counter = Counter()
    state = {"started": False, "inside": False}

    def prepare_paint(pi):
        state["started"] = state["inside"] = True
        try:
            prepared(pi)
        finally:
            state["inside"] = False

    monkeypatch.setattr(chart_canvas, "prepare_paint", prepare_paint)
    for cls, missing in (
        (pg.PlotCurveItem, lambda c: c._boundingRect is None),
        (pg.ScatterPlotItem, lambda s: None in s.bounds),
    ):

        def counted(self, *args, orig=cls.boundingRect, missing=missing):
            if state["started"] and missing(self):
                where["in its step" if state["inside"] else "elsewhere"] += 1
            return orig(self, *args)

        monkeypatch.setattr(cls, "boundingRect", counted)
    with qtbot.waitSignal(w.canvas.rendered, timeout=20_000):
        session.state.set_filters(FilterState().with_values("framework", ["PyTorch"]))
    assert 3 < len(w.canvas.panels) <= cells  # in cells drawn before, 2+ steps
    QApplication.processEvents()  # painted
    assert where["in its step"] > 0
    assert where["elsewhere"] == 0


class _Paints(QtCore.QObject):
    """Counts a widget's paint events."""

    def __init__(self, widget):
        super().__init__()
        self.count = 0
        widget.installEventFilter(self)

    def eventFilter(self, obj, e) -> bool:  # noqa: N802 (Qt API)
        self.count += e.type() == QtCore.QEvent.Type.Paint
        return False


@pytest.mark.parametrize("change", ["pan", "zoom", "window resize"])
def test_a_pan_zoom_or_resize_paints_the_chart_once(session, qtbot, change):
    """pyqtgraph applies a view's new range or size at the start of its
    paint, which marks every item in it changed again: each pan, zoom or
    window resize painted the chart twice. Applied as soon as the event that
    changed it returns, it is painted once."""
    w = session.window
    with qtbot.waitSignal(w.canvas.rendered, timeout=20_000):
        session.state.set_chart(session.state.chart.with_(kind="scaling"))
        session.state.set_filters(TF2)
    assert not w.canvas.panels  # the one plot
    for _ in range(3):
        QApplication.processEvents()  # painted
    vb = w.canvas.item.getViewBox()
    paints = _Paints(w.canvas.plot.viewport())
    if change == "pan":
        vb.translateBy(x=0.05)
    elif change == "zoom":
        vb.scaleBy((0.9, 0.9))
    else:
        w.resize(w.width() - 60, w.height() - 40)
    for _ in range(3):
        QApplication.processEvents()
    assert paints.count == 1


def test_a_redraw_in_new_ranges_sets_no_axis_title_again(qtbot, db, monkeypatch):
    """The same chart in other ranges (its titles the same): no axis' title
    is set again. pyqtgraph's hidden top and right axes set theirs (unseen)
    on every range change while their SI prefix was on."""
    from ipubench_gui.ui.widgets.chart_canvas import ChartCanvas

    canvas = ChartCanvas()
    qtbot.addWidget(canvas)
    canvas.resize(1200, 800)
    canvas.show()
    canvas.render(_one_plot(db))
    canvas.finish()
    before = canvas.item.getViewBox().viewRange()
    set_again = []
    orig = pg.AxisItem._updateLabel

    def counted(self):
        set_again.append(self.orientation)
        return orig(self)

    monkeypatch.setattr(pg.AxisItem, "_updateLabel", counted)
    canvas.render(_one_plot(db, scale=7.0))
    canvas.finish()
    assert canvas.item.getViewBox().viewRange() != before
    assert set_again == []
