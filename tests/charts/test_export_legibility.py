"""Exported charts read on a slide: grid behind the bars, text contrast."""

from __future__ import annotations

import math

import pytest
from PySide6 import QtCore, QtGui

from ipubench_gui.charts.export import ExportOptions, compose, export
from ipubench_gui.charts.theme import LIGHT, contrast_ratio
from ipubench_gui.domain.kinds import KINDS
from tests.charts.test_export import _plot


def _render(w, opts):
    img = QtGui.QImage(opts.width, opts.height, QtGui.QImage.Format.Format_RGB32)
    img.fill(QtGui.QColor("#FFFFFF"))
    p = QtGui.QPainter(img)
    w.render(p)
    p.end()
    return img


@pytest.mark.scale
@pytest.mark.parametrize("kind", ["throughput", "vendor"])
def test_the_grid_is_behind_the_bars(qapp, db, kind):
    plot = _plot(db, kind)
    opts = ExportOptions(1920, 1080)
    w = compose(plot, opts)
    pi = w.ci.getItem(2, 0)
    img = _render(w, opts)
    # The first bar (its row: 0, or 1 under a section's header) and its
    # colour as drawn on the export.
    y0 = min(p.y for s in plot.series for p in s.points)
    top = next(s for s in plot.series if any(p.y == y0 for p in s.points))
    length = next(p.x for p in top.points if p.y == y0)
    if plot.log_x:  # the view holds log10 values
        length = math.log10(length)
    colour = QtGui.QColor(LIGHT.series(top.color))
    axis = pi.getAxis("bottom")
    lo, hi = pi.vb.viewRange()[0]
    if axis._tickLevels:  # ticks the chart set (log scales)
        ticks = [v for level in axis._tickLevels for v, _ in level]
    else:
        ticks = [v for _, vals in axis.tickValues(lo, hi, pi.vb.width()) for v in vals]
    inside = [v for v in ticks if lo < v < length * 0.95 and v > 0]
    assert inside, (ticks, length)  # grid lines cross the first bar
    checked = 0
    for v in inside:
        for dx in (-1, 0, 1):  # the grid line's pixel column and its neighbours
            pt = pi.vb.mapViewToScene(QtCore.QPointF(v, y0))
            px = QtGui.QColor(img.pixel(round(pt.x()) + dx, round(pt.y())))
            diff = sum(abs(a - b) for a, b in zip(px.getRgb()[:3], colour.getRgb()[:3]))
            assert diff <= 6, (v, px.name(), colour.name())  # the bar, unstriped
            checked += 1
        # Between two bars (half a row below) the grid line still shows.
        gap = pi.vb.mapViewToScene(QtCore.QPointF(v, y0 + 0.5))
        column = [
            QtGui.QColor(img.pixel(round(gap.x()) + dx, round(gap.y())))
            for dx in (-1, 0, 1)
        ]
        assert any(c.name() != "#ffffff" for c in column)
    assert checked >= 3
    w.close()


def _text_fills(svg_path):
    """(text, fill colour) of every non-empty text in an exported SVG; the
    fill is the nearest one set on the text or a group around it."""
    from xml.dom import minidom

    out = []
    for t in minidom.parse(str(svg_path)).getElementsByTagName("text"):
        words = "".join(n.data for n in t.childNodes if n.nodeType == n.TEXT_NODE)
        node, fill = t, ""
        while node is not None and node.nodeType == node.ELEMENT_NODE and not fill:
            fill = node.getAttribute("fill")
            node = node.parentNode
        if words.strip():
            out.append((words.strip(), fill))
    return out


@pytest.mark.scale
@pytest.mark.parametrize("kind", list(KINDS))
def test_export_text_has_aa_contrast(qapp, db, tmp_path, kind):
    """WCAG AA: text at least 4.5:1 against the export's background. Labels
    over lines are drawn twice, first in the background colour as a halo;
    a halo's words are always drawn again in a readable colour."""
    plot = _plot(db, kind)
    svg = export(plot, tmp_path / f"{kind}.svg", ExportOptions(1920, 1080))
    texts = _text_fills(svg)
    readable = {w for w, f in texts if contrast_ratio(f, LIGHT.ground) >= 4.5}
    assert plot.x_title.split(" (")[0].split(" —")[0] in " ".join(readable)
    for words, fill in texts:
        if contrast_ratio(fill, LIGHT.ground) < 4.5:
            assert fill.lower() == LIGHT.ground.lower(), (words, fill)  # a halo
            assert words in readable, words


def _text_sizes(svg_path, footnote):
    """(body sizes, footnote sizes) in px of an exported SVG's texts; footnote
    lines are those that are part of ``footnote`` (the chart's notes and the
    footnote, as one text the export wraps over as many lines as it needs)."""
    from xml.dom import minidom

    whole = " ".join(footnote.split())
    texts = [
        (t, "".join(n.data for n in t.childNodes if n.nodeType == n.TEXT_NODE))
        for t in minidom.parse(str(svg_path)).getElementsByTagName("text")
    ]
    texts = [(t, " ".join(w.split())) for t, w in texts if w.strip()]
    body = [float(t.getAttribute("font-size")) for t, w in texts if w not in whole]
    foot = [float(t.getAttribute("font-size")) for t, w in texts if w in whole]
    return body, foot


@pytest.mark.scale
@pytest.mark.parametrize("kind", list(KINDS))
def test_type_sizes_read_on_a_slide_and_scale(qapp, db, tmp_path, kind):
    """At 1920x1080, body text >= 18 px and footnotes >= 14 px; at 3840x2160
    each is twice that (the layout scales, it is not a bigger canvas)."""
    from ipubench_gui.charts.export import bars_that_fit
    from ipubench_gui.domain.plot_model import first_bars

    plot = _plot(db, kind)
    note = "Source: a footnote the test wrote."
    sizes = {}
    for w, h in ((1920, 1080), (3840, 2160)):
        opts = ExportOptions(w, h, footnote=note)
        svg = export(plot, tmp_path / f"{kind}-{w}.svg", opts)
        notes = first_bars(plot, bars_that_fit(opts)).notes  # its count of bars
        shown = "; ".join(notes) + ". " + note if notes else note
        body, foot = _text_sizes(svg, shown)
        assert foot and body
        sizes[w] = (min(body), min(foot))
    assert sizes[1920][0] >= 18 and sizes[1920][1] >= 14, sizes
    for now, before in zip(sizes[3840], sizes[1920]):
        assert 1.9 * before <= now <= 2.1 * before, sizes
