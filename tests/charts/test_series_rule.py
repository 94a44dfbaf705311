"""Series join only like with like (domain/series_rule.py), on the stored data."""

from __future__ import annotations

import pytest

from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.kinds import KINDS
from ipubench_gui.domain.plots import build_plot
from ipubench_gui.domain.series_rule import CONFIGURATION
from ipubench_gui.service import browse

# What a line's points must share, read independently of the rule: every
# stored column that describes a configuration, but the chart's x dimension.
X_OF = {
    "latency-throughput": ("batch_size",),
    "scaling": ("accelerators", "platform", "batch_size"),
}


def _rows(db) -> dict[str, dict]:
    cur = db.cursor().execute("SELECT * FROM results_v")
    cols = [d[0] for d in cur.description]
    return {d["result_id"]: d for d in (dict(zip(cols, r)) for r in cur.fetchall())}


@pytest.mark.parametrize("medians", [False, True], ids=["rows", "medians"])
@pytest.mark.parametrize("kind", sorted(X_OF))
def test_a_line_joins_only_like_with_like(db, kind, medians, monkeypatch):
    """Drawn from the rows, and from medians as beyond the row cap (every
    filtered row then stands for a group: the median keys must keep apart
    what the series rule keeps apart)."""
    if medians:
        monkeypatch.setattr(browse, "KIND_ROW_CAP", 0)
    rows = _rows(db)
    spec = ChartSpec(kind=kind)
    plot = build_plot(spec, browse.chart_data(db, FilterState(), spec))
    lines = [s for s in plot.series if s.style == "line" and not s.dashed]
    assert len(lines) > 5
    same = [
        c
        for c in (
            "model",
            "variant",
            "framework",
            "generation",
            "sdk_version",
            "dataset",
            "precision",
            "task",
            "metric",
        )
        if c not in X_OF[kind]
    ]
    for s in lines:
        pts = [rows[p.result_id] for p in s.points]
        xs = [r[X_OF[kind][0]] for r in pts]
        # no line holds two points at the same x
        assert len(xs) == len(set(xs)), (s.name, xs)
        # every point shares every other attribute
        for c in same:
            assert len({r[c] for r in pts}) == 1, (s.name, c)
    assert set(KINDS[kind].along) == set(X_OF[kind])
    assert set(X_OF[kind]) <= set(CONFIGURATION)


def test_latency_lines_keep_variants_apart(db):
    """GPT-2 Small, Medium and Large; Yolo v4 image sizes: one line each."""
    spec = ChartSpec(kind="latency-throughput")
    for model, n in (("GPT-2", 3), ("YOLOv4", 8)):
        state = FilterState().with_values("model", [model])
        plot = build_plot(spec, browse.chart_data(db, state, spec))
        variants = {r["variant"] for r in plot.rows}
        lines = [s for s in plot.series if s.style == "line" and not s.dashed]
        assert len(variants) == n and len(lines) >= n, model
        # legends name what differs; the subtitle what all share
        assert all(model not in s.name for s in lines)
        assert plot.shared.startswith(model)


def test_scaling_never_joins_two_sdks(db):
    spec = ChartSpec(kind="scaling")
    plot = build_plot(spec, browse.chart_data(db, FilterState(), spec))
    rows = _rows(db)
    for s in plot.series:
        sdks = {rows[p.result_id]["sdk_version"] for p in s.points if p.result_id}
        assert len(sdks) <= 1, s.name


def _gpu_reference(**match) -> list[dict]:
    import csv

    from tests.conftest import DATA

    with open(DATA / "gpu_reference.csv", newline="", encoding="utf-8") as f:
        return [
            r for r in csv.DictReader(f) if all(r[k] == v for k, v in match.items())
        ]


@pytest.mark.parametrize("medians", [False, True], ids=["rows", "medians"])
def test_xla_batch_1_is_not_joined_with_mixed_precision(db, medians, monkeypatch):
    """NVIDIA's ResNeXt-101 inference: batch 1 in mixed precision (and batch
    256) and batch 1 in mixed precision + XLA: two lines, never one point or
    one line holding both batch-1 figures, also as medians beyond the cap."""
    if medians:
        monkeypatch.setattr(browse, "KIND_ROW_CAP", 0)
    want = {
        r["precision"]: {int(r["batch_size"]): float(r["latency_ms"])}
        for r in _gpu_reference(model="ResNeXt-101 32x4d", metric="throughput")
        if r["task"] == "inference" and r["batch_size"] == "1"
    }
    assert set(want) == {"mixed precision", "mixed precision + XLA"}
    spec = ChartSpec(kind="latency-throughput")
    state = FilterState().with_values("platform", ["A100 40GB"])
    plot = build_plot(spec, browse.chart_data(db, state, spec))
    rows = _rows(db)
    got: dict[str, dict[int, float]] = {}
    for s in plot.series:
        pts = [rows[p.result_id] for p in s.points if p.result_id]
        if any(r["model"].startswith("ResNeXt") for r in pts):
            (precision,) = {r["precision"] for r in pts}
            for p in s.points:
                if p.result_id and rows[p.result_id]["batch_size"] == 1:
                    assert 1 not in got.get(precision, {})  # one batch-1 point
                    got.setdefault(precision, {})[1] = p.x
    assert got == want


def test_median_keys_are_the_series_rule():
    """One definition: a median point groups the rows of one line at one x."""
    from ipubench_gui.domain.series_rule import line_keys

    for name, k in KINDS.items():
        if not k.along:
            continue
        assert set(line_keys(k.along)) <= set(k.keys), name
        assert set(k.x) <= set(k.along) and set(k.x) <= set(k.keys), name
        assert not (set(k.along) - set(k.x)) & set(k.keys), name
