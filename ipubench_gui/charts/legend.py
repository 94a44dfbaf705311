"""Legends that read: entries packed, each swatch beside its text, names
wrapped at word boundaries (never cut inside a word)."""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence

import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from ipubench_gui.charts.axes import px_font
from ipubench_gui.charts.theme import Theme

SEPARATOR = " · "  # between the attributes of a series name (series_rule)
MAX_LINES = 2  # of one legend entry


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
    with an offset) sits in ``corner`` over a translucent background."""
    if legend.opts["offset"] is not None:  # inside the plot
        m = 10
        legend.setOffset(
            {"tl": (m, m), "tr": (-m, m), "bl": (m, -m), "br": (-m, -m)}[corner]
        )
        bg = pg.mkColor(theme.background or "#FFFFFF")
        bg.setAlpha(215)
        legend.setBrush(pg.mkBrush(bg))
    legend.setLabelTextColor(theme.foreground)
    legend.setLabelTextSize(f"{round(text_px)}px")
    fm = QtGui.QFontMetricsF(px_font(text_px))

    def lines_of(name: str) -> list[str]:
        if width is None:
            return [name]
        return wrap_words(name, lambda t: fm.horizontalAdvance(t) <= width)

    used = 0
    shown = 0
    for item, name in entries:
        lines = lines_of(name)
        left = len(entries) - shown
        room = rows - used - (0 if left == 1 else 1)  # keep a row for "+ N more"
        if len(lines) > room and shown:
            break
        legend.addItem(item, "<br>".join(html.escape(ln) for ln in lines))
        used += len(lines)
        shown += 1
    _swatches_beside_their_text(legend)
    if shown < len(entries):
        more = len(entries) - shown
        hint = " — hover a point for its name" if interactive else " not listed"
        legend.addItem(pg.PlotDataItem(pen=None), f"+ {more} more{hint}")


def _swatches_beside_their_text(legend: pg.LegendItem) -> None:
    """Each swatch level with its entry's first line (a grid cell centres it
    by default, so beside a two-line name it floated between the lines)."""
    top = QtCore.Qt.AlignmentFlag.AlignTop | QtCore.Qt.AlignmentFlag.AlignLeft
    for sample, label in legend.items:
        legend.layout.setAlignment(sample, top)
        legend.layout.setAlignment(label, top)
