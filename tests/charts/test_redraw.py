"""A redraw over the last drawing reuses its items (issue 20) and draws
exactly what a fresh drawing of the same plot draws."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest

from ipubench_gui.charts.builders import NumberAxis, draw
from ipubench_gui.charts.theme import LIGHT
from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.plots import build_plot
from ipubench_gui.store import fetch


def _plot(db, kind: str, framework: str | None):
    spec = ChartSpec(kind=kind)
    f = FilterState()
    if framework:
        f = f.with_values("framework", [framework])
    return build_plot(spec, fetch.chart_data(db, f, spec))


def _plot_item() -> pg.PlotItem:
    return pg.PlotItem(
        axisItems={"bottom": NumberAxis("bottom"), "left": NumberAxis("left")}
    )


def _drawn(pi: pg.PlotItem) -> list[tuple]:
    """What each series item in ``pi`` shows, in a comparable form."""
    out = []
    for it in pi.items:
        if isinstance(it, (pg.PlotDataItem, pg.PlotCurveItem)):
            x, y = it.getData()
            symbol = it.opts.get("symbol")  # a bare curve has none
            out.append(
                (
                    "line",
                    tuple(np.round(x, 9)),
                    tuple(np.round(y, 9)),
                    str(it.opts["pen"] and pg.mkPen(it.opts["pen"]).color().name()),
                    symbol,
                    symbol and pg.mkBrush(it.opts["symbolBrush"]).color().name(),
                )
            )
        elif isinstance(it, pg.BarGraphItem):
            o = it.opts
            out.append(("bars", tuple(o["y"]), tuple(np.round(o["width"], 9))))
    return sorted(out)


@pytest.mark.parametrize("kind", ["latency-throughput", "scaling", "throughput"])
def test_a_redraw_over_other_series_draws_what_a_fresh_drawing_does(qapp, db, kind):
    before = _plot(db, kind, "PopART")
    after = _plot(db, kind, "TensorFlow 1")
    assert before.series and after.series
    assert [s.name for s in before.series] != [s.name for s in after.series]
    pi, legend = _plot_item(), pg.LegendItem()
    first = draw(pi, before, LIGHT, legend=legend)
    old_items = set(first.series_items)
    again = draw(pi, after, LIGHT, legend=legend, previous=first)
    fresh_pi = _plot_item()
    fresh = draw(fresh_pi, after, LIGHT, legend=pg.LegendItem())
    assert _drawn(pi) == _drawn(fresh_pi)
    assert len(again.series_items) == len(fresh.series_items)
    # Items were taken over, not made anew, where the last drawing had them.
    kept = old_items & set(again.series_items)
    assert len(kept) == min(len(old_items), len(again.series_items))
    # The legend names the new series only.
    names = [label.text for _sample, label in legend.items]
    want = [s.name for s in after.series if s.points and s.in_legend]
    assert set(names) <= set(want) | {n for n in names if n.startswith("+ ")}


def _legend_rows(legend: pg.LegendItem) -> list[tuple[str, str | None]]:
    """Each row's text and its swatch's colour (None: no swatch)."""
    out = []
    for sample, label in legend.items:
        opts = sample.item.opts
        brush = opts.get("symbolBrush") if opts.get("symbol") else None
        out.append((label.text, brush and pg.mkBrush(brush).color().name()))
    return out


@pytest.mark.parametrize("kind", ["latency-throughput", "scaling"])
def test_a_legend_of_as_many_rows_is_relabelled_in_place(qapp, db, kind):
    before = _plot(db, kind, "PopART")
    after = _plot(db, kind, "TensorFlow 1")
    pi, legend = _plot_item(), pg.LegendItem()
    first = draw(pi, before, LIGHT, legend=legend, legend_rows=3)
    labels = [label for _s, label in legend.items]
    assert labels[-1].text.startswith("+ ")  # more series than rows
    draw(pi, after, LIGHT, legend=legend, previous=first, legend_rows=3)
    fresh = pg.LegendItem()
    draw(_plot_item(), after, LIGHT, legend=fresh, legend_rows=3)
    assert len(fresh.items) == len(labels)
    # The same rows, saying what a fresh drawing's legend says.
    assert [label for _s, label in legend.items] == labels
    assert _legend_rows(legend) == _legend_rows(fresh)
    named = {s.name for s in after.series if s.in_legend}
    assert {t for t, _c in _legend_rows(legend)[:-1]} <= named


def _labels_items(pi: pg.PlotItem) -> list:
    return [it for it in pi.items if type(it).__name__ == "PointLabels"]


@pytest.mark.parametrize("kind", ["throughput", "latency-throughput"])
def test_a_redraw_refills_the_last_drawings_labels_with_the_new_plots(qapp, db, kind):
    before = _plot(db, kind, "PopART")
    after = _plot(db, kind, "TensorFlow 1")
    pi = _plot_item()
    first = draw(pi, before, LIGHT, legend=pg.LegendItem())
    (old,) = _labels_items(pi)
    again = draw(pi, after, LIGHT, legend=pg.LegendItem(), previous=first)
    fresh_pi = _plot_item()
    draw(fresh_pi, after, LIGHT, legend=pg.LegendItem())
    # One label item, the same as before, saying what a fresh drawing says.
    assert _labels_items(pi) == [old]
    assert old in again.extras
    (fresh,) = _labels_items(fresh_pi)
    assert old._points == fresh._points
    assert old.boundingRect() == fresh.boundingRect()

    # ... the new plot's own labels, not the old plot's.
    def labels_of(plot) -> list:
        return sorted(p.label for s in plot.series for p in s.points if p.label)

    assert labels_of(before) != labels_of(after)
    texts = {t for _x, _y, t, _c in old._points}
    assert texts <= set(labels_of(after))
