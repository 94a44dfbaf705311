"""Plot -> pyqtgraph items. Pure: no widgets shown, no SQL.

Log axes are drawn by transforming coordinates here (and labelling ticks with
the original values), because pyqtgraph's log mode applies to curves only, not
to bar items or our label item.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from ipubench_gui.charts.theme import Theme
from ipubench_gui.domain.format import format_compact
from ipubench_gui.domain.plots import Plot

BAR_THICKNESS = 0.72
MAX_LEGEND = 12  # entries; more would cover the data
MAX_POINT_LABELS = 60  # beyond this, only each line's last point is labelled


def to_view(v: float, mode: str) -> float:
    if mode == "linear":
        return float(v)
    if v <= 0:
        return float("nan")
    return math.log2(v) if mode == "log2" else math.log10(v)


def from_view(v: float, mode: str) -> float:
    return v if mode == "linear" else (2**v if mode == "log2" else 10**v)


class NumberAxis(pg.AxisItem):
    """Axis labels as 1.5M / 250k in the data's units, whatever the transform."""

    def __init__(self, orientation: str, **kw):
        super().__init__(orientation, **kw)
        self.mode = "linear"
        # Major and minor ticks only: pyqtgraph's third level adds ~50 faint
        # grid lines, each a translucent full-height line (~30 us apiece).
        self.setStyle(maxTickLevel=1)
        self.opaque_on: QtGui.QColor | None = None  # on screen: the background
        self.styled: tuple = ()  # (colour, font px) last applied by _axes
        # Numbers are written compactly in the axis' own unit (250k, 0.5);
        # pyqtgraph's SI prefix only added "(x0.001)" to the title when zoomed.
        self.enableAutoSIPrefix(False)
        self.data_range: tuple[float, float] | None = None  # view units

    def tickStrings(self, values, scale, spacing):  # noqa: N802 (pyqtgraph API)
        return [format_compact(from_view(v * scale, self.mode)) for v in values]

    def tickValues(self, minVal, maxVal, size):  # noqa: N802 (pyqtgraph API)
        """On a log10 axis, ticks for the range in view, so a zoomed axis
        keeps at least three (fixed ticks left one or two in view)."""
        if self.mode != "log10" or self._tickLevels is not None:
            return super().tickValues(minVal, maxVal, size)
        lo, hi = sorted((10.0**minVal, 10.0**maxVal))
        vals = [math.log10(v) for v in log_tick_values(lo, hi)]
        if self.data_range is not None:  # not far past the data (label room)
            a, b = self.data_range
            near = [v for v in vals if a - 0.18 <= v <= b + 0.18]  # 1.5x
            vals = near if len(near) >= 3 else vals
        return [(1.0, vals)]

    def paint(self, p, opt, widget):
        """Draw from cached draw specs rather than pyqtgraph's recorded QPicture,
        so the grid's translucent pens can first be made opaque over ``opaque_on``
        (the canvas background): the raster engine blends a translucent line
        10-40x slower than it fills an opaque one, which made the grid the
        largest cost of a chart redraw (tests/bench: filter change).
        ``self.picture`` holds the specs here; pyqtgraph sets it to None
        whenever the axis changes, as it does for its QPicture."""
        if self.picture is None:
            p.save()
            if self.style["tickFont"]:
                p.setFont(self.style["tickFont"])
            specs = self.generateDrawSpecs(p)
            p.restore()
            if specs and self.opaque_on is not None:
                axis, ticks, texts = specs
                ticks = [(opaque_pen(pen, self.opaque_on), a, b) for pen, a, b in ticks]
                specs = (axis, ticks, texts)
            self.picture = specs or ()
        if self.picture:
            p.save()
            if self.style["tickFont"]:
                p.setFont(self.style["tickFont"])
            self.drawPicture(p, *self.picture)
            p.restore()


def opaque_pen(pen: QtGui.QPen, background: QtGui.QColor) -> QtGui.QPen:
    """``pen`` with its colour blended over ``background`` and made opaque."""
    c = pen.color()
    a = c.alphaF()
    if a >= 1.0:
        return pen
    out = QtGui.QPen(pen)
    out.setColor(
        QtGui.QColor.fromRgbF(
            c.redF() * a + background.redF() * (1 - a),
            c.greenF() * a + background.greenF() * (1 - a),
            c.blueF() * a + background.blueF() * (1 - a),
        )
    )
    return out


def log_tick_values(lo: float, hi: float, least: int = 3) -> list[float]:
    """Tick values within ``lo..hi`` for a log axis: decades and 2, 5 between;
    every 1..9 step if those are fewer than ``least``; then evenly spaced
    round values (a range of less than 2x, zoomed in)."""
    if not (0 < lo < hi):
        return []
    decades = range(math.floor(math.log10(lo)), math.ceil(math.log10(hi)) + 1)
    for steps in ((1, 2, 5), range(1, 10)):
        vals = [m * 10.0**k for k in decades for m in steps]
        vals = [v for v in vals if lo <= v <= hi]
        if len(vals) >= least:
            return vals
    step = 10 ** math.floor(math.log10((hi - lo) / least))
    for m in (5, 2, 1):
        if (hi - lo) / (m * step) >= least:
            step *= m
            break
    first = math.ceil(lo / step)
    return [i * step for i in range(first, math.floor(hi / step) + 1)]


class PointLabels(pg.GraphicsObject):
    """Many short labels in one item, drawn in device pixels next to their points.

    One ``TextItem`` per label costs ~0.5 ms to create and lay out; this paints
    only the labels in view, so redraws cost the same for 10 labels or 5,000.
    Labels are drawn in order and one that would overlap an earlier one is
    skipped.
    """

    def __init__(
        self,
        points: list[tuple[float, float, str]],
        color: str,
        font_px: float,
        dx: float = 4,
        dy: float = 0,
        halo: str | None = None,
    ):
        super().__init__()
        self._halo = None if halo is None else pg.mkColor(halo)
        self._points = [
            (x, y, t)
            for x, y, t in points
            if t and math.isfinite(x) and math.isfinite(y)
        ]
        self._color = pg.mkColor(color)
        self._font = QtGui.QFont()
        self._font.setPixelSize(max(1, round(font_px)))
        self._dx, self._dy = dx, dy
        xs = [p[0] for p in self._points] or [0.0]
        ys = [p[1] for p in self._points] or [0.0]
        self._rect = QtCore.QRectF(
            min(xs), min(ys) - 0.5, max(xs) - min(xs) or 1, max(ys) - min(ys) + 1
        )

    def boundingRect(self) -> QtCore.QRectF:  # noqa: N802 (Qt API)
        return self._rect

    def paint(self, p, *args) -> None:
        view = self.getViewBox()
        if view is None:
            return
        (x0, x1), (y0, y1) = view.viewRange()
        tr = p.transform()
        p.save()
        p.resetTransform()
        p.setFont(self._font)
        p.setPen(self._color)
        fm = QtGui.QFontMetricsF(self._font)
        half = (fm.ascent() - fm.descent()) / 2
        row_h = fm.height()
        taken: dict[int, list[QtCore.QRectF]] = {}  # drawn boxes by text row
        for x, y, text in self._points:
            if not min(y0, y1) - 1 <= y <= max(y0, y1) + 1:
                continue
            pt = tr.map(QtCore.QPointF(x, y))
            base = QtCore.QPointF(pt.x() + self._dx, pt.y() + half + self._dy)
            box = QtCore.QRectF(
                base.x(), base.y() - fm.ascent(), fm.horizontalAdvance(text), row_h
            )
            # A label that would overprint one already drawn is left out; its
            # point still has its tooltip.
            row = math.floor(box.top() / row_h)
            near = (r for k in (row - 1, row, row + 1) for r in taken.get(k, ()))
            if any(box.intersects(r) for r in near):
                continue
            taken.setdefault(row, []).append(box)
            if self._halo is not None:
                p.setPen(self._halo)
                for ox, oy in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                    p.drawText(base + QtCore.QPointF(ox, oy), text)
                p.setPen(self._color)
            p.drawText(base, text)
        p.restore()


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


def _shape(plot: Plot, legend_order: list[str]) -> tuple:
    """What decides the set of series items and legend entries (and their order)."""
    return tuple(
        (s.name, s.style, s.dashed, s.in_legend) for s in plot.series if s.points
    ) + tuple(legend_order)


def _legend_order(plot: Plot) -> list[str]:
    """Series names as the legend lists them. For bars, in the order their
    first bar appears from the top, so that when the legend is cut short
    ("+ N more") it names the colours of the bars in view."""
    named = [s for s in plot.series if s.points and s.in_legend]
    if plot.horizontal_bars:
        named.sort(key=lambda s: min(p.y for p in s.points))
    return [s.name for s in named]


def draw(
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
) -> Drawn:
    """Draw ``plot`` into ``pi``; returns what the canvas needs for hit-testing.
    ``font_px`` and ``line_scale`` grow with export size.

    The legend lists at most ``legend_rows`` series (then "+ N more"), each name
    elided to ``legend_width`` pixels if given. A legend made with
    ``offset=None`` is placed by its owner (a layout cell beside the plot);
    otherwise it sits inside the plot, in the corner the kind leaves empty.
    Not ``interactive`` (an exported picture): nothing says "hover". Labels get
    a halo of the background colour, to stay legible over lines and grid
    (measured: +0.3 ms per paint of the seed's busiest chart).

    With ``previous`` (what the last call drew into ``pi``) and the same series
    as then, the series items and legend entries are updated in place rather
    than rebuilt: clearing and re-adding them was half the cost of a redraw
    after a filter change (tests/bench)."""
    order = _legend_order(plot)
    out = Drawn(
        x_mode="log2" if plot.log2_x else "log10" if plot.log_x else "linear",
        y_mode="log10" if plot.log_y else "linear",
        categories=list(plot.categories),
        shape=_shape(plot, order),
        style_key=(theme, font_px, line_scale, legend_rows),
    )
    reuse = (
        previous is not None
        and previous.shape == out.shape
        and previous.style_key == out.style_key
    )
    if reuse:
        for it in previous.extras:
            pi.removeItem(it)
        reused = iter(previous.series_items)
    else:
        pi.clear()
        if legend is not None:
            legend.clear()
    xm, ym = out.x_mode, out.y_mode
    vb = pi.getViewBox()
    vb.invertY(plot.horizontal_bars)
    labels: list[tuple[float, float, str]] = []
    xs_all: list[float] = []
    ys_all: list[float] = []
    n_line_pts = sum(len(s.points) for s in plot.series if s.style != "bars")
    legend_entries: list[tuple[pg.GraphicsObject, str]] = []
    for s in plot.series:
        if not s.points:
            continue
        if s.style == "bars":
            base = 0.0 if xm == "linear" else to_view(1.0, xm)
            ends = [to_view(p.x, xm) for p in s.points]
            opts = dict(
                x0=np.full(len(ends), base),
                y=np.array([p.y for p in s.points]),
                width=np.array(ends) - base,
                height=BAR_THICKNESS,
                brush=pg.mkBrush(theme.series(s.color)),
                pen=pg.mkPen(theme.background or "#FFFFFF", width=0.5 * line_scale),
            )
            if reuse:
                item = next(reused)
                item.setOpts(**opts)
            else:
                item = pg.BarGraphItem(**opts)
                pi.addItem(item)
            out.series_items.append(item)
            if s.in_legend:
                legend_entries.append((item, s.name))
            for p, e in zip(s.points, ends):
                labels.append((max(e, base), p.y, p.label))
                out.hits.append(Hit(e, p.y, p.result_id, p.tooltip, bar_end=e))
                xs_all.append(e)
            xs_all.append(base)
            continue
        xs = [to_view(p.x, xm) for p in s.points]
        ys = [to_view(p.y, ym) for p in s.points]
        if s.style == "step":
            sx, sy = [], []
            for i, (x, y) in enumerate(zip(xs, ys)):
                if i:
                    sx.append(x)
                    sy.append(sy[-1])
                sx.append(x)
                sy.append(y)
            xs, ys = sx, sy
        pen = pg.mkPen(
            theme.series(s.color),
            width=(1.5 if s.dashed else 2.2) * line_scale,
            style=QtCore.Qt.PenStyle.DashLine
            if s.dashed
            else QtCore.Qt.PenStyle.SolidLine,
        )
        symbol = None if s.dashed or s.style == "step" else s.symbol
        opts = dict(
            pen=None if s.style == "scatter" else pen,
            symbol=symbol,
            symbolSize=7 * s.symbol_scale * line_scale,
            symbolBrush=theme.series(s.color),
            symbolPen=pg.mkPen(theme.background or "#FFFFFF", width=0.8 * line_scale),
        )
        if reuse:
            item = next(reused)
            item.setData(xs, ys, **opts)
        else:
            item = pg.PlotDataItem(xs, ys, **opts)
            pi.addItem(item)
            # Only once the item is in a ViewBox: before that, pyqtgraph asks
            # the PlotWidget for autoRangeEnabled and fails.
            item.setClipToView(True)
            item.setDownsampling(auto=True, method="peak")
        out.series_items.append(item)
        if s.in_legend:
            legend_entries.append((item, s.name))
        for k, p in enumerate(s.points):
            x, y = to_view(p.x, xm), to_view(p.y, ym)
            if n_line_pts <= MAX_POINT_LABELS or k == len(s.points) - 1:
                labels.append((x, y, p.label))
            if p.result_id:
                out.hits.append(Hit(x, y, p.result_id, p.tooltip))
            if p.highlight:
                star = pg.ScatterPlotItem(
                    [x],
                    [y],
                    symbol="star",
                    size=22 * line_scale,
                    brush=pg.mkBrush(theme.highlight),
                    pen=pg.mkPen(theme.foreground),
                )
                pi.addItem(star)
                out.extras.append(star)
        xs_all += [v for v in xs if math.isfinite(v)]
        ys_all += [v for v in ys if math.isfinite(v)]
    if legend is not None and not reuse:
        if legend.opts["offset"] is not None:  # inside the plot
            m = 10
            legend.setOffset(
                {"tl": (m, m), "tr": (-m, m), "bl": (m, -m), "br": (-m, -m)}[
                    plot.legend_corner
                ]
            )
            bg = pg.mkColor(theme.background or "#FFFFFF")
            bg.setAlpha(215)
            legend.setBrush(pg.mkBrush(bg))
        legend.setLabelTextColor(theme.foreground)
        text_px = round(font_px * 0.92)
        legend.setLabelTextSize(f"{text_px}px")
        rank = {name: i for i, name in enumerate(order)}
        legend_entries.sort(key=lambda e: rank[e[1]])
        if len(legend_entries) > legend_rows:  # the last row says how many more
            shown = legend_entries[: max(1, legend_rows - 1)]
        else:
            shown = legend_entries
        fm = QtGui.QFontMetricsF(_px_font(text_px))
        for item, name in shown:
            if legend_width is not None:
                name = fm.elidedText(
                    name, QtCore.Qt.TextElideMode.ElideMiddle, legend_width
                )
            legend.addItem(item, html.escape(name))
        if len(legend_entries) > len(shown):
            more = len(legend_entries) - len(shown)
            hint = " — hover a point for its name" if interactive else " not listed"
            legend.addItem(pg.PlotDataItem(pen=None), f"+ {more} more{hint}")
    if labels:
        dy = 0 if plot.horizontal_bars else -0.9 * font_px
        out.extras.append(
            PointLabels(
                labels, theme.foreground, font_px * 0.92, dy=dy, halo=theme.background
            )
        )
        pi.addItem(out.extras[-1])
    if plot.vline is not None and plot.vline > 0:
        out.budget_line = pg.InfiniteLine(
            to_view(plot.vline, xm),
            angle=90,
            pen=pg.mkPen(
                theme.highlight, width=2 * line_scale, style=QtCore.Qt.PenStyle.DashLine
            ),
            label=f"budget {plot.vline:g} ms",
            labelOpts={"color": theme.highlight, "position": 0.95},
        )
        out.budget_line.label.setFont(_px_font(font_px))
        pi.addItem(out.budget_line)
        out.extras.append(out.budget_line)
        xs_all.append(to_view(plot.vline, xm))
    longest = max((len(t) for _, _, t in labels), default=0)
    _axes(pi, plot, out, theme, font_px, xs_all, ys_all, longest)
    return out


def _px_font(px: float) -> QtGui.QFont:
    f = QtGui.QFont()
    f.setPixelSize(max(1, round(px)))
    return f


def _axes(
    pi: pg.PlotItem,
    plot: Plot,
    out: Drawn,
    theme: Theme,
    font_px: float,
    xs: list[float],
    ys: list[float],
    longest_label: int = 0,
) -> None:
    # Pens, fonts and titles only when they change: each setter re-lays out
    # the axis title's rich text (~0.3 ms apiece).
    styled = (theme.foreground, font_px)
    for name in ("left", "bottom"):
        ax: NumberAxis = pi.getAxis(name)  # both plot items draw() serves use it
        if ax.styled != styled:
            ax.setPen(theme.foreground)
            ax.setTextPen(theme.foreground)
            ax.setStyle(tickFont=_px_font(font_px))
            ax.styled = styled
        ax.mode = out.y_mode if name == "left" else out.x_mode
        data = ys if name == "left" else xs
        ax.data_range = (min(data), max(data)) if data else None
        ax.setTicks(None)
    style = {
        "color": pg.mkColor(theme.foreground).name(),  # as pyqtgraph stores it
        "font-size": f"{round(font_px * 1.08)}px",
    }
    _set_title(pi.getAxis("bottom"), plot.x_title, style)
    _set_title(pi.getAxis("left"), plot.y_title, style)
    bottom = pi.getAxis("bottom")
    if plot.x_ticks:
        bottom.setTicks([[(to_view(v, out.x_mode), t) for v, t in plot.x_ticks], []])
    # log10 axes without fixed ticks: NumberAxis.tickValues, for the view.
    pi.showGrid(x=True, y=not plot.horizontal_bars, alpha=theme.grid_alpha)
    # The axes draw the grid, above the view box by default, so it striped
    # opaque bars; below it, the grid shows only between them.
    z = pi.vb.zValue() - 1 if plot.horizontal_bars else 0.5  # 0.5: pyqtgraph's
    for side in ("bottom", "left"):
        pi.getAxis(side).setZValue(z)
    vb = pi.getViewBox()
    vb.setLimits(xMin=None, xMax=None, yMin=None, yMax=None)
    if plot.horizontal_bars:
        n = max(len(plot.categories), 1)
        hi = max(xs, default=1.0)
        lo = min(xs, default=0.0)
        vb.setLimits(yMin=-1, yMax=n)
        # Room on the right for the labels at the bar ends, by their length
        pad = min(0.9, 0.08 + 0.02 * longest_label)
        pi.setXRange(min(lo, 0.0), hi + (hi - min(lo, 0.0)) * pad, padding=0)
    else:
        pi.enableAutoRange()
        if xs and ys:
            pad_x = (max(xs) - min(xs)) * 0.08 or 0.5
            pad_y = (max(ys) - min(ys)) * 0.12 or 0.5
            pi.setXRange(min(xs) - pad_x, max(xs) + pad_x, padding=0)
            pi.setYRange(min(ys) - pad_y, max(ys) + pad_y, padding=0)


def _set_title(ax: pg.AxisItem, text: str, style: dict) -> None:
    if not text:
        ax.showLabel(False)
    elif ax.labelText != text or ax.labelStyle != style or not ax.label.isVisible():
        ax.setLabel(text, **style)
        # pyqtgraph centres the label only on a resize: a title of another
        # length ("images/s" -> "sequences/s") would stay where the last one was
        ax.resizeEvent()


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
