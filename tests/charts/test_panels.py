"""Small multiples: scaling and latency-throughput charts of
more lines than one plot reads are drawn in panels of at most eight lines,
axes shared, each panel's legend naming what differs within it."""

from __future__ import annotations

import html
from collections import Counter

import pytest
from PySide6 import QtCore, QtWidgets

from ipubench_gui.charts.builders import TEXT_CONTRAST
from ipubench_gui.charts.labels import PointLabels
from ipubench_gui.charts.theme import LIGHT, contrast_ratio, readable
from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.kinds import KINDS
from ipubench_gui.domain.plot_kinds import scaling_plot
from ipubench_gui.domain.plots import build_plot
from ipubench_gui.domain.series_rule import MAX_PANEL_LINES, MAX_PANELS
from ipubench_gui.service import browse

LINE_KINDS = ("scaling", "latency-throughput")


def _plot(db, kind: str, state: FilterState | None = None):
    spec = ChartSpec(kind=kind)
    return build_plot(spec, browse.chart_data(db, state or FilterState(), spec))


def _lines(series):
    """The lines of results (not the ideal lines or fronts drawn over them;
    a panel's only line is named by its title, not its legend)."""
    return [s for s in series if s.style == "line" and not s.dashed]


# The latency chart of every model (16 panels, 55 lines) names its lines on
# no slide (test_every_line_is_named_or_the_export_says_why): a slide's
# worth of models, each its own panel.
SLIDE = {
    "scaling": FilterState(),
    "latency-throughput": FilterState().with_values(
        "model", ["BERT-Large", "EfficientNet-B0", "ResNet-50 v1.5"]
    ),
}


def _stored_lines(db, kind: str) -> int:
    """How many lines the stored rows make, counted in SQL: rows alike in
    every configuration column but the kind's x dimension (scaling: measured
    at two sizes or more)."""
    along = set(KINDS[kind].along)
    cols = [
        c
        for c in (
            "model variant task platform generation accelerators framework "
            "sdk_version dataset precision batch_size division metric unit "
            "source_file table"
        ).split()
        if c not in along
    ]
    keys = ", ".join(f'"{c}"' for c in cols)
    if kind == "scaling":
        where = "task = 'training' AND accelerators IS NOT NULL"
        having = "HAVING count(DISTINCT accelerators) >= 2"
    else:
        where = "task = 'inference' AND latency_ms IS NOT NULL"
        having = ""
    sql = (
        f"SELECT count(*) FROM (SELECT {keys} FROM results_v WHERE "
        f"metric = 'throughput' AND {where} GROUP BY {keys} {having})"
    )
    return db.cursor().execute(sql).fetchone()[0]


@pytest.mark.parametrize("kind", LINE_KINDS)
def test_panels_hold_at_most_eight_lines_each_line_once(db, kind):
    plot = _plot(db, kind)
    assert len(_lines(plot.series)) == _stored_lines(db, kind) > MAX_PANEL_LINES
    assert len(plot.panels) >= 3
    seen: Counter[str] = Counter()
    for title in plot.panels:
        lines = _lines(plot.panel(title).series)
        assert 1 <= len(lines) <= MAX_PANEL_LINES, title
        # a panel's own colours: no two of its lines alike
        assert len({s.color for s in lines}) == len(lines), title
        for s in lines:
            seen.update(p.result_id for p in s.points)
    # every plotted point drawn once, in one panel
    assert all(n == 1 for n in seen.values())
    assert set(seen) == {r["result_id"] for r in plot.rows}


@pytest.mark.parametrize("kind", LINE_KINDS)
def test_a_models_lines_share_a_panel_unless_split(db, kind):
    plot = _plot(db, kind)
    rows = {r["result_id"]: r for r in plot.rows}
    panels_of: dict[str, set[str]] = {}
    for title in plot.panels:
        lines = _lines(plot.panel(title).series)
        models = {rows[s.points[0].result_id]["model"] for s in lines}
        for s in lines:
            model = rows[s.points[0].result_id]["model"]
            panels_of.setdefault(model, set()).add(title)
            if len(models) == 1:  # one model's panel: titled by it, not named
                assert title.startswith(model)
                assert model not in s.name or not s.in_legend  # its only line
            else:  # several models: each line starts with its own
                assert s.name.startswith(model)
    for model, titles in panels_of.items():
        assert len(titles) == 1 or all(" of " in t for t in titles), model


def test_scaling_rows_differing_only_by_sdk_are_two_lines(db):
    """A new SDK starts a new line: a stored scaling line, and the same rows
    again as if measured with another SDK, are two lines, never one."""
    plot = _plot(db, "scaling")
    first = _lines(plot.series)[0]
    by_id = {r["result_id"]: r for r in plot.rows}
    rows = [by_id[p.result_id] for p in first.points]
    assert len({r["sdk_version"] for r in rows}) == 1
    again = [
        {**r, "sdk_version": "SDK 9.9", "result_id": r["result_id"] + "-new"}
        for r in rows
    ]
    drawn = scaling_plot(rows + again, KINDS["scaling"].along)
    lines = _lines(drawn.series)
    assert len(lines) == 2
    ids = [{p.result_id for p in s.points} for s in lines]
    assert {r["result_id"] for r in rows} in ids
    assert {r["result_id"] for r in again} in ids
    assert sorted(s.name for s in lines) == sorted(
        [rows[0]["sdk_version"], "SDK 9.9"]
    )  # the legend names what differs: the SDK


def test_one_model_is_one_plot(db):
    state = FilterState().with_values("model", ["BERT-Large"])
    plot = _plot(db, "scaling", state)
    assert len(_lines(plot.series)) <= MAX_PANEL_LINES
    assert plot.panels == ()


def test_efficiency_written_in_its_lines_colour(qapp, db):
    """Each efficiency label is its own line's colour (as text: 4.5:1), and
    says that line's efficiency, computed here from the figures."""
    from ipubench_gui.charts.export import ExportOptions, compose

    plot = _plot(db, "scaling")
    w = compose(plot, ExportOptions())
    by_id = {r["result_id"]: r for r in plot.rows}
    checked = 0
    for panel in w.chart_panels:
        labels = next(i for i in panel.pi.items if isinstance(i, PointLabels))
        inks = {(x, y, t): ink.name().upper() for x, y, t, ink in labels._points}
        for s in _lines(plot.panel(panel.title).series):
            want = readable(LIGHT.series(s.color), LIGHT.ground, TEXT_CONTRAST)
            assert contrast_ratio(want, LIGHT.ground) >= TEXT_CONTRAST
            base = by_id[s.points[0].result_id]
            for p in s.points[1:]:
                r = by_id[p.result_id]
                eff = (r["value"] / r["accelerators"]) / (
                    base["value"] / base["accelerators"]
                )
                assert p.label == f"{eff:.0%}"
                hits = [k for k in inks if k[2] == p.label and inks[k] == want]
                assert hits, (s.name, p.label)
                checked += 1
    w.close()
    assert checked >= 20


@pytest.mark.scale
@pytest.mark.parametrize("kind", LINE_KINDS)
def test_export_panels_share_axes_and_name_their_own_lines(qapp, db, kind):
    from ipubench_gui.charts.export import ExportOptions, compose

    plot = _plot(db, kind, SLIDE[kind])
    w = compose(plot, ExportOptions())
    panels = w.chart_panels
    plot = w.chart_plot  # its panels split where a legend could not name all
    assert [p.title for p in panels] == list(plot.panels)
    ranges = {
        tuple(round(v, 9) for axis in p.pi.vb.viewRange() for v in axis) for p in panels
    }
    assert len(ranges) == 1  # one x range, one y range for all
    for p in panels:
        names = {s.name for s in plot.panel(p.title).series if s.in_legend}
        listed = [lb.text for _, lb in p.legend.items]
        # every line named whole (wrapped at words: <br>), nothing "+ N more"
        assert sorted(_letters(t.replace("<br>", " ")) for t in listed) == sorted(
            _letters(n) for n in names
        )
        # the legend beside its panel, not over it
        legend_box = p.legend.sceneBoundingRect()
        assert not legend_box.intersects(p.pi.vb.sceneBoundingRect())
    w.close()


@pytest.mark.scale
@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)])
@pytest.mark.parametrize("kind", LINE_KINDS)
def test_panels_leave_the_footnote_on_the_slide(qapp, db, kind, size):
    """Legends beside their panels never grow the grid past the slide: the
    footnote (sources) and every panel's axis stay in the picture."""
    from ipubench_gui.charts.export import ExportOptions, compose

    plot = _plot(db, kind, SLIDE[kind])
    w = compose(plot, ExportOptions(*size, footnote="Source: test"))
    footer = w.ci.getItem(3, 0)
    assert "Source: test" in footer.text
    assert footer.sceneBoundingRect().bottom() <= size[1]
    for p in w.chart_panels:
        assert p.legend.sceneBoundingRect().bottom() <= size[1]
        assert p.pi.getAxis("bottom").sceneBoundingRect().bottom() <= size[1]
    w.close()


def _window(qtbot, db, kind: str):
    """The kind's Plot with the default filters, drawn in a shown 1400x900
    chart canvas (panels)."""
    from ipubench_gui.ui.widgets.chart_canvas import ChartCanvas

    plot = _plot(db, kind)
    canvas = ChartCanvas()
    qtbot.addWidget(canvas)
    canvas.resize(1400, 900)
    canvas.show()
    # drawn over several turns, maybe (a loaded machine: seconds)
    with qtbot.waitSignal(canvas.rendered, timeout=20_000):
        canvas.render(plot)
    qtbot.waitUntil(lambda: canvas.panels_view.isVisible())
    QtWidgets.QApplication.processEvents()  # the grid laid out (posted requests)
    return plot, canvas


@pytest.mark.scale
def test_window_draws_panels_and_finds_their_points(qtbot, db):
    plot, canvas = _window(qtbot, db, "scaling")
    assert not canvas.plot.isVisible()
    assert [p.title for p in canvas.panels] == list(plot.panels)
    last = canvas.panels[-1]
    target = next(h for h in last.drawn.hits if h.result_id)
    pos = last.pi.vb.mapViewToScene(QtCore.QPointF(target.x, target.y))
    hit = canvas.hit_at(pos)
    assert hit is not None and hit.result_id == target.result_id
    # the selection is ringed in the panel that holds it
    canvas.set_selection((target.result_id,))
    assert any(pi is last.pi for pi, _ in canvas._highlights)
    # one model: back to one plot
    one = _plot(db, "scaling", FilterState().with_values("model", ["GPT-2"]))
    canvas.render(one)
    canvas.finish()  # drawn whole: past its budget, a chart takes turns
    assert canvas.plot.isVisible() and not canvas.panels_view.isVisible()
    assert one.panels == ()


def test_panels_of_another_filter_are_redrawn_in_their_cells(qtbot, db):
    """As many panels for another filter (scaling: PyTorch, then TensorFlow 1,
    one plot between): the same plot items, retitled, holding the new
    chart's points (built anew, 9 panels cost 0.5-0.7 s at 1M rows)."""
    from ipubench_gui.ui.widgets.chart_canvas import ChartCanvas

    fw = FilterState().with_values
    torch = _plot(db, "scaling", fw("framework", ["PyTorch"]))
    tf = _plot(db, "scaling", fw("framework", ["TensorFlow 1"]))
    one = _plot(db, "scaling", fw("model", ["GPT-2"]))
    assert len(torch.panels) == len(tf.panels) > 1 and not one.panels
    assert not set(torch.panels) & set(tf.panels)
    canvas = ChartCanvas()
    qtbot.addWidget(canvas)
    canvas.resize(1400, 900)
    canvas.show()
    canvas.render(torch)
    items = [p.pi for p in canvas.panels]
    canvas.render(one)
    assert canvas.panels == [] and canvas.plot.isVisible()
    canvas.render(tf)
    assert [p.pi for p in canvas.panels] == items
    assert [p.title for p in canvas.panels] == list(tf.panels)
    for p in canvas.panels:  # the title as shown: its first words at least
        shown = _letters(p.label.text.removeprefix("<b>").removesuffix("</b>"))
        assert len(shown) > 5 and _letters(p.title).startswith(shown), p.title
    want = {q.result_id for s in tf.series for q in s.points if q.result_id}
    assert {h.result_id for h in canvas.drawn.hits if h.result_id} == want


def _letters(text: str) -> str:
    return "".join(c for c in html.unescape(text) if c.isalnum())


@pytest.mark.scale
@pytest.mark.parametrize("kind", LINE_KINDS)
def test_window_panel_legends_cover_no_point_or_label(qtbot, db, kind):
    """In the window, each panel's legend is beside its plot: no legend
    rectangle holds a point's scene position, and none meets a plot's view
    box (which clips the points' labels: efficiency, batch size)."""
    plot, canvas = _window(qtbot, db, kind)
    boxes = [p.legend.sceneBoundingRect() for p in canvas.panels]
    assert all(b.height() > 0 for b in boxes)
    checked = 0
    for p in canvas.panels:
        labels = next(i for i in p.pi.items if isinstance(i, PointLabels))
        assert labels.parentItem() is not None
        for box in boxes:
            assert not box.intersects(p.pi.vb.sceneBoundingRect()), p.title
        for h in p.drawn.hits:
            pos = p.pi.vb.mapViewToScene(QtCore.QPointF(h.x, h.y))
            assert not any(b.contains(pos) for b in boxes), (p.title, h.result_id)
            checked += 1
    assert checked == sum(len(p.drawn.hits) for p in canvas.panels) > 50


@pytest.mark.scale
@pytest.mark.parametrize("kind", ["scaling"])
def test_export_legends_name_every_line_of_their_panel(qapp, db, kind):
    """At 1920x1080, default filters, a slide cannot hover: every line of a
    panel is named in its legend, in order (wrapped at words, never
    "+ N more not listed")."""
    from ipubench_gui.charts.export import ExportOptions, compose

    plot = _plot(db, kind)
    w = compose(plot, ExportOptions(1920, 1080))
    for p in w.chart_panels:
        names = [s.name for s in plot.panel(p.title).series if s.in_legend and s.points]
        listed = [lb.text for _, lb in p.legend.items]
        assert len(listed) == len(names), (p.title, listed[-1])
        for text, name in zip(listed, names, strict=True):
            assert _letters(text.replace("<br>", " ")) == _letters(name), text
    w.close()


def test_latency_panels_say_their_pareto_front_once_in_a_note(db):
    """In panels the Pareto fronts are drawn but named once, in a note, not
    in every panel's legend (a legend row each is a line's name less)."""
    plot = _plot(db, "latency-throughput")
    fronts = [s for s in plot.series if s.name == "Pareto front"]
    assert len(fronts) == len(plot.panels) > 1
    assert not any(s.in_legend for s in fronts)
    assert "dashed grey steps: each model's Pareto front" in plot.notes
    one = _plot(db, "latency-throughput", FilterState().with_values("model", ["GPT-2"]))
    assert one.panels == ()
    assert [s.in_legend for s in one.series if s.name == "Pareto front"] == [True]
    assert not any("Pareto" in n for n in one.notes)


def test_panels_redrawn_in_place_stay_linked(qtbot, db):
    # A redraw unlinks the panels while each is drawn (speed) and links them
    # again: zooming one still zooms every other.
    _plot0, canvas = _window(qtbot, db, "scaling")
    first = [p.pi for p in canvas.panels]
    canvas.render(_plot(db, "scaling"))  # the same panels: redrawn in place
    pis = [p.pi for p in canvas.panels]
    assert pis == first and len(pis) > 2
    pis[0].setXRange(3, 7, padding=0)
    pis[-1].setYRange(10, 20, padding=0)
    for pi in pis:
        (x0, x1), (y0, y1) = pi.vb.viewRange()
        assert (x0, x1) == pytest.approx((3, 7))
        assert (y0, y1) == pytest.approx((10, 20))


@pytest.mark.parametrize(
    "models, panelled",
    [(12 * MAX_PANEL_LINES, True), (12 * MAX_PANEL_LINES + 1, False)],
)
def test_more_lines_than_a_dozen_panels_hold_are_one_plot(db, models, panelled):
    """Up to MAX_PANELS panels of MAX_PANEL_LINES lines; one line more and the
    chart is one plot holding every line (thumbnails read no better, and cost
    seconds over 1M rows). A stored scaling line copied under that many model
    names makes that many lines."""
    plot = _plot(db, "scaling")
    first = _lines(plot.series)[0]
    by_id = {r["result_id"]: r for r in plot.rows}
    rows = [by_id[p.result_id] for p in first.points]
    copies = [
        {**r, "model": f"Model {m:03}", "result_id": f"{r['result_id']}-{m}"}
        for m in range(models)
        for r in rows
    ]
    drawn = scaling_plot(copies, KINDS["scaling"].along)
    assert len(_lines(drawn.series)) == models
    if panelled:
        assert len(drawn.panels) == MAX_PANELS
    else:
        assert drawn.panels == ()


def test_a_split_model_without_a_name_keeps_its_panels_apart(db):
    """A model of more lines than a panel holds is split "(1 of 2)"; with no
    model name (imported rows may have none) its panels still carry the part,
    so neither merges into the other. A stored scaling line copied under ten
    variants of a blank model makes ten lines."""
    plot = _plot(db, "scaling")
    first = _lines(plot.series)[0]
    by_id = {r["result_id"]: r for r in plot.rows}
    rows = [by_id[p.result_id] for p in first.points]
    copies = [
        {**r, "model": None, "variant": f"v{k}", "result_id": f"{r['result_id']}-{k}"}
        for k in range(MAX_PANEL_LINES + 2)
        for r in rows
    ]
    drawn = scaling_plot(copies, KINDS["scaling"].along)
    assert len(drawn.panels) == 2
    assert drawn.panels[0].endswith("(1 of 2)") and drawn.panels[1].endswith("(2 of 2)")
    sizes = [len(_lines(drawn.panel(t).series)) for t in drawn.panels]
    assert sorted(sizes) == [2, MAX_PANEL_LINES]
