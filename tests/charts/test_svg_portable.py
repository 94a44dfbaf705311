"""Exported SVGs render alike outside Qt: librsvg (rsvg-convert; Inkscape,
LibreOffice and many slide tools use it) against the PNG export of the same
chart, every font family ending in a generic fallback, no label cut in a word."""

from __future__ import annotations

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from ipubench_gui.charts.export import ExportOptions, export
from ipubench_gui.charts.svg import GENERIC, families, font_families, with_fallback
from ipubench_gui.charts.theme import LIGHT
from ipubench_gui.domain.kinds import KINDS
from tests.charts.test_export import _pixels, _plot

RSVG = shutil.which("rsvg-convert")


def _colour_counts(path, plot):
    """Pixels within a small distance of each drawn series colour."""
    img, px = _pixels(path)
    bgr = px.reshape(img.height(), img.width(), 4)[:, :, :3].astype(int)
    counts = {}
    for s in plot.series:
        if not s.points:
            continue
        drawn = LIGHT.series(s.color)
        rgb = [int(drawn[i : i + 2], 16) for i in (1, 3, 5)]
        counts[s.color] = int((np.abs(bgr - rgb[::-1]).sum(axis=2) < 30).sum())
    return counts, bgr


def _ink_by_region(bgr, rows=4, cols=6):
    """Share of non-white pixels in each cell of a rows x cols grid."""
    h, w = bgr.shape[:2]
    ink = (bgr < 235).any(axis=2)
    return np.array(
        [
            [
                ink[
                    r * h // rows : (r + 1) * h // rows,
                    c * w // cols : (c + 1) * w // cols,
                ].mean()
                for c in range(cols)
            ]
            for r in range(rows)
        ]
    )


def test_font_family_lists_get_a_generic_fallback():
    assert with_fallback('"Sans Serif"') == "'Sans Serif', sans-serif"
    assert with_fallback("DejaVu Sans Mono") == "'DejaVu Sans Mono', monospace"
    assert with_fallback("Arial, serif") == "Arial, serif"  # already ends in one
    assert families("'Noto Sans', sans-serif") == ["Noto Sans", "sans-serif"]


@pytest.mark.scale
@pytest.mark.skipif(RSVG is None, reason="needs rsvg-convert (librsvg2-bin)")
@pytest.mark.parametrize("kind", list(KINDS))
def test_svg_renders_in_librsvg_like_the_png(qapp, db, tmp_path, kind):
    plot = _plot(db, kind)
    opts = ExportOptions(1920, 1080, title="Deck title")
    svg = export(plot, tmp_path / f"{kind}.svg", opts)
    png = export(plot, tmp_path / f"{kind}.png", opts)
    text = svg.read_text(encoding="utf-8")

    found = font_families(text)
    assert found  # the text carries fonts at all
    for value in found:
        assert families(value)[-1].lower() in GENERIC, value
    root = ET.fromstring(text)
    for t in root.iter():
        if t.tag.endswith("text"):
            s = "".join(t.itertext()).strip()
            assert not re.search(r"\w…$", s), f"cut inside a word: {s!r}"

    out = tmp_path / f"{kind}.rsvg.png"
    p = subprocess.run(
        [RSVG, "-w", "1920", "-h", "1080", "-b", "white", str(svg), "-o", str(out)],
        capture_output=True,
        text=True,
    )
    assert p.returncode == 0, p.stderr
    qt, qt_px = _colour_counts(png, plot)
    rs, rs_px = _colour_counts(out, plot)
    # Each series colour covers about as many pixels in both renders (bars
    # painted over in white, as librsvg did before, left ~0 of them). Thin
    # lines hidden under others differ by anti-aliasing; only areas count.
    # Bars only: a line's pixel count follows its pen width, which the PNG
    # export scales with the screen (QT_SCALE_FACTOR=2 doubles it) and the SVG
    # does not; lines are held to the layout check below.
    for colour, n in qt.items():
        if n >= 2000 and plot.horizontal_bars:
            assert 0.6 * n <= rs[colour] <= 1.6 * n, (colour, n, rs[colour])
    # And the picture is laid out alike: ink per region of a 4x6 grid (30+
    # anti-aliased lines differ by up to ~0.053; vanished bars by ~0.2-0.5).
    diff = np.abs(_ink_by_region(qt_px) - _ink_by_region(rs_px))
    assert diff.max() < 0.08, diff.round(3)
