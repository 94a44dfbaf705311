"""Charts put on a slide as they come: the legend covers no point, line or
label (the window and exports alike, from the drawn items' scene geometry),
every line is named, one model per Pareto front."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6 import QtCore

from ipubench_gui.charts.export import ExportOptions, compose
from ipubench_gui.charts.labels import CountLabels, PointLabels
from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.kinds import KINDS
from ipubench_gui.domain.plot_model import bar_count
from ipubench_gui.domain.plots import build_plot
from ipubench_gui.service import browse
from tests.conftest import shown_canvas

SIZES = ((1920, 1080), (1280, 720))
# Slides' sizes: a wide screen's two and a projector's 4:3
SLIDE_SIZES = ((1920, 1080), (1280, 720), (1024, 768))
# The MLPerf chart per chip on, for two systems: Bow Pod16's three BERT
# results sat under the legend text in the window (issue's first finding).
BOW_AND_DGX = FilterState().with_values("model", ["BERT-Large"])


def _plot(db, kind: str, state: FilterState | None = None, **spec):
    s = ChartSpec(kind=kind, **spec)
    state = state if state is not None else FilterState()
    return build_plot(s, browse.chart_data(db, state, s))


def _marks(pi: pg.PlotItem) -> list[QtCore.QRectF]:
    """What is drawn in ``pi``, in scene pixels: a small box at each point
    and at points along each line (every 4 px), each bar, each label."""
    vb = pi.vb
    out: list[QtCore.QRectF] = []

    def box(p: QtCore.QPointF, r: float = 3.0) -> QtCore.QRectF:
        return QtCore.QRectF(p.x() - r, p.y() - r, 2 * r, 2 * r)

    for it in pi.items:
        if not it.isVisible():
            continue
        if isinstance(it, (pg.PlotDataItem, pg.PlotCurveItem)):
            x, y = it.getData()
            if x is None:
                continue
            pts = [vb.mapViewToScene(QtCore.QPointF(a, b)) for a, b in zip(x, y)]
            pts = [p for p in pts if np.isfinite(p.x()) and np.isfinite(p.y())]
            connect = None
            if isinstance(it, pg.PlotCurveItem):
                connect = it.opts.get("connect")
            elif it.opts.get("pen") is not None:
                connect = it.opts.get("connect")
            joined = isinstance(connect, np.ndarray)
            for k, p in enumerate(pts):
                out.append(box(p))
                if joined and k + 1 < len(pts) and connect[k]:
                    q = pts[k + 1]
                    n = int(max(abs(q.x() - p.x()), abs(q.y() - p.y())) / 4)
                    for t in range(1, n):
                        f = t / n
                        out.append(box(p + (q - p) * f, 1.0))
        elif isinstance(it, pg.BarGraphItem):
            o = it.opts
            for x0, w, y in zip(o["x0"], o["width"], o["y"]):
                h = o["height"]
                a = vb.mapViewToScene(QtCore.QPointF(x0, y - h / 2))
                b = vb.mapViewToScene(QtCore.QPointF(x0 + w, y + h / 2))
                out.append(QtCore.QRectF(a, b).normalized())
        elif isinstance(it, (PointLabels, CountLabels)):
            (x0, x1), (y0, y1) = vb.viewRange()
            for x, y, lb in it.boxes():
                if x0 <= x <= x1 and y0 <= y <= y1:
                    out.append(lb.translated(vb.mapViewToScene(QtCore.QPointF(x, y))))
    return out


def _views(w) -> list[tuple[pg.PlotItem, pg.LegendItem]]:
    if getattr(w, "chart_panels", None):
        return [(p.pi, p.legend) for p in w.chart_panels]
    slot = w.chart_legend
    return [(slot.pi, slot.item)]


def _rows(legend: pg.LegendItem) -> list[str]:
    return [label.text for _s, label in legend.items]


def _clear(pi: pg.PlotItem, legend: pg.LegendItem, where: str) -> None:
    assert legend.isVisible() and legend.items, where
    box = legend.sceneBoundingRect()
    marks = _marks(pi)
    assert len(marks) > 3, where
    hit = [m for m in marks if m.intersects(box)]
    assert not hit, (where, box, hit[:3])


def _unnamed(pi: pg.PlotItem, legend: pg.LegendItem) -> list[object]:
    """Lines, points and bars drawn in ``pi`` that its legend does not name
    (solid lines, marks and bars: dashed ones are fronts and ideal lines,
    said in the footnote); a panel whose only line is named by its title
    has no legend."""
    listed = {id(sample.item) for sample, _label in legend.items}
    drawn = []
    for it in pi.items:
        if not it.isVisible() or not isinstance(it, (pg.PlotDataItem, pg.BarGraphItem)):
            continue
        if isinstance(it, pg.PlotDataItem):
            x, _y = it.getData()
            pen = it.opts.get("pen")
            dashed = (
                pen is not None
                and pg.mkPen(pen).style() != QtCore.Qt.PenStyle.SolidLine
            )
            if x is None or not len(x) or dashed:
                continue
        drawn.append(it)
    if not legend.items and len(drawn) <= 1:
        return []
    return [it for it in drawn if id(it) not in listed]


def _named_lines(plot) -> int:
    return sum(1 for s in plot.series if s.in_legend and s.points)


@pytest.mark.scale
@pytest.mark.parametrize("size", SLIDE_SIZES)
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_default_chart_makes_a_slide_naming_every_line(qapp, db, kind, size):
    """What the window shows first, exported at a slide's sizes: no error,
    the legend covers nothing, no "more" text, every line, point and bar
    drawn named by its legend (from the drawn items); panels left out for
    want of room are each named in the footnote with their lines, and the
    lines drawn and left out are every line of the chart."""
    plot = _plot(db, kind)
    w = compose(plot, ExportOptions(*size))
    for pi, legend in _views(w):
        if legend.items:
            _clear(pi, legend, f"{kind} {size}")
        assert not any("more" in t for t in _rows(legend)), _rows(legend)
        assert not _unnamed(pi, legend), (kind, size)
    drawn = w.chart_plot
    if plot.panels:
        left = [n for n in drawn.notes if "not shown for want of room" in n]
        shown = _named_lines(drawn)
        missing = _named_lines(plot) - shown
        if not left:
            assert missing == 0
        else:
            (note,) = left
            out = [t for t in plot.panels if t not in {_whole(d) for d in drawn.panels}]
            assert note.startswith(f"{len(out)} of {len(plot.panels)} panels ")
            for title in out:
                mine = _named_lines(plot.panel(title)) or 1
                assert f"{title.split(' · ')[0]} ({mine})" in note
            # a panel of one line named by its title counts it
            counted = sum(_named_lines(plot.panel(t)) or 1 for t in out)
            assert f"({counted} line" in note
            assert missing == sum(_named_lines(plot.panel(t)) for t in out)
    if kind not in ("throughput", "progress", "vendor"):  # bars: those shown
        named = sorted(s.name for s in drawn.series if s.in_legend and s.points)
        listed = sorted(
            t.replace("<br>", " ").replace("&amp;", "&")
            for _pi, legend in _views(w)
            for t in _rows(legend)
        )
        assert listed == named
    w.close()


def _whole(title: str) -> str:
    """A panel's title as the chart named it, without "(part k of n)"."""
    import re

    return re.sub(r" \(part \d+ of \d+\)", "", title)


@pytest.mark.scale
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_the_windows_legend_covers_nothing(qtbot, db, kind, size):
    # the chart's share of a window that size
    share = (int(size[0] * 0.62), int(size[1] * 0.55))
    canvas = shown_canvas(_plot(db, kind, FilterState()), share, qtbot)
    views = [(p.pi, p.legend) for p in canvas.panels] or [(canvas.item, canvas.legend)]
    for pi, legend in views:
        if canvas.panels:  # beside its panel, never over it
            assert not legend.sceneBoundingRect().intersects(pi.vb.sceneBoundingRect())
        else:
            _clear(pi, legend, f"{kind} window {size}")
    canvas.close()


@pytest.mark.scale
def test_the_bow_star_is_not_under_the_legend(qtbot, db):
    """The issue's first finding: MLPerf BERT-Large per chip, Bow Pod16
    and a DGX A100, the Bow star at 16 chips under the legend text."""
    plot = _plot(db, "mlperf", BOW_AND_DGX, per_accelerator=True)
    canvas = shown_canvas(plot, (800, 500), qtbot)
    _clear(canvas.item, canvas.legend, "window")
    w = compose(plot, ExportOptions(1280, 720))
    ((pi, legend),) = _views(w)
    _clear(pi, legend, "export")
    canvas.close()
    w.close()


def test_a_pareto_front_never_spans_two_models(db):
    """Two models of few lines (BERT-Base and BERT-Large, 2 lines each: one
    panel held them with one front before) are two panels, a front each;
    every front's points are points of its panel's one model."""
    state = FilterState().with_values("model", ["BERT-Base", "BERT-Large"])
    plot = _plot(db, "latency-throughput", state)
    assert len(plot.panels) == 2
    model = {r["result_id"]: r["model"] for r in plot.rows}
    for title in plot.panels:
        series = plot.panel(title).series
        models = {model[p.result_id] for s in series for p in s.points if p.result_id}
        assert len(models) == 1
        front = next(s for s in series if s.name == "Pareto front")
        rows = [r for r in plot.rows if r["model"] in models]
        mine = {(r["latency_ms"], r["value"]) for r in rows}
        assert {(p.x, p.y) for p in front.points} <= mine


# Words that tell the app's user what to do: a footnote is for the room.
INSTRUCTIONS = ("choose", "pick ", "click", "hover", "tooltip", "chart options")


@pytest.mark.parametrize("per_chip", [False, True])
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_footnotes_speak_to_the_audience(db, kind, per_chip):
    from ipubench_gui.domain.plots import chart_of

    spec = ChartSpec(kind=kind, per_accelerator=per_chip)
    chart = chart_of(spec, browse.chart_data(db, FilterState(), spec), FilterState())
    text = " ".join((chart.subtitle, chart.footnote, *chart.plot.notes)).lower()
    assert text.strip()
    for word in INSTRUCTIONS:
        assert word not in text, (kind, word, text)
    assert " --" not in text.replace("(export-chart --data)", "")


@pytest.mark.scale
def test_an_exported_bar_chart_says_one_count_of_bars(qapp, db):
    """The subtitle said "first 23 of 60 bars" while the footnote said "best
    60 of 131": one note, the bars drawn of those ranked."""
    plot = _plot(db, "throughput")
    assert plot.ranked > len(plot.categories)  # the store drew the best 60
    w = compose(plot, ExportOptions(1920, 1080))
    drawn = bar_count(w.chart_plot)  # rows, less section headers
    notes = [n for n in w.chart_plot.notes if n.startswith("the best ")]
    assert len(notes) == 1
    if plot.blocks:  # "the best of each task shown: 11 of 1,306 inference, …"
        parts = [p.split(" ", 3) for p in notes[0].split(": ", 1)[1].split(", ")]
        shown = sum(int(n.replace(",", "")) for n, _of, _all, _task in parts)
        ranked = sum(int(n.replace(",", "")) for _n, _of, n, _task in parts)
        assert (shown, ranked) == (drawn, plot.ranked)
    else:
        assert notes == [f"the best {drawn:,} of {plot.ranked:,} shown"]
    assert "bars shown" not in w.chart_subtitle
    w.close()


def test_result_ids_are_written_as_runs():
    from ipubench_gui.domain.plot_mlperf import compact_ids

    ids = [f"2.0-{n}" for n in range(2045, 2055)] + ["2.0-2125", "1.1-2045"]
    assert compact_ids(ids) == "1.1-2045, 2.0-2045…2054, 2.0-2125"


def test_the_mlperf_footnote_names_every_result_id_shown(db):
    """Every MLPerf result ID of the points shown is in the footnote (runs
    expanded), and the results without one are counted."""
    from ipubench_gui.domain.plots import footnote

    plot = _plot(db, "mlperf")
    ids = {str(r["mlperf_id"]) for r in plot.rows if r.get("mlperf_id")}
    assert ids
    text = footnote(plot)
    listed = text.split("Result IDs: ")[1].split(";")[0].rstrip(".")
    named = set()
    for part in listed.split(", "):
        head, _, tail = part.rpartition("-")
        lo, _, hi = tail.partition("…")
        named |= {f"{head}-{n}" for n in range(int(lo), int(hi or lo) + 1)}
    assert named == ids
    without = len(plot.rows) - sum(1 for r in plot.rows if r.get("mlperf_id"))
    assert f"{without:,} of the {len(plot.rows):,} results" in text
