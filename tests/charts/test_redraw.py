"""A redraw over the last drawing reuses its items and draws
exactly what a fresh drawing of the same plot draws."""

from __future__ import annotations

import dataclasses

import numpy as np
import pyqtgraph as pg
import pytest

from ipubench_gui.charts.builders import NumberAxis, draw
from ipubench_gui.charts.theme import DARK, LIGHT
from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.plots import build_plot
from ipubench_gui.service import browse


def _plot(db, kind: str, framework: str | None):
    spec = ChartSpec(kind=kind)
    f = FilterState()
    if framework:
        f = f.with_values("framework", [framework])
    return build_plot(spec, browse.chart_data(db, f, spec))


def _plot_item() -> pg.PlotItem:
    return pg.PlotItem(
        axisItems={"bottom": NumberAxis("bottom"), "left": NumberAxis("left")}
    )


def _drawn(pi: pg.PlotItem) -> list[tuple]:
    """What each series item in ``pi`` shows, in a comparable form (hidden
    items, spares kept for a later drawing, show nothing)."""
    out = []
    for it in pi.items:
        if not it.isVisible():
            continue
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


@pytest.mark.scale
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


@pytest.mark.scale
@pytest.mark.parametrize("kind", ["latency-throughput", "scaling"])
def test_a_legend_of_as_many_rows_is_relabelled_in_place(qapp, db, kind):
    before = _plot(db, kind, "PopART")
    # latency: TensorFlow 1's models have a line each, named by their panels
    other = "PyTorch" if kind == "latency-throughput" else "TensorFlow 1"
    after = _plot(db, kind, other)
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


@pytest.mark.scale
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


def test_items_no_series_takes_are_kept_hidden_and_taken_again(qapp, db):
    """All frameworks' bars (a colour each), then one framework's, then all
    again: the second drawing hides the items it does not need, the third
    shows them again; no item is made after the first drawing, and each
    shows what a fresh drawing shows."""
    every, torch = _bars(db, None), _bars(db, "IPU-POD16")
    assert len(every.series) > 3 and len(torch.series) == 1
    pi, legend = _plot_item(), pg.LegendItem()
    first = draw(pi, every, LIGHT, legend=legend)
    made = set(pi.items)
    second = draw(pi, torch, LIGHT, legend=legend, previous=first)
    assert len(second.series_items) == 1
    assert {it.isVisible() for it in second.spares} == {False}
    assert len(second.spares) == len(every.series) - 1
    assert _drawn(pi) == _drawn(_fresh(torch))
    third = draw(pi, every, LIGHT, legend=legend, previous=second)
    assert set(third.series_items) == set(first.series_items)
    assert third.spares == [] and set(pi.items) <= made
    assert all(it.isVisible() for it in third.series_items)
    assert _drawn(pi) == _drawn(_fresh(every))


def _bars(db, platform: str | None):
    """The bar chart, a colour per platform: one for each platform among the
    best bars of every row, one over a platform's."""
    spec = ChartSpec(kind="throughput", color_by="platform")
    f = FilterState()
    if platform:
        f = f.with_values("platform", [platform])
    return build_plot(spec, browse.chart_data(db, f, spec))


def _fresh(plot) -> pg.PlotItem:
    pi = _plot_item()
    draw(pi, plot, LIGHT, legend=pg.LegendItem())
    return pi


@pytest.mark.scale
def test_a_legend_keeps_the_rows_it_no_longer_needs_and_shows_them_again(qapp, db):
    """Fewer entries than rows: the rows left over are taken out and hidden,
    and put back (the same rows) when entries grow again; each time the
    legend lists, sizes and colours what a fresh legend does."""
    every, torch = _bars(db, None), _bars(db, "IPU-POD16")
    pi, legend = _plot_item(), pg.LegendItem()
    first = draw(pi, every, LIGHT, legend=legend)
    rows = list(legend.items)
    assert len(rows) > 3
    second = draw(pi, torch, LIGHT, legend=legend, previous=first)
    (kept,) = legend.items
    assert kept in rows
    hidden = [part for row in rows if row != kept for part in row]
    assert not any(part.isVisible() for part in hidden)
    laid_out = [legend.layout.itemAt(i) for i in range(legend.layout.count())]
    assert not any(part in laid_out for part in hidden)
    _same_as_fresh(legend, torch)
    draw(pi, every, LIGHT, legend=legend, previous=second)
    assert set(legend.items) == set(rows)
    assert all(part.isVisible() for row in legend.items for part in row)
    _same_as_fresh(legend, every)


def _same_as_fresh(legend: pg.LegendItem, plot) -> None:
    fresh = pg.LegendItem()
    draw(_plot_item(), plot, LIGHT, legend=fresh)
    assert _legend_rows(legend) == _legend_rows(fresh)
    assert legend.boundingRect().size() == fresh.boundingRect().size()


def test_rows_kept_in_another_text_colour_are_not_shown_again(qapp, db):
    """The window's theme changed in between: the legend's kept rows were
    labelled in the old colour, so the legend makes rows anew instead."""
    every, torch = _bars(db, None), _bars(db, "IPU-POD16")
    pi, legend = _plot_item(), pg.LegendItem()
    first = draw(pi, every, LIGHT, legend=legend)
    rows = set(legend.items)
    second = draw(pi, torch, LIGHT, legend=legend, previous=first)
    aside = rows - set(legend.items)
    assert aside
    legend.setLabelTextColor(DARK.foreground)  # as ChartCanvas.apply_theme does
    draw(pi, every, DARK, legend=legend, previous=second)
    assert not aside & set(legend.items)
    colours = {pg.mkColor(label.opts["color"]).name() for _s, label in legend.items}
    assert colours == {pg.mkColor(DARK.foreground).name()}


def test_a_legend_keeps_each_row_already_naming_an_entry(qapp, db, monkeypatch):
    """A row saying a name is kept for it, its label not set again (most of
    a row's cost): every platform, then one of them, then every one again
    sets no label's text. The one is the best bar's platform, so the first
    chart names it whatever rows the store holds."""
    every = _bars(db, None)
    one = str(every.rows[0]["platform"])
    just_one = _bars(db, one)
    pi, legend = _plot_item(), pg.LegendItem()
    first = draw(pi, every, LIGHT, legend=legend)
    by_text = {label.text: (sample, label) for sample, label in legend.items}
    set_again: list[str] = []
    orig = pg.LabelItem.setText

    def counted(self, text, **args):
        set_again.append(text)
        return orig(self, text, **args)

    monkeypatch.setattr(pg.LabelItem, "setText", counted)
    second = draw(pi, just_one, LIGHT, legend=legend, previous=first)
    assert [s.name for s in just_one.series] == [one]
    assert legend.items == [by_text[one]]
    draw(pi, every, LIGHT, legend=legend, previous=second)
    assert legend.items == list(by_text.values())
    assert set_again == []
    _same_as_fresh(legend, every)


@pytest.mark.scale
def test_a_legend_follows_the_corner_each_chart_leaves(qapp, db):
    """A legend inside the plot is anchored again only when the corner
    changes: redrawn for a chart leaving another corner, it moves there."""
    bars = _bars(db, None)
    pi = _plot_item()
    pi.resize(900, 600)
    legend = pi.addLegend(offset=(-10, -10))
    draw(pi, bars, LIGHT, legend=legend)
    assert tuple(legend.opts["offset"]) == (-10, -10)  # bars: bottom right
    draw(pi, bars, LIGHT, legend=legend)  # the same corner again
    assert tuple(legend.opts["offset"]) == (-10, -10)
    draw(pi, dataclasses.replace(bars, legend_corner="tl"), LIGHT, legend=legend)
    assert tuple(legend.opts["offset"]) == (10, 10)
    box = legend.mapRectToItem(pi, legend.boundingRect())
    assert box.left() < pi.width() / 2 and box.top() < pi.height() / 2
