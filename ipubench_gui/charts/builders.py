"""Plot -> pyqtgraph items. Pure: no widgets shown, no SQL.

Log axes are drawn by transforming coordinates here (and labelling ticks with
the original values), because pyqtgraph's log mode applies to curves only, not
to bar items or our label item.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, field, replace
from functools import cache

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from ipubench_gui.charts.axes import (
    NumberAxis,
    from_view,
    log_tick_values,
    px_font,
    style_axes,
    to_view,
    to_view_all,
)
from ipubench_gui.charts.labels import CountLabels, PointLabels
from ipubench_gui.charts.legend import LEGEND_TEXT, fill_legend
from ipubench_gui.charts.theme import Theme, readable
from ipubench_gui.domain.crowds import Crowd, count_text, places
from ipubench_gui.domain.plot_model import Plot, Series
from ipubench_gui.domain.text import elide_words

__all__ = [
    "Drawn",
    "Hit",
    "NumberAxis",
    "clear_of_legend",
    "PointLabels",
    "draw",
    "draw_steps",
    "from_view",
    "highlight_items",
    "log_tick_values",
    "to_view",
]

BAR_THICKNESS = 0.72
MAX_LEGEND = 12  # entries; more would cover the data
MAX_POINT_LABELS = 60  # beyond this, only each line's last point is labelled
# Lines longer than this are clipped to the view and downsampled, and guard
# against huge view coordinates (pyqtgraph's default limit); shorter ones skip
# that work, which pyqtgraph redoes on every change of the view's range.
LONG_LINE = 1000
DYNAMIC_RANGE_LIMIT = 1e6
TEXT_CONTRAST = 4.5  # WCAG AA for text, as point labels coloured like their line
LEGEND_MARGIN_PX = 24  # between value labels and a legend (10 px from the edge)
# A dashed line's width on screen: Qt's raster engine dashes a 1 px cosmetic
# pen itself, fast; a wider one goes through its general path stroker, dash
# by dash: at 1.5 px the scaling chart's ideal-scaling lines were a third of
# its paint, at 1 px a small part, and they look the same.
DASHED_WIDTH = 1.0
# The shape of a drawing not to be redrawn in place (stopped part way, or
# another panel's): no plot's (``_shape``), so a next call over it takes its
# items by type and fills the legend anew.
NOT_IN_PLACE = (None,)


@dataclass
class Hit:
    """Something under the mouse: in view coordinates, with what it stands for."""

    x: float
    y: float
    result_id: str
    tooltip: str
    bar_end: float | None = None  # horizontal bars: hit by row band


@dataclass
class Drawn:
    hits: list[Hit] = field(default_factory=list)
    x_mode: str = "linear"
    y_mode: str = "linear"
    categories: list[str] = field(default_factory=list)
    budget_line: pg.InfiniteLine | None = None
    # For redrawing in place: the series items, what they are, and the rest.
    series_items: list[pg.GraphicsObject] = field(default_factory=list)
    shape: tuple = ()
    extras: list[pg.GraphicsObject] = field(default_factory=list)
    style_key: tuple = ()
    label_end: float | None = None  # bars: where their value labels end
    # Series items of earlier drawings that no series of this one took, kept
    # in the plot hidden, for a next drawing to take (``_Pass.place``):
    # removed, a filter change from 2 bar colours to 1 removed a bar item
    # (and closed its legend row), and the change back made both anew.
    spares: list[pg.GraphicsObject] = field(default_factory=list)
    # What a legend must not cover: each point and each line's segments
    # (x0, y0, x1, y1 in view units, a point of no length), and the legend's
    # entries (item, name) in order, for its owner to place (legend_layout).
    segments: np.ndarray = field(default_factory=lambda: np.empty((0, 4)))
    legend_entries: list[tuple[pg.GraphicsObject, str]] = field(default_factory=list)


def _shape(plot: Plot, order: list[str]) -> tuple:
    """What decides the set of series items and legend entries (and their order)."""
    return (
        tuple((s.name, _look(s), s.in_legend) for s in plot.series if s.points)
        + tuple(order)
        + (bool(plot.yours),)  # the legend's "your results" entry
    )


def _look(s: Series) -> tuple:
    """How a line series is drawn: the series of one look share one item."""
    return (s.style, s.color, s.dashed, s.symbol, s.symbol_scale)


def legend_order(plot: Plot) -> list[str]:
    """Series names as the legend lists them. For bars, in the order their
    first bar appears from the top, so that when the legend is cut short
    ("+ N more") it names the colours of the bars in view."""
    named = [s for s in plot.series if s.points and s.in_legend]
    if plot.horizontal_bars:
        named.sort(key=lambda s: min(p.y for p in s.points))
    return [s.name for s in named]


@dataclass
class _Pass:
    """One call of ``draw``: where it draws, how, and what it has collected."""

    pi: pg.PlotItem
    theme: Theme
    font_px: float
    line_scale: float
    out: Drawn
    plot: Plot
    reused: list[pg.GraphicsObject] | None  # items of the last call, in order
    # Items of the last call (other series, same style) and its hidden
    # spares: taken by type, updated, shown.
    pool: list[pg.GraphicsObject] = field(default_factory=list)
    # (x, y, text, colour or None: the theme's text colour)
    labels: list[tuple[float, float, str, str | None]] = field(default_factory=list)
    xs: list[float] = field(default_factory=list)
    ys: list[float] = field(default_factory=list)
    legend: list[tuple[pg.GraphicsObject, str]] = field(default_factory=list)
    segs: list[np.ndarray] = field(default_factory=list)  # Drawn.segments' parts
    label_every_point: bool = True
    labels_item: PointLabels | None = None  # the last call's, to refill
    # scatter points drawn apart from others at the same place: each moved
    # this far along x (view units), by series (``domain.crowds``)
    dodge: dict[int, np.ndarray] = field(default_factory=dict)
    lift: dict[int, np.ndarray] = field(default_factory=dict)  # ...and along y
    # each scatter look's marks: x, y (view units), size (px), the index of
    # each one's series, for counts to keep clear of
    marks: list[tuple[np.ndarray, np.ndarray, float, np.ndarray]] = field(
        default_factory=list
    )

    def place(
        self,
        make: Callable[[], pg.GraphicsObject],
        update: Callable[[pg.GraphicsObject], object],
        kind: type[pg.GraphicsObject],
    ) -> pg.GraphicsObject:
        """The last call's item updated in place (the same one, else any of
        ``kind`` it left), or a new one added."""
        spare = next((it for it in self.pool if type(it) is kind), None)
        if self.reused is not None:
            item = self.reused[len(self.out.series_items)]
            update(item)
        elif spare is not None:
            self.pool.remove(spare)
            item = spare
            update(item)
            item.show()  # a hidden spare
        else:
            item = make()
            self.pi.addItem(item)
        self.out.series_items.append(item)
        return item

    def so_far(self) -> Drawn:
        """What ``pi`` holds now, as ``previous`` for a call that replaces
        this one part way: the series items placed and those of the last
        call not yet taken (all to be taken by type, or removed), the labels
        item to refill, the extras added."""
        out = self.out
        left = self.pool
        if self.reused is not None:
            left = self.reused[len(out.series_items) :]
        kept = [] if self.labels_item is None else [self.labels_item]
        return replace(
            out,
            shape=NOT_IN_PLACE,
            series_items=out.series_items + left,
            extras=kept + out.extras,
        )


def draw(*args, **kwargs) -> Drawn:
    """Every step of ``draw_steps`` at once (same arguments): what it drew."""
    *_, drawn = draw_steps(*args, **kwargs)
    return drawn


def draw_steps(
    pi: pg.PlotItem,
    plot: Plot,
    theme: Theme,
    font_px: float = 12.0,
    line_scale: float = 1.0,
    legend: pg.LegendItem | None = None,
    previous: Drawn | None = None,
    legend_rows: int = MAX_LEGEND,
    legend_width: float | None = None,
    interactive: bool = True,
) -> Generator[Drawn, None, None]:
    """Draw ``plot`` into ``pi``, in steps; the last yields what the canvas
    needs for hit-testing. ``font_px`` and ``line_scale`` grow with export size.

    A step a bar series or a look's item (``_lines``), one filling the legend,
    one for the labels and the axes, so that a window can spread a big chart
    over turns of its event loop: a scaling panel drawn anew over a large
    store in one step held the GUI thread for frames.
    Each step but the last yields what ``pi`` holds then (``_Pass.so_far``):
    drawing stopped there, it is the right ``previous`` for the next call.

    The legend lists at most ``legend_rows`` series (then "+ N more"), each name
    wrapped at word boundaries to ``legend_width`` pixels if given. A legend
    made with ``offset=None`` is placed by its owner (a layout cell beside the
    plot); otherwise it sits inside the plot, in the corner the kind leaves
    empty. Not ``interactive`` (an exported picture): nothing says "hover".
    Labels get a halo of the background colour, to stay legible over lines and
    grid (a small cost per paint, tests/bench).

    With ``previous`` (what the last call drew into ``pi``) and the same series
    as then, the series items and legend entries are updated in place rather
    than rebuilt: clearing and re-adding them was half the cost of a redraw
    after a filter change (tests/bench). Other series in the same style reuse
    its items too (the legend is rebuilt): else a filter change over a large
    store redrew the latency chart's lines as new items each time."""
    order = legend_order(plot)
    out = Drawn(
        x_mode="log2" if plot.log2_x else "log10" if plot.log_x else "linear",
        y_mode="log10" if plot.log_y else "linear",
        categories=list(plot.categories),
        shape=_shape(plot, order),
        style_key=(theme, font_px, line_scale, legend_rows),
    )
    same_style = previous is not None and previous.style_key == out.style_key
    reuse = same_style and previous is not None and previous.shape == out.shape
    kept_labels = None  # the last call's value/point labels, given new ones
    heads: list[SectionHead] = []  # the last call's section headers, retitled
    if same_style and previous is not None:
        for it in previous.extras:
            if kept_labels is None and type(it) is PointLabels:
                kept_labels = it
            elif type(it) is SectionHead:
                heads.append(it)
            else:
                pi.removeItem(it)
    else:
        pi.clear()
    pi.getViewBox().invertY(plot.horizontal_bars)
    if interactive and theme.background:
        # On screen, the grid opaque over the ground (NumberAxis.paint), in
        # panels as in the one plot: translucent, the scaling panels' grid took
        # several times longer to paint.
        for side in ("bottom", "left"):
            pi.getAxis(side).opaque_on = QtGui.QColor(theme.background)
    run = _Pass(
        pi,
        theme,
        font_px,
        line_scale,
        out,
        plot,
        list(previous.series_items) if reuse and previous is not None else None,
        labels_item=kept_labels,
    )
    if same_style and previous is not None:
        if reuse:  # the series items as they were; the spares stay hidden
            out.spares = list(previous.spares)
        else:
            run.pool = list(previous.series_items) + list(previous.spares)
    run.label_every_point = (
        sum(len(s.points) for s in plot.series if s.style != "bars") <= MAX_POINT_LABELS
    )
    spots = places(plot)
    run.dodge = {id(plot.series[i]): np.array(m) for i, m in spots.moves.items()}
    run.lift = {id(plot.series[i]): np.array(m) for i, m in spots.lifts.items()}
    looks: dict[tuple, list[Series]] = {}  # line series by look, in order
    for s in plot.series:
        if not s.points:
            continue
        if s.style == "bars":
            _bars(run, s)
            yield run.so_far()
        else:
            looks.setdefault(_look(s), []).append(s)
    for alike in looks.values():
        _lines(run, alike)
        yield run.so_far()
    _yours(run, plot)
    _counts(run, plot, spots.crowds)
    for it in run.pool:  # the last call's items no series took
        it.hide()
    out.spares += run.pool
    run.pool = []
    # each name at its first place in ``order`` (as order.index had it, one
    # scan of ``order`` per name)
    rank = {name: k for k, name in reversed(list(enumerate(order)))}
    # "your results" (not a series) after the series
    out.legend_entries = sorted(run.legend, key=lambda e: rank.get(e[1], len(rank)))
    out.segments = np.concatenate(run.segs) if run.segs else out.segments
    if legend is not None and not reuse:
        fill_legend(
            legend,
            out.legend_entries,
            theme,
            corner=plot.legend_corner,
            text_px=round(font_px * LEGEND_TEXT),
            rows=legend_rows,
            width=legend_width,
            interactive=interactive,
        )
        yield run.so_far()
    _point_labels(run, plot)
    _sections(run, plot, heads)
    _budget(run, plot)
    longest = max((len(lb[2]) for lb in run.labels), default=0)
    out.label_end = style_axes(
        pi, plot, (out.x_mode, out.y_mode), theme, font_px, run.xs, run.ys, longest
    )
    yield out


def clear_of_legend(
    pi: pg.PlotItem, legend: pg.LegendItem | None, drawn: Drawn
) -> None:
    """Widen a bar chart's value range until every bar and its value label
    ends inside the plot, left of ``legend`` when it is inside the plot (on
    its right), so no value is under the legend or cut at the plot's edge.
    Once laid out: it needs the plot's pixel width and the labels' text."""
    if drawn.label_end is None:
        return
    # laid out for the axes of this chart (the bar labels' room just set):
    # the first chart's view still had its unlaid width, so its value
    # labels ended under the legend (vendor claims, 47 px into it)
    pi.layout.activate()
    vb = pi.getViewBox()
    width = vb.width()
    _fit_heads(drawn, width)
    room = width
    if legend is not None and legend.isVisible() and legend.items:
        room = width - legend.boundingRect().width() - LEGEND_MARGIN_PX
        if room < width * 0.2:
            return
    (x0, x1), _ = vb.targetRange()
    # Labels are painted in pixels beside their bar's end: a label of w px
    # at x ends inside ``room`` when (x - x0) / (x1 - x0) * width + w <= room.
    # One wider than most of the room is left to overrun (bars keep a fifth).
    need = drawn.label_end
    for it in drawn.extras:
        if type(it) is PointLabels:
            for x, _y, box in it.boxes():
                free = max(room - box.right(), room / 5)
                need = max(need, x0 + (x - x0) * width / free)
    if need > x1:
        pi.setXRange(x0, need, padding=0)


def _bars(run: _Pass, s: Series) -> None:
    """One bar series: bars from the axis' base to each value."""
    xm = run.out.x_mode
    base = 0.0 if xm == "linear" else to_view(1.0, xm)
    ends = [to_view(p.x, xm) for p in s.points]
    opts = dict(
        x0=np.full(len(ends), base),
        y=np.array([p.y for p in s.points]),
        width=np.array(ends) - base,
        height=BAR_THICKNESS,
        brush=pg.mkBrush(run.theme.series(s.color)),
        pen=pg.mkPen(run.theme.ground, width=0.5 * run.line_scale),
    )
    item = run.place(
        lambda: pg.BarGraphItem(**opts), lambda it: it.setOpts(**opts), pg.BarGraphItem
    )
    if s.in_legend:
        run.legend.append((item, s.name))
    for p, e in zip(s.points, ends):
        run.labels.append((max(e, base), p.y, p.label, None))
        run.out.hits.append(Hit(e, p.y, p.result_id, p.tooltip, bar_end=e))
        run.xs.append(e)
    run.xs.append(base)


def _lines(run: _Pass, alike: list[Series]) -> None:
    """Line, step line or scatter series of one look (``_look``) as ONE item,
    each line's last point not connected to the next line's first (a
    ``connect`` array), with their highlighted points. The latency chart over
    1M rows drew 374 series as as many items; pyqtgraph's cost is per item
    (bounds, paint, range changes), so a chart has one per palette colour.
    The legend names each series beside its look's item."""
    s = alike[0]
    x, y, joins = _look_points(run, alike)
    finite = np.isfinite(x) & np.isfinite(y)
    connect = joins & finite & np.append(finite[1:], False)
    colour = run.theme.series(s.color)
    pen = pg.mkPen(
        colour,
        width=(DASHED_WIDTH if s.dashed else 2.2) * run.line_scale,
        style=QtCore.Qt.PenStyle.DashLine if s.dashed else QtCore.Qt.PenStyle.SolidLine,
    )
    symbol = None if s.dashed or s.style == "step" else s.symbol
    long = len(x) > LONG_LINE
    if symbol is None and not long:
        item = _bare_line(run, x[finite], y[finite], pen, connect[finite])
    else:
        item = _marked_line(run, s, x, y, pen, symbol, connect, colour, long)
    for line in alike:
        if line.in_legend:
            run.legend.append((item, line.name))
    run.segs.append(_segments(x, y, connect, symbol is not None))
    if s.style == "scatter":  # one point, one mark: no step corners
        at = {id(line): i for i, line in enumerate(run.plot.series)}
        of = [np.full(len(line.points), at[id(line)]) for line in alike]
        run.marks.append((x, y, _mark_px(run, s), np.concatenate(of)))
    run.xs += x[np.isfinite(x)].tolist()
    run.ys += y[np.isfinite(y)].tolist()


def _segments(
    x: np.ndarray, y: np.ndarray, connect: np.ndarray, points: bool
) -> np.ndarray:
    """A look's lines as segments (x0, y0, x1, y1), each joined pair of
    points; with ``points`` (a symbol drawn at each), every point too, as a
    segment of no length."""
    finite = np.isfinite(x) & np.isfinite(y)
    parts = []
    if points:
        parts.append(np.column_stack((x, y, x, y))[finite])
    if len(x) > 1:
        joined = connect[:-1]
        parts.append(np.column_stack((x[:-1], y[:-1], x[1:], y[1:]))[joined])
    return np.concatenate(parts) if parts else np.empty((0, 4))


def _look_points(
    run: _Pass, alike: list[Series]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The points of a look's lines in view coordinates, one after another
    (step lines with their corners), and whether each joins the next; their
    labels, hits and highlighted points noted on the way (``_marks``). The
    view transform once for all the look's points: per point, it was a
    tenth of redrawing the latency chart over 1M rows (~260 lines)."""
    xm, ym = run.out.x_mode, run.out.y_mode
    vx = to_view_all([p.x for line in alike for p in line.points], xm)
    vy = to_view_all([p.y for line in alike for p in line.points], ym)
    if run.dodge:
        vx = vx + np.concatenate(
            [run.dodge.get(id(line), np.zeros(len(line.points))) for line in alike]
        )
    if run.lift:
        vy = vy + np.concatenate(
            [run.lift.get(id(line), np.zeros(len(line.points))) for line in alike]
        )
    ink = readable(run.theme.series(alike[0].color), run.theme.ground, TEXT_CONTRAST)
    xs: list[float] = []
    ys: list[float] = []
    joins: list[bool] = []
    at = 0
    for line in alike:
        n = len(line.points)
        lx, ly = vx[at : at + n].tolist(), vy[at : at + n].tolist()
        at += n
        _marks(run, line, lx, ly, ink)
        if line.style == "step":
            lx, ly = _steps(lx, ly)
        xs += lx
        ys += ly
        joins += [True] * (len(lx) - 1) + [False]
    return np.array(xs, dtype=float), np.array(ys, dtype=float), np.array(joins)


def _bare_line(
    run: _Pass, x: np.ndarray, y: np.ndarray, pen: QtGui.QPen, connect: np.ndarray
) -> pg.GraphicsObject:
    """Lines without symbols (dashed, step) as a bare curve, their points all
    finite: a PlotDataItem adds a scatter item, signals and its own data
    handling to each, which made a cold scaling panel's lines several times
    dearer to make and to update."""
    opts = dict(pen=pen, connect=connect, skipFiniteCheck=True)
    return run.place(
        lambda: pg.PlotCurveItem(x, y, **opts),
        lambda it: it.setData(x, y, **opts),
        pg.PlotCurveItem,
    )


def _marked_line(
    run: _Pass,
    s: Series,
    x: np.ndarray,
    y: np.ndarray,
    pen: QtGui.QPen,
    symbol: str | None,
    connect: np.ndarray,
    colour: str,
    long: bool,
) -> pg.GraphicsObject:
    """Lines with symbols at their points, or ``long`` ones (clipped to the
    view and downsampled), as one PlotDataItem."""
    opts = dict(
        pen=None if s.style == "scatter" else pen,
        symbol=symbol,
        symbolSize=_mark_px(run, s),
        symbolBrush=_symbol_brush(colour),
        symbolPen=_symbol_pen(run.theme.ground, 0.8 * run.line_scale),
        connect=connect,
        # Set with the data, not after (setDynamicRangeLimit): an item made
        # with pyqtgraph's default limit redid its display data on each range
        # change while being added, and once more when the limit was lifted.
        dynamicRangeLimit=DYNAMIC_RANGE_LIMIT if long else None,
    )
    item = run.place(
        lambda: pg.PlotDataItem(x, y, **opts),
        lambda it: it.setData(x, y, **opts),
        pg.PlotDataItem,
    )
    # Only once the item is in a ViewBox: before that, pyqtgraph asks the
    # PlotWidget for autoRangeEnabled and fails. Only for long lines: each of
    # these makes the item redo its data on every range change (3 a draw), which
    # for the many short lines of the latency chart was most of a redraw
    # (tests/bench breakdown).
    item.setClipToView(long)
    item.setDownsampling(auto=long, method="peak")
    return item


def _mark_px(run: _Pass, s: Series) -> float:
    """The size of a line's point symbols, in pixels."""
    return 7 * s.symbol_scale * run.line_scale


def _counts(run: _Pass, plot: Plot, crowds: tuple[Crowd, ...]) -> None:
    """Each mark standing for several points (``domain.crowds``) with its
    count ("×27") beside it, in its series' colour as text, placed where it
    covers no mark (``CountLabels``)."""
    if not crowds:
        return
    marks = run.marks
    xs = np.concatenate([m[0] for m in marks])
    ys = np.concatenate([m[1] for m in marks])
    sizes = np.concatenate([np.full(len(m[0]), m[2]) for m in marks])
    of = np.concatenate([m[3] for m in marks])
    counts = []
    for c in sorted(crowds, key=lambda c: -c.count):  # the largest placed first
        s = plot.series[c.series]
        ink = readable(run.theme.series(s.color), run.theme.ground, TEXT_CONTRAST)
        counts.append((c.x, c.y, count_text(c), ink, _mark_px(run, s), c.series))
    item = CountLabels(
        counts, (xs, ys, sizes, of), run.font_px * 0.92, run.theme.background
    )
    run.pi.addItem(item)
    run.out.extras.append(item)


# A symbol's pen and brush: the same objects from one draw to the next.
# pyqtgraph keeps each scatter item's rendered symbols by the pen's and the
# brush's identity, so new ones on every filter change rendered each look's
# symbol again and grew the item's atlas until it was rebuilt.
@cache
def _symbol_brush(colour: str) -> QtGui.QBrush:
    return pg.mkBrush(colour)


@cache
def _symbol_pen(colour: str, width: float) -> QtGui.QPen:
    return pg.mkPen(colour, width=width)


def _marks(run: _Pass, s: Series, xs: list[float], ys: list[float], ink: str) -> None:
    """A line's labels, hit points and highlighted points (at ``xs``, ``ys``:
    its points in view coordinates). A point's label is in ``ink``, its
    line's colour as text (4.5:1 against the ground), so a reader can tell
    whose efficiency or batch size it is."""
    labels, hits = run.labels, run.out.hits
    last = len(s.points) - 1
    every = run.label_every_point
    for k, (p, x, y) in enumerate(zip(s.points, xs, ys)):
        if every or k == last:
            labels.append((x, y, p.label, ink))
        if p.result_id:
            hits.append(Hit(x, y, p.result_id, p.tooltip))
        if p.highlight:
            _star(run, x, y)


def _steps(xs: list[float], ys: list[float]) -> tuple[list[float], list[float]]:
    """A step line's corners: each y held until the next x."""
    sx: list[float] = []
    sy: list[float] = []
    for i, (x, y) in enumerate(zip(xs, ys)):
        if i:
            sx.append(x)
            sy.append(sy[-1])
        sx.append(x)
        sy.append(y)
    return sx, sy


YOURS = "your results"


def _yours(run: _Pass, plot: Plot) -> None:
    """The user's own imported results marked apart from everyone's: each of
    their points ringed, each of their bars outlined, in the text colour (so
    at 4.5:1 on either theme), with a legend entry "your results"."""
    hits = [h for h in run.out.hits if h.result_id in plot.yours]
    if not hits:
        return
    pen = pg.mkPen(run.theme.foreground, width=2.0 * run.line_scale)
    mark: pg.GraphicsObject
    if plot.horizontal_bars:
        xm = run.out.x_mode
        base = 0.0 if xm == "linear" else to_view(1.0, xm)
        ends = np.array([h.x for h in hits])
        mark = pg.BarGraphItem(
            x0=np.full(len(hits), base),
            y=np.array([h.y for h in hits]),
            width=ends - base,
            height=BAR_THICKNESS,
            brush=None,
            pen=pen,
        )
    else:
        mark = pg.ScatterPlotItem(
            [h.x for h in hits],
            [h.y for h in hits],
            symbol="o",
            size=15 * run.line_scale,
            brush=None,
            pen=pen,
        )
    run.pi.addItem(mark)
    run.out.extras.append(mark)
    run.legend.append((mark, YOURS))


def _star(run: _Pass, x: float, y: float) -> None:
    """A highlighted point (the best within the budget) as a large star."""
    star = pg.ScatterPlotItem(
        [x],
        [y],
        symbol="star",
        size=22 * run.line_scale,
        brush=pg.mkBrush(run.theme.highlight),
        pen=pg.mkPen(run.theme.foreground),
    )
    run.pi.addItem(star)
    run.out.extras.append(star)


def _point_labels(run: _Pass, plot: Plot) -> None:
    labels = run.labels_item
    if not run.labels:
        if labels is not None:
            run.pi.removeItem(labels)
        return
    dy = 0 if plot.horizontal_bars else -0.9 * run.font_px
    how = (run.theme.foreground, run.font_px * 0.92, 4, dy, run.theme.background)
    if labels is None:
        labels = PointLabels(run.labels, *how)
        run.pi.addItem(labels)
    else:
        labels.set_points(run.labels, *how)
    run.out.extras.append(labels)


class SectionHead(pg.TextItem):
    """A section's header text (its own type: a redraw finds and retitles it)."""

    whole = ""  # its text as the plot gives it (what is drawn may be cut)
    full_px = 0  # its font size as drawn, before any fitting


HEAD_SMALLEST = 0.8  # a header too wide for its plot written down to this size


def _fit_heads(drawn: Drawn, width: float) -> None:
    """Each section header kept inside its plot's ``width`` (px): written
    smaller, down to ``HEAD_SMALLEST`` of its size, then its last words left
    out ("…"), the whole text in its tooltip. Past the plot's edge it was
    cut there (a narrow window's "Task: inference (30 of 1,30")."""
    room = width - 8
    for it in drawn.extras:
        if type(it) is not SectionHead or not it.isVisible():
            continue
        text = it.whole or it.toPlainText()
        # fitted afresh from its full size: a plot widened again gets its
        # header back whole
        font = it.textItem.font()
        size = full = it.full_px or font.pixelSize()
        font.setPixelSize(size)
        fm = QtGui.QFontMetricsF(font)
        while size > full * HEAD_SMALLEST and fm.horizontalAdvance(text) > room:
            size -= 1
            font.setPixelSize(size)
            fm = QtGui.QFontMetricsF(font)
        shown = elide_words(text, room, fm.horizontalAdvance, "right")
        if it.textItem.font().pixelSize() != size:
            it.setFont(font)
        if it.toPlainText() != shown:
            it.setText(shown)
        it.setToolTip(text if shown != text else "")


def _sections(run: _Pass, plot: Plot, heads: list[SectionHead]) -> None:
    """Grouped bars: each group's name in bold on the empty row above its bars,
    from the bars' base (domain.plot_kinds.bars_plot leaves that row free).
    ``heads``, the last drawing's headers, are retitled and moved rather than
    made anew (a filter change redraws the bars in place); those left over
    stay hidden for a next drawing, as series items do."""
    xm = run.out.x_mode
    base = 0.0 if xm == "linear" else to_view(1.0, xm)
    font = px_font(run.font_px)
    font.setBold(True)
    for y, text in plot.sections:
        if heads:
            item = heads.pop(0)
            item.setText(text, color=run.theme.foreground)
            item.show()
        else:
            item = SectionHead(text, color=run.theme.foreground, anchor=(0, 0.5))
            run.pi.addItem(item)
        item.whole, item.full_px = text, font.pixelSize()
        item.setToolTip("")
        item.setFont(font)
        item.setPos(base, y)
        run.out.extras.append(item)
    for item in heads:
        item.hide()
        run.out.extras.append(item)


def _budget(run: _Pass, plot: Plot) -> None:
    """The latency budget as a dashed vertical line (the canvas makes it movable)."""
    if plot.vline is None or plot.vline <= 0:
        return
    xm, theme = run.out.x_mode, run.theme
    line = pg.InfiniteLine(
        to_view(plot.vline, xm),
        angle=90,
        pen=pg.mkPen(
            theme.highlight,
            width=2 * run.line_scale,
            style=QtCore.Qt.PenStyle.DashLine,
        ),
        label=f"budget {plot.vline:g} ms",
        labelOpts={"color": theme.highlight, "position": 0.95},
    )
    line.label.setFont(px_font(run.font_px))
    run.pi.addItem(line)
    run.out.extras.append(line)
    run.out.budget_line = line
    x = to_view(plot.vline, xm)
    run.xs.append(x)
    # across the whole plot, for the legend to keep clear of
    run.out.segments = np.concatenate((run.out.segments, np.array([[x, -1e9, x, 1e9]])))


def highlight_items(
    drawn: Drawn, ids: set[str], theme: Theme, line_scale: float = 1.0
) -> list[pg.GraphicsObject]:
    """Outlines over selected bars and rings around selected points."""
    bars = [h for h in drawn.hits if h.result_id in ids and h.bar_end is not None]
    pts = [h for h in drawn.hits if h.result_id in ids and h.bar_end is None]
    items: list[pg.GraphicsObject] = []
    if bars:
        base = 0.0 if drawn.x_mode == "linear" else to_view(1.0, drawn.x_mode)
        items.append(
            pg.BarGraphItem(
                x0=np.full(len(bars), base),
                y=np.array([h.y for h in bars]),
                width=np.array([h.bar_end - base for h in bars]),
                height=BAR_THICKNESS + 0.16,
                brush=None,
                pen=pg.mkPen(theme.highlight, width=3 * line_scale),
            )
        )
    if pts:
        items.append(
            pg.ScatterPlotItem(
                [h.x for h in pts],
                [h.y for h in pts],
                size=18 * line_scale,
                brush=None,
                pen=pg.mkPen(theme.highlight, width=3),
            )
        )
    return items
