"""Bar charts: every row reachable in the window (scroll bar, wheel), row
labels never squashed by zoom, value labels never under the legend, and an
export that says how many of the bars it shows."""

from __future__ import annotations

import pyqtgraph as pg
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QFontMetricsF, QWheelEvent

from ipubench_gui.charts.export import ExportOptions, compose
from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.plots import build_plot
from ipubench_gui.service import browse
from tests.charts.test_export import _plot
from tests.conftest import shown_canvas


def _canvas(qapp, plot, size=(900, 600)):
    return shown_canvas(plot, size)


def _rows_in_view(pi):
    lo, hi = pi.vb.viewRange()[1]
    return lo, hi


def _wheel(canvas, dy, mods=Qt.KeyboardModifier.NoModifier):
    vp = canvas.plot.viewport()
    pos = QPointF(vp.width() * 0.6, vp.height() / 2)
    ev = QWheelEvent(
        pos,
        vp.mapToGlobal(pos.toPoint()).toPointF(),
        QPoint(0, 0),
        QPoint(0, dy),
        Qt.MouseButton.NoButton,
        mods,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    from PySide6.QtWidgets import QApplication

    QApplication.sendEvent(vp, ev)


@pytest.mark.scale
def test_every_bar_is_reachable_and_labels_never_squash(qapp, db):
    plot = _plot(db, "throughput")
    n = len(plot.categories)
    canvas = _canvas(qapp, plot)
    pi = canvas.item
    fit = canvas.rows_that_fit()
    assert 5 <= fit < n  # the seed's default chart has more bars than fit
    bar = canvas.rows_bar
    assert bar.isVisible() and (bar.minimum(), bar.maximum()) == (0, n - fit)
    lo, hi = _rows_in_view(pi)
    assert lo < 0 < hi and hi - lo == pytest.approx(fit + 0.2)  # with margins
    # The scroll bar's end shows the last bar; its middle, the bars there.
    bar.setValue(bar.maximum())
    qapp.processEvents()
    lo, hi = _rows_in_view(pi)
    assert lo < n - 1 < hi <= n
    # The wheel over the bars scrolls rows (up: back towards the first bar).
    _wheel(canvas, 120)
    qapp.processEvents()
    assert bar.value() == n - fit - 3
    assert _rows_in_view(pi)[0] == pytest.approx(n - fit - 3 - 0.6)
    # Zooming (Ctrl+wheel, or any scale of the view) never shows more rows
    # than fit legibly: the row labels keep their spacing.
    for _ in range(5):
        _wheel(canvas, -120, Qt.KeyboardModifier.ControlModifier)
    pi.vb.scaleBy((1, 4))
    qapp.processEvents()
    lo, hi = _rows_in_view(pi)
    assert hi - lo <= fit + 0.2 + 1e-6
    ticks = pi.getAxis("left")._tickLevels[0]
    shown = [t for v, t in ticks if lo <= v <= hi]
    height = pi.vb.height()
    font = QFontMetricsF(canvas.font()).height()
    assert height / max(len(shown), 1) >= font  # a row per line of text at least
    canvas.close()


def _value_boxes(pi, drawn, font_px):
    """Scene rectangles of the bars' value labels (as PointLabels draws them)."""
    f = pg.QtGui.QFont()
    f.setPixelSize(round(font_px))
    fm = QFontMetricsF(f)
    (labels,) = [it for it in drawn.extras if type(it).__name__ == "PointLabels"]
    out = []
    for x, y, text, _ink in labels._points:  # every label, in view or not
        p = pi.vb.mapViewToScene(QPointF(x, y))
        h = fm.height()
        r = pg.QtCore.QRectF(p.x() + 4, p.y() - h / 2, fm.horizontalAdvance(text), h)
        out.append((r, y))
    return out


@pytest.mark.scale
@pytest.mark.parametrize("where", ["window", "export"])
def test_value_labels_are_never_under_the_legend(qapp, db, where):
    # Times to train by platform: lower is better, so the longest bars (and
    # their labels, furthest right) are at the bottom, by the legend's corner.
    state = FilterState().with_values("metric", ["time_to_train"])
    spec = ChartSpec(kind="throughput", color_by="platform")
    plot = build_plot(spec, browse.chart_data(db, state, spec))
    assert plot.series[0].points[0].x < max(p.x for s in plot.series for p in s.points)
    if where == "window":
        canvas = _canvas(qapp, plot, (1200, 700))
        canvas.rows_bar.setValue(canvas.rows_bar.maximum())  # the longest bars
        qapp.processEvents()
        pi, legend, drawn = canvas.item, canvas.legend, canvas.drawn
        font_px = canvas.fontMetrics().height() * 0.8 * 0.92
    else:
        opts = ExportOptions(1920, 1080)
        w = compose(plot, opts)
        pi = next(i for i in w.ci.items if isinstance(i, pg.PlotItem))
        legend, font_px = pi.legend, opts.font_px * 0.92
        drawn = w.chart_drawn  # what compose drew
    box, view = legend.sceneBoundingRect(), pi.vb.sceneBoundingRect()
    # in the plot's corner, or beside it (charts/legend_layout.py)
    assert len(legend.items) >= 5
    assert view.contains(box) or box.left() >= view.right() - 1, (box, view)
    lo, hi = pi.vb.viewRange()[1]
    boxes = [b for b, y in _value_boxes(pi, drawn, font_px) if lo <= y <= hi]
    assert len(boxes) >= 10
    for b in boxes:
        assert not b.intersects(box), (b, box)
    if where == "window":
        canvas.close()
    else:
        w.close()


@pytest.mark.scale
def test_an_export_says_how_many_bars_it_shows(qapp, db):
    one = FilterState().with_values("task", ["inference"])  # one ranking
    spec = ChartSpec(kind="throughput")
    plot = build_plot(spec, browse.chart_data(db, one, spec))
    n = len(plot.categories)
    w = compose(plot, ExportOptions(1920, 1080))
    pi = next(i for i in w.ci.items if isinstance(i, pg.PlotItem))
    shown = len(pi.getAxis("left")._tickLevels[0])
    assert shown < n
    # one count, in the chart's notes: the bars drawn of those ranked
    assert f"the best {shown:,} of {plot.ranked:,} shown" in w.chart_plot.notes
    assert f"the best {n:,} of {plot.ranked:,} shown" not in w.chart_plot.notes
    w.close()
    # both tasks: each ranked apart, counted apart (test_tasks_apart)
    both = _plot(db, "throughput")
    w = compose(both, ExportOptions(1920, 1080))
    pi = next(i for i in w.ci.items if isinstance(i, pg.PlotItem))
    shown = len(pi.getAxis("left")._tickLevels[0])
    (note,) = [t for t in w.chart_plot.notes if t.startswith("the best ")]
    counts = [p.split(" of ")[0] for p in note.split(": ", 1)[1].split(", ")]
    assert sum(int(c.replace(",", "")) for c in counts) == shown
    w.close()
