"""Export targets beyond the light PNG: a dark-background export with readable
colours and text, a PDF that stays vector, and the clipboard at slide size."""

from __future__ import annotations

import re
import shutil
import subprocess
import zlib

import pytest
from PySide6.QtGui import QGuiApplication

from ipubench_gui.charts.export import ExportOptions, copy_to_clipboard, export
from ipubench_gui.charts.theme import DARK, contrast_ratio
from ipubench_gui.domain.kinds import KINDS
from tests.charts.test_export import _pixels, _plot
from tests.charts.test_export_legibility import _text_fills


@pytest.mark.scale
@pytest.mark.parametrize("kind", list(KINDS))
def test_dark_export_keeps_aa_contrast(qapp, db, tmp_path, kind):
    """On the dark background: text >= 4.5:1 (halos excepted: drawn in the
    background colour, then again readable), series colours >= 3:1."""
    plot = _plot(db, kind)
    opts = ExportOptions(1920, 1080, footnote="Source: a footnote.", dark=True)
    svg = export(plot, tmp_path / f"{kind}.svg", opts)
    texts = _text_fills(svg)
    bg = DARK.background
    readable = {w for w, f in texts if contrast_ratio(f, bg) >= 4.5}
    # the footnote's words readable (its lines wrap where its notes end)
    words = " ".join(readable).split()
    assert all(w in words for w in ("Source:", "footnote."))
    assert plot.title.split(":")[0] in " ".join(readable)
    for words, fill in texts:
        if contrast_ratio(fill, bg) < 4.5:
            assert fill.lower() == bg.lower(), (words, fill)  # a halo
            assert words in readable, words
    for s in plot.series:
        assert contrast_ratio(DARK.series(s.color), bg) >= 3.0, s.color
    png = export(plot, tmp_path / f"{kind}.png", opts)
    img, _ = _pixels(png)
    assert img.pixelColor(2, 2).name() == bg.lower()  # the slide is dark
    assert img.pixelColor(img.width() - 3, img.height() - 3).name() == bg.lower()


@pytest.mark.scale
def test_cli_exports_dark(tmp_path):
    import sys

    out = tmp_path / "dark.png"
    p = subprocess.run(
        [sys.executable, "-m", "ipubench_gui", "export-chart", "--kind", "vendor"]
        + ["--dark", "--size", "800x450", str(out)],
        capture_output=True,
        text=True,
    )
    assert p.returncode == 0, p.stderr
    img, _ = _pixels(out)
    assert (img.width(), img.height()) == (800, 450)
    assert img.pixelColor(2, 2).name() == DARK.background.lower()


def _pdf_streams(data: bytes) -> list[bytes]:
    out = []
    for m in re.finditer(rb"stream\r?\n(.*?)\r?\nendstream", data, re.S):
        try:
            out.append(zlib.decompress(m.group(1)))
        except zlib.error:
            out.append(m.group(1))
    return out


@pytest.mark.scale
@pytest.mark.parametrize("kind", ["throughput", "scaling"])
def test_pdf_stays_vector(qapp, db, tmp_path, kind):
    """Bars and lines as PDF path operators, text as text; no full-page
    picture standing in for the chart."""
    pdf = export(_plot(db, kind), tmp_path / f"{kind}.pdf", ExportOptions())
    data = pdf.read_bytes()
    # Images only as small as a point symbol (pyqtgraph stamps scatter
    # symbols from a pixmap atlas), never a picture of the chart.
    for w, h in re.findall(rb"/Width (\d+)\s*/Height (\d+)", data):
        assert int(w) * int(h) < 0.01 * 1920 * 1080, (w, h)
    content = b"\n".join(_pdf_streams(data))
    ops = {
        op: len(re.findall(rb"[\d.]+ [\d.]+ " + op + rb"\b", content))
        for op in (rb"m", rb"l")
    }
    assert ops[rb"m"] > 50 and ops[rb"l"] > 50, ops  # moveto / lineto: paths
    assert b"Tj" in content or b"TJ" in content  # text drawn as text
    if shutil.which("pdftoppm"):
        p = subprocess.run(
            ["pdftoppm", "-png", "-r", "96", str(pdf), str(tmp_path / "r")],
            capture_output=True,
        )
        assert p.returncode == 0
        img, px = _pixels(next(tmp_path.glob("r*.png")))
        assert (img.width(), img.height()) == (1920, 1080)
        assert px.std() > 20


@pytest.mark.scale
def test_clipboard_copies_at_slide_size(qapp, db):
    plot = _plot(db, "throughput")
    QGuiApplication.clipboard().clear()
    copy_to_clipboard(plot, ExportOptions())  # the export dialog's default size
    img = QGuiApplication.clipboard().image()
    assert (img.width(), img.height()) == (1920, 1080)
    copy_to_clipboard(plot, ExportOptions(3840, 2160))
    img = QGuiApplication.clipboard().image()
    assert (img.width(), img.height()) == (3840, 2160)
