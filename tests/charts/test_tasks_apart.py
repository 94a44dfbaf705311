"""Training and inference figures never side by side unnamed: a bar chart of
both tasks is in sections named by task, in the window and in exports."""

from __future__ import annotations

from ipubench_gui.charts.export import ExportOptions, compose
from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.plots import build_plot
from ipubench_gui.service import browse


def _bars(db, **spec):
    s = ChartSpec(kind="throughput", **spec)
    return build_plot(s, browse.chart_data(db, FilterState(), s))


def _section_of(plot, y: float) -> str:
    return max((at, t) for at, t in plot.sections if at < y)[1]


def test_training_and_inference_bars_are_in_sections_named_by_task(db):
    """The images/s bars hold the vendor's IPU-POD256 ResNet-50 training
    figure (365,040 images/s in the seed's table) beside inference
    results: each bar sits under the header of its own task, each header
    counts its bars."""
    plot = _bars(db, unit_family="images/s")
    task = {r["result_id"]: r["task"] for r in plot.rows}
    assert set(task.values()) == {"training", "inference"}
    heads = [t for _y, t in plot.sections]
    assert sorted(h.split(" (")[0] for h in heads) == [
        "Task: inference",
        "Task: training",
    ]
    bars = [(p, s) for s in plot.series for p in s.points]
    for p, _s in bars:
        assert _section_of(plot, p.y).startswith(f"Task: {task[p.result_id]} ("), p
    for _at, text in plot.sections:
        mine = [p for p, _s in bars if _section_of(plot, p.y) == text]
        assert text.endswith(f" ({len(mine)})")
    pod256 = [p for p, _s in bars if p.x == 365040]
    assert len(pod256) == 1
    assert _section_of(plot, pod256[0].y).startswith("Task: training")
    assert "IPU-POD256" in plot.categories[int(pod256[0].y)]


def test_one_task_has_no_task_header(db):
    state = FilterState().with_values("task", ["inference"])
    s = ChartSpec(kind="throughput", unit_family="images/s")
    plot = build_plot(s, browse.chart_data(db, state, s))
    assert not plot.sections
    assert {r["task"] for r in plot.rows} == {"inference"}


def test_grouped_bars_are_grouped_within_their_task(db):
    plot = _bars(db, unit_family="images/s", group_by="framework")
    task = {r["result_id"]: r for r in plot.rows}
    for p in (p for s in plot.series for p in s.points):
        r = task[p.result_id]
        head = _section_of(plot, p.y)
        assert head.startswith(f"Task: {r['task']} · Framework: {r['framework']} (")


def test_an_export_cut_to_the_bars_that_fit_counts_them_in_its_header(qapp, db):
    """A slide shows the best bars that fit: a section cut short says how
    many of its own it shows ("22 of 59"), as the note says of all."""
    plot = _bars(db, unit_family="images/s")
    w = compose(plot, ExportOptions(1280, 720))
    drawn = w.chart_plot
    for at, text in drawn.sections:
        shown = sum(
            1 for s in drawn.series for p in s.points if _section_of(drawn, p.y) == text
        )
        total = int(next(t for a, t in plot.sections if a == at).rsplit("(", 1)[1][:-1])
        want = f"({shown})" if shown == total else f"({shown} of {total})"
        assert text.endswith(want), (text, shown, total)
    w.close()
