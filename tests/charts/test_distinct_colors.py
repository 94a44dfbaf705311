"""No two groups shown in one chart share a colour (up to the palette's size),
and a value keeps its colour when the filters change around it, in the
window's colours, the dark theme's and an export's alike."""

from __future__ import annotations

from collections import Counter

import pyqtgraph as pg
from hypothesis import given, settings
from hypothesis import strategies as st

from ipubench_gui.charts.export import ExportOptions, compose
from ipubench_gui.charts.theme import DARK, LIGHT
from ipubench_gui.domain.chartrows import PALETTE, distinct_colors
from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.plot_mlperf import mlperf_plot
from ipubench_gui.domain.plot_model import Point, line_series
from ipubench_gui.domain.plot_vendor import UNAUDITED, vendor_plot
from ipubench_gui.domain.verdicts import NOT_CHECKABLE
from ipubench_gui.service import browse, chart
from tests.conftest import examples

RN50_TRAINING = (
    FilterState().toggled("model", "ResNet-50 v1.5").toggled("task", "training")
)


def _chart(db, state: FilterState, **spec):
    return chart.make_chart(db, state, ChartSpec(**spec)).plot


def _clashes(series, theme) -> list[list[str]]:
    """Names of series drawn in one colour on ``theme``, panel by panel."""
    by: dict[tuple[str, str], list[str]] = {}
    for s in series:
        if s.points and (s.in_legend or s.style == "bars"):
            by.setdefault((s.panel, theme.series(s.color)), []).append(s.name)
    return [names for names in by.values() if len(names) > 1]


def test_resnet50_training_by_framework_has_a_colour_per_framework(db):
    """The case found: ResNet-50 v1.5 training coloured by framework drew
    TensorFlow 1 and PyTorch both teal: their places in the store's list of
    frameworks are a palette's length apart (as are MXNet's and a blank's)."""
    order = browse.universe(db).values["framework"]
    assert (order.index("TensorFlow 1") - order.index("PyTorch")) % len(PALETTE) == 0
    assert (order.index(None) - order.index("MXNet")) % len(PALETTE) == 0
    plot = _chart(db, RN50_TRAINING, kind="throughput", color_by="framework")
    assert {"PyTorch", "TensorFlow 1", "MXNet"} <= {s.name for s in plot.series}
    for theme in (LIGHT, DARK):
        assert _clashes(plot.series, theme) == [], theme
    both = distinct_colors(["(blank)", "MXNet"], order)
    assert both["MXNet"] != both["(blank)"]
    # the first in the store's list keeps its colour, whichever bar is best
    for ranked in (["TensorFlow 1", "PyTorch"], ["PyTorch", "TensorFlow 1"]):
        pair = distinct_colors(ranked, order)
        assert pair["PyTorch"] == PALETTE[order.index("PyTorch") % len(PALETTE)]
        assert pair["PyTorch"] != pair["TensorFlow 1"]


def test_an_export_paints_each_framework_its_own_colour(qapp, db):
    """The slide paints what the window paints: one brush per framework."""
    plot = _chart(db, RN50_TRAINING, kind="throughput", color_by="framework")
    for dark in (False, True):
        w = compose(plot, ExportOptions(1920, 1080, dark=dark))
        brushes = {
            pg.mkBrush(it.opts["brush"]).color().name()
            for it in w.scene().items()
            if isinstance(it, pg.BarGraphItem) and it.isVisible()
        }
        assert len(brushes) >= len(plot.series) == 4, brushes
        w.close()


def test_every_kind_keeps_its_shown_groups_apart(db):
    """Lines of a panel, MLPerf accelerator types (a type's Open/Preview
    series share its colour and differ in mark), vendor verdicts, bars."""
    for kind in ("latency-throughput", "scaling", "progress", "vendor", "throughput"):
        plot = _chart(db, FilterState(), kind=kind)
        assert plot.series, kind
        for theme in (LIGHT, DARK):
            assert _clashes(plot.series, theme) == [], (kind, theme)
    plot = _chart(db, FilterState(), kind="mlperf")
    for theme in (LIGHT, DARK):
        for names in _clashes(plot.series, theme):
            assert len({n.split(" (")[0] for n in names}) == 1, names
            assert len({s.symbol for s in plot.series if s.name in names}) == len(names)


def test_more_bars_than_colours_keep_the_best_apart_and_say_so(qapp, db):
    """Coloured by platform the inference chart ranks more platforms than
    the palette holds: a colour stands for two at most, the platforms of the
    best bars (the first 18 from the top) have one each, and the note says
    colours repeat; a slide cut to the bars that fit (fewer platforms than
    colours) paints each its own colour and drops the note. (Inference: the
    default chart shares its bars between the tasks, 17 platforms.)"""
    inference = FilterState().with_values("task", ["inference"])
    plot = _chart(db, inference, kind="throughput", color_by="platform")
    n = len(plot.series)
    assert len(PALETTE) < n <= 2 * len(PALETTE)
    worn = Counter(s.color for s in plot.series)
    assert len(worn) == len(PALETTE) and max(worn.values()) == 2
    note = "more platform values than the 18 colours: some colours stand for more"
    assert any(t.startswith(note) for t in plot.notes), plot.notes
    top = sorted(plot.series, key=lambda s: min(p.y for p in s.points))
    assert len({s.color for s in top[: len(PALETTE)]}) == len(PALETTE)
    w = compose(plot, ExportOptions(1920, 1080))
    cut = w.chart_plot
    assert len(cut.series) <= len(PALETTE) < n  # 22 bars of 10 platforms
    assert len({s.color for s in cut.series}) == len(cut.series)
    assert not any(t.startswith(note) for t in cut.notes), cut.notes
    w.close()


def test_more_lines_than_colours_differ_in_their_points_shape():
    lines = {f"line {i:02}": [{"x": i}] for i in range(len(PALETTE) + 3)}
    series = line_series(lines, lambda r: Point(r["x"], 1))
    looks = {(s.color, s.symbol) for s in series}
    assert len(looks) == len(series)


@settings(deadline=None, max_examples=examples(300))
@given(data=st.data())
def test_shown_values_never_share_a_colour_and_keep_theirs(db, data):
    """Over random sets of a facet's real values (what a filter leaves):
    within the palette's size no two share a colour; a value whose place in
    the store's list (modulo the palette) no value shown before it in that
    list shares keeps that place's colour, before and after the others
    change, whatever order the chart ranks them in."""
    u = browse.universe(db)
    facet = data.draw(
        st.sampled_from(["framework", "platform", "model", "sdk_version"])
    )
    order = u.values[facet]
    names = ["(blank)" if v is None else str(v) for v in order]
    home = {name: i % len(PALETTE) for i, name in enumerate(names)}
    most = min(len(PALETTE), len(names))
    before = data.draw(st.sets(st.sampled_from(names), min_size=1, max_size=most))
    after = data.draw(st.sets(st.sampled_from(names), min_size=1, max_size=most))
    a, b = distinct_colors(before, order), distinct_colors(after, order)
    assert len(set(a.values())) == len(a) and len(set(b.values())) == len(b)
    ranked = data.draw(st.permutations(names))
    every = distinct_colors(ranked, order)
    first = ranked[: len(PALETTE)]  # beyond the palette: the first ones apart
    assert len({every[m] for m in first}) == len(first)
    rank = {name: i for i, name in enumerate(names)}
    for name in before & after:
        earlier = [o for o in before | after if rank[o] < rank[name]]
        if all(home[o] != home[name] for o in earlier):
            assert a[name] == b[name] == PALETTE[home[name]]


def test_more_mlperf_accelerator_types_than_colours_differ_in_shape(db):
    """The ResNet-50 MLPerf chart holds 18 accelerator types; two more (an
    import of a later round could bring them) wear colours again and are
    drawn as pentagons, which the note names."""
    plot = _chart(db, FilterState(), kind="mlperf")
    types = {s.name.split(" (")[0] for s in plot.series}
    assert len(types) == len(PALETTE)
    base = [r for r in plot.rows if r.get("generation") == "A100"][:2]
    extra = [
        {**r, "generation": name, "result_id": f"{name}-{i}"}
        for name in ("Zeta X1", "Zeta X2")
        for i, r in enumerate(base)
    ]
    more = mlperf_plot([*plot.rows, *extra], benchmark="ResNet-50 v1.5")
    plain = [s for s in more.series if "(" not in s.name]
    looks = Counter((s.color, s.symbol) for s in plain)
    assert max(looks.values()) == 1, looks
    pentagons = sorted(s.name for s in more.series if s.symbol == "p")
    assert len(pentagons) == 2
    assert any(
        t.startswith(f"20 accelerator types in {len(PALETTE)} colours: pentagons for ")
        and all(p in t for p in pentagons)
        for t in more.notes
    ), more.notes


def test_a_claim_not_audited_is_not_painted_as_not_checkable(db):
    """'not audited' (no audit for a row) was #999999, which the light
    theme darkens to the grey 'not checkable' is drawn in."""
    rows = list(_chart(db, FilterState(), kind="vendor").rows)
    verdicts = {r["audit"].verdict for r in rows}
    assert NOT_CHECKABLE in verdicts
    rows[0] = {**rows[0], "audit": None}
    plot = vendor_plot(rows)
    assert UNAUDITED in {s.name for s in plot.series}
    for theme in (LIGHT, DARK):
        assert _clashes(plot.series, theme) == [], theme
