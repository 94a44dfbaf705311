"""Training and inference figures never side by side unnamed: a bar chart of
both tasks is in sections named by task, in the window and in exports."""

from __future__ import annotations

import pytest

from ipubench_gui.charts.export import ExportOptions, compose
from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.plot_model import SHARED
from ipubench_gui.domain.plots import build_plot
from ipubench_gui.service import browse
from ipubench_gui.store.query import queries as q


def _bars(db, **spec):
    s = ChartSpec(kind="throughput", **spec)
    return build_plot(s, browse.chart_data(db, FilterState(), s))


def _section_of(plot, y: float) -> str:
    return max((at, t) for at, t in plot.sections if at < y)[1]


def test_training_and_inference_bars_are_in_sections_named_by_task(db):
    """The images/s bars hold the vendor's IPU-POD256 ResNet-50 training
    figure (365,040 images/s in the seed's table) beside inference
    results: each bar sits under the header of its own task, each task's
    bars are its own best (ranked apart, the bars shared out), and each
    header says of how many of the task's rows (counted here in SQL)."""
    plot = _bars(db, unit_family="images/s")
    task = {r["result_id"]: r["task"] for r in plot.rows}
    assert set(task.values()) == {"training", "inference"}
    bars = [p for s in plot.series for p in s.points]
    for p in bars:
        assert _section_of(plot, p.y).startswith(f"Task: {task[p.result_id]} ("), p
    # each header less what its bars all share (test_bar_names)
    heads = {t.split(" (")[0]: t.split(SHARED)[0] for _y, t in plot.sections}
    assert sorted(heads) == ["Task: inference", "Task: training"]
    counts = {}
    for name in ("training", "inference"):
        n, best = db.run(
            q.Query(
                "SELECT count(*), list(result_id ORDER BY value DESC, result_id) "
                "FROM results_v WHERE metric = 'throughput' AND task = $t AND "
                "coalesce(unit_family, unit) = 'images/s'",
                {"t": name},
            )
        ).rows[0]
        counts[name] = n
        mine = sorted((p for p in bars if task[p.result_id] == name), key=lambda p: p.y)
        assert [p.result_id for p in mine] == best[: len(mine)]  # its best, in order
        assert heads[f"Task: {name}"] == f"Task: {name} ({len(mine):,} of {n:,})"
    # the 60 bars shared: 30 each, unless a task has fewer rows
    training = min(counts["training"], max(30, 60 - counts["inference"]))
    assert len(bars) == min(60, sum(counts.values()))
    assert sum(1 for p in bars if task[p.result_id] == "training") == training
    pod256 = [p for p in bars if p.x == 365040]
    assert len(pod256) == 1
    assert _section_of(plot, pod256[0].y).startswith("Task: training")
    assert "IPU-POD256" in plot.categories[int(pod256[0].y)]
    each = [n for n in plot.notes if n.startswith("the best of each task shown: ")]
    assert len(each) == 1 and f"of {counts['training']:,} training" in each[0]


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


@pytest.mark.scale
@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)])
def test_an_export_cut_to_the_bars_that_fit_keeps_each_task(qapp, db, size):
    """A slide shows the bars that fit, shared between the tasks (each
    task's best first): both tasks' headers are on it, each saying how many
    of the task's rows its bars are the best of, as the note does."""
    plot = _bars(db, unit_family="images/s")
    w = compose(plot, ExportOptions(*size))
    drawn = w.chart_plot
    whole = {t.split(" (")[0]: t.split(SHARED)[0] for _y, t in plot.sections}
    names = [t.split(" (")[0] for _y, t in drawn.sections]
    assert names == list(whole)  # both tasks, in the window's order
    mine: dict[str, list[str]] = {}
    for p in (p for s in drawn.series for p in s.points):
        mine.setdefault(_section_of(drawn, p.y).split(" (")[0], []).append(p.result_id)
    ranked = {
        n: [
            p.result_id
            for p in sorted(
                (
                    p
                    for s in plot.series
                    for p in s.points
                    if _section_of(plot, p.y).startswith(n)
                ),
                key=lambda p: p.y,
            )
        ]
        for n in whole
    }
    parts = []
    for (_y, text), name in zip(drawn.sections, names):
        n = len(mine[name])
        assert abs(n - len(mine[names[0]])) <= 1  # the room shared evenly
        assert sorted(mine[name]) == sorted(ranked[name][:n])  # the task's best
        of = whole[name].rsplit(" of ", 1)[1]
        assert text.split(SHARED)[0] == f"{name} ({n:,} of {of}"
        parts.append(f"{n:,} of {of[:-1]} {name.removeprefix('Task: ')}")
    assert f"the best of each task shown: {', '.join(parts)}" in drawn.notes
    w.close()


@pytest.mark.scale
def test_an_export_cut_short_names_the_sources_of_the_bars_it_draws(qapp, db):
    """The window's 30 inference bars cite MLPerf Inference v2.0-v3.0; the
    11 that fit a 1920x1080 slide are v2.1 and v3.0 results only: the slide's
    footnote names and counts the bars it draws, not the window's."""
    from ipubench_gui.domain.plots import footnote

    plot = _bars(db)
    w = compose(plot, ExportOptions(1920, 1080, footnote=footnote(plot)))
    drawn = w.chart_plot
    ids = {p.result_id for s in drawn.series for p in s.points}
    assert (
        {r["result_id"] for r in drawn.rows}
        == ids
        < {r["result_id"] for r in plot.rows}
    )
    text = w.chart_footer.item.toPlainText()
    assert text.endswith(footnote(drawn)) and footnote(drawn) != footnote(plot)
    rounds = {r["mlperf_round"] for r in drawn.rows if r.get("mlperf_round")}
    left = {r["mlperf_round"] for r in plot.rows if r.get("mlperf_round")} - rounds
    assert left  # the window's chart cites rounds whose bars the slide leaves out
    for r in left:
        assert f"Inference v{r} results" not in text
    for r in rounds:
        assert f"Inference v{r} results" in text
    w.close()
