"""Slide export: real pixels, real text, real PDF, clean failures."""

from __future__ import annotations

import shutil
import subprocess
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from PySide6.QtGui import QImage

from ipubench_gui.charts.export import ExportOptions, export
from ipubench_gui.charts.theme import LIGHT
from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.files import ExportError
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.kinds import KINDS
from ipubench_gui.domain.plot_model import bar_count
from ipubench_gui.domain.plots import build_plot, footnote
from ipubench_gui.service import browse
from tests.conftest import run_cli

# A slide's worth of models: every model's latency lines (16 panels) leave
# some panels out of a slide for want of room (test_slides).
LATENCY_SLIDE = FilterState().with_values(
    "model", ["BERT-Large", "EfficientNet-B0", "ResNet-50 v1.5"]
)


def _plot(db, kind, **kw):
    spec = ChartSpec(kind=kind, **kw)
    state = LATENCY_SLIDE if kind == "latency-throughput" else FilterState()
    return build_plot(spec, browse.chart_data(db, state, spec))


def _pixels(path):
    img = QImage(str(path)).convertToFormat(QImage.Format.Format_RGB32)
    arr = np.frombuffer(img.constBits(), np.uint8)
    return img, arr.reshape(img.height(), img.bytesPerLine())[:, : img.width() * 4]


@pytest.mark.scale
@pytest.mark.parametrize("kind", list(KINDS))
def test_png_has_the_size_and_real_content(qapp, db, tmp_path, kind):
    plot = _plot(db, kind)
    out = export(
        plot,
        tmp_path / f"{kind}.png",
        ExportOptions(1920, 1080, title="Deck title", footnote=footnote(plot)),
    )
    img, px = _pixels(out)
    assert (img.width(), img.height()) == (1920, 1080)
    # Real content: every drawn series shows in its own colour, not a blank canvas.
    bgra = px.reshape(img.height(), img.width(), 4)[:, :, :3].astype(int)
    for series in plot.series:
        if not series.points:
            continue
        if plot.horizontal_bars and min(p.y for p in series.points) >= 3:
            continue  # maybe beyond the bars that fit (at least three always do)
        drawn = LIGHT.series(series.color)  # as on the export's background
        rgb = [int(drawn[i : i + 2], 16) for i in (1, 3, 5)]
        near = (np.abs(bgra - rgb[::-1]).sum(axis=2) < 30).sum()
        assert near > 50, f"{series.name} ({series.color}) not drawn"
    title_band = px[: 1080 // 14, : 1920 // 3]  # top-left: the title's text
    assert (title_band < 128).mean() > 0.01
    plain = tmp_path / "plain.txt"
    plain.write_text("")  # a temporary file would be 0600; an export is not
    assert out.stat().st_mode & 0o777 == plain.stat().st_mode & 0o777


@pytest.mark.parametrize("kind", list(KINDS))
def test_svg_keeps_text_as_text(qapp, db, tmp_path, kind):
    plot = _plot(db, kind)
    out = export(plot, tmp_path / f"{kind}.svg", ExportOptions(title="Deck title"))
    root = ET.parse(out).getroot()
    texts = " ".join(
        "".join(t.itertext()) for t in root.iter() if t.tag.endswith("text")
    )
    assert "Deck title" in texts
    assert plot.x_title.split(" (")[0].split(" —")[0] in texts


@pytest.mark.scale
def test_4k_export_scales_fonts_not_pixels(qapp, db, tmp_path):
    plot = _plot(db, "mlperf")
    small = export(plot, tmp_path / "a.png", ExportOptions(1920, 1080, title="T"))
    big = export(plot, tmp_path / "b.png", ExportOptions(3840, 2160, title="T"))
    _, a = _pixels(small)
    _, b = _pixels(big)
    # The dark (text/line) share of the picture stays about the same: the 4K
    # chart has the same layout at twice the resolution, not a quarter-size one.
    ra, rb = (a < 100).mean(), (b < 100).mean()
    assert 0.6 < rb / ra < 1.6


@pytest.mark.scale
@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs poppler-utils")
def test_pdf_opens_and_renders(qapp, db, tmp_path):
    out = export(_plot(db, "vendor"), tmp_path / "v.pdf", ExportOptions(title="PDF"))
    p = subprocess.run(
        ["pdftoppm", "-png", "-r", "50", str(out), str(tmp_path / "p")],
        capture_output=True,
        text=True,
    )
    assert p.returncode == 0, p.stderr
    img, px = _pixels(next(tmp_path.glob("p*.png")))
    assert img.width() > 100 and px.std() > 20


def test_unwritable_paths_fail_cleanly(qapp, db, tmp_path):
    plot = _plot(db, "mlperf")
    with pytest.raises(ExportError, match="does not exist"):
        export(plot, tmp_path / "nope" / "x.png", ExportOptions())
    with pytest.raises(ExportError, match=r"\.png, \.svg or \.pdf"):
        export(plot, tmp_path / "x.gif", ExportOptions())
    assert list(tmp_path.iterdir()) == []


def test_a_full_disk_is_named_with_what_to_do(qapp, db, tmp_path):
    """Not libpng's bare "Write Error": the system's reason and the fix."""
    from tests.conftest import small_disk

    plot = _plot(db, "mlperf")
    with small_disk(tmp_path / "disk", "64k") as disk:
        out = disk / "chart.png"
        with pytest.raises(ExportError) as err:
            export(plot, out, ExportOptions(3840, 2160))
        assert str(err.value) == (
            f"cannot write {out}: No space left on device: free some space on "
            "that disk, or save elsewhere"
        )
        assert list(disk.iterdir()) == []  # nothing partial left


def _cli(*args, home, env=None):
    # The command must not need a display.
    return run_cli("export-chart", *args, home=home, env=env, drop=("DISPLAY",))


@pytest.mark.scale
def test_cli_writes_charts_and_refuses_bad_requests(tmp_path, _isolated_home):
    out = tmp_path / "s.png"
    p = _cli(
        "--kind",
        "scaling",
        "--filter",
        "model=ResNet-50 v1.5",
        "--out",
        str(out),
        "--size",
        "1280x720",
        "--title",
        "Scaling",
        home=_isolated_home,
    )
    assert p.returncode == 0, p.stderr
    assert QImage(str(out)).size().toTuple() == (1280, 720)
    refusals = [  # (arguments, exit code or None for any failure, text in stderr)
        (["--kind", "pie"], None, ["invalid choice: 'pie'"]),
        (
            ["--kind", "throughput", "--color-by", "colour"],
            2,
            ["invalid choice: 'colour'"],
        ),
        (["--kind", "mlperf", "--filter", "task=inference"], 1, ["nothing to plot"]),
        (
            # (any spelling of a known framework is that framework: Pytorch is
            # PyTorch; a variant has no alias table)
            ["--kind", "mlperf", "--filter", "variant=sl128"],
            2,
            ["no variant called 'sl128'", "did you mean 'SL128'?"],
        ),
    ]
    for args, code, says in refusals:
        p = _cli(*args, "--out", str(out), home=_isolated_home)
        assert p.returncode != 0 if code is None else p.returncode == code, args
        assert all(s in p.stderr for s in says), (args, p.stderr)
    p = _cli(
        "--kind", "mlperf", "--out", str(tmp_path / "no" / "x.pdf"), home=_isolated_home
    )
    assert p.returncode == 1 and "does not exist" in p.stderr


@pytest.mark.scale
def test_high_dpi_export_keeps_the_requested_pixels(tmp_path, _isolated_home):
    out = tmp_path / "hidpi.png"
    p = _cli(
        "--kind",
        "vendor",
        "--out",
        str(out),
        "--size",
        "1600x900",
        home=_isolated_home,
        env={"QT_SCALE_FACTOR": "2"},
    )
    assert p.returncode == 0, p.stderr
    img, px = _pixels(out)
    assert (img.width(), img.height()) == (1600, 900) and px.std() > 20


def _picture(path, *items, line=None):
    """A 400x300 white plot over 0..10 x 0..10 with ``items`` (and a thick black
    horizontal ``line`` at that y), saved to ``path``; its (image, pixels)."""
    import pyqtgraph as pg

    w = pg.PlotWidget(background="w")
    w.resize(400, 300)
    w.hideAxis("left")
    w.hideAxis("bottom")
    if line is not None:
        w.plot([0, 10], [line, line], pen=pg.mkPen("#000000", width=6))
    for it in items:
        w.addItem(it)
    w.setRange(xRange=(0, 10), yRange=(0, 10), padding=0)
    w.grab().save(str(path))
    return _pixels(path)


@pytest.mark.scale
def test_point_labels_never_overprint(qapp, tmp_path):
    from ipubench_gui.charts.builders import PointLabels

    def ink(points):
        _, px = _picture(tmp_path / "labels.png", PointLabels(points, "#000000", 14))
        return int((px < 128).sum())

    alone = ink([(2, 5, "20.75 min")])
    assert alone > 0
    # A second label on (almost) the same point is left out, not drawn over
    # (overprinted, the ink is ~1.75x; anti-aliasing varies by a few pixels).
    assert ink([(2, 5, "20.75 min"), (2, 5.05, "19.64 min")]) < 1.1 * alone
    # Far apart, both are drawn.
    assert ink([(2, 5, "20.75 min"), (2, 1, "19.64 min")]) > 1.5 * alone


@pytest.mark.scale
@pytest.mark.parametrize(
    "first, second",
    [
        # the same series (framework) in both: bars and legend updated in place
        ({"framework": ["PyTorch"]}, {"framework": ["PyTorch"], "generation": ["Bow"]}),
        # different series: a full redraw
        ({"framework": ["PyTorch"]}, {}),
        ({}, {"framework": ["TensorFlow 2", "PopART"]}),
    ],
)
def test_a_redraw_in_place_looks_like_a_fresh_draw(qapp, db, first, second):
    """The canvas reuses series items and legend entries when the series stay
    the same; what it shows must be exactly what a new canvas draws."""
    from ipubench_gui.ui.widgets.chart_canvas import ChartCanvas

    def plot_for(sel):
        state = FilterState()
        for dim, vals in sel.items():
            state = state.with_values(dim, vals)
        spec = ChartSpec()
        return build_plot(spec, browse.chart_data(db, state, spec))

    def shown():
        canvas = ChartCanvas()
        canvas.resize(900, 600)
        canvas.show()
        qapp.processEvents()
        return canvas

    def shot(canvas):
        canvas.finish()  # drawn whole: past its budget, a chart takes turns
        qapp.processEvents()
        img = canvas.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
        return np.frombuffer(img.constBits(), np.uint8).copy()

    reused = shown()
    reused.render(plot_for(first))
    shot(reused)
    reused.render(plot_for(second))
    fresh = shown()
    fresh.render(plot_for(second))
    a, b = shot(reused), shot(fresh)
    assert a.shape == b.shape
    assert (a != b).mean() < 0.001  # the same picture
    # nothing left behind: the items shown are a fresh canvas's (a redraw to
    # fewer series keeps the rest hidden for the next drawing, see test_redraw)
    assert _shown_items(reused) == _shown_items(fresh)
    reused.close()
    fresh.close()


def _shown_items(canvas) -> list[str]:
    return sorted(type(it).__name__ for it in canvas.item.items if it.isVisible())


def _legend_rows(legend) -> list[str]:
    return [label.item.toPlainText() for _, label in legend.items]


@pytest.mark.scale
def test_a_busy_line_chart_keeps_its_legend_beside_the_data(qapp, db):
    """Lines can run anywhere, so an exported line chart's legend gets its own
    column: it never covers the plot, lists what fits, and counts the rest
    (an exported picture cannot be hovered, so it does not say to hover).
    The seed's scaling chart, busy, is in panels: each legend beside its own."""
    import pyqtgraph as pg

    from ipubench_gui.charts.export import compose

    plot = _plot(db, "scaling")
    assert len([s for s in plot.series if s.points and s.in_legend]) > 20
    w = compose(plot, ExportOptions(1600, 900))
    assert len(w.chart_panels) == len(plot.panels) > 1
    for panel in w.chart_panels:
        legend, pi = panel.legend, panel.pi
        assert isinstance(legend, pg.LegendItem) and legend.opts["offset"] is None
        named = [s.name for s in plot.panel(panel.title).series if s.in_legend]
        box, data = legend.sceneBoundingRect(), pi.vb.sceneBoundingRect()
        assert box.left() >= data.right() and not box.intersects(data)
        assert box.bottom() <= 900
        rows = _legend_rows(legend)
        listed = rows
        if rows[-1].startswith("+ "):
            listed = rows[:-1]
            assert rows[-1] == f"+ {len(named) - len(listed)} more not listed"
        for shown, name in zip(listed, named):  # in order, wrapped between words
            text = shown.replace("\n", " ")
            if text.endswith(" …"):  # more than two lines: cut after a whole word
                assert name.startswith(text[:-2]) and name[len(text) - 2] == " "
            else:
                assert text == name
    w.close()


@pytest.mark.scale
def test_bar_legends_stay_in_the_empty_corner_and_names_stay_text(qapp, db):
    import dataclasses

    import pyqtgraph as pg

    from ipubench_gui.charts.export import compose

    # coloured by platform: more colours than the bars in view (by framework,
    # the default chart's images/s bars have two)
    plot = _plot(db, "throughput", color_by="platform")
    odd = "<b>Tom & Jerry</b>"  # imported names are any text, never markup
    y0 = min(p.y for s in plot.series for p in s.points)  # the top bar's row
    top = next(s for s in plot.series if any(p.y == y0 for p in s.points))
    series = [dataclasses.replace(s, name=odd) if s is top else s for s in plot.series]
    plot = dataclasses.replace(plot, series=tuple(series))
    w = compose(plot, ExportOptions(1600, 900))
    assert not [i for i in w.ci.items if isinstance(i, pg.LegendItem)]
    pi = next(i for i in w.ci.items if isinstance(i, pg.PlotItem))
    legend = pi.legend
    # in the corner the bars leave, or beside the plot (legend_layout's rule)
    box, view = legend.sceneBoundingRect(), pi.vb.sceneBoundingRect()
    assert view.contains(box) or box.left() >= view.right() - 1
    # Only the bars that fit are drawn, and the legend names just their series.
    shown = len(pi.getAxis("left")._tickLevels[0])  # bars (headers: no tick)
    assert 3 <= shown < bar_count(plot)
    in_view = len(w.chart_plot.categories)  # the bars' rows and their headers'
    assert in_view - len(w.chart_plot.sections) == shown
    drawn = [s for s in w.chart_plot.series if any(p.y < in_view for p in s.points)]
    drawn = [s.name for s in sorted(drawn, key=lambda s: min(p.y for p in s.points))]
    rows = [r.replace("\n", " ") for r in _legend_rows(legend)]  # wrapped
    assert rows == drawn and odd in drawn  # first bar first
    assert len(drawn) < len([s for s in plot.series if s.points])
    w.close()


@pytest.mark.scale
def test_exported_labels_get_a_halo_over_lines(qapp, tmp_path):
    from ipubench_gui.charts.builders import PointLabels

    def ink(halo):
        label = PointLabels([(2, 5, "123%")], "#000000", 18, halo=halo)
        img, px = _picture(tmp_path / "halo.png", label, line=5)
        x0 = img.width() // 5  # the label's box: from its point, rightwards
        band = px[img.height() // 2 - 12 : img.height() // 2 + 12, x0 * 4 : x0 * 8]
        return int((band < 128).sum())

    # Around each glyph the halo clears the line: less ink where the label is.
    assert ink("#FFFFFF") < 0.9 * ink(None)


@pytest.mark.scale
def test_a_short_bar_legend_names_the_bars_in_view_first(qapp, db):
    """Cut short ("+ N more"), a bar chart's legend lists series in the order
    their first bar appears, so the colours on screen are the ones named."""
    from ipubench_gui.ui.widgets.chart_canvas import ChartCanvas

    plot = _plot(db, "throughput", color_by="platform")
    first_bar = {s.name: min(p.y for p in s.points) for s in plot.series if s.points}
    by_first_bar = sorted(first_bar, key=first_bar.get)
    assert by_first_bar != sorted(first_bar)  # not just alphabetical
    canvas = ChartCanvas()
    canvas.resize(700, 320)
    canvas.show()
    canvas.render(plot)
    canvas.finish()  # drawn whole: past its budget, a chart takes turns
    # names wrapped at words to the legend's width
    rows = [r.replace("\n", " ") for r in _legend_rows(canvas.legend)]
    assert 2 <= len(rows) - 1 < len(first_bar)  # cut short
    assert rows[:-1] == by_first_bar[: len(rows) - 1]
    y0 = min(p.y for s in plot.series for p in s.points)  # the top bar's row
    top = next(s.name for s in plot.series if any(p.y == y0 for p in s.points))
    assert rows[0] == top
    canvas.close()
