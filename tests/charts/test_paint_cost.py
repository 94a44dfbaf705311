"""What a chart's items ask of Qt's raster engine when painted."""

from __future__ import annotations

import pyqtgraph as pg
import pytest
from PySide6 import QtCore, QtGui

from ipubench_gui.charts.axes import px_font
from ipubench_gui.charts.builders import NumberAxis, draw
from ipubench_gui.charts.theme import LIGHT
from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.plots import build_plot
from ipubench_gui.service import browse


def _dashed_pens(db, line_scale: float) -> list:
    spec = ChartSpec(kind="scaling")
    plot = build_plot(spec, browse.chart_data(db, FilterState(), spec))
    assert any(s.dashed for s in plot.series)  # ideal scaling, dashed
    pi = pg.PlotItem(
        axisItems={"bottom": NumberAxis("bottom"), "left": NumberAxis("left")}
    )
    draw(pi, plot, LIGHT, legend=pg.LegendItem(), line_scale=line_scale)
    pens = [it.opts["pen"] for it in pi.items if isinstance(it, pg.PlotCurveItem)]
    return [p for p in pens if p.style() == QtCore.Qt.PenStyle.DashLine]


@pytest.mark.scale
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


def _axis_image(axis, specs, paint) -> QtGui.QImage:
    """``specs`` painted by ``paint(axis, painter, *specs)`` on a white image,
    moved by a fraction of a pixel, as a scene moves its items."""
    img = QtGui.QImage(400, 60, QtGui.QImage.Format.Format_ARGB32_Premultiplied)
    img.fill(QtGui.QColor("white"))
    p = QtGui.QPainter(img)
    p.translate(3.37, 1.71)
    paint(axis, p, *specs)
    p.end()
    return img


@pytest.mark.scale
def test_tick_labels_laid_out_once_are_drawn_as_pyqtgraph_draws_them(qapp):
    """NumberAxis lays each tick label out once and keeps it; drawn, each
    lands on the very pixels pyqtgraph's ``drawText`` of its box and flags
    gives, aligned by its advance ("50k"'s ink is 1 px wider), centred
    under a bottom tick or right-aligned beside a left one, in boxes and at
    offsets of fractions of a pixel; and again from what it kept."""
    flag = QtCore.Qt.AlignmentFlag
    dont_clip = QtCore.Qt.TextFlag.TextDontClip
    axes = {
        "bottom": flag.AlignHCenter | flag.AlignTop,
        "left": flag.AlignRight | flag.AlignVCenter,
    }
    texts = ["50k", "100k", "0.25", "ResNet-50 v1.5 · Bow Pod64 · bs 16,384", "µs"]
    for side, align in axes.items():
        axis = NumberAxis(side)
        axis.setStyle(tickFont=px_font(11))  # as style_axes sets it
        axis.setWidth(400) if side == "left" else axis.setHeight(60)
        axis.setGeometry(QtCore.QRectF(0, 0, 400, 60))  # the labels unclipped
        specs = (
            (pg.mkPen("k"), QtCore.QPointF(0, 0.5), QtCore.QPointF(380, 0.5)),
            [(pg.mkPen("k"), QtCore.QPointF(40.5, 0), QtCore.QPointF(40.5, 5))],
            [
                (
                    QtCore.QRectF(7.3 + 61.7 * k, 8.15 + 3.3 * k, 70.1 + 9 * k, 14.6),
                    int(align | dont_clip),
                    text,
                )
                for k, text in enumerate(texts)
            ],
        )
        theirs = _axis_image(axis, specs, pg.AxisItem.drawPicture)
        assert theirs != _axis_image(axis, specs[:2] + ([],), pg.AxisItem.drawPicture)
        for _ in range(2):  # laid out, then as kept
            assert _axis_image(axis, specs, NumberAxis.drawPicture) == theirs, side


@pytest.mark.scale
def test_tick_labels_measured_once_are_placed_as_pyqtgraph_places_them(qapp):
    """The boxes pyqtgraph asks of the painter for each tick label are kept
    (``axes._Measuring``): the labels' boxes, worked out afresh, then from
    what was kept, are the ones pyqtgraph works out with a plain painter."""
    view = pg.PlotWidget(
        axisItems={"bottom": NumberAxis("bottom"), "left": NumberAxis("left")}
    )
    view.resize(600, 400)
    view.show()  # in a view: pyqtgraph measures the axes in its pixels
    qapp.processEvents()
    pi = view.getPlotItem()
    pi.setXRange(0, 150_000, padding=0)
    pi.setYRange(0.5, 2.5, padding=0)
    pi.getAxis("left").setTicks([[(1.0, "ResNet-50 · bs 16,384"), (2.0, "ViT")], []])
    pi.getAxis("left").setWidth(200)  # room for the long label
    pi.layout.activate()
    for name in ("bottom", "left"):
        axis = pi.getAxis(name)
        axis.setStyle(tickFont=px_font(11))
        picture = QtGui.QPicture()
        p = QtGui.QPainter(picture)
        p.setFont(px_font(11))
        theirs = pg.AxisItem.generateDrawSpecs(axis, p)[2]
        assert len(theirs) >= 2, name
        for _ in range(2):  # measured, then as kept
            axis._work_out_specs(p)
            assert axis.picture[2] == theirs, name
        p.end()
    view.close()
