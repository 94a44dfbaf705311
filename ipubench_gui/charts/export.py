"""Slide-ready export of a Plot: PNG, SVG, PDF and clipboard images. Headless.

The chart is laid out afresh at the output size, with fonts and line widths
scaled to it, so a 4K export is a sharper, equally legible slide, not an
upscaled screenshot. Light (or transparent) whatever the app theme, or dark on request.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, replace
from pathlib import Path

import pyqtgraph as pg
from pyqtgraph.exporters import SVGExporter
from PySide6 import QtCore, QtGui, QtWidgets

from ipubench_gui.charts.axes import add_plot
from ipubench_gui.charts.builders import Drawn, draw
from ipubench_gui.charts.legend import LABEL_MARGINS_PX, LEGEND_TEXT, NAMED_LINES
from ipubench_gui.charts.legend_layout import (
    PlotLegend,
    bar_names_px,
    panel_legend_rows,
    settle,
)
from ipubench_gui.charts.panels import (
    LEGEND_SHARE,
    Panel,
    columns,
    draw_panels,
    keep_labels_in,
    legend_lines,
    legend_share,
    panel_width,
    rows_of,
)
from ipubench_gui.charts.svg import portable
from ipubench_gui.charts.theme import DARK, LIGHT, Theme
from ipubench_gui.domain.files import ExportError, atomic_write
from ipubench_gui.domain.format import counted
from ipubench_gui.domain.plot_model import first_bars, split_panel
from ipubench_gui.domain.plots import Plot, footnote
from ipubench_gui.domain.series_rule import SEP
from ipubench_gui.domain.text import elide_parts, part_sets

FORMATS = ("png", "svg", "pdf")
BODY_MIN = 0.8  # of the body size: 18 px at 1920x1080, what a slide still reads


@dataclass(frozen=True)
class ExportOptions:
    width: int = 1920
    height: int = 1080
    title: str = ""
    subtitle: str = ""
    footnote: str = ""
    transparent: bool = False
    dark: bool = False  # a dark slide: light text, colours kept 3:1 against it

    @property
    def theme(self) -> Theme:
        return DARK if self.dark else LIGHT

    @property
    def font_px(self) -> float:
        # ~22 px body text on a 1080 p slide: readable from the back of a room.
        return max(9.0, self.height / 48)

    @property
    def line_scale(self) -> float:
        return max(1.0, self.height / 720)


def parse_size(text: str) -> tuple[int, int]:
    """``"1920x1080"`` -> (1920, 1080); raises ValueError with the reason."""
    try:
        w, h = (int(v) for v in text.lower().replace("×", "x").split("x"))
    except ValueError:
        raise ValueError(f"size must look like 1920x1080, not {text!r}") from None
    if not (64 <= w <= 16384 and 64 <= h <= 16384):
        raise ValueError(f"size {w}x{h} is outside 64..16384 pixels")
    return w, h


def compose(
    plot: Plot, opts: ExportOptions, painted: bool = True
) -> pg.GraphicsLayoutWidget:
    """A laid-out, never-shown widget holding the titled chart at the output
    size; ``painted`` False for a picture the caller renders (no paint ahead).

    Every line drawn is named: a panel whose legend cannot name all its
    lines is drawn as more panels, in the grid that names them all in
    panels still large enough to read (``slide_grid``); where no grid does,
    whole panels are left out and the footnote says which. Panels' legends
    are sized by an estimate of the room beside each panel; where they
    would still push the footnote off the picture, the chart is laid out
    again with a row less in each legend (and panels split again)."""
    grid = slide_grid(plot, opts, 0)
    w = _compose(grid.plot, opts, painted, 0, grid.cols)
    for cut in range(1, 6):
        if not grid.plot.panels or _fits(w, opts):
            break
        w.close()
        w.deleteLater()
        grid = slide_grid(plot, opts, cut)
        w = _compose(grid.plot, opts, painted, cut, grid.cols)
    return w


# A panel less tall than this many of its text lines is no longer read:
# splitting panels to name their lines stops there; nor a plot narrower
# than this many (its ticks overprint).
LEAST_PANEL_LINES = 7
LEAST_PLOT_EMS = 10


@dataclass(frozen=True)
class SlideGrid:
    """How an export draws a chart's panels: ``plot`` with panels split so
    that every legend names all its lines, ``cols`` panels a row (None: the
    window's choice, ``panels.columns``), and the panels ``left_out``
    (title, lines) for want of room, said in ``plot``'s notes."""

    plot: Plot
    cols: int | None = None
    left_out: tuple[tuple[str, int], ...] = ()


def slide_grid(plot: Plot, opts: ExportOptions, cut: int = 0) -> SlideGrid:
    """The grid in which ``plot``'s panels name every line at the export
    size (legends ``cut`` rows shorter): the window's number of columns if
    it does, else the other numbers of columns (1 to 4) in turn, larger
    panels in fewer rows first; else, panels left out one at a time, the
    one naming fewest lines for the room it takes first (``_least_worth``:
    the slide shows as many of the chart's lines as it can), until the
    rest are named in full; a note says which and how many."""
    left: list[tuple[str, int]] = []
    shown = plot
    while shown.panels:
        for cols in _grids(len(shown.panels)):
            try:
                named = named_in_full(shown, opts, cut, cols)
            except ExportError:
                continue
            note = _said_left_out(named, left, len(plot.panels))
            return SlideGrid(note, cols, tuple(left))
        if len(shown.panels) <= 1:
            break
        title = _least_worth(shown, opts, cut)
        left.append((title, _named_lines(shown, title)))
        shown = replace(
            shown, series=tuple(s for s in shown.series if s.panel != title)
        )
    # no panels, or one whose lines no slide this size names: its legend
    # names what it holds, the rest counted
    return SlideGrid(_said_left_out(shown, left, len(plot.panels)), None, tuple(left))


def _least_worth(plot: Plot, opts: ExportOptions, cut: int) -> str:
    """The panel naming fewest lines for the room it takes: its lines over
    the panels its legend needs in the window's grid (a panel of one line,
    named by its title, takes a whole panel for it); of equals, the last."""
    legend_rows, share, fp = _panel_room(plot, opts, cut)
    width = panel_width(opts.width - 2.2 * opts.font_px, len(plot.panels), fp)
    need = legend_lines(plot, width * share, round(fp * LEGEND_TEXT), NAMED_LINES)

    def worth(i: int) -> tuple[float, int]:
        title = plot.panels[i]
        parts = max(1, math.ceil((need.get(title) or 99) / legend_rows))
        return _named_lines(plot, title) / parts, -i

    return plot.panels[min(range(len(plot.panels)), key=worth)]


def _grids(n: int) -> list[int]:
    """Numbers of panels a row to try for ``n`` panels: the window's first,
    then fewer (larger panels), then more."""
    first = columns(n)
    return [first] + [c for c in (1, 2, 3, 4) if c != first and c <= n]


def _named_lines(plot: Plot, title: str) -> int:
    """Lines of panel ``title`` (its legend's; a panel of one unnamed: 1)."""
    mine = [s for s in plot.series if s.panel == title and s.points]
    return max(1, sum(1 for s in mine if s.in_legend))


def _said_left_out(plot: Plot, left: list[tuple[str, int]], of: int) -> Plot:
    """``plot`` with a note naming the panels left out of the chart's ``of``
    and their lines."""
    if not left:
        return plot
    lines = sum(k for _t, k in left)
    # a panel's first part (its model) names it: the rest is what its
    # lines share, said on the slide by the panels shown
    what = ", ".join(f"{t.split(SEP)[0]} ({k})" for t, k in left)
    note = (
        f"{len(left)} of {of} panels "
        f"({counted(lines, 'line')}) not shown for want of room, "
        f"lines of each in brackets: {what}"
    )
    return replace(plot, notes=plot.notes + (note,))


def named_in_full(
    plot: Plot, opts: ExportOptions, cut: int = 0, cols: int | None = None
) -> Plot:
    """``plot`` with each panel whose legend cannot name all its lines at the
    export size (rows less ``cut``, ``cols`` panels a row) drawn as several
    (``split_panel``), until every legend names all of its own;
    ``ExportError`` when that would make panels too small to read
    (``LEAST_PANEL_LINES``, ``LEAST_PLOT_EMS``)."""
    while plot.panels:
        legend_rows, share, fp = _panel_room(plot, opts, cut, cols)
        width = panel_width(opts.width - 2.2 * opts.font_px, len(plot.panels), fp, cols)
        if width * (1 - share) < LEAST_PLOT_EMS * fp:
            raise ExportError(f"panels too narrow at {cols} a row")
        need = legend_lines(plot, width * share, round(fp * LEGEND_TEXT), NAMED_LINES)
        over = {t: n for t, n in need.items() if n is None or n > legend_rows}
        if not over:
            return plot
        split = plot
        for title, n in over.items():
            split = split_panel(split, title, math.ceil((n or 99) / legend_rows))
        cell_h = opts.height * 0.8 / rows_of(len(split.panels), cols)
        if split == plot or cell_h < LEAST_PANEL_LINES * fp * 1.4:
            lines = sum(1 for s in plot.series if s.in_legend and s.points)
            raise ExportError(
                f"{lines} lines in {len(plot.panels)} panels cannot all be named "
                f"legibly at {opts.width}x{opts.height}"
            )
        plot = split
    return plot


def _panel_room(
    plot: Plot, opts: ExportOptions, cut: int, cols: int | None = None
) -> tuple[int, float, float]:
    """Panels' legends at the export size: the lines each holds (less
    ``cut``), their share of a panel's width, and the panels' text size
    (the body size's smallest, 0.85x)."""
    fp = opts.font_px * 0.85
    n = len(plot.panels)
    # a panel's share of the grid: a legend taller than its panel would push
    # the footnote off the slide (tests/charts/test_panels)
    cell_h = opts.height * 0.8 / rows_of(n, cols)
    width = opts.width - 2.2 * opts.font_px  # the layout's margins (_compose)
    legend_rows = max(2, panel_legend_rows(cell_h, fp) - cut)
    # the plot as wide as the legends leave it: wider legends only where
    # names would wrap past the rows that fit
    share = legend_share(
        plot,
        legend_rows,
        panel_width(width, n, fp, cols),
        round(fp * LEGEND_TEXT),
        (0.36, 0.4, LEGEND_SHARE),
        NAMED_LINES,
    )
    return legend_rows, share, fp


def _fits(w: pg.GraphicsLayoutWidget, opts: ExportOptions) -> bool:
    """Whether the footnote (the layout's last row) ends inside the picture,
    and every panel's legend ends within its panel's row (a longer one ran
    into the next panel's title or the x axis' title under the grid) and
    meets no x axis' title (centred under its plot, a title wider than the
    plot reaches under the legend beside it)."""
    footer = w.ci.getItem(3, 0)
    if footer is not None and footer.sceneBoundingRect().bottom() > opts.height:
        return False
    for p in w.chart_panels:
        # a legend's cell holds it to the row's height; its text runs on
        # (a label's box keeps a margin below its text)
        end = -LABEL_MARGINS_PX / 2 + max(
            (lb.item.sceneBoundingRect().bottom() for _s, lb in p.legend.items),
            default=0.0,
        )
        if end > p.pi.sceneBoundingRect().bottom() + 2:
            return False
    titles = [
        ax.label.sceneBoundingRect()
        for ax in (p.pi.getAxis("bottom") for p in w.chart_panels)
        if ax.label.isVisible()
    ]
    return not any(
        label.sceneBoundingRect().intersects(t)
        for p in w.chart_panels
        for _, label in p.legend.items
        for t in titles
    )


def _compose(
    plot: Plot,
    opts: ExportOptions,
    painted: bool,
    legend_cut: int,
    cols: int | None = None,
) -> pg.GraphicsLayoutWidget:
    theme = opts.theme
    fp = opts.font_px
    w = pg.GraphicsLayoutWidget()
    w.setAttribute(QtCore.Qt.WidgetAttribute.WA_DontShowOnScreen, True)
    w.setBackground(None if opts.transparent else theme.background)
    w.ci.setContentsMargins(fp, fp * 0.8, fp * 1.2, fp * 0.6)
    w.ci.setSpacing(fp * 0.3)
    title = opts.title or plot.title
    _line(w, 0, html.escape(title), fp * 1.55, theme.foreground, bold=True)
    subtitle = opts.subtitle
    foot = opts.footnote
    if plot.horizontal_bars:  # its note then says how many are shown
        cut = first_bars(plot, bars_that_fit(opts))
        if cut is not plot and foot == footnote(plot):
            foot = footnote(cut)  # the sources and IDs of the bars drawn
        plot = cut
    if plot.notes:
        foot = "; ".join(plot.notes) + (". " + foot if foot else "")
    if plot.panels:
        panels = _compose_panels(w, plot, opts, legend_cut, cols)
        drawn = panels[0].drawn
        w.chart_panels = panels
        views = [(p.pi, p.drawn) for p in panels]
    else:
        drawn, subtitle = _compose_one(w, plot, opts, subtitle)
        views = [(w.ci.getItem(2, 0), drawn)]
    ink = theme.muted if not subtitle else theme.caption
    _line(w, 1, html.escape(subtitle), fp * 0.95, ink)
    footer = _line(w, 3, "", fp * 0.7, theme.caption)
    footer.item.setTextWidth(opts.width - 3 * fp)
    footer.setText(html.escape(foot), size=f"{fp * 0.7:.0f}px", color=theme.caption)
    w.chart_drawn, w.chart_subtitle = drawn, subtitle  # for tests and callers
    w.chart_footer = footer
    w.chart_plot = plot  # as drawn (panels split to name every line)
    w.resize(opts.width, opts.height)
    # Shown to be laid out (WA_DontShowOnScreen: never on screen). For a
    # picture, not painted: the caller renders it once, and painting the
    # unseen widget too was a second full render of every export;
    # what that paint did for the layout, the axes sizing themselves to their
    # tick labels, is done without it (the PNG comes out pixel for pixel the
    # same). SVG and PDF keep the paint: pyqtgraph's items record what the
    # SVG exporter replays (bars vanished from the SVG without it).
    w.setUpdatesEnabled(painted)
    w.show()
    QtWidgets.QApplication.processEvents()
    if not painted:
        _fit_axes(w)
    # Laid out: the legend placed (``legend_layout``), points' labels kept
    # in their plots (each needs the plots' pixel sizes); a label kept in
    # moves the points, so the legend is placed again.
    for _ in range(3):
        moved = not plot.panels and _place_legend(w, plot, drawn, opts)
        if moved:
            _laid_out_again(w, painted)
        if plot.horizontal_bars or not keep_labels_in(views):
            break
        _laid_out_again(w, painted)
    return w


def _laid_out_again(w: pg.GraphicsLayoutWidget, painted: bool) -> None:
    QtWidgets.QApplication.processEvents()
    if not painted:
        _fit_axes(w)


def _place_legend(
    w: pg.GraphicsLayoutWidget, plot: Plot, drawn: Drawn, opts: ExportOptions
) -> bool:
    """The one plot's legend placed by the rule the window follows; whether
    it moved beside the plot or back (the chart to be laid out again)."""
    slot: PlotLegend = w.chart_legend
    was = slot.where == "beside"
    settle(slot, drawn, plot, opts.theme, opts.font_px, opts.width, interactive=False)
    slot.pi.legend = slot.item  # as pyqtgraph's own addLegend leaves it
    if plot.horizontal_bars:
        QtWidgets.QApplication.processEvents()
    return was != (slot.where == "beside")


def _line(
    w: pg.GraphicsLayoutWidget,
    row: int,
    text: str,
    px: float,
    color: str,
    bold: bool = False,
) -> pg.LabelItem:
    """A line of text across the picture (title, subtitle, footnote)."""
    return w.addLabel(
        text,
        row=row,
        col=0,
        colspan=2,
        size=f"{px:.0f}px",
        bold=bold,
        color=color,
        justify="left",
    )


def _fit_axes(w: pg.GraphicsLayoutWidget) -> None:
    """Let every axis measure its tick labels (pyqtgraph does so only while
    painting, then widens itself) and lay the chart out again."""
    img = QtGui.QImage(1, 1, QtGui.QImage.Format.Format_ARGB32_Premultiplied)
    p = QtGui.QPainter(img)
    for it in w.scene().items():
        if isinstance(it, pg.AxisItem) and it.isVisible():
            p.save()
            if it.style["tickFont"]:
                p.setFont(it.style["tickFont"])
            it.generateDrawSpecs(p)
            p.restore()
            it.picture = None  # drawn afresh at its final size
    p.end()
    QtWidgets.QApplication.processEvents()


def bars_that_fit(opts: ExportOptions) -> int:
    """Bars (rows) a picture holds legibly."""
    return max(3, int(opts.height * 0.72 / (opts.font_px * 1.5)))


def _compose_one(
    w: pg.GraphicsLayoutWidget, plot: Plot, opts: ExportOptions, subtitle: str
) -> tuple[Drawn, str]:
    """One plot in the layout's row 2, its legend placed once laid out
    (``_place_legend``); returns what was drawn and the subtitle. Bars come
    cut to as many as fit (``_compose``: its note says how many)."""
    theme, fp = opts.theme, opts.font_px
    pi = add_plot(w.ci, 2, 0)
    w.chart_legend = PlotLegend(pi)
    drawn = draw(
        pi,
        plot,
        theme,
        font_px=fp,
        line_scale=opts.line_scale,
        interactive=False,
    )
    if plot.horizontal_bars:
        _label_bars(pi, list(plot.categories), opts)
    return drawn, subtitle


def _compose_panels(
    w: pg.GraphicsLayoutWidget,
    plot: Plot,
    opts: ExportOptions,
    cut: int = 0,
    cols: int | None = None,
) -> list[Panel]:
    """Small multiples in the layout's row 2 (charts/panels.py), ``cols`` a
    row, each legend beside its panel, in the body size's smallest (0.85x)."""
    legend_rows, share, fp = _panel_room(plot, opts, cut, cols)
    grid = w.ci.addLayout(row=2, col=0, colspan=2)
    width = opts.width - 2.2 * opts.font_px  # the layout's margins (_compose)
    return draw_panels(
        grid,
        plot,
        opts.theme,
        fp,
        opts.line_scale,
        legend_beside=True,
        legend_rows=legend_rows,
        legend_share=share,
        interactive=False,
        width=width,
        x_title_below=True,
        cols=cols,
    )


def _label_bars(pi: pg.PlotItem, cats: list[str], opts: ExportOptions) -> None:
    """Each bar's name beside it, in ``bar_names_px`` of the width: written smaller
    (down to the smallest body text, 0.8x) when the longest does not fit, and
    only then whole words left out in the middle (never cut inside a word;
    the words left out are often what tells two bars apart)."""
    fp = opts.font_px
    room = bar_names_px(opts.width)
    px = math.floor(fp)
    while True:
        metrics = QtGui.QFontMetricsF(_font(px))
        longest = max((metrics.horizontalAdvance(c) for c in cats), default=40)
        if longest <= room - fp or px <= round(fp * BODY_MIN):
            break
        px -= 1
    width = min(longest + fp, room)
    among = part_sets(cats)  # a name keeps what tells it from the others
    left = pi.getAxis("left")
    left.setStyle(tickFont=_font(px))
    left.setWidth(int(width))
    left.setTicks(
        [
            [
                (
                    float(i),
                    elide_parts(c, width - fp, metrics.horizontalAdvance, among),
                )
                for i, c in enumerate(cats)
                if c  # a section's header row: its name is in the plot
            ],
            [],
        ]
    )
    pi.setYRange(-0.6, len(cats) - 0.4, padding=0)


def _font(px: float) -> QtGui.QFont:
    f = QtGui.QFont()
    f.setPixelSize(max(1, round(px)))
    return f


def render_image(plot: Plot, opts: ExportOptions) -> QtGui.QImage:
    w = compose(plot, opts, painted=False)
    fmt = QtGui.QImage.Format  # opaque: no alpha to paint or write
    img = QtGui.QImage(
        opts.width,
        opts.height,
        fmt.Format_ARGB32_Premultiplied if opts.transparent else fmt.Format_RGB32,
    )
    img.fill(
        QtCore.Qt.GlobalColor.transparent
        if opts.transparent
        else QtGui.QColor(opts.theme.background)
    )
    p = QtGui.QPainter(img)
    p.setRenderHints(
        QtGui.QPainter.RenderHint.Antialiasing
        | QtGui.QPainter.RenderHint.TextAntialiasing
    )
    w.render(p)
    p.end()
    w.close()
    w.deleteLater()
    return img


def export(plot: Plot, path: Path, opts: ExportOptions) -> Path:
    """Write ``plot`` to ``path`` (format from the suffix); nothing partial is left."""
    path = Path(path)
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise ExportError(f"cannot export to {path.name}: use .png, .svg or .pdf")
    write = {"png": _png, "svg": _svg, "pdf": _pdf}[fmt]
    return atomic_write(path, lambda tmp: write(plot, Path(tmp), opts), ExportError)


# Qt's PNG "quality" 80 is zlib level 2: on the seed's charts, smaller files
# than the default level in much less time (with opaque RGB32 rather than
# premultiplied ARGB; tests/bench: charts).
PNG_QUALITY = 80


def _png(plot: Plot, tmp: Path, opts: ExportOptions) -> None:
    img = render_image(plot, opts)
    # Encoded in memory, written by Python: a full disk is then the system's
    # "No space left on device", not libpng's bare "Write Error".
    buf = QtCore.QBuffer()
    buf.open(QtCore.QIODevice.OpenModeFlag.WriteOnly)
    if not img.save(buf, "PNG", PNG_QUALITY):
        raise OSError("the chart could not be encoded as PNG")
    tmp.write_bytes(bytes(buf.data().data()))


def _svg(plot: Plot, tmp: Path, opts: ExportOptions) -> None:
    w = compose(plot, opts)
    data = SVGExporter(w.scene()).export(toBytes=True)
    w.close()
    w.deleteLater()
    tmp.write_bytes(portable(data))


def _pdf(plot: Plot, tmp: Path, opts: ExportOptions) -> None:
    w = compose(plot, opts)
    writer = QtGui.QPdfWriter(str(tmp))
    writer.setResolution(96)
    size = QtCore.QSizeF(opts.width * 72 / 96, opts.height * 72 / 96)
    writer.setPageSize(
        QtGui.QPageSize(
            size,
            QtGui.QPageSize.Unit.Point,
            "chart",
            QtGui.QPageSize.SizeMatchPolicy.ExactMatch,
        )
    )
    writer.setPageMargins(QtCore.QMarginsF(0, 0, 0, 0))
    writer.setTitle(opts.title or plot.title)
    writer.setCreator("ipubench-gui")
    p = QtGui.QPainter(writer)
    if not p.isActive():
        raise OSError("the PDF could not be started")
    w.render(p)
    p.end()
    w.close()
    w.deleteLater()


def copy_to_clipboard(plot: Plot, opts: ExportOptions) -> None:
    QtGui.QGuiApplication.clipboard().setImage(render_image(plot, opts))
