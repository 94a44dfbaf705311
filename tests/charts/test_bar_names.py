"""Bar names on a slide tell the bars apart: what every bar of a section
shares is said once, in its header; a name cut to its room keeps the parts
that differ (the lead's 1280x720 window read "BERT-Large · … · TensorRT ·
Offline" on nine bars)."""

from __future__ import annotations

from ipubench_gui.charts.export import ExportOptions, compose
from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.plots import build_plot
from ipubench_gui.domain.text import elide_words
from ipubench_gui.service import browse
from tests.conftest import shown_canvas


def _plot(db):
    spec = ChartSpec()
    return build_plot(spec, browse.chart_data(db, FilterState(), spec))


def _window_chart(qtbot, plot):
    """``plot`` drawn in a chart canvas the size of the window's chart at
    1280x720 (its share of the window)."""
    return shown_canvas(plot, (620, 250), qtbot)


def _sections(plot):
    """(header, [(bar name, row)]) per section, from the plot's own rows."""
    heads = dict(plot.sections)
    by_y = {p.y: p.result_id for s in plot.series for p in s.points}
    rows = {r["result_id"]: r for r in plot.rows}
    out: list[tuple[str, list]] = []
    for y, name in enumerate(plot.categories):
        if y in heads:
            out.append((heads[y], []))
        elif name:
            out[-1][1].append((name, rows[by_y[y]]))
    return out


def test_what_a_section_shares_is_said_once_in_its_header(db):
    plot = _plot(db)
    sections = _sections(plot)
    assert len(sections) == 2  # training and inference apart
    for head, bars in sections:
        models = {r["model"] for _n, r in bars}
        if len(models) == 1:  # e.g. every inference bar is BERT-Large
            (model,) = models
            assert f"all {model}" in head
            assert not any(model in n.split(" · ") for n, _r in bars)
        else:
            assert any(r["model"] in n.split(" · ") for n, r in bars)
        # every bar still has a name of its own
        assert len({n for n, _r in bars}) == len(bars)


def test_a_slides_bar_names_tell_the_bars_apart(qapp, db):
    plot = _plot(db)
    w = compose(plot, ExportOptions(1280, 720))
    left = w.chart_legend.pi.getAxis("left")
    shown = dict(left._tickLevels[0])
    drawn = w.chart_plot
    names = [
        (shown[float(y)], drawn.categories[y])
        for y in range(len(drawn.categories))
        if drawn.categories[y]
    ]
    cut = [(s, full) for s, full in names if s != full]
    assert cut  # the case: names too long for 1280 px
    # bars whose whole names differ read differently
    assert len({s for s, _f in names}) == len({f for _s, f in names})
    # each cut name keeps its system (the rows' own platform)
    rows = {r["result_id"]: r for r in drawn.rows}
    by_y = {p.y: p.result_id for s in drawn.series for p in s.points}
    for y, name in enumerate(drawn.categories):
        if name and shown[float(y)] != name:
            platform = rows[by_y[y]].get("platform")
            if platform and platform in name:
                assert platform in shown[float(y)], (shown[float(y)], name)
    w.close()


def test_the_windows_bar_names_tell_the_bars_apart(qtbot, db):
    """The lead's case: the window at 1280x720, the chart its share of it."""
    plot = _plot(db)
    canvas = _window_chart(qtbot, plot)
    shown = dict(canvas.item.getAxis("left")._tickLevels[0])
    rows = {r["result_id"]: r for r in plot.rows}
    by_y = {p.y: p.result_id for s in plot.series for p in s.points}
    names = {y: shown[float(y)] for y in by_y}
    assert any(names[y] != plot.categories[y] for y in by_y)  # cut to fit
    # nearly every bar reads apart at this width, where the middle words
    # out (the old rule) left many alike
    room = canvas.item.getAxis("left").width() - 14
    old = {
        elide_words(plot.categories[y], room, canvas._text_width, sep=" · ")
        for y in by_y
    }
    apart = len(set(names.values()))
    assert apart >= 0.9 * len(by_y) and apart > len(old), (apart, len(old))
    for y, name in names.items():
        row = rows[by_y[y]]
        platform = row.get("platform") or ""
        if row["task"] == "inference" and platform in plot.categories[y]:
            # the lead's nine bars: each its system's name, or its first words
            assert platform.split()[0] in name, (name, plot.categories[y])
    canvas.close()


def test_a_section_header_stays_inside_its_plot(qtbot, qapp, db):
    """At 1280x720 the window's header ran under the legend column, cut at
    the plot's edge ("Task: inference (30 of 1,30"): inside the plot, cut
    at words if it must be, its whole text in its tooltip; so too on a
    slide."""
    from ipubench_gui.charts.builders import SectionHead

    plot = _plot(db)
    canvas = _window_chart(qtbot, plot)
    w = compose(plot, ExportOptions(1280, 720))
    for pi, where in ((canvas.item, "window"), (w.chart_legend.pi, "slide")):
        view = pi.vb.sceneBoundingRect()
        heads = [it for it in pi.vb.addedItems if type(it) is SectionHead]
        heads = [h for h in heads if h.isVisible()]
        assert heads, where
        whole = dict(plot.sections).values()
        for h in heads:
            box = h.mapRectToScene(h.boundingRect())
            assert box.right() <= view.right() + 0.5, (where, h.toPlainText())
            shown = h.toPlainText()
            full = h.toolTip() or shown
            assert full in whole or where == "slide"
            if shown != full:  # cut at words, the rest in the tooltip
                assert shown.endswith("…") and full.startswith(shown[:-1].rstrip())
    canvas.close()
    w.close()


def test_a_framework_of_the_submitters_own_words_says_so(db):
    """397 MLPerf Inference rows name no framework the catalogue knows; the
    store keeps the system file's text ("Triton 2.30.0 , CUDA 12.0"): the
    Colour-by legend shows it tidied and marked as the submitter's text,
    and never marks a framework the catalogue names."""
    import csv
    import re

    from ipubench_gui.domain.chartrows import framework_shown
    from tests.conftest import DATA

    with open(DATA / "entities" / "frameworks.csv", newline="") as f:
        canonical = {r["framework"] for r in csv.DictReader(f)}
    for name in canonical:  # a name the catalogue knows, printed as it is
        assert (
            framework_shown({"framework": name, "framework_as_printed": name}) == name
        )
    own = dict(
        db.cursor()
        .execute(
            "SELECT framework, count(*) FROM results_v WHERE framework = "
            "framework_as_printed GROUP BY 1"
        )
        .fetchall()
    )
    own = {f: n for f, n in own.items() if f not in canonical}
    marked = {f for f in own if re.search(r"\d\.\d|,", f)}
    # most of the rows the catalogue does not know are marked (the others'
    # texts carry no version or list: "OpenVINO", "suInfer")
    assert sum(own[f] for f in marked) >= 0.85 * sum(own.values())
    plot = _plot(db)
    legend = {s.name for s in plot.series}
    triton = [n for n in legend if n.startswith("Triton")]
    assert triton == ["Triton 2.30.0, CUDA 12.0 (as submitted)"]
    assert not any(" ," in n for n in legend)
    for s in plot.series:
        for p in s.points:
            row = next(r for r in plot.rows if r["result_id"] == p.result_id)
            if row["framework"] in marked:
                assert s.name.endswith("(as submitted)"), s.name


def test_a_header_cut_in_a_narrow_window_is_whole_again_when_widened(qtbot, qapp, db):
    """Fitting starts from the header's own size and text each time: a
    window narrowed, then widened, shows every header whole again, at its
    size, with no tooltip standing in for it."""
    from ipubench_gui.charts.builders import SectionHead

    plot = _plot(db)
    canvas = _window_chart(qtbot, plot)

    def heads():
        items = [it for it in canvas.item.vb.addedItems if type(it) is SectionHead]
        return [h for h in items if h.isVisible()]

    assert any(h.toolTip() for h in heads()), "a header cut at the window's width"
    canvas.resize(1900, 900)
    qtbot.waitUntil(lambda: not any(h.toolTip() for h in heads()), timeout=5000)
    whole = dict(plot.sections).values()
    for h in heads():
        assert h.toPlainText() in whole
        assert h.textItem.font().pixelSize() == h.full_px
    canvas.close()
