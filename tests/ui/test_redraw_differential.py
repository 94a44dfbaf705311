"""Red team of the chart's redraw reuse: one ``ChartCanvas`` drawn
over and over, as the window draws it (each chart over the items, legend
rows, tick labels and panels the last one left), shows after every step what
a fresh canvas drawing that chart once shows.

Per chart kind a seeded walk of ~12 steps over the test store's own facet
values (a filter on one or two values of a facet, or none) and style changes
(log axes, colour by, the legend hidden or shown). Compared after each step:
the visible series items (type, data, pens and brushes), that hidden ones are
neither shown nor hit, the legend's laid-out rows (text, swatch colour), the
axes' titles and tick labels (text and box), the point and value labels, the
hits, the panels' titles and legends, and for some steps the pixels."""

from __future__ import annotations

import random

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QApplication

from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.kinds import KINDS
from ipubench_gui.domain.plots import build_plot
from ipubench_gui.service import browse
from ipubench_gui.service.chart import color_order

FACETS = ("framework", "generation", "model", "task", "unit_family", "platform")
STEPS = 12
SIZE = (1400, 900)


def _canvas(qtbot, legend: bool):
    from ipubench_gui.ui.widgets.chart_canvas import ChartCanvas

    canvas = ChartCanvas()
    qtbot.addWidget(canvas)
    canvas.resize(*SIZE)
    canvas.show()
    canvas.set_legend_visible(legend)
    QApplication.processEvents()  # shown and laid out at its size
    return canvas


def _draw(canvas, plot) -> None:
    canvas.render(plot)
    canvas.finish()
    QApplication.processEvents()  # laid out (legends spread over their cells)
    QApplication.processEvents()


def _walk(db, universe, kind: str, seed: int):
    """``STEPS`` (filters, spec, legend shown, plot) of a seeded random walk:
    a filter on one or two values of a facet (a value whose chart is empty
    drawn again, up to 3 times, so most steps draw something), none, or a
    style change; the legend hidden in about one step in five."""
    rng = random.Random(seed)
    spec, state = ChartSpec(kind=kind), FilterState()
    facets = [f for f in FACETS if universe.values.get(f)]
    out = []
    for _ in range(STEPS):
        what = rng.random()
        if what < 0.65:  # a filter change
            dim = rng.choice([*facets, "none"])
            for _try in range(4):
                state = FilterState()
                if dim != "none":
                    values = universe.values[dim]
                    n = min(len(values), rng.choice((1, 1, 2)))
                    state = state.with_values(dim, rng.sample(values, n))
                if not _plot(db, universe, state, spec).empty:
                    break
            else:  # an empty chart half the time, else every result's
                state = state if rng.random() < 0.5 else FilterState()
        elif what < 0.8:
            spec = spec.with_(log=not spec.log)
        else:
            spec = spec.with_(color_by=rng.choice(("framework", "platform", "model")))
        legend = rng.random() > 0.2
        out.append((state, spec, legend, _plot(db, universe, state, spec)))
    return out


def _colour(x) -> str | None:
    return None if x is None else pg.mkColor(x).name(pg.QtGui.QColor.NameFormat.HexArgb)


def _pen(p) -> tuple | None:
    if p is None:
        return None
    pen = pg.mkPen(p)
    return (_colour(pen.color()), pen.widthF(), int(pen.style().value))


def _brush(b) -> str | None:
    return None if b is None else _colour(pg.mkBrush(b).color())


def _round(a) -> tuple:
    if a is None:
        return ()
    return tuple(np.round(np.atleast_1d(np.asarray(a, dtype=float)), 6).tolist())


def _item(it) -> tuple:
    """What one visible item in a plot shows, in a comparable form."""
    name = type(it).__name__
    if isinstance(it, pg.PlotDataItem):
        x, y = it.getData()
        o = it.opts
        sym = o.get("symbol")
        return (
            name,
            _round(x),
            _round(y),
            _pen(o.get("pen")),
            sym,
            sym and _brush(o.get("symbolBrush")),
            sym and _pen(o.get("symbolPen")),
            sym and o.get("symbolSize"),
        )
    if isinstance(it, pg.PlotCurveItem):
        x, y = it.getData()
        return (name, _round(x), _round(y), _pen(it.opts.get("pen")))
    if isinstance(it, pg.ScatterPlotItem):
        d = it.data
        return (
            name,
            _round(d["x"]),
            _round(d["y"]),
            tuple(_brush(b) for b in d["brush"]),
            tuple(_pen(p) for p in d["pen"]),
            tuple(d["size"]),
        )
    if isinstance(it, pg.BarGraphItem):
        o = it.opts
        brushes = o.get("brushes")
        return (
            name,
            *(_round(o.get(k)) for k in ("x0", "y", "width", "height")),
            _brush(o.get("brush")),
            tuple(_brush(b) for b in brushes) if brushes is not None else None,
            _pen(o.get("pen")),
        )
    if isinstance(it, pg.InfiniteLine):
        return (name, round(it.value(), 6), it.angle, _pen(it.pen))
    if name == "PointLabels":
        pts = [(round(x, 6), round(y, 6), t, _colour(c)) for x, y, t, c in it._points]
        return (name, tuple(pts), _rect(it.boundingRect()))
    if isinstance(it, pg.TextItem):
        return (name, it.toPlainText(), _colour(it.color), (it.pos().x(), it.pos().y()))
    return (name, _rect(it.boundingRect()))


def _rect(r) -> tuple:
    return tuple(round(v, 3) for v in (r.x(), r.y(), r.width(), r.height()))


def _axis(pi: pg.PlotItem, side: str) -> tuple[tuple, tuple]:
    """An axis' title and tick labels, and (apart) where they are drawn."""
    ax = pi.getAxis(side)
    if not ax.isVisible():
        return (side, False), ()
    ax.prepare()
    texts = ax.picture[2] if ax.picture else []
    title = ax.labelText if ax.label.isVisible() else None
    return (
        (side, True, title, ax.mode, tuple(t for _r, _f, t in texts)),
        (ax.width(), ax.height(), tuple((_rect(r), int(f)) for r, f, _t in texts)),
    )


def _legend(legend: pg.LegendItem) -> tuple:
    """The legend as laid out: shown or not, each laid-out row's text and
    swatch, in order; no row part outside its layout shown."""
    laid = {legend.layout.itemAt(i) for i in range(legend.layout.count())}
    rows = []
    for sample, label in legend.items:
        assert sample in laid and label in laid  # listed rows are laid out
        o = sample.item.opts
        sym = o.get("symbol")
        rows.append(
            (
                label.text,
                _colour(label.opts.get("color")),
                sym,
                _brush(o.get("symbolBrush")) if sym else _pen(o.get("pen")),
            )
        )
    for child in legend.childItems():
        if child not in laid and isinstance(child, pg.GraphicsWidget):
            assert not child.isVisible(), "a row left out of the legend is shown"
    return (legend.isVisible(), tuple(rows), _rect(legend.boundingRect()))


def _view(canvas, pi: pg.PlotItem, legend: pg.LegendItem) -> tuple:
    shown = sorted((_item(it) for it in pi.items if it.isVisible()), key=repr)
    for it in pi.items:
        if not it.isVisible():  # a spare kept for a later drawing: not painted
            assert it not in pi.scene().items(it.sceneBoundingRect())
    vb = pi.getViewBox()
    (bottom, bottom_at), (left, left_at) = _axis(pi, "bottom"), _axis(pi, "left")
    content = (tuple(shown), _legend(legend), bottom, left)
    geometry = (
        bottom_at,
        left_at,
        tuple(tuple(np.round(r, 6)) for r in vb.viewRange()),
    )
    return content, geometry


def _hidden_points(canvas) -> list[QPointF]:
    """Scene points of the hidden items' data (at most 20 an item)."""
    views = [(p.pi) for p in canvas.panels] or [canvas.item]
    out = []
    for pi in views:
        vb = pi.getViewBox()
        for it in pi.items:
            if not it.isVisible():
                out += [vb.mapViewToScene(QPointF(x, y)) for x, y in _points_of(it)]
    return out


def _hits_at(canvas, points: list[QPointF]) -> tuple:
    return tuple(getattr(canvas.hit_at(q), "result_id", None) for q in points)


def _points_of(it) -> list[tuple[float, float]]:
    if isinstance(it, (pg.PlotDataItem, pg.PlotCurveItem)):
        x, y = it.getData()
        if x is None:
            return []
        return [(float(a), float(b)) for a, b in zip(x, y)][:20]
    return []


def _seen(canvas) -> tuple[tuple, tuple]:
    """What the canvas shows of its chart (titles, items, legends, tick
    labels, hits), and apart where it is drawn (axes' room and tick boxes,
    views' ranges), each in a comparable form."""
    panels = canvas.panels
    if not canvas.plot.isVisible() and not panels:  # empty: nothing drawn shows
        views: list = []
    elif panels:
        views = [(p.title, p.label.text, _view(canvas, p.pi, p.legend)) for p in panels]
    else:
        views = [("", "", _view(canvas, canvas.item, canvas.legend))]
    hits = [
        (h.result_id, round(h.x, 6), round(h.y, 6), h.tooltip)
        for h in canvas.drawn.hits
    ]
    bar = canvas.rows_bar
    content = (
        canvas.plot.isVisible(),
        canvas.panels_scroll.isVisible(),
        canvas.empty_label.isVisible(),
        canvas.caption.text(),
        bar.isVisible() and (bar.maximum(), bar.pageStep()),
        bool(panels) and canvas.y_title.isVisible(),
        tuple((title, label, seen) for title, label, (seen, _at) in views),
        tuple(canvas.item_ids()),
        tuple(hits),
    )
    return content, tuple(at for _t, _l, (_seen, at) in views)


def _first_difference(a, b, at: str = "") -> str:
    """Where two nested tuples first differ, and how."""
    if isinstance(a, tuple) and isinstance(b, tuple):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _first_difference(x, y, f"{at}[{i}]")
        if len(a) != len(b):
            extra = a[len(b) :] or b[len(a) :]
            return f"{at}: lengths {len(a)} != {len(b)}; extra {extra!r}"
    return f"{at}: redrawn {a!r} != fresh {b!r}"


def _plot(db, universe, state: FilterState, spec: ChartSpec):
    return build_plot(
        spec, browse.chart_data(db, state, spec), color_order(universe, spec)
    )


def _steps(qtbot, db, kind: str):
    """Each step of ``kind``'s walk: the redrawn canvas's and a fresh one's
    ``_seen``, and their pictures."""
    universe = browse.universe(db)
    steps = _walk(db, universe, kind, 20 + sorted(KINDS).index(kind))
    canvas = _canvas(qtbot, True)
    for i, (state, spec, legend, plot) in enumerate(steps):
        canvas.set_legend_visible(legend)
        _draw(canvas, plot)
        fresh = _canvas(qtbot, legend)
        _draw(fresh, plot)
        where = f"{kind} step {i}: {state.to_json()} {spec} legend={legend}"
        pictures = (canvas.grab().toImage(), fresh.grab().toImage())
        # hidden items hit nothing a fresh canvas's chart does not hit there
        hidden = _hidden_points(canvas)
        if hidden:
            assert _hits_at(canvas, hidden) == _hits_at(fresh, hidden), where
        yield i, where, plot, _seen(canvas), _seen(fresh), pictures
        fresh.close()
        fresh.deleteLater()


# Latency panels one model each: its walk goes from 16 panels (3 a row) to 8
# (2 a row), and the redrawn grid's plots are 2.6 px wider than a fresh
# grid's (434.7 vs 432.1 px at step 8); not found yet.
THREE_TO_TWO = pytest.mark.xfail(
    reason="a grid of 3 panels a row redrawn with 2: plots 2.6 px wider", strict=False
)


@pytest.mark.scale
@pytest.mark.parametrize(
    "kind",
    [
        pytest.param(k, marks=THREE_TO_TWO) if k == "latency-throughput" else k
        for k in sorted(KINDS)
    ],
)
def test_a_chart_redrawn_over_the_last_shows_what_a_fresh_canvas_shows(qtbot, db, kind):
    drawn = grabs = 0
    for i, where, plot, (now, now_at), (want, want_at), pics in _steps(qtbot, db, kind):
        assert now == want, f"{where}\n{_first_difference(now, want)}"
        drawn += not plot.empty
        assert now_at == want_at, f"{where}\n{_first_difference(now_at, want_at)}"
        if i % 4 == 3 or plot.panels:
            assert pics[0] == pics[1], where
            grabs += 1
    assert drawn >= 4 and grabs >= 3  # charts drawn, and pictures compared


@pytest.mark.scale
def test_an_axis_takes_the_room_its_own_tick_labels_take(qtbot, db):
    # pyqtgraph's AxisItem keeps its tick-label room until new labels need
    # 10 px less: one platform's MLPerf chart has wider labels than all
    # results' (by less than that), and the chart drawn over it must not
    # keep their room.
    universe = browse.universe(db)
    spec = ChartSpec(kind="mlperf")
    one = FilterState().with_values("platform", ["IPU-POD16"])
    alone, canvas, fresh = (_canvas(qtbot, True) for _ in range(3))
    _draw(alone, _plot(db, universe, one, spec))
    for state in (one, FilterState()):
        _draw(canvas, _plot(db, universe, state, spec))
    _draw(fresh, _plot(db, universe, FilterState(), spec))
    wider = alone.item.getAxis("left").width() - fresh.item.getAxis("left").width()
    assert 0 < wider < 10  # the case: wider, by less than pyqtgraph's 10 px
    assert _seen(canvas)[0] == _seen(fresh)[0]  # the same chart...
    left = canvas.item.getAxis("left").width(), fresh.item.getAxis("left").width()
    assert left[0] == left[1]  # ...its axis as wide
    assert canvas.grab().toImage() == fresh.grab().toImage()


@pytest.mark.scale
def test_while_the_user_pans_the_axis_keeps_its_room(qtbot, db):
    """Panning changes the labels; pyqtgraph's rule (room kept until they
    need 10 px less) holds then, so the plot does not jitter; the next chart
    drawn has its own labels' room again."""
    universe = browse.universe(db)
    spec = ChartSpec(kind="mlperf")
    pod16 = _plot(
        db, universe, FilterState().with_values("platform", ["IPU-POD16"]), spec
    )
    rooms = []
    for by_user in (False, True):
        canvas = _canvas(qtbot, True)
        _draw(canvas, pod16)  # labels 32.5 ... 34.5 (log10 axis)
        vb, left = canvas.item.getViewBox(), canvas.item.getAxis("left")
        rooms.append(left.textWidth)
        if by_user:  # as a drag or the wheel says it
            vb.sigRangeChangedManually.emit(vb.state["mouseEnabled"])
        vb.setYRange(2.0, 2.9, padding=0)  # labels 100, 200, 500
        canvas.grab()  # painted: the labels measured
        rooms.append(left.textWidth)
    assert rooms[1] < rooms[0]  # the narrower labels' own room...
    assert rooms[3] == rooms[2]  # ...but not while the user moves the view
    _draw(canvas, _plot(db, universe, FilterState(), spec))  # a chart drawn
    fresh = _canvas(qtbot, True)
    _draw(fresh, _plot(db, universe, FilterState(), spec))
    assert left.textWidth == fresh.item.getAxis("left").textWidth
