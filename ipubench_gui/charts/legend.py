"""Legends that read: entries packed, each swatch beside its text, names
wrapped at word boundaries (never cut inside a word)."""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Sequence

import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from ipubench_gui.charts.axes import px_font
from ipubench_gui.charts.theme import Theme
from ipubench_gui.domain.series_rule import SEP

SEPARATOR = SEP  # between the attributes of a series name
MAX_LINES = 2  # of one legend entry in the window (hover names the rest)
NAMED_LINES = 4  # ...in an export, which names every line whole
LEGEND_TEXT = 0.92  # a legend's text size, of the chart's
# A legend's width besides its names: pyqtgraph's legend margins (2 x 9 px),
# swatch (20 px) and gap after it (5 px), and the label's text margins (2 x 4 px).
SWATCH_PX = 51
# A label's rich-text document keeps 4 px above and below its lines.
LABEL_MARGINS_PX = 8
ENTRY_GAP = 0.2  # between a legend's entries, of its text size


def entry_spacing(text_px: float) -> float:
    """A legend's vertical spacing for entries ``ENTRY_GAP`` apart: less than
    zero, their labels' margins overlapping. Wrapped names made the gap
    between entries count: at -0.5 of the text size a two-line name's second
    line touched the next name (once the legend was packed, not spread)."""
    return ENTRY_GAP * text_px - LABEL_MARGINS_PX


def line_px(text_px: float) -> float:
    """A legend's height per line of its names at ``text_px``: a label's line
    as pyqtgraph's rich text lays it out (its font's line spacing rounded up:
    17 px at 14 px, 21 at 18, 24 at 20) and half the gap between entries
    (panels' names mostly wrap to two lines that share one gap). A legend of
    one-line names is taller, by half a gap a line: exports lay out again
    with fewer rows if that pushes the footnote off or into an x axis'
    title (export._fits)."""
    fm = QtGui.QFontMetricsF(px_font(text_px))
    return math.ceil(fm.lineSpacing()) + ENTRY_GAP * text_px / 2


def _tokens(text: str) -> list[str]:
    """Pieces a line may break after: attributes (" · "), then words."""
    out: list[str] = []
    parts = text.split(SEPARATOR)
    for i, part in enumerate(parts):
        words = part.split(" ")
        for j, w in enumerate(words):
            last_word = j == len(words) - 1
            if not last_word:
                out.append(w + " ")
            elif i < len(parts) - 1:
                out.append(w + SEPARATOR)
            else:
                out.append(w)
    return [t for t in out if t.strip()]


def wrap_words(
    text: str, fits: Callable[[str], bool], max_lines: int = MAX_LINES
) -> list[str]:
    """``text`` in at most ``max_lines`` lines that each ``fits``, broken only
    between words (a word too long for a line keeps its line alone, whole);
    a line broken between attributes ends in their "·". Text left over ends
    the last line as " …", after a whole word."""
    lines: list[str] = []
    cur = ""
    for tok in _tokens(text):
        if cur and not fits((cur + tok).rstrip()):
            lines.append(cur.rstrip())
            cur = ""
        cur += tok
    if cur.strip():
        lines.append(cur.rstrip())
    if len(lines) <= max_lines:
        return lines
    kept = lines[:max_lines]
    last = kept[-1]
    while last and not fits(last + " …"):
        cut = last.rstrip(" ·").rfind(" ")
        if cut <= 0:
            break
        last = last[:cut].rstrip(" ·")
    kept[-1] = last + " …"
    return kept


def fill_legend(
    legend: pg.LegendItem,
    entries: Sequence[tuple[pg.GraphicsObject, str]],
    theme: Theme,
    corner: str = "br",
    text_px: float = 11,
    rows: int = 12,
    width: float | None = None,
    interactive: bool = True,
) -> None:
    """Fill ``legend`` with ``entries`` (item, series name), in order.

    At most ``rows`` text lines (a wrapped name takes two); what does not fit
    is counted on the last row ("+ N more"). Names are wrapped at word
    boundaries to ``width`` pixels if given. A legend inside the plot (made
    with an offset) sits in ``corner`` over a translucent background.

    A legend in the same text colour and size keeps its rows, each row's
    swatch pointed at its new item, a row already saying a name kept for it
    (``_SpareRows.refill``): making its rows anew was a quarter of redrawing
    the latency chart after a filter change (tests/bench breakdown). Rows it
    no longer needs are taken out of its layout and kept hidden for a later
    fill: else a filter change from 1 legend entry to 2 made a row anew."""
    if legend.opts["offset"] is not None:  # inside the plot
        m = 10
        offset = {"tl": (m, m), "tr": (-m, m), "bl": (m, -m), "br": (-m, -m)}[corner]
        if tuple(legend.opts["offset"]) != offset:  # anchoring anew lays it out
            legend.setOffset(offset)
        bg = pg.mkColor(theme.background or "#FFFFFF")
        bg.setAlpha(215)
        legend.setBrush(pg.mkBrush(bg))
    colour, size = pg.mkColor(theme.foreground), f"{round(text_px)}px"
    same_look = (
        legend.opts["labelTextColor"] == colour and legend.opts["labelTextSize"] == size
    )
    if not same_look:
        legend.setLabelTextColor(colour)
        legend.setLabelTextSize(size)
    fm = QtGui.QFontMetricsF(px_font(text_px))

    most = MAX_LINES if interactive else NAMED_LINES

    def lines_of(name: str) -> list[str]:
        if width is None:
            return [name]
        return wrap_words(name, lambda t: fm.horizontalAdvance(t) <= width, most)

    listed: list[tuple[pg.GraphicsObject, str]] = []
    used = 0
    for item, name in entries:
        lines = lines_of(name)
        left = len(entries) - len(listed)
        room = rows - used - (0 if left == 1 else 1)  # keep a row for "+ N more"
        if len(lines) > room and listed:
            break
        listed.append((item, "<br>".join(html.escape(ln) for ln in lines)))
        used += len(lines)
    more = []
    if len(listed) < len(entries):
        n = len(entries) - len(listed)
        # In the window, one row in the legend's width: a legend beside its
        # panel is capped at its share, and a longer row ran into the next.
        hints = (f"+ {n} more — click for every name", f"+ {n} more — click")
        text = (
            next((t for t in hints if lines_of(t) == [t]), f"+ {n} more")
            if interactive
            else f"+ {n} more not listed"
        )
        more = [(pg.PlotDataItem(pen=None), text)]
    if not same_look:
        legend.clear()
    # every entry, listed or not: the window lists them all on a click of
    # its "+ N more" row (``folded``)
    legend.every_entry = list(entries)
    legend.more_row = bool(more)
    _SpareRows.of(legend).refill(legend, listed + more, (colour.name(), size))
    _swatches_beside_their_text(legend, len(listed))


Row = tuple[pg.ItemSample, pg.LabelItem]


def folded(legend: pg.LegendItem) -> pg.LabelItem | None:
    """The "+ N more" row of a legend that lists fewer names than it has
    entries (its label, to be clicked for the full list), else None."""
    if not getattr(legend, "more_row", False) or not legend.items:
        return None
    return legend.items[-1][1]


def every_entry(legend: pg.LegendItem) -> list[tuple[pg.GraphicsObject, str]]:
    """Every entry ``legend`` was last filled with, listed or folded."""
    return list(getattr(legend, "every_entry", []))


def entry_color(item: pg.GraphicsObject) -> QtGui.QColor:
    """The colour a legend's swatch shows for ``item``: its line's, else
    its marks' or bars' fill."""
    opts = getattr(item, "opts", {})
    pen = opts.get("pen")
    if pen is not None and not isinstance(item, pg.BarGraphItem):
        return pg.mkPen(pen).color()
    brush = opts.get("symbolBrush", opts.get("brush"))
    return pg.mkBrush(brush).color() if brush is not None else QtGui.QColor()


class _SpareRows:
    """A legend's rows taken out of it and hidden, to be put back (``refill``)
    rather than made again (pyqtgraph closes the rows it removes). Held by
    the legend (``of``), and holding nothing that holds it."""

    def __init__(self) -> None:
        self.rows: list[Row] = []
        self.look: tuple = ()  # their text colour and size

    @staticmethod
    def of(legend: pg.LegendItem) -> _SpareRows:
        spares = getattr(legend, "spare_rows", None)
        if spares is None:
            spares = legend.spare_rows = _SpareRows()
        return spares

    def refill(
        self, legend: pg.LegendItem, entries: list[tuple[object, str]], look: tuple
    ) -> None:
        """``legend`` lists ``entries`` (item, text), in rows it holds or
        put aside in the same ``look`` (those of another are closed): a row
        already saying an entry's text first (setting a label's text is
        most of a row's cost), then any, relabelled; new rows only for the
        rest. Rows left over are put aside."""
        if look != self.look:
            for row in self.rows:
                for part in row:
                    _close(part)
            self.rows, self.look = [], look
        have = legend.items + self.rows
        by_text: dict[str, list[Row]] = {}
        for row in have:
            by_text.setdefault(row[1].text, []).append(row)
        picked = [by_text[t].pop(0) if by_text.get(t) else None for _i, t in entries]
        taken = {id(row) for row in picked if row is not None}
        free = [row for row in have if id(row) not in taken]
        for k, row in enumerate(picked):
            if row is None and free:
                picked[k] = row = free.pop(0)
                row[1].setText(entries[k][1])  # its width: _narrowed_to_their_text
        if [id(r) for r in picked] != [id(r) for r in legend.items]:
            for row in legend.items:
                for part in row:
                    legend.layout.removeItem(part)
            legend.items = []
            for row, (item, text) in zip(picked, entries):
                if row is None:
                    legend.addItem(item, text)
                    continue
                legend.items.append(row)
                legend._addItemToLayout(*row)
                for part in row:
                    part.show()
            for row in free:
                for part in row:
                    part.hide()
            self.rows = free
        for (sample, _label), (item, _text) in zip(legend.items, entries):
            sample.item = item
            sample.update()
        _narrowed_to_their_text(legend)
        legend.updateSize()


def _narrowed_to_their_text(legend: pg.LegendItem) -> None:
    """Labels wider than the widest listed text back to their own width, as
    new rows': ``updateSize`` sizes the legend by its rows' widths, and rows
    kept from a legend with a longer name (spread to its column) kept that
    width, so a legend refilled with shorter names stayed as wide as the last
    (mlperf, all results then A100 and Gaudi: 227 px, not 167;
    tests/ui/test_redraw_differential.py)."""
    widest = max((label.minimumWidth() for _s, label in legend.items), default=0.0)
    for _sample, label in legend.items:
        if label.width() > widest:
            label.resize(label.minimumSize())


def _close(item: pg.GraphicsWidget) -> None:
    """As pyqtgraph closes a legend's row item (``_removeItemFromLayout``)."""
    item.close()
    scene = item.scene()
    if scene:
        scene.removeItem(item)


def _swatches_beside_their_text(legend: pg.LegendItem, named: int) -> None:
    """Each swatch level with its entry's first line (a grid cell centres it
    by default, so beside a two-line name it floated between the lines); rows
    after the first ``named`` ("+ N more") keep the default."""
    top = QtCore.Qt.AlignmentFlag.AlignTop | QtCore.Qt.AlignmentFlag.AlignLeft
    for k, (sample, label) in enumerate(legend.items):
        how = top if k < named else QtCore.Qt.AlignmentFlag(0)
        legend.layout.setAlignment(sample, how)
        legend.layout.setAlignment(label, how)
