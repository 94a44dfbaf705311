"""Small multiples: a Plot whose series sit in panels (``Plot.panels``) drawn
as a grid of plots sharing both axes, each with its own title and legend.

The window and the exports draw through here alike (``draw`` per panel), so a
panel reads the same on screen and on a slide. Axes are linked with
pyqtgraph's ``setXLink``/``setYLink``: zooming one panel zooms them all.
"""

from __future__ import annotations

import functools
import html
import math
from collections.abc import Generator
from dataclasses import dataclass, replace

import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from ipubench_gui.charts.axes import add_plot, px_font
from ipubench_gui.charts.builders import NOT_IN_PLACE, Drawn, draw_steps
from ipubench_gui.charts.labels import PointLabels
from ipubench_gui.charts.legend import (
    LEGEND_TEXT,
    MAX_LINES,
    SWATCH_PX,
    entry_spacing,
    wrap_words,
)
from ipubench_gui.charts.theme import Theme
from ipubench_gui.domain.plot_model import Plot
from ipubench_gui.domain.text import elide_words

QWIDGETSIZE_MAX = 16777215  # Qt's "no maximum"
# A legend beside its panel takes at most this share of the panel's width, the
# plot the rest: given its names' width, the scaling panels' plots were 138 px
# of a 450 px column in the window (x ticks 64 and 128 overprinted) and ~45%
# of their cell in exports.
LEGEND_SHARE = 0.45
Y_TITLE_EM = 1.08  # the y title's size, in panel text sizes


@dataclass
class Panel:
    """One drawn panel: its plot item, legend and what ``draw`` returned, and
    its title's label (retitled when the panel is redrawn for another)."""

    title: str
    pi: pg.PlotItem
    legend: pg.LegendItem
    drawn: Drawn
    label: pg.LabelItem


def columns(n: int, cols: int | None = None) -> int:
    """Panels a row: ``cols`` if given (an export that chose its grid), else
    two up to eight (each with its legend beside it), three beyond (a 3x3
    grid at most on a slide before panels get too small)."""
    if cols:
        return max(1, min(cols, n))
    return 1 if n <= 1 else 2 if n <= 8 else 3


def draw_panels(*args, **kwargs) -> list[Panel]:
    """Every step of ``panel_steps`` at once (same arguments): the panels drawn."""
    return run_steps(panel_steps(*args, **kwargs))


def run_steps(steps: Generator[object, None, list[Panel]]) -> list[Panel]:
    """What a generator of steps returns, every step run now."""
    while True:
        try:
            next(steps)
        except StopIteration as end:
            return end.value


def panel_steps(
    grid: pg.GraphicsLayout,
    plot: Plot,
    theme: Theme,
    font_px: float,
    line_scale: float = 1.0,
    legend_beside: bool = True,
    legend_rows: int = 8,
    legend_share: float = LEGEND_SHARE,
    interactive: bool = True,
    previous: list[Panel] | None = None,
    width: float = 1920.0,
    afresh: bool = False,
    y_title: bool = True,
    x_title_below: bool = False,
    cols: int | None = None,
) -> Generator[list[Panel], None, list[Panel]]:
    """Draw each panel of ``plot`` into ``grid``, in steps: into the cells of
    ``previous`` (retitled and redrawn in place) when the grid keeps its
    columns, else into a cleared grid (building many panels anew held the GUI
    thread for a long stall).

    A legend is beside its panel (``legend_beside``: never over the data) in
    at most ``legend_share`` of the panel's width (``width``: the grid's), its
    names wrapped at words to that less the swatch, the window and exports
    alike; or inside it, in the corner the kind leaves empty. Only the lowest
    panel of a column writes the x axis' title; the y axis' title is written
    once, left of the grid; ``x_title_below``: the x axis' title once,
    under the whole grid (an export's: under a panel, a title wider than its
    plot ran under the legend beside it). Not ``y_title``: left out, a window writes it
    beside the grid, in sight while the grid scrolls). A panel's title is cut
    by whole words to its share of ``width`` pixels; ``afresh``: the cells of
    ``previous`` are retitled and their legends filled anew even for the
    same panels (laid out again for another width).

    A generator, so that a window can spread a big drawing over several turns
    of its event loop (many panels drawn anew in one go held the GUI thread
    for a long stall): each step (the grid's cells kept or cleared, a new cell, a step
    of a panel's drawing: ``draw_steps``) yields the panels the grid now
    holds, in order, each with what is drawn in it so far; drawing stopped
    after any step, those are the right ``previous`` for the next. Returns
    the panels, axes shared. ``cols``: panels a row (``columns``)."""
    titles = plot.panels
    cols = columns(len(titles), cols)
    share = legend_share if legend_beside else 0.0
    cell_w = panel_width(width, len(titles), font_px, cols)
    cap = cell_w * share
    names_px = max(4 * font_px, cap - SWATCH_PX) if legend_beside else None
    # Unlinked while each is moved and redrawn (``_share_axes`` links them
    # again): else each panel's range change is passed on to every other: a
    # number of setRange calls that grows with the square of the panels.
    for p in previous or []:
        p.pi.setXLink(None)
        p.pi.setYLink(None)
    kept, moved = _kept_cells(grid, previous or [], len(titles), cols, share)
    rows = rows_of(len(titles), cols)
    y_text = html.escape(plot.y_title) if y_title else ""
    y_item = grid.getItem(0, 0)
    if kept and y_item is not None and len(grid.items[y_item]) == 2 * rows:
        y_item.setText(y_text)
    else:  # the y title spans every row
        if y_item is not None:
            grid.removeItem(y_item)
        _y_title(grid, y_text, theme, font_px, rows)
    out: list[Panel] = list(kept)  # the grid's panels as they now are
    yield out
    # Panels moved to a cell of another grid, a step each (each lays the
    # grid out again).
    for i in sorted(moved):
        _place(grid, kept[i], divmod(i, cols), share)
        yield out
    # New cells first, a step each (a plot item is a dear step), each then a
    # turn of its own: after a panel's last, cheap step, which a turn takes
    # the next to cost as much as (TurnSteps), a new cell ran in the same turn.
    for i in range(len(kept), len(titles)):
        shown = _fitted(titles[i], cell_w, font_px)
        pi, legend, label = _cell(grid, divmod(i, cols), shown, theme, font_px, share)
        out.append(Panel(titles[i], pi, legend, Drawn(), label))  # nothing drawn
        yield out
    for i, title in enumerate(titles):
        # the x title under the lowest panel of each column only
        lowest = i + cols >= len(titles)
        sub = replace(
            plot.panel(title),
            y_title="",
            x_title=plot.x_title if lowest and not x_title_below else "",
        )
        pi, legend, last, label = out[i].pi, out[i].legend, out[i].drawn, out[i].label
        if i < len(kept) and (afresh or i in moved or kept[i].title != title):
            # another panel in this cell, or this one in a cell of another width
            label.setText(_bold(_fitted(title, cell_w, font_px)))
            # its legend filled anew and packed below as when drawn
            # afresh, not relabelled in rows the layout spread
            legend.clear()
            legend.setMaximumHeight(QWIDGETSIZE_MAX)
            last = replace(last, shape=NOT_IN_PLACE)
        for drawn in draw_steps(
            pi,
            sub,
            theme,
            font_px=font_px,
            line_scale=line_scale,
            legend=legend,
            previous=last,
            legend_rows=legend_rows,
            legend_width=names_px,
            interactive=interactive,
        ):
            out[i] = Panel(title, pi, legend, drawn, label)
            yield out
        if legend_beside:  # packed: a layout cell spreads entries over its height
            legend.setMaximumHeight(legend.layout.preferredHeight())
            # its rows chosen to fit its cell: never a floor under the grid's
            # rows (a grid of taller legends, redrawn with fewer panels, was
            # laid out for the height those floors had made it)
            legend.setMinimumHeight(0)
            # none named (a panel's only line: its title names it): no column
            legend.setMaximumWidth(cap if legend.items else 0)
    if legend_beside:
        # Every plot the rest of its panel: a column's long title would
        # otherwise widen its plots and narrow the other column's (the grid
        # spreads a spanning item's least width over its columns).
        plot_w = cell_w - cap - font_px / 2
        for c in range(cols):
            grid.layout.setColumnMinimumWidth(1 + 2 * c, plot_w)
    if x_title_below and plot.x_title and not kept:
        grid.addLabel(
            html.escape(plot.x_title),
            row=2 * rows,
            col=1,
            colspan=2 * cols if legend_beside else cols,
            size=f"{font_px * Y_TITLE_EM:.0f}px",
            color=theme.foreground,
        )
    _share_axes([p.pi for p in out])
    yield out
    return out


def keep_labels_in(views: list[tuple[pg.PlotItem, Drawn]]) -> bool:
    """Widen laid-out plots' ranges (right, top) until each point label ends
    inside its plot: the view box clips them, and a narrow panel's last
    label lost its number ("bs" of "bs 256", latency-throughput export at
    1600x900), the fixed margin ``_share_axes`` leaves being a share of the
    range, not room for a label's pixels. Panels' axes are linked: one range
    for all. Returns whether a range was widened."""
    if not views:
        return False
    (x0, x1), (y0, y1) = views[0][0].vb.viewRange()
    right, top = x1, y1
    for pi, drawn in views:
        w, h = pi.vb.width(), pi.vb.height()
        for it in drawn.extras:
            if type(it) is not PointLabels or not it.isVisible():
                continue
            for x, y, box in it.boxes():
                if not (x0 <= x <= x1 and y0 <= y <= y1):
                    continue  # out of view: not drawn
                # the label's right end (top) at the plot's edge, the view's
                # left (bottom) end kept
                room_x, room_y = w - box.right() - 1, h + box.top() - 1
                if room_x > w * 0.2:
                    right = max(right, x0 + (x - x0) * w / room_x)
                if room_y > h * 0.2:
                    top = max(top, y0 + (y - y0) * h / room_y)
    first = views[0][0]
    if right > x1:
        first.setXRange(x0, right, padding=0)
    if top > y1:
        first.setYRange(y0, top, padding=0)
    return right > x1 or top > y1


def _kept_cells(
    grid: pg.GraphicsLayout,
    previous: list[Panel],
    n: int,
    cols: int,
    legend_share: float,
) -> tuple[list[Panel], set[int]]:
    """The panels of ``previous`` whose plot items ``n`` panels take again, in
    order (the rest leave the grid), and which of them are to move to another
    cell of a grid of ``cols`` columns (those are out of the grid now): a
    grid of another number of columns (a chart of more panels) moves them
    rather than making them anew: building a panel's cell (plot item,
    title, legend) is most of what switching to a chart of panels costs."""
    if not previous:
        grid.clear()
        return [], set()
    for p in previous[n:]:
        _leave(grid, p)
    kept = previous[:n]
    moved = {
        i
        for i, p in enumerate(kept)
        if grid.items.get(p.pi) != [_plot_cell(divmod(i, cols), legend_share)]
    }
    for i in moved:  # out of the grid now: their cells are taken anew
        _leave(grid, kept[i])
    return kept, moved


def _leave(grid: pg.GraphicsLayout, p: Panel) -> None:
    for it in (p.label, p.pi, p.legend):
        if it in grid.items:  # a legend inside its plot is not a cell
            grid.removeItem(it)


def _plot_cell(at: tuple[int, int], legend_share: float) -> tuple[int, int]:
    """The grid cell (row, column) of the plot of the panel at ``at``: a row
    of titles over each row of plots, column 0 the y axis' title, a legend
    beside each plot if it has a ``legend_share``."""
    r, c = at
    return 2 * r + 1, 1 + c * (2 if legend_share > 0 else 1)


def _place(
    grid: pg.GraphicsLayout, p: Panel, at: tuple[int, int], legend_share: float
) -> None:
    """``p``'s title, plot and legend (if beside it) put in the cell ``at``."""
    row, col = _plot_cell(at, legend_share)
    span = 2 if legend_share > 0 else 1
    grid.addItem(p.label, row=row - 1, col=col, colspan=span)
    grid.addItem(p.pi, row=row, col=col)
    if legend_share > 0:
        grid.addItem(p.legend, row=row, col=col + 1)
        _legend_column(grid, col, legend_share)


def _legend_column(grid: pg.GraphicsLayout, col: int, legend_share: float) -> None:
    """The plot's column ``col`` takes the panel's width less the legend's
    share; the legend's column beside it, only what the legend needs."""
    grid.layout.setColumnStretchFactor(col, round(100 * (1 - legend_share)))
    grid.layout.setColumnStretchFactor(col + 1, 0)
    grid.layout.setColumnAlignment(col + 1, QtCore.Qt.AlignmentFlag.AlignTop)


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
    legend_beside = legend_share > 0
    row, col = _plot_cell(at, legend_share)
    label = grid.addLabel(
        _bold(title),
        row=row - 1,
        col=col,
        colspan=2 if legend_beside else 1,
        size=f"{font_px:.0f}px",
        color=theme.foreground,
        justify="left",
    )
    pi = add_plot(grid, row, col)
    if legend_beside:
        spacing = entry_spacing(round(font_px * LEGEND_TEXT))
        legend = pg.LegendItem(offset=None, verSpacing=spacing)
        grid.addItem(legend, row=row, col=col + 1)
        _legend_column(grid, col, legend_share)
    else:
        legend = pi.addLegend(offset=(-10, -10))
    return pi, legend, label


def _bold(title: str) -> str:
    return f"<b>{html.escape(title)}</b>"


def _y_title(
    grid: pg.GraphicsLayout, text: str, theme: Theme, font_px: float, rows: int
) -> None:
    """The y axis' title once for every panel, turned, left of the grid
    (none: a column of no width)."""
    label = grid.addLabel(
        text,
        row=0,
        col=0,
        rowspan=2 * rows,
        angle=-90,
        size=f"{font_px * Y_TITLE_EM:.0f}px",
        color=theme.foreground,
    )
    if not text:
        label.setMaximumWidth(0)


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


def panel_width(width: float, n: int, font_px: float, cols: int | None = None) -> float:
    """A panel's width (its plot and the legend beside it) in a grid ``width``
    pixels wide of ``n`` panels (``cols`` a row, ``columns``): its column's
    share less the y title's column and the spacing between cells (~4 text
    heights)."""
    return (width - 4 * font_px) / columns(n, cols)


def legend_share(
    plot: Plot,
    rows: int,
    cell_w: float,
    text_px: float,
    shares: tuple[float, ...],
    most: int = MAX_LINES,
) -> float:
    """The narrowest of ``shares`` of a panel's width ``cell_w`` in which every
    panel's legend names all its lines whole in ``rows`` rows of ``text_px``
    text (names wrapped at words beside their swatch, in at most ``most``
    lines), leaving its plot the rest; the widest if none."""
    for share in shares:
        need = legend_lines(plot, cell_w * share, text_px, most)
        if all(n is not None and n <= rows for n in need.values()):
            break
    return share


def legend_lines(
    plot: Plot, width: float, text_px: float, most: int = MAX_LINES
) -> dict[str, int | None]:
    """For each panel, the lines its legend takes ``width`` pixels wide
    (swatch included) to name every line, each name in at most ``most``
    lines; None where a name does not fit that many whole."""
    room = round(width - SWATCH_PX)
    out: dict[str, int | None] = {}
    for title in plot.panels:
        names = [s.name for s in plot.panel(title).series if s.in_legend and s.points]
        wrapped = [_name_lines(n, room, round(text_px), most) for n in names]
        whole = all(n is not None for n in wrapped)
        out[title] = sum(n or 0 for n in wrapped) if whole else None
    return out


@functools.lru_cache(maxsize=4096)
def _name_lines(name: str, room: int, text_px: int, most: int) -> int | None:
    """Lines ``name`` takes wrapped at words to ``room`` pixels at
    ``text_px``, None if not whole in ``most``: an export tries several
    grids, each asking again of the same names (measured uncached, trying
    them was most of the export of the latency chart of every model)."""
    fm = _metrics(text_px)
    wrapped = wrap_words(name, lambda t: fm.horizontalAdvance(t) <= room, most)
    return None if wrapped[-1].endswith(" …") else len(wrapped)


@functools.lru_cache(maxsize=32)
def _metrics(text_px: int) -> QtGui.QFontMetricsF:
    return QtGui.QFontMetricsF(px_font(text_px))


def rows_of(n: int, cols: int | None = None) -> int:
    """Rows of a grid of ``n`` panels (``cols`` a row, ``columns``)."""
    return math.ceil(n / columns(n, cols)) if n else 0
