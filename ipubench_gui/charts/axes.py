"""Axes that read at any zoom: numbers in the data's units (250k, 1.5M), log
ticks chosen for the range in view, and the view transforms (log2/log10)."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from ipubench_gui.charts.theme import Theme
from ipubench_gui.domain.format import format_compact
from ipubench_gui.domain.plot_model import Plot


def to_view(v: float, mode: str) -> float:
    if mode == "linear":
        return float(v)
    if v <= 0:
        return float("nan")
    return math.log2(v) if mode == "log2" else math.log10(v)


def to_view_all(values: list[float], mode: str) -> np.ndarray:
    """``to_view`` of each of ``values``: NaN where a log axis has no place."""
    v = np.array(values, dtype=float)
    if mode == "linear":
        return v
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.log2(v) if mode == "log2" else np.log10(v)
    out[~(v > 0)] = np.nan
    return out


def from_view(v: float, mode: str) -> float:
    return v if mode == "linear" else (2**v if mode == "log2" else 10**v)


UNIT_MS = "(ms)"  # in an axis title: a time axis that may rescale to µs
MICRO = 0.1  # ms: a view whose largest value is below this reads in µs


# Decades either side of 1 a log axis works out ticks for (floats end at 1e308).
LOG_LIMIT = 300.0


class NumberAxis(pg.AxisItem):
    """Axis labels as 1.5M / 250k in the data's units, whatever the transform."""

    def __init__(self, orientation: str, **kw):
        super().__init__(orientation, **kw)
        self.mode = "linear"
        # Major and minor ticks only: pyqtgraph's third level adds ~50 faint
        # grid lines, each a translucent full-height line, dear to paint.
        self.setStyle(maxTickLevel=1)
        self.opaque_on: QtGui.QColor | None = None  # on screen: the background
        self.styled: tuple = ()  # (colour, font px) last applied by style_axes
        # Numbers are written compactly in the axis' own unit (250k, 0.5);
        # pyqtgraph's SI prefix only added "(x0.001)" to the title when zoomed.
        self.enableAutoSIPrefix(False)
        self.data_range: tuple[float, float] | None = None  # view units
        self.title = ""  # as the chart gives it; in µs when zoomed below MICRO
        self.micro = False  # a time axis in ms, zoomed in: written in µs
        # tick labels laid out, with their advance and height (``_laid_out``)
        self._laid: dict[str, tuple[QtGui.QTextLayout | None, float, float]] = {}
        self._laid_font: QtGui.QFont | None = None  # ...in this font
        self._measures: dict[tuple, QtCore.QRectF] = {}  # ``_Measuring``'s
        # Tick-label room fitted to the labels (``_updateMaxTextSize``)
        # until the user pans or zooms; ``style_axes`` sets it again.
        self.fit_labels = True

    def linkToView(self, view):  # noqa: N802 (pyqtgraph API)
        super().linkToView(view)
        view.sigRangeChangedManually.connect(self._on_view_moved)

    def _on_view_moved(self, *_mask) -> None:
        self.fit_labels = False

    def _updateMaxTextSize(self, x):  # noqa: N802 (pyqtgraph API)
        """The room for tick labels is theirs exactly while a chart is shown
        as drawn: pyqtgraph keeps it until the labels need 10 px less, so a
        chart drawn over one with wider labels kept their room and was laid
        out unlike the same chart drawn once. While the user pans or zooms,
        pyqtgraph's rule stays: the plot does not jitter as labels change."""
        if not self.fit_labels:
            return super()._updateMaxTextSize(x)
        if self.orientation in ("left", "right"):
            if x != self.textWidth:
                self.textWidth = x
                self._updateWidth()
        elif x != self.textHeight:
            self.textHeight = x
            self._updateHeight()
        return None

    def tickStrings(self, values, scale, spacing):  # noqa: N802 (pyqtgraph API)
        k = 1000.0 if self.micro else 1.0
        return [format_compact(from_view(v * scale, self.mode) * k) for v in values]

    def linkedViewChanged(self, view, newRange=None):  # noqa: N802 (pyqtgraph API)
        """Zoomed below MICRO ms, a latency axis writes µs ("20", not "0.02";
        its title says so); k and M stay for large numbers at any zoom."""
        super().linkedViewChanged(view, newRange)
        self.retitle()

    def retitle(self) -> None:
        micro = False
        if UNIT_MS in self.title:
            try:
                top = max(abs(from_view(v, self.mode)) for v in self.range)
            except OverflowError:  # a log view zoomed far out
                top = math.inf
            micro = top < MICRO
        text = self.title.replace(UNIT_MS, "(µs)") if micro else self.title
        self.micro = micro
        if text and text != self.labelText:
            self.setLabel(text, **self.labelStyle)
            self.resizeEvent()  # centred again (pyqtgraph does so on a resize)
            self.picture = None

    def tickValues(self, minVal, maxVal, size):  # noqa: N802 (pyqtgraph API)
        """On a log10 axis, ticks for the range in view, so a zoomed axis
        keeps at least three (fixed ticks left one or two in view)."""
        if self.mode != "log10" or self._tickLevels is not None:
            return super().tickValues(minVal, maxVal, size)
        # 10**309 overflows a float: a view that far out (a stored figure of
        # 1e300) has its ticks worked out within the floats there are
        lo, hi = sorted(
            10.0 ** max(-LOG_LIMIT, min(LOG_LIMIT, v)) for v in (minVal, maxVal)
        )
        vals = [math.log10(v) for v in log_tick_values(lo, hi)]
        if self.data_range is not None:  # not far past the data (label room)
            a, b = self.data_range
            near = [v for v in vals if a - 0.18 <= v <= b + 0.18]  # 1.5x
            vals = near if len(near) >= 3 else vals
        font = self.style["tickFont"]
        # a label's room along the axis: its height, or across, ~3 digits
        em = 1.8 if self.orientation in ("left", "right") else 2.8
        room = em * (font.pixelSize() if font is not None else 12)
        if len(vals) * room > size:  # a small panel: decades only, if they are 2+
            decades = [v for v in vals if abs(v - round(v)) < 1e-9]
            if len(decades) * room > size:  # hundreds of decades: every k-th
                step = math.ceil(len(decades) * room / max(size, 1.0))
                decades = [v for v in decades if round(v) % step == 0]
            vals = decades if len(decades) >= 2 else vals
        return [(1.0, vals)]

    def paint(self, p, opt, widget):
        """Draw from cached draw specs rather than pyqtgraph's recorded QPicture,
        so the grid's translucent pens can first be made opaque over ``opaque_on``
        (the canvas background): the raster engine blends a translucent line
        many times slower than it fills an opaque one, which made the grid the
        largest cost of a chart redraw (tests/bench: filter change).
        ``self.picture`` holds the specs here; pyqtgraph sets it to None
        whenever the axis changes, as it does for its QPicture."""
        if self.picture is None:
            self._work_out_specs(p)
        if self.picture:
            p.save()
            if self.style["tickFont"]:
                p.setFont(self.style["tickFont"])
            self.drawPicture(p, *self.picture)
            p.restore()

    def drawPicture(self, p, axisSpec, tickSpecs, textSpecs):  # noqa: N802 (pyqtgraph API)
        """pyqtgraph's, but each tick label laid out once (``_laid_out``)
        and drawn as ``drawText`` with its box and flags draws it: laid out
        again in every paint, a bar chart's row labels were a large part of
        its paint."""
        super().drawPicture(p, axisSpec, tickSpecs, [])  # its font, pen, clip
        font = p.font()
        if font != self._laid_font or len(self._laid) > 2000:
            self._laid_font = QtGui.QFont(font)
            self._laid = {}
        for rect, flags, text in textSpecs:
            laid = self._laid.get(text)
            if laid is None:
                laid = self._laid[text] = _laid_out(text, font)
            if laid[0] is None:  # more than a line: as pyqtgraph draws it
                p.drawText(rect, int(flags), text)
            else:
                laid[0].draw(p, _aligned(rect, int(flags), *laid[1:]))

    def prepare(self) -> None:
        """Work out the draw specs now rather than in the next paint (a chart
        drawn over turns of the event loop: its paint then only draws), with
        a painter on a picture, as pyqtgraph's own axis records its paint."""
        view = self.linkedView()
        laid_out = view is not None and view.width() > 0 and view.height() > 0
        if self.picture is None and self.isVisible() and laid_out:
            picture = QtGui.QPicture()
            p = QtGui.QPainter(picture)
            try:
                self._work_out_specs(p)
            finally:
                p.end()

    def _work_out_specs(self, p: QtGui.QPainter) -> None:
        p.save()
        if self.style["tickFont"]:
            p.setFont(self.style["tickFont"])
        specs = self.generateDrawSpecs(_Measuring(p, self._measures))
        p.restore()
        if specs and self.opaque_on is not None:
            axis, ticks, texts = specs
            ticks = [(opaque_pen(pen, self.opaque_on), a, b) for pen, a, b in ticks]
            specs = (axis, ticks, texts)
        self.picture = specs or ()


class _Measuring:
    """The painter ``generateDrawSpecs`` is given: ``p``, with the boxes of
    tick labels it asks for (``boundingRect``, a text layout each) kept in
    ``kept`` by font, resolution, box, flags and text: else each of a bar
    chart's labels was measured again on every redraw."""

    def __init__(self, p: QtGui.QPainter, kept: dict) -> None:
        self._p, self._kept = p, kept
        self._dpi = p.device().logicalDpiY() if p.device() is not None else 0
        self._font = p.font().key()

    def setFont(self, font: QtGui.QFont) -> None:  # noqa: N802 (Qt API)
        self._p.setFont(font)
        self._font = self._p.font().key()

    def boundingRect(self, rect, flags, text: str) -> QtCore.QRectF:  # noqa: N802
        key = (self._font, self._dpi, rect.getRect(), int(flags), text)
        box = self._kept.get(key)
        if box is None:
            if len(self._kept) > 5000:
                self._kept.clear()
            box = self._kept[key] = self._p.boundingRect(rect, flags, text)
        return QtCore.QRectF(box)  # a copy: pyqtgraph moves the boxes it gets

    def __getattr__(self, name: str):
        return getattr(self._p, name)


def _laid_out(
    text: str, font: QtGui.QFont
) -> tuple[QtGui.QTextLayout | None, float, float]:
    """``text`` laid out in ``font`` as ``QPainter.drawText`` lays a line
    out, with the advance and height it aligns the line by (not its ink:
    "50k"'s is 1 px wider; nor its rounded height); None for several lines.
    Drawn as a ``QTextLayout``, its glyphs land on the same subpixels as
    ``drawText``'s (a ``QStaticText`` moved some by 1/64 px, which changed
    their pixels)."""
    if "\n" in text:  # drawText's line breaks
        return None, 0.0, 0.0
    layout = QtGui.QTextLayout(text, font)
    option = QtGui.QTextOption()
    option.setWrapMode(QtGui.QTextOption.WrapMode.NoWrap)
    option.setFlags(QtGui.QTextOption.Flag.IncludeTrailingSpaces)
    layout.setTextOption(option)
    layout.setCacheEnabled(True)
    layout.beginLayout()
    line = layout.createLine()
    line.setLineWidth(float(0x01000000))
    more = layout.createLine().isValid()
    layout.endLayout()
    if more:
        return None, 0.0, 0.0
    return layout, line.horizontalAdvance(), line.ascent() + line.descent()


def _aligned(
    rect: QtCore.QRectF, flags: int, width: float, height: float
) -> QtCore.QPointF:
    """The top left of a line of text ``width`` x ``height`` in ``rect`` as
    ``QPainter.drawText(rect, flags, text)`` places it (qt_format_text)."""
    align = QtCore.Qt.AlignmentFlag
    x, y = rect.x(), rect.y()
    if flags & align.AlignRight.value:
        x += rect.width() - width
    elif flags & align.AlignHCenter.value:
        x += (rect.width() - width) / 2
    if flags & align.AlignBottom.value:
        y += rect.height() - height
    elif flags & align.AlignVCenter.value:
        y += (rect.height() - height) / 2
    return QtCore.QPointF(x, y)


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


def px_font(px: float) -> QtGui.QFont:
    f = QtGui.QFont()
    f.setPixelSize(max(1, round(px)))
    return f


def style_axes(
    pi: pg.PlotItem,
    plot: Plot,
    modes: tuple[str, str],
    theme: Theme,
    font_px: float,
    xs: list[float],
    ys: list[float],
    longest_label: int = 0,
) -> float | None:
    """Axis pens, fonts, titles, ticks, grid and the starting view of ``plot``
    (``modes``: the x and y transforms); room on the right of bars for labels
    of ``longest_label`` characters. Returns, for bars, where their value
    labels end (view units)."""
    x_mode, y_mode = modes
    # Pens, fonts and titles only when they change: each setter re-lays out
    # the axis title's rich text.
    styled = (theme.foreground, font_px)
    for name in ("left", "bottom"):
        ax: NumberAxis = pi.getAxis(name)  # both plot items draw() serves use it
        if ax.styled != styled:
            ax.setPen(theme.foreground)
            ax.setTextPen(theme.foreground)
            ax.setStyle(tickFont=px_font(font_px))
            ax.styled = styled
        ax.mode = y_mode if name == "left" else x_mode
        ax.fit_labels = True  # a chart drawn: its labels' own room
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
        bottom.setTicks([[(to_view(v, x_mode), t) for v, t in plot.x_ticks], []])
    # log10 axes without fixed ticks: NumberAxis.tickValues, for the view.
    pi.showGrid(x=True, y=not plot.horizontal_bars, alpha=theme.grid_alpha)
    # The axes draw the grid, above the view box by default, so it striped
    # opaque bars; below it, the grid shows only between them. An opaque grid
    # (NumberAxis.opaque_on, on screen) goes below lines too: above, each
    # grid line cut a 1 px gap through every line and point it crossed.
    below = plot.horizontal_bars or getattr(pi.getAxis("left"), "opaque_on", None)
    z = pi.vb.zValue() - 1 if below else 0.5  # 0.5: pyqtgraph's
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
        end = hi + (hi - min(lo, 0.0)) * pad
        pi.setXRange(min(lo, 0.0), end, padding=0)
        return end
    elif xs and ys:
        # These ranges turn pyqtgraph's auto-range off. Turning it on first (as
        # this did) made it measure every item's bounds once more before it
        # went off, for every plot of every panel.
        pad_x = (max(xs) - min(xs)) * 0.08 or 0.5
        pad_y = (max(ys) - min(ys)) * 0.12 or 0.5
        pi.setXRange(min(xs) - pad_x, max(xs) + pad_x, padding=0)
        pi.setYRange(min(ys) - pad_y, max(ys) + pad_y, padding=0)
    else:
        pi.enableAutoRange()
    return None


def _set_title(ax: NumberAxis, text: str, style: dict) -> None:
    ax.title = text
    if not text:
        ax.showLabel(False)
    elif ax.labelText != text or ax.labelStyle != style or not ax.label.isVisible():
        ax.setLabel(text, **style)
        # pyqtgraph centres the label only on a resize: a title of another
        # length ("images/s" -> "sequences/s") would stay where the last one was
        ax.resizeEvent()
    if text:
        ax.retitle()  # µs if the view is already zoomed in that far


def add_plot(layout: pg.GraphicsLayout, row: int, col: int) -> pg.PlotItem:
    """A plot item for a laid-out chart: number axes, no menus or buttons.

    Made without pyqtgraph's view menu (building one is dear, per plot) and
    with the hidden top and right axes' SI prefix off: on, each range change
    re-set their (unseen) label's HTML, ~30 times an export."""
    pi = layout.addPlot(
        row=row,
        col=col,
        axisItems={"bottom": NumberAxis("bottom"), "left": NumberAxis("left")},
        enableMenu=False,
    )
    pi.hideButtons()
    for side in ("top", "right"):
        pi.getAxis(side).enableAutoSIPrefix(False)
    return pi


def prepare_paint(pi: pg.PlotItem) -> None:
    """Work the next paint of ``pi`` would do first, done now: its axes' draw
    specs, and its curves' and scatters' bounds in pixels and their paths,
    which pyqtgraph works out in the paint (for many panels, over half of
    it). For a chart drawn over turns of the
    event loop, whose paint is then one turn of its own. Call once ``pi`` is
    laid out; its view's new range and size are applied here (pyqtgraph does
    so at the start of the paint: ``ViewBox.prepareForPaint``), which drops
    its items' bounds. A later change of either makes pyqtgraph work them
    out again, as before.

    The axes first: new tick labels wider than the last widen an axis
    (pyqtgraph sizes it to its text), which narrows the view, so the view is
    laid out again before the bounds are worked out. Laid out in a later
    event, it dropped every bound and the axes' specs just worked out, and
    the paint worked them all out again."""
    vb = pi.getViewBox()
    vb.prepareForPaint()
    axes = [pi.getAxis(name) for name in ("left", "bottom")]
    axes = [a for a in axes if isinstance(a, NumberAxis)]
    for axis in axes:
        axis.prepare()
    if not pi.layout.isActivated():  # an axis resized for its tick labels
        pi.layout.activate()
        vb.prepareForPaint()  # the new size's view transform
        for axis in axes:
            axis.prepare()
    for it in vb.addedItems:
        parts = (it.curve, it.scatter) if isinstance(it, pg.PlotDataItem) else (it,)
        for part in parts:
            if not part.isVisible():
                continue
            if isinstance(part, pg.ScatterPlotItem):
                part.boundingRect()
            elif isinstance(part, pg.PlotCurveItem):
                part.boundingRect()
                _prepare_lines(part)


def _prepare_lines(curve: pg.PlotCurveItem) -> None:
    """What ``curve``'s paint draws its lines from, made as its paint would:
    line segments for a thick solid pen, else a path (a visible part of the
    scaling chart's paint)."""
    pen = curve.opts["pen"]
    if pen is None or pen.style() == QtCore.Qt.PenStyle.NoPen:
        return
    if curve._shouldUseDrawLineSegments(pen):  # pyqtgraph's own choice
        curve._getLineSegments()
    else:
        curve.getPath()
