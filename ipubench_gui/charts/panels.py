"""Small multiples: a Plot whose series sit in panels (``Plot.panels``) drawn
as a grid of plots sharing both axes, each with its own title and legend.

The window and the exports draw through here alike (``draw`` per panel), so a
panel reads the same on screen and on a slide. Axes are linked with
pyqtgraph's ``setXLink``/``setYLink``: zooming one panel zooms them all.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, replace

import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from ipubench_gui.charts.axes import add_plot, px_font
from ipubench_gui.charts.builders import Drawn, draw
from ipubench_gui.charts.legend import wrap_words
from ipubench_gui.charts.theme import Theme
from ipubench_gui.domain.plot_model import Plot
from ipubench_gui.domain.text import elide_words

QWIDGETSIZE_MAX = 16777215  # Qt's "no maximum"
LEGEND_SPACING = 0.5  # between a legend's rows, less: of the text size


@dataclass
class Panel:
    """One drawn panel: its plot item, legend and what ``draw`` returned, and
    its title's label (retitled when the panel is redrawn for another)."""

    title: str
    pi: pg.PlotItem
    legend: pg.LegendItem
    drawn: Drawn
    label: pg.LabelItem


def columns(n: int) -> int:
    """Panels a row: two up to eight (each with its legend beside it), three
    beyond (a 3x3 grid at most on a slide before panels get too small)."""
    return 1 if n <= 1 else 2 if n <= 8 else 3


def draw_panels(
    grid: pg.GraphicsLayout,
    plot: Plot,
    theme: Theme,
    font_px: float,
    line_scale: float = 1.0,
    legend_beside: bool = True,
    legend_rows: int = 8,
    legend_width: float | None = None,
    interactive: bool = True,
    previous: list[Panel] | None = None,
    width: float = 1920.0,
    afresh: bool = False,
) -> list[Panel]:
    """Draw each panel of ``plot`` into ``grid``: into the cells of
    ``previous`` (retitled and redrawn in place) when the grid keeps its
    columns, else into a cleared grid (building 9 panels anew cost 0.5-0.7 s
    of the GUI thread, the scaling chart over 1M rows filtered to PyTorch on
    Bow, cProfile).

    A legend is beside its panel (``legend_beside``, exports: never over the
    data) or inside it, in the corner the kind leaves empty (the window, where
    it can be dragged). Only the lowest panel of a column writes the x axis'
    title; the y axis' title is written once, left of the grid. A panel's title is cut
    by whole words to its share of ``width`` pixels; ``afresh``: the cells of
    ``previous`` are retitled and their legends filled anew even for the same
    panels (laid out again for another width)."""
    titles = plot.panels
    cols = columns(len(titles))
    kept = _kept_cells(grid, previous or [], len(titles))
    rows = rows_of(len(titles))
    if kept and rows_of(len(previous or [])) == rows:
        grid.getItem(0, 0).setText(html.escape(plot.y_title))
    else:  # the y title spans every row
        if kept:
            grid.removeItem(grid.getItem(0, 0))
        _y_title(grid, plot.y_title, theme, font_px, rows)
    # Unlinked while each is redrawn (``_share_axes`` links them again):
    # else each panel's range change is passed on to every other, 3,935
    # setRange calls and 1.2 s for 31 panels (scaling, 1M rows, cProfile).
    for p in kept:
        p.pi.setXLink(None)
        p.pi.setYLink(None)
    out: list[Panel] = []
    for i, title in enumerate(titles):
        r, c = divmod(i, cols)
        # the x title under the lowest panel of each column only
        lowest = i + cols >= len(titles)
        sub = replace(
            plot.panel(title), y_title="", x_title=plot.x_title if lowest else ""
        )
        shown = _fitted(title, width / cols - font_px, font_px)
        if i < len(kept):
            pi, legend, last = kept[i].pi, kept[i].legend, kept[i].drawn
            label = kept[i].label
            if afresh or kept[i].title != title:  # another panel in this cell
                label.setText(_bold(shown))
                # its legend filled anew and packed below as when drawn
                # afresh, not relabelled in rows the layout spread
                legend.clear()
                legend.setMaximumHeight(QWIDGETSIZE_MAX)
                last = replace(last, shape=())
        else:
            share = min(0.7, (legend_width or 0.4 * width / cols) * cols / width)
            share = share if legend_beside else 0.0
            pi, legend, label = _cell(grid, (r, c), shown, theme, font_px, share)
            last = None
        drawn = draw(
            pi,
            sub,
            theme,
            font_px=font_px,
            line_scale=line_scale,
            legend=legend,
            previous=last,
            legend_rows=legend_rows,
            legend_width=legend_width,
            interactive=interactive,
        )
        if legend_beside:  # packed: a layout cell spreads entries over its height
            legend.setMaximumHeight(legend.boundingRect().height())
        out.append(Panel(title, pi, legend, drawn, label))
    _share_axes([p.pi for p in out])
    return out


def _kept_cells(grid: pg.GraphicsLayout, previous: list[Panel], n: int) -> list[Panel]:
    """The panels of ``previous`` whose cells ``n`` panels take again, in
    order (the rest leave the grid): all of them if the grid has as many
    columns, else none (the grid cleared). Building a panel's cell (plot item,
    title, legend) was a quarter of drawing 9 panels anew (~8 ms a panel)."""
    if not previous or columns(len(previous)) != columns(n):
        grid.clear()
        return []
    for p in previous[n:]:
        for it in (p.label, p.pi, p.legend):
            if it in grid.items:  # a legend inside its plot is not a cell
                grid.removeItem(it)
    return previous[:n]


def _cell(
    grid: pg.GraphicsLayout,
    at: tuple[int, int],
    title: str,
    theme: Theme,
    font_px: float,
    legend_share: float,
) -> tuple[pg.PlotItem, pg.LegendItem, pg.LabelItem]:
    """A panel's title, plot and legend in the grid's cell ``at`` (row, col):
    the legend beside the plot in ``legend_share`` of the cell's width, or
    inside the plot if that is 0."""
    r, c = at
    legend_beside = legend_share > 0
    span = 2 if legend_beside else 1
    col = 1 + c * span  # column 0: the y axis' title
    label = grid.addLabel(
        _bold(title),
        row=2 * r,
        col=col,
        colspan=span,
        size=f"{font_px:.0f}px",
        color=theme.foreground,
        justify="left",
    )
    pi = add_plot(grid, 2 * r + 1, col)
    if legend_beside:
        legend = pg.LegendItem(offset=None, verSpacing=-font_px * LEGEND_SPACING)
        grid.addItem(legend, row=2 * r + 1, col=col + 1)
        grid.layout.setColumnStretchFactor(col, round(100 * (1 - legend_share)))
        grid.layout.setColumnStretchFactor(col + 1, round(100 * legend_share))
        grid.layout.setColumnAlignment(col + 1, QtCore.Qt.AlignmentFlag.AlignTop)
    else:
        legend = pi.addLegend(offset=(-10, -10))
    return pi, legend, label


def _bold(title: str) -> str:
    return f"<b>{html.escape(title)}</b>"


def _y_title(
    grid: pg.GraphicsLayout, text: str, theme: Theme, font_px: float, rows: int
) -> None:
    """The y axis' title once for every panel, turned, left of the grid."""
    grid.addLabel(
        html.escape(text),
        row=0,
        col=0,
        rowspan=2 * rows,
        angle=-90,
        size=f"{font_px * 1.08:.0f}px",
        color=theme.foreground,
    )


def _fitted(title: str, width: float, font_px: float) -> str:
    """``title`` in bold at ``font_px``, whole parts or words left out at the
    end if it is wider than ``width`` (never cut inside a word)."""
    font = px_font(font_px)
    font.setBold(True)
    fm = QtGui.QFontMetricsF(font)
    sep = " · " if " · " in title else ", "
    return elide_words(title, width, fm.horizontalAdvance, "right", sep=sep)


def _share_axes(items: list[pg.PlotItem]) -> None:
    """Every panel on the same ranges: the union of what each drew, with the
    margin ``style_axes`` gives one plot; then linked to the first."""
    if len(items) < 2:
        return
    first = items[0]
    for axis, link in (
        ("bottom", pg.PlotItem.setXLink),
        ("left", pg.PlotItem.setYLink),
    ):
        spans = [it.getAxis(axis).data_range for it in items]
        known = [s for s in spans if s is not None]
        if not known:
            continue
        lo = min(s[0] for s in known)
        hi = max(s[1] for s in known)
        for it in items:
            it.getAxis(axis).data_range = (lo, hi)
        span = (hi - lo) or 1.0
        if axis == "bottom":  # room on the right for the last point's label
            first.setXRange(lo - span * 0.06, hi + span * 0.24, padding=0)
        else:
            first.setYRange(lo - span * 0.12, hi + span * 0.12, padding=0)
        for it in items[1:]:
            link(it, first)


def legend_width(
    plot: Plot, rows: int, cell_w: float, text_px: float, shares: tuple[float, ...]
) -> float:
    """The narrowest of ``shares`` of a panel's width ``cell_w`` in which every
    panel's legend names all its lines in ``rows`` rows of ``text_px`` text
    (names wrapped at words), leaving its plot the rest; the widest if none."""
    fm = QtGui.QFontMetricsF(px_font(round(text_px)))
    for share in shares:
        room = cell_w * share

        def fits(t: str, room: float = room) -> bool:
            return fm.horizontalAdvance(t) <= room

        needed = max(
            sum(
                len(wrap_words(s.name, fits))
                for s in plot.panel(title).series
                if s.in_legend and s.points
            )
            for title in plot.panels
        )
        if needed <= rows:
            break
    return cell_w * share


def rows_of(n: int) -> int:
    """Rows of a grid of ``n`` panels."""
    return math.ceil(n / columns(n)) if n else 0
