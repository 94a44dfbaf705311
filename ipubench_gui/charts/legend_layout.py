"""Where a chart's legend goes and how much room legends and bar names take:
one rule, which the window and every export follow.

A legend sits inside its plot only in a corner where no point, line or label
is under it (the kind's own corner first); otherwise it goes beside the plot,
a column of the plot item's own layout. Bars are sorted best first, so their
legend takes the bottom right corner and the bars are kept left of it
(``builders.clear_of_legend``). Small multiples' legends are always beside
their panel (``panels.py``): a panel is too small for a corner to hold one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from ipubench_gui.charts.axes import px_font
from ipubench_gui.charts.builders import Drawn, clear_of_legend
from ipubench_gui.charts.labels import CountLabels, PointLabels
from ipubench_gui.charts.legend import (
    LEGEND_TEXT,
    MAX_LINES,
    NAMED_LINES,
    SWATCH_PX,
    entry_spacing,
    fill_legend,
    line_px,
    wrap_words,
)
from ipubench_gui.charts.theme import Theme
from ipubench_gui.domain.plot_model import Plot

CORNERS = ("tr", "tl", "br", "bl")
MARGIN_PX = 10  # a legend inside its plot, from the plot's edges
CLEAR_PX = 6  # least gap between a legend and a point, line or label
INSIDE_HEIGHT = 0.5  # a legend inside its plot: at most this share of its height
INSIDE_WIDTH = 0.4  # ...and of its width
BESIDE_WIDTH = 0.3  # a legend beside the plot: at most this share of the chart's width
BAR_NAMES = 0.42  # bars' names beside them: at most this share of the chart's width
PANEL_TITLE_EM = 1.6  # a panel's title row, in its text sizes
LEGEND_MARGINS_PX = 18  # pyqtgraph's legend margins, top and bottom (2 x 9 px)


def rows_in(height_px: float, text_px: float) -> int:
    """Lines of names a legend holds in ``height_px`` at ``text_px``."""
    return max(2, int((height_px - LEGEND_MARGINS_PX) / line_px(text_px)))


def panel_legend_rows(cell_px: float, font_px: float) -> int:
    """Lines of names the legend beside a panel holds: its cell's height
    ``cell_px`` less the panel's title, at the legend's text size for the
    panel's ``font_px``."""
    return rows_in(cell_px - PANEL_TITLE_EM * font_px, round(font_px * LEGEND_TEXT))


def bar_names_px(chart_width_px: float) -> float:
    """The most a bar chart's names beside their bars may take."""
    return chart_width_px * BAR_NAMES


def corner_offset(corner: str) -> tuple[int, int]:
    """pyqtgraph's legend offset for ``corner`` (its sign picks the corner)."""
    m = MARGIN_PX
    return {"tl": (m, m), "tr": (-m, m), "bl": (m, -m), "br": (-m, -m)}[corner]


def corner_rect(corner: str, view: QtCore.QSizeF, size: QtCore.QSizeF) -> QtCore.QRectF:
    """Where a legend of ``size`` sits in ``corner`` of a view of ``view``
    pixels (its top left at 0, 0)."""
    x = MARGIN_PX if corner[1] == "l" else view.width() - MARGIN_PX - size.width()
    y = MARGIN_PX if corner[0] == "t" else view.height() - MARGIN_PX - size.height()
    return QtCore.QRectF(x, y, size.width(), size.height())


def to_pixels(
    segs: np.ndarray, ranges: Sequence[Sequence[float]], view: QtCore.QSizeF
) -> np.ndarray:
    """Segments (x0, y0, x1, y1 in view units, one a row) in the view's
    pixels, y down, for ``ranges`` ((x0, x1), (y0, y1)) shown in ``view``."""
    (ax, bx), (ay, by) = ranges
    sx = view.width() / ((bx - ax) or 1.0)
    sy = view.height() / ((by - ay) or 1.0)
    out = np.empty_like(segs)
    out[:, 0::2] = (segs[:, 0::2] - ax) * sx
    out[:, 1::2] = (by - segs[:, 1::2]) * sy
    return out


def segments_meet(px: np.ndarray, rect: QtCore.QRectF) -> bool:
    """Whether any segment (x0, y0, x1, y1 in pixels; a point is one of no
    length) passes through ``rect`` (the slab test, all at once)."""
    if not len(px):
        return False
    x0, y0 = px[:, 0], px[:, 1]
    dx, dy = px[:, 2] - x0, px[:, 3] - y0
    lo = np.zeros(len(px))
    hi = np.ones(len(px))
    ok = np.ones(len(px), dtype=bool)
    with np.errstate(divide="ignore", invalid="ignore"):
        for p, d, a, b in (
            (x0, dx, rect.left(), rect.right()),
            (y0, dy, rect.top(), rect.bottom()),
        ):
            flat = d == 0
            ok &= ~flat | ((p >= a) & (p <= b))
            t1, t2 = (a - p) / d, (b - p) / d
            lo = np.where(flat, lo, np.maximum(lo, np.minimum(t1, t2)))
            hi = np.where(flat, hi, np.minimum(hi, np.maximum(t1, t2)))
    return bool(np.any(ok & (lo <= hi)))


def free_corner(
    size: QtCore.QSizeF,
    view: QtCore.QSizeF,
    segs_px: np.ndarray,
    boxes: Sequence[QtCore.QRectF],
    first: str,
) -> str | None:
    """The corner of a view of ``view`` pixels where a legend of ``size``
    covers no segment or point (``segs_px``) and no label box (``boxes``),
    ``CLEAR_PX`` apart; ``first`` tried first, then the others. None: none."""
    if size.height() > view.height() * INSIDE_HEIGHT + 1:
        return None
    if size.width() > view.width() * INSIDE_WIDTH + 1:
        return None
    for corner in (first, *(c for c in CORNERS if c != first)):
        rect = corner_rect(corner, view, size).adjusted(
            -CLEAR_PX, -CLEAR_PX, CLEAR_PX, CLEAR_PX
        )
        if segments_meet(segs_px, rect):
            continue
        if any(rect.intersects(b) for b in boxes):
            continue
        return corner
    return None


def legend_size(
    names: Sequence[str], text_px: float, width_px: float, most: int = MAX_LINES
) -> tuple[QtCore.QSizeF, int]:
    """The size of a legend listing ``names``, each wrapped at words to
    ``width_px`` less its swatch in at most ``most`` lines, and how many
    lines they take."""
    fm = QtGui.QFontMetricsF(px_font(text_px))
    room = width_px - SWATCH_PX
    lines = 0
    widest = 0.0
    for name in names:
        wrapped = wrap_words(name, lambda t: fm.horizontalAdvance(t) <= room, most)
        lines += len(wrapped)
        widest = max(widest, *(fm.horizontalAdvance(t) for t in wrapped))
    # pyqtgraph lays rows out with 3 px between their sample and label
    w = widest + SWATCH_PX + 3
    h = lines * line_px(text_px) + LEGEND_MARGINS_PX
    return QtCore.QSizeF(w, h), lines


class PlotLegend:
    """One plot's legend, placed by the rule above (``place``): ``inside``,
    anchored to the view box's corner, or ``beside``, a column of the plot
    item's layout. Two legend items rather than one moved between parents:
    pyqtgraph's anchor keeps following the first parent's geometry."""

    def __init__(self, pi: pg.PlotItem) -> None:
        self.pi = pi
        self.inside = pg.LegendItem(offset=corner_offset("br"))
        self.inside.setParentItem(pi.vb)
        self.beside: pg.LegendItem | None = None
        self.where = "br"  # a corner, or "beside"
        self.visible = True
        self.columns = 1
        # what each legend item was last filled with: the same again (a
        # filter change keeping the series) is not filled anew
        self._filled: dict[int, tuple] = {}

    @property
    def item(self) -> pg.LegendItem:
        """The legend shown (or that would be, if hidden)."""
        if self.where == "beside" and self.beside is not None:
            return self.beside
        return self.inside

    def set_visible(self, visible: bool) -> None:
        self.visible = visible
        self.inside.setVisible(visible and self.where != "beside")
        if self.beside is not None:
            self._beside_shown(visible and self.where == "beside")

    def _beside_legend(self, text_px: float) -> pg.LegendItem:
        if self.beside is None:
            self.beside = pg.LegendItem(offset=None, verSpacing=entry_spacing(text_px))
            self.beside.hide()
        return self.beside

    def _beside_shown(self, shown: bool) -> None:
        """The beside legend in the plot item's layout (right of its right
        axis) or out of it: hidden, it would still take its column."""
        lay, legend = self.pi.layout, self.beside
        if legend is None:
            return
        held = any(lay.itemAt(i) is legend for i in range(lay.count()))
        if shown and not held:
            lay.addItem(legend, 2, 3)
            lay.setAlignment(legend, QtCore.Qt.AlignmentFlag.AlignTop)
        elif not shown and held:
            lay.removeItem(legend)
        legend.setVisible(shown)

    def place(
        self,
        entries: Sequence[tuple[pg.GraphicsObject, str]],
        theme: Theme,
        text_px: float,
        segs: np.ndarray,
        boxes: Sequence[tuple[float, float, QtCore.QRectF]],
        first: str,
        chart_width: float,
        interactive: bool = True,
        bars: bool = False,
    ) -> str:
        """List ``entries`` (item, name) in this legend, in the first free
        corner of the plot (``free_corner``; ``first`` first) if one holds
        them all, else beside the plot. ``segs``: what is drawn, as segments
        in view units; ``boxes``: labels, as ``PointLabels.boxes`` gives them.
        ``bars``: in ``first`` (kept clear by ``clear_of_legend``) if the
        legend fits there. Beside, an export (not ``interactive``) lists
        every entry, in more columns if one does not hold them; the window
        lists what its height holds. Returns where the legend went."""
        vb = self.pi.vb
        view = QtCore.QSizeF(vb.width(), vb.height())
        names = [name for _item, name in entries]
        cap = view.width() * INSIDE_WIDTH
        most = MAX_LINES if interactive else NAMED_LINES
        size, _lines = legend_size(names, text_px, cap, most)
        corner = None
        if bars:
            fits = size.height() <= view.height() * INSIDE_HEIGHT + 1
            corner = first if fits and size.width() <= cap + 1 else None
        elif entries:
            ranges = vb.targetRange()
            px = to_pixels(segs, ranges, view) if len(segs) else segs
            rects = [
                QtCore.QRectF(box).translated(*_at(x, y, ranges, view))
                for x, y, box in boxes
            ]
            corner = free_corner(size, view, px, rects, first)
        if corner is not None or not entries:
            self._to_corner(corner or first)
            self._fill(
                self.inside,
                entries,
                theme,
                corner=self.where,
                text_px=text_px,
                rows=max(len(entries) * NAMED_LINES, 1),
                width=cap,
                interactive=interactive,
            )
            return self.where
        legend = self._beside_legend(text_px)
        width = chart_width * BESIDE_WIDTH
        # The height the view's row has whatever the legend (a legend taller
        # than the view would stretch the row, and the next legend be cut
        # to that stretched height)
        bottom = self.pi.getAxis("bottom")
        tall = self.pi.height() - (bottom.height() if bottom.isVisible() else 0)
        rows = rows_in(tall, text_px)
        columns = 1
        if not interactive:  # an export names every line
            _size, lines = legend_size(names, text_px, width, most)
            columns = max(1, math.ceil(lines / rows))
            # a name's second line may not fit a column's end
            rows = math.ceil(lines / columns) + columns
        self._to_beside()
        if legend.columnCount != columns:
            legend.clear()
            legend.setColumnCount(columns)
        self.columns = columns
        self._fill(
            legend,
            _by_columns(entries, columns),
            theme,
            text_px=text_px,
            rows=rows * columns,
            width=width,
            interactive=interactive,
        )
        return self.where

    def _fill(
        self,
        legend: pg.LegendItem,
        entries: Sequence[tuple[pg.GraphicsObject, str]],
        theme: Theme,
        **how: object,
    ) -> None:
        """``fill_legend``, unless ``legend`` says these entries so already."""
        key = (tuple((id(it), n) for it, n in entries), theme, tuple(how.items()))
        if self._filled.get(id(legend)) == key:
            return
        fill_legend(legend, entries, theme, **how)  # type: ignore[arg-type]
        self._filled[id(legend)] = key

    def _to_corner(self, corner: str) -> None:
        if self.where == "beside":
            self._beside_shown(False)
        self.where = corner
        self.inside.setVisible(self.visible)
        offset = corner_offset(corner)
        if tuple(self.inside.opts["offset"]) != offset:  # anchoring anew costs
            self.inside.setOffset(offset)

    def _to_beside(self) -> None:
        self.where = "beside"
        self.inside.hide()
        self._beside_shown(self.visible)


def _at(
    x: float, y: float, ranges: Sequence[Sequence[float]], view: QtCore.QSizeF
) -> tuple[float, float]:
    """A view point (x, y) in the view's pixels."""
    (ax, bx), (ay, by) = ranges
    return (
        (x - ax) * view.width() / ((bx - ax) or 1.0),
        (by - y) * view.height() / ((by - ay) or 1.0),
    )


def _by_columns(
    entries: Sequence[tuple[pg.GraphicsObject, str]], columns: int
) -> list[tuple[pg.GraphicsObject, str]]:
    """``entries`` in the order pyqtgraph's grid places them (row by row)
    that reads them column by column."""
    if columns <= 1:
        return list(entries)
    rows = math.ceil(len(entries) / columns)
    return [
        entries[c * rows + r]
        for r in range(rows)
        for c in range(columns)
        if c * rows + r < len(entries)
    ]


def settle(
    slot: PlotLegend,
    drawn: Drawn,
    plot: Plot,
    theme: Theme,
    font_px: float,
    chart_width: float,
    interactive: bool = True,
) -> str:
    """Place the one plot's legend by the rule (``PlotLegend.place``), once
    its plot is laid out and its ranges set, from what ``draw`` drew; a bar
    chart's bars then kept left of it. Returns where it went."""
    boxes = [
        box
        for it in drawn.extras
        if type(it) in (PointLabels, CountLabels) and it.isVisible()
        for box in it.boxes()
    ]
    where = slot.place(
        drawn.legend_entries,
        theme,
        round(font_px * LEGEND_TEXT),
        drawn.segments,
        boxes,
        plot.legend_corner,
        chart_width,
        interactive=interactive,
        bars=plot.horizontal_bars,
    )
    if plot.horizontal_bars:
        clear_of_legend(slot.pi, None if where == "beside" else slot.item, drawn)
    return where
