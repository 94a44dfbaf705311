"""Lines of one look are drawn as one pyqtgraph item: the items
carry exactly the points of the Plot's series, each line apart, and the
legend still names every series."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
import pytest

from ipubench_gui.charts.builders import NumberAxis, draw
from ipubench_gui.charts.theme import LIGHT
from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.plots import build_plot
from ipubench_gui.service import browse


def _runs(
    item: pg.PlotDataItem | pg.PlotCurveItem,
) -> list[tuple[tuple[float, float], ...]]:
    """The item's points cut where its ``connect`` array leaves a gap."""
    x, y = item.getData()
    joins = item.opts["connect"]
    assert isinstance(joins, np.ndarray) and len(joins) == len(x)
    out, cur = [], []
    for xv, yv, join in zip(x, y, joins):
        cur.append((round(float(xv), 9), round(float(yv), 9)))
        if not join:
            out.append(tuple(cur))
            cur = []
    assert not cur  # the last point never joins on
    return out


@pytest.mark.parametrize("kind", ["latency-throughput", "scaling"])
def test_items_carry_exactly_the_series_points(qapp, db, kind):
    spec = ChartSpec(kind=kind)
    plot = build_plot(spec, browse.chart_data(db, FilterState(), spec))
    lines = [s for s in plot.series if s.points]
    pi = pg.PlotItem(
        axisItems={"bottom": NumberAxis("bottom"), "left": NumberAxis("left")}
    )
    legend = pg.LegendItem()
    drawn = draw(pi, plot, LIGHT, legend=legend, legend_rows=1000)
    xm, ym = drawn.x_mode, drawn.y_mode

    items = [
        it for it in pi.items if isinstance(it, (pg.PlotDataItem, pg.PlotCurveItem))
    ]
    looks = {(s.style, s.color, s.dashed, s.symbol) for s in lines}
    assert len(lines) > len(items) == len(looks) == len(drawn.series_items)
    # A look with symbols is a PlotDataItem; dashed and step lines, which
    # have none, are bare curves (a PlotDataItem costs more per item).
    marked = {
        (s.color, s.dashed, s.style)
        for s in lines
        if s.symbol and not s.dashed and s.style != "step"
    }
    assert sum(isinstance(it, pg.PlotDataItem) for it in items) == len(marked)

    drawn_runs = sorted(r for it in items for r in _runs(it))
    want = []
    log_x = math.log10 if xm == "log10" else math.log2
    assert ym == "log10"
    for s in lines:
        pts = [(log_x(p.x), math.log10(p.y)) for p in s.points]
        if s.style == "step":  # each y held until the next x: corners added
            corners = [(x, pts[i - 1][1]) for i, (x, _) in enumerate(pts) if i]
            pts = sorted(pts + corners, key=lambda c: (c[0], c not in corners))
        want.append(tuple((round(x, 9), round(y, 9)) for x, y in pts))
    assert drawn_runs == sorted(want)

    # Every series in the legend, beside the item of its colour.
    colour = {s.name: s.color for s in lines}
    named = {label.text: sample.item for sample, label in legend.items}
    assert set(named) == {s.name for s in lines if s.in_legend}
    for name, item in named.items():
        if item.opts["pen"] is not None:  # scatter series have no line
            assert pg.mkPen(item.opts["pen"]).color().name().upper() == (
                LIGHT.series(colour[name]).upper()
            )
        if isinstance(item, pg.PlotDataItem):
            assert pg.mkBrush(item.opts["symbolBrush"]).color().name().upper() == (
                LIGHT.series(colour[name]).upper()
            )


def test_latency_points_are_the_stored_rows(qapp, db):
    """Independently of the plot code: one drawn point per stored inference
    throughput row with a latency, at its latency and value."""
    cur = db.cursor().execute(
        "SELECT latency_ms, value FROM results_v WHERE metric = 'throughput' "
        "AND task = 'inference' AND latency_ms IS NOT NULL"
    )
    stored = sorted(
        (round(math.log10(a), 9), round(math.log10(b), 9)) for a, b in cur.fetchall()
    )
    spec = ChartSpec(kind="latency-throughput")
    plot = build_plot(spec, browse.chart_data(db, FilterState(), spec))
    pi = pg.PlotItem(
        axisItems={"bottom": NumberAxis("bottom"), "left": NumberAxis("left")}
    )
    draw(pi, plot, LIGHT)
    got = []
    for it in pi.items:
        if isinstance(it, pg.PlotDataItem) and it.opts["symbol"] is not None:
            x, y = it.getData()
            got += [(round(float(a), 9), round(float(b), 9)) for a, b in zip(x, y)]
    assert len(stored) > 50
    assert sorted(got) == stored
