"""export-chart --data: the plotted points of every kind; the throughput chart
draws one unit family at a time."""

from __future__ import annotations

import csv

import pytest

from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.kinds import KINDS
from ipubench_gui.domain.plot_model import POINT_COLUMNS, point_rows
from ipubench_gui.domain.plots import build_plot
from ipubench_gui.service import browse
from tests.charts.test_series_rule import _rows
from tests.conftest import run_cli

# kind -> (the stored column plotted as x, as y) for points of one result
XY = {
    "throughput": ("value", None),
    "latency-throughput": ("latency_ms", "value"),
    "scaling": ("accelerators", "value"),
    "mlperf": ("accelerators", "value"),
}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_points_of_every_kind(db, kind):
    spec = ChartSpec(kind=kind)
    plot = build_plot(spec, browse.chart_data(db, FilterState(), spec))
    rows = point_rows(plot)
    assert rows and all(len(r) == len(POINT_COLUMNS) for r in rows)
    assert [r[3] for r in rows if r[3]] == plot.point_ids()
    stored = _rows(db)
    if kind not in XY:
        return
    xcol, ycol = XY[kind]
    for _series, x, y, rid, ref in rows:
        if not rid:
            continue
        row = stored[rid]
        if row.get("mlperf_id"):  # where a reader finds the result
            assert ref == row["mlperf_id"]
        assert x == pytest.approx(stored[rid][xcol]), (kind, rid)
        if ycol:
            assert y == pytest.approx(stored[rid][ycol]), (kind, rid)
        else:  # bars: the category the bar stands on
            assert isinstance(y, str) and y


def test_throughput_draws_one_unit_family_at_a_time(db):
    counts = dict(
        db.cursor()
        .execute(
            "SELECT unit_family, count(*) FROM results_v WHERE metric = 'throughput' "
            "GROUP BY 1"
        )
        .fetchall()
    )
    largest = max(counts, key=counts.get)
    spec = ChartSpec()
    plot = build_plot(spec, browse.chart_data(db, FilterState(), spec))
    assert {r["unit_family"] for r in plot.rows} == {largest}
    assert f"({largest})" in plot.x_title
    assert any("nodes/s (5)" in n for n in plot.notes)
    # the others one click (one option) away
    nodes = spec.with_(unit_family="nodes/s")
    plot = build_plot(nodes, browse.chart_data(db, FilterState(), nodes))
    assert {r["model"] for r in plot.rows} == {"Cluster-GCN"}
    assert len(plot.rows) == counts["nodes/s"]
    assert "(nodes/s)" in plot.x_title


def test_cli_writes_the_points(tmp_path, _isolated_home):
    data = tmp_path / "points.csv"
    p = run_cli(
        "export-chart",
        "--kind",
        "scaling",
        "--filter",
        "model=ResNet-50 v1.5",
        "--out",
        str(tmp_path / "c.png"),
        "--data",
        str(data),
        home=_isolated_home,
    )
    assert p.returncode == 0, p.stderr
    with open(data, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        rows = list(reader)
    assert tuple(reader.fieldnames) == POINT_COLUMNS
    real = [r for r in rows if r["result_id"]]
    assert {int(r["x"]) for r in real} == {4, 16, 64, 128, 256}
    assert len({r["series"] for r in real}) == 3
