"""What a chart's items ask of Qt's raster engine when painted (issue 20)."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6 import QtCore

from ipubench_gui.charts.builders import NumberAxis, draw
from ipubench_gui.charts.theme import LIGHT
from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.plots import build_plot
from ipubench_gui.store import fetch


def _dashed_pens(db, line_scale: float) -> list:
    spec = ChartSpec(kind="scaling")
    plot = build_plot(spec, fetch.chart_data(db, FilterState(), spec))
    assert any(s.dashed for s in plot.series)  # ideal scaling, dashed
    pi = pg.PlotItem(
        axisItems={"bottom": NumberAxis("bottom"), "left": NumberAxis("left")}
    )
    draw(pi, plot, LIGHT, legend=pg.LegendItem(), line_scale=line_scale)
    pens = [it.opts["pen"] for it in pi.items if isinstance(it, pg.PlotCurveItem)]
    return [p for p in pens if p.style() == QtCore.Qt.PenStyle.DashLine]


def test_dashed_lines_on_screen_take_qts_fast_dashing(qapp, db):
    """Qt's raster engine dashes a cosmetic pen of 1 px or less itself; a
    wider one goes through its path stroker dash by dash (the scaling
    chart's ideal lines over 1M rows: 4.3 ms of a 13.4 ms paint at 1.5 px,
    0.6 ms at 1 px). On screen (line scale 1) every dashed line has such a
    pen; in an export it grows with the scale, as the other lines do."""
    pens = _dashed_pens(db, 1.0)
    assert pens
    assert all(p.isCosmetic() and p.widthF() <= 1.0 for p in pens)
    assert {p.widthF() for p in _dashed_pens(db, 3.0)} == {3 * pens[0].widthF()}
