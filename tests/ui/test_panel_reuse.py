"""Panels redrawn in place for another filter look as when drawn afresh."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.filters import FilterState

FW = FilterState().with_values


def _legend_heights(make_session, filters: list[FilterState]):
    """The scaling chart's panel legends' heights after ``filters`` in turn
    (each laid out and painted), and the panels' plot items after each."""
    s = make_session()
    s.window.resize(1600, 1000)
    s.window.show()
    QApplication.processEvents()  # the window laid out: the chart's width final
    s.state.set_chart(ChartSpec(kind="scaling"))
    items = []
    for f in filters:
        s.state.set_filters(f)
        QApplication.processEvents()  # laid out: legends spread over their cells
        QApplication.processEvents()
        items.append([p.pi for p in s.window.canvas.panels])
    legends = [p.legend for p in s.window.canvas.panels]
    return [(g.maximumHeight(), g.layout.rowCount()) for g in legends], items


@pytest.mark.scale
def test_a_legend_redrawn_in_place_is_packed_as_drawn_afresh(make_session):
    """TensorFlow 1's two scaling panels, drawn into PyTorch's (one plot in
    between): each legend as tall as in a window that drew them first."""
    tf = FW("framework", ["TensorFlow 1"])
    fresh, _ = _legend_heights(make_session, [tf])
    torch, gpt2 = FW("framework", ["PyTorch"]), FW("model", ["GPT-2"])
    reused, items = _legend_heights(make_session, [torch, gpt2, tf])
    assert items[0] == items[2] and items[1] == []  # the same cells, redrawn
    assert len(fresh) == 2 and reused == fresh
    # and when the cells were TensorFlow 1's before
    again, _ = _legend_heights(make_session, [tf, torch, tf])
    assert again == fresh


def _grid_look(canvas):
    """What the grid of panels shows: its cells (each item's rows and
    columns), each panel's title, legend height and rows."""
    canvas.finish()  # all of a chart drawn over several turns of the loop
    QApplication.processEvents()  # laid out: legends spread over their cells
    QApplication.processEvents()
    grid = canvas.panels_view.ci
    cells = sorted((tuple(at), type(it).__name__) for it, at in grid.items.items())
    panels = [
        (p.label.text, p.legend.maximumHeight(), p.legend.layout.rowCount())
        for p in canvas.panels
    ]
    return cells, panels


def test_panels_of_another_count_take_the_cells_kept(make_session):
    """All results' 4 scaling panels after PyTorch's 2, and PyTorch's after
    all results' (both grids of two columns): the cells kept are the same
    plot items, and the grid looks as when drawn afresh in a cleared grid
    (a change of theme redraws it so): as many cells, the y title over every
    row, each panel's title and packed legend alike."""
    torch, every = FW("framework", ["PyTorch"]), FilterState()
    for first, then in ((torch, every), (every, torch)):
        s = make_session()
        s.window.resize(1600, 1000)
        s.window.show()
        s.state.set_chart(ChartSpec(kind="scaling"))
        canvas = s.window.canvas
        items = []
        for f in (first, then):
            s.state.set_filters(f)
            QApplication.processEvents()
            items.append([p.pi for p in canvas.panels])
        kept = _grid_look(canvas)
        canvas.apply_theme()  # the same chart drawn again in a cleared grid
        afresh = _grid_look(canvas)
        assert {len(items[0]), len(items[1])} == {2, 4}
        n = min(len(items[0]), len(items[1]))
        assert items[1][:n] == items[0][:n]
        assert [p.pi for p in canvas.panels][0] not in items[1]  # was afresh
        assert kept == afresh


def _columns_taken(canvas) -> list[tuple[float, float, float]]:
    """Each panel's plot and legend widths, and its column's width (plot +
    legend: the grid's cell less nothing else)."""
    QApplication.processEvents()  # laid out
    QApplication.processEvents()
    out = []
    for p in canvas.panels:
        plot_w, legend_w = p.pi.width(), p.legend.geometry().width()
        out.append((plot_w, legend_w, plot_w + legend_w))
    return out


@pytest.mark.scale
def test_panel_legends_keep_to_their_share_and_follow_a_resize(qtbot, make_session):
    """A panel's legend takes at most 45% of its column (46%: the grid's
    spacing is estimated), names cut and wrapped to fit, and the plot the
    rest: the grid gave a legend its names' width and the plot what was left,
    and the scaling chart's x ticks 64 and 128 ran into each other. The
    canvas lays its panels out again once resized."""
    s = make_session()
    s.window.resize(1400, 900)
    s.window.show()
    s.state.set_chart(ChartSpec(kind="scaling"))
    canvas = s.window.canvas
    qtbot.waitUntil(lambda: len(canvas.panels) == 4)  # the bundled store's
    before = _columns_taken(canvas)
    for plot_w, legend_w, col in before:
        assert legend_w <= 0.46 * col
        assert plot_w >= 0.54 * col
    s.window.resize(1900, 1000)
    # laid out again for the new width, names cut and wrapped to it: the
    # legends wider, still in their share
    qtbot.waitUntil(
        lambda: all(
            legend_w <= 0.46 * col
            and plot_w >= 0.54 * col
            and legend_w > before[i][1] + 40
            for i, (plot_w, legend_w, col) in enumerate(_columns_taken(canvas))
        ),
        timeout=5000,
    )


@pytest.mark.scale
def test_every_legend_row_fits_its_legend_in_a_small_window(qtbot, make_session):
    """At 1280x720 each row of a panel's legend is within the legend's width:
    capped at its share, a row wider ran into the next panel ("+ 3 more —
    hover a point for its name" over its y axis). Its rows counted by the
    legend layout's rule, the panels, which keep a readable height (and
    scroll), name every line."""
    s = make_session()
    s.window.resize(1280, 720)
    s.window.show()
    QApplication.processEvents()  # the window laid out: the chart's width final
    # latency-throughput: panels of more lines than their legends hold
    s.state.set_chart(ChartSpec(kind="latency-throughput"))
    canvas = s.window.canvas
    qtbot.waitUntil(lambda: len(canvas.panels) >= 4)
    QApplication.processEvents()
    rows = [
        (label.item.boundingRect().width(), p.legend.geometry().width(), label.text)
        for p in canvas.panels
        for _, label in p.legend.items
    ]
    named = [
        s.name
        for p in canvas.panels
        for s in canvas.current.panel(p.title).series
        if s.in_legend and s.points
    ]
    assert len(rows) == len(named)  # no "+ N more"
    for text_w, legend_w, text in rows:
        assert text_w + 20 <= legend_w, text  # beside its 20 px swatch


def test_a_grid_of_more_columns_moves_the_panels_made_and_looks_as_afresh(
    make_session,
):
    """Switching between charts of panels in grids of different columns
    (scaling: two; latency vs throughput: three) moves the panels already
    made into their new cells, and keeps those a smaller grid leaves out for
    the next; each grid then looks as when drawn afresh in a cleared grid."""
    s = make_session()
    s.window.resize(1600, 1000)
    s.window.show()
    canvas = s.window.canvas
    made: set[int] = set()
    looks = {}
    for kind in ("scaling", "latency-throughput", "throughput", "scaling"):
        s.state.set_chart(ChartSpec(kind=kind))
        QApplication.processEvents()
        pis = [id(p.pi) for p in canvas.panels]
        if kind == "latency-throughput":
            cols = {
                c for p in canvas.panels for _, c in canvas.panels_view.ci.items[p.pi]
            }
            assert len(cols) == 3 and made <= set(pis)  # all moved, none made anew
        elif kind == "scaling" and made:
            assert set(pis) <= made  # taken back from the panels made
        made |= set(pis)
        if pis:
            looks[kind] = _grid_look(canvas)
            canvas.apply_theme()  # the same chart drawn again in a cleared grid
            assert _grid_look(canvas) == looks[kind], kind
            made = {id(p.pi) for p in canvas.panels}
