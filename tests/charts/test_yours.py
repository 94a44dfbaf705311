"""The user's own imported results are marked apart from everyone's on the
charts: their points ringed, their bars outlined, and a legend entry "your
results", in the window's drawing and in exports alike."""

from __future__ import annotations

import pytest

from ipubench_gui.charts.builders import YOURS
from ipubench_gui.charts.export import ExportOptions, compose, export
from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.import_spec import ImportSpec
from ipubench_gui.domain.plots import build_plot
from ipubench_gui.service import browse
from ipubench_gui.store.user import importer
from tests.store.conftest import combined  # noqa: F401  (fixture)

RN50 = (
    FilterState()
    .with_values("model", ["ResNet-50 v1.5"])
    .with_values("task", ["training"])
)


def _import(db, tmp_path) -> set[str]:
    """Three results of the test's own, by id."""
    p = tmp_path / "mine.csv"
    p.write_text(
        "model,platform,throughput,chips\n"
        "ResNet-50 v1.5,My A100 box,2500,8\n"
        "ResNet-50 v1.5,My A100 box,4900,16\n"
        "ResNet-50 v1.5,My A100 box,9000,32\n"
    )
    spec = ImportSpec(
        p,
        {
            "model": "model",
            "platform": "platform",
            "value": "throughput",
            "accelerators": "chips",
        },
        {"metric": "throughput", "unit": "images/s", "task": "training"},
        label="My runs",
    )
    assert importer.import_file(db.cursor(), spec).landed == 3
    rows = db.cursor().execute(
        "SELECT result_id FROM results_v WHERE source_file = 'mine.csv'"
    )
    return {r for (r,) in rows.fetchall()}


def _marks(w):
    """The legend's names and the item its "your results" entry shows."""
    entries = w.chart_drawn.legend_entries
    return [name for _it, name in entries], dict(
        (name, it) for it, name in entries
    ).get(YOURS)


@pytest.mark.parametrize("kind", ["scaling", "throughput"])
def test_imported_results_are_marked_and_named(combined, tmp_path, qtbot, kind):  # noqa: F811
    mine = _import(combined, tmp_path)
    assert len(mine) == 3
    spec = ChartSpec(kind=kind)
    plot = build_plot(spec, browse.chart_data(combined, RN50, spec))
    assert plot.yours == mine  # all three drawn, and nothing of the vendor's
    w = compose(plot, ExportOptions(1280, 720))
    names, mark = _marks(w)
    assert names[-1] == YOURS and mark is not None
    drawn = {h.result_id: h for h in w.chart_drawn.hits}
    want = sorted(c for i in mine for c in (drawn[i].x, drawn[i].y))
    if kind == "throughput":  # each of the user's bars outlined, to its end
        o = mark.opts
        ends = [x0 + wd for x0, wd in zip(o["x0"], o["width"])]
        got = sorted(c for xy in zip(ends, o["y"]) for c in xy)
        assert o["brush"] is None
        assert sorted(ends) == pytest.approx([2500, 4900, 9000])  # the file's
    else:  # a ring around each of the user's points
        xs, ys = mark.getData()
        got = sorted(c for xy in zip(xs.tolist(), ys.tolist()) for c in xy)
        # log axes: the file's chips and figures
        assert sorted(2**x for x in xs) == pytest.approx([8, 16, 32])
        assert sorted(10**y for y in ys) == pytest.approx([2500, 4900, 9000])
    assert got == pytest.approx(want)  # on the points themselves
    w.close()
    # the same in a file: the SVG names them
    out = export(plot, tmp_path / f"{kind}.svg", ExportOptions(1280, 720))
    assert YOURS in out.read_text(encoding="utf-8")


def test_no_mark_without_imported_results(db, qtbot):
    spec = ChartSpec(kind="scaling")
    plot = build_plot(spec, browse.chart_data(db, RN50, spec))
    assert not plot.empty and plot.yours == frozenset()
    w = compose(plot, ExportOptions(1280, 720))
    assert _marks(w) == ([n for _i, n in w.chart_drawn.legend_entries], None)
    assert YOURS not in _marks(w)[0]
    w.close()


def test_results_imported_from_an_mlperf_folder_are_marked(
    combined,  # noqa: F811
    tmp_path,
    qapp,
):
    """A round's folder imported (import-mlperf, or File > Import MLPerf
    results folder): its results are the user's own on the MLPerf chart,
    ringed and named "your results", as imported files are; the bundled
    official results beside them are not."""
    from ipubench_gui.service import imports
    from tests.conftest import DATA
    from tests.mlperf_trees import tree

    root = tree(tmp_path, [10, 20, 30, 40, 100])
    tree(tmp_path, [12, 13, 14, 15, 16], system_id="box16")
    plan = imports.plan_mlperf(combined, root, "9.9", DATA)
    _sid, n = imports.land_mlperf(combined, plan, skip_bad=False)
    assert n == 2
    mine = {
        r
        for (r,) in combined.cursor()
        .execute("SELECT result_id FROM u.user_mlperf")
        .fetchall()
    }
    assert len(mine) == 2
    spec = ChartSpec(kind="mlperf", benchmark="ResNet-50 v1.5")
    plot = build_plot(spec, browse.chart_data(combined, FilterState(), spec))
    assert mine <= set(plot.point_ids())
    assert plot.yours == mine  # these two, and none of the bundled ones
    w = compose(plot, ExportOptions(1280, 720))
    names, ring = _marks(w)
    assert YOURS in names and ring is not None
    # never drawn as one mark with others' results (a crowd's "×27"): the
    # ring says whose that one point is
    hits = w.chart_drawn.hits
    at = {(round(h.x, 9), round(h.y, 9)) for h in hits if h.result_id in mine}
    others = {(round(h.x, 9), round(h.y, 9)) for h in hits if h.result_id not in mine}
    assert len(at) == 2 and not at & others
    w.close()
