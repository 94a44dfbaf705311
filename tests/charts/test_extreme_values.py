"""A figure near the float's end (1e300, as an imported log once made) draws
and exports: the log axis works out its ticks within the floats there are
(it raised OverflowError, then the process crashed painting)."""

from __future__ import annotations

import dataclasses

import pytest
from PySide6.QtGui import QImage

from ipubench_gui.charts.export import ExportOptions, export
from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.plots import build_plot
from ipubench_gui.service import browse


@pytest.mark.scale
def test_a_figure_of_1e300_exports_with_a_readable_axis(qapp, db, tmp_path):
    spec = ChartSpec(kind="scaling")
    st = FilterState().with_values("framework", ["TensorFlow 2"])
    plot = build_plot(spec, browse.chart_data(db, st, spec))
    first, *rest = plot.series
    far = dataclasses.replace(
        first,
        points=tuple(dataclasses.replace(p, y=p.y * 1e297) for p in first.points),
    )
    plot = dataclasses.replace(plot, series=(far, *rest))
    out = export(plot, tmp_path / "far.png", ExportOptions(1280, 720))
    img = QImage(str(out))
    assert (img.width(), img.height()) == (1280, 720)


@pytest.mark.scale
def test_log_ticks_over_six_hundred_decades_stay_few(qapp):
    from ipubench_gui.charts.axes import NumberAxis

    axis = NumberAxis("left")
    axis.mode = "log10"
    ((_, ticks),) = axis.tickValues(-320.0, 330.0, 600.0)
    assert 2 <= len(ticks) <= 40
    assert all(-300 <= t <= 300 for t in ticks)
