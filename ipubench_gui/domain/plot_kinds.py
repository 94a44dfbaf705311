"""The chart kinds' builders as pure functions: rows in, a Plot out (registered in
``domain.kinds``, whose ``along`` says what may differ along one line).

Tests check each kind's numbers against figures computed independently from
the source documents (tests/charts/test_kinds.py).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace

from ipubench_gui.domain import metrics, series_rule
from ipubench_gui.domain.chartrows import (
    ChartRows,
    config_label,
    framework_shown,
    shared_parts,
    unique_labels,
    without,
)
from ipubench_gui.domain.fields import field
from ipubench_gui.domain.format import counted, format_cell, format_number
from ipubench_gui.domain.metrics import LOWER_IS_BETTER, family
from ipubench_gui.domain.plot_model import (
    SHARED,
    Plot,
    Point,
    Row,
    Series,
    bar_series,
    bars_shown_note,
    colours_note,
    line_series,
    line_symbols,
    series_colors,
    tooltip,
)


# -- 1. throughput comparison (any single metric, following the filter) ------------
def bars_plot(
    data: ChartRows,
    color_by: str = "framework",
    group_by: str | None = None,
    color_order: Sequence[object] = (),
) -> Plot:
    """Horizontal bars of one metric in one unit, best first; with ``group_by``,
    the bars of a group stay together under a header row naming the group (a
    ``Plot.sections`` entry, no bar on it), groups ordered by their best.
    Training and inference figures are never side by side unnamed: bars of
    both tasks are in sections by task (within them, by ``group_by``)."""
    kept = list(data.rows)  # already the best N, best first (service/browse.py)
    by_task = group_by != "task" and len({r.get("task") for r in kept}) > 1

    def key(r: Row) -> tuple[object, ...]:
        task = r.get("task")
        return (
            ("(blank)" if task is None else task) if by_task else None,
            r.get(group_by) if group_by else None,
        )

    if group_by or by_task:  # a task's bars together, then a group's; by their best
        first: dict[tuple[object, ...], int] = {}
        for i, r in enumerate(kept):
            first.setdefault(key(r)[:1], i)
            first.setdefault(key(r), i)
        kept.sort(key=lambda r: (first[key(r)[:1]], first[key(r)]))
    labels = unique_labels(kept)
    unit = family(kept[0]) if kept else ""

    def colour_of(r: Row) -> str:
        v = framework_shown(r) if color_by == "framework" else r.get(color_by)
        return "(blank)" if v is None else str(v)

    # the store's order of values, named as the groups are
    named = {r.get(color_by): colour_of(r) for r in kept}
    order = [named.get(v, "(blank)" if v is None else str(v)) for v in color_order]
    keys = [key(r) for r in kept] if group_by or by_task else None
    # a task's header says how many of its rows the bars are the best of
    ranked = {("(blank)" if t is None else t): of for t, _n, of in data.tasks}
    ys, categories, sections = _grouped_rows(kept, labels, keys, group_by, ranked)
    shared = ""
    if not sections:  # what every bar's name says, said once (the title)
        both = shared_parts(categories)
        shared = " · ".join(both)
        categories = [without(c, both) for c in categories]
    groups: dict[str, list[Point]] = defaultdict(list)
    for y, r in zip(ys, kept):
        g = colour_of(r)
        groups[g].append(
            Point(r["value"], y, r["result_id"], format_number(r["value"]), tooltip(r))
        )
    series = bar_series(groups, order)
    repeat = colours_note(series, field(color_by).label.lower())
    notes = [repeat] if repeat else []
    if data.total > data.mine:
        other = counted(data.total - data.mine, "row")
        notes.append(f"{other} of other metrics not shown")
    if data.others:
        listed = ", ".join(f"{u} ({n:,})" for u, n in data.others)
        notes.append(f"{unit} only; rows counting other things not shown: {listed}")
    blocks = _task_blocks(kept, ys, data) if by_task and data.tasks else ()
    left_out = any(n < of for _t, n, of in data.tasks) or data.plotted > len(kept)
    label = metrics.label(data.metric)
    better = "lower" if data.metric in LOWER_IS_BETTER else "higher"
    plot = Plot(
        "throughput",
        f"{label} comparison",
        f"{label} ({unit}) — {better} is better",
        "",
        series,
        horizontal_bars=True,
        categories=tuple(categories),
        notes=tuple(notes),
        rows=tuple(kept),
        sections=tuple(sections),
        ranked=data.plotted,
        blocks=blocks,
        shared=shared,
    )
    if left_out:
        plot = replace(plot, notes=(*plot.notes, bars_shown_note(plot)))
    return plot


def _task_blocks(
    kept: Sequence[Row], ys: Sequence[int], data: ChartRows
) -> tuple[tuple[int, str, int], ...]:
    """Where each task's bars start (the header row above its first bar), the
    task, and how many rows its ranking held (``ChartRows.tasks``)."""
    first: dict[object, int] = {}
    for y, r in zip(ys, kept):
        first.setdefault(r.get("task"), y - 1)
    ranked = {t: of for t, _n, of in data.tasks}
    return tuple(
        (y, "(blank)" if t is None else str(t), ranked.get(t, 0))
        for t, y in first.items()
    )


def _grouped_rows(
    rows: Sequence[Row],
    labels: Sequence[str],
    keys: Sequence[tuple[object, ...]] | None,
    group_by: str | None,
    ranked: Mapping[object, int],
) -> tuple[list[int], list[str], list[tuple[int, str]]]:
    """Each row's bar position, the category labels, and the section headers:
    without ``keys`` one row per bar; with them (each row's task, where
    tasks are apart, and ``group_by`` value), a header row (its label
    blank, its name in ``sections``) above each run of one key, which also
    leaves a gap between groups: "Task: training · Framework: PyTorch (3)";
    a task's own header, of how many rows of the task (``ranked``) its bars
    are the best: "Task: training (30 of 65)". What every bar of a section's
    name says is said once, in its header ("Task: inference (30 of 1,306) ·
    all BERT-Large"), not in each bar's (a narrow chart's names were cut to
    that, and nine bars read alike)."""
    if keys is None:
        return list(range(len(rows))), list(labels), []
    ys: list[int] = []
    categories: list[str] = []
    sections: list[tuple[int, str]] = []
    both: list[str] = []
    for i, (k, label) in enumerate(zip(keys, labels)):
        if i == 0 or k != keys[i - 1]:
            size = sum(1 for o in keys if o == k)
            both = shared_parts([lb for o, lb in zip(keys, labels) if o == k])
            task, value = k
            parts = [] if task is None else [f"{field('task').label}: {task}"]
            if group_by:
                shown = "(blank)" if value is None else format_cell(value)
                parts.append(f"{field(group_by).label}: {shown}")
            of = ranked.get(task, 0) if not group_by else 0
            count = f"{size:,} of {of:,}" if of > size else f"{size:,}"
            head = f"{' · '.join(parts)} ({count})"
            # what its bars' names all say, but the group's own name
            said = [p for p in both if not group_by or p != format_cell(value)]
            tail = SHARED + " · ".join(said) if said else ""
            sections.append((len(categories), head + tail))
            categories.append("")
        ys.append(len(categories))
        categories.append(without(label, both))
    return ys, categories, sections


# -- 2. latency vs throughput --
def pareto_front(points: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """Points not beaten by another with lower-or-equal latency and higher
    throughput, in latency order (the best achievable throughput at each latency)."""
    front: list[tuple[float, float]] = []
    best = float("-inf")
    for x, y in sorted(points, key=lambda p: (p[0], -p[1])):
        if y > best:
            front.append((x, y))
            best = y
    return front


def best_within(rows: Sequence[Row], budget_ms: float) -> Row | None:
    """The highest-throughput row whose latency is within ``budget_ms``."""
    ok = [
        r
        for r in rows
        if r.get("latency_ms") is not None and r["latency_ms"] <= budget_ms
    ]
    return max(ok, key=lambda r: (r["value"], r["result_id"]), default=None)


def latency_throughput_plot(
    rows: Sequence[Row],
    along: Sequence[str],
    budget_ms: float | None = None,
    log: bool = True,
    color_order: Sequence[object] = (),
) -> Plot:
    pts = [
        r
        for r in rows
        if r.get("metric") == "throughput"
        and r.get("task") == "inference"
        and r.get("latency_ms") is not None
    ]
    best = best_within(pts, budget_ms) if budget_ms is not None else None
    workload = _workload_name(pts)
    grouping, panels = series_rule.panels(
        pts,
        along,
        lambda r: (r.get("batch_size") or 0, r["latency_ms"]),
        apart=workload,
        most_panels=LATENCY_PANELS,
    )
    # one front a workload, over all its lines (in each of its panels)
    fronts: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for r in pts:
        fronts[workload(r)].append((r["latency_ms"], r["value"]))
    series: list[Series] = []
    for panel in panels:
        title = panel.title
        shown = [r for rs in panel.grouping.lines.values() for r in rs]
        alone = len(panels) > 1 and len(panel.grouping.lines) == 1
        lines = line_series(
            panel.grouping.lines,
            lambda r: Point(
                r["latency_ms"],
                r["value"],
                r["result_id"],
                f"bs {r['batch_size']}" if r.get("batch_size") else "",
                tooltip(r),
                highlight=best is not None and r is best,
            ),
            title,
        )
        # a panel's only line: its title names it
        series += [replace(s, in_legend=False) for s in lines] if alone else lines
        kinds = {workload(r) for r in shown}
        front = pareto_front(fronts[kinds.pop()]) if len(kinds) == 1 else []
        if front:
            series.append(
                Series(
                    "Pareto front",
                    "#555555",
                    tuple(Point(x, y) for x, y in front),
                    "step",
                    dashed=True,
                    panel=title,
                    # in panels, said once in a note: a legend row each is
                    # a row less for the names of the lines
                    in_legend=len(panels) == 1,
                )
            )
    notes = (
        [f"{counted(len(rows) - len(pts), 'row')} without a latency not plotted"]
        if len(pts) < len(rows)
        else []
    )
    models = len({workload(r) for r in pts})
    if len(panels) > 1:
        notes.append("dashed grey steps: each model's Pareto front")
    elif models > 1:
        notes.append(f"no Pareto front drawn: {models} models in one plot")
    if best is not None:
        notes.append(
            f"best within {format_number(budget_ms)} ms: "
            f"{config_label(best)} — {format_number(best['value'])} "
            f"{best.get('unit', '')} at {format_number(best['latency_ms'])} ms"
        )
    elif budget_ms is not None:
        notes.append(f"nothing runs within {format_number(budget_ms)} ms")
    units = [units_of(pts)]
    return Plot(
        "latency-throughput",
        "Latency vs throughput (inference)",
        "Latency (ms) — lower is better",
        f"Throughput ({', '.join(map(str, units))}) — higher is better",
        tuple(series),
        log_x=log,
        log_y=log,
        vline=budget_ms,
        legend_corner="br",
        notes=tuple(notes),
        rows=tuple(pts),
        shared=grouping.shared,
    )


# Latency panels hold one model each: the default view's 13 models (14 panels
# with one split) in panels rather than one plot of every model's lines.
LATENCY_PANELS = 16


def _workload_name(rows: Sequence[Row]) -> Callable[[Row], str]:
    """A row's workload, as a panel of it is named: its model, and what its
    figures count where the model's rows count more than one thing."""
    units: dict[object, set[str]] = defaultdict(set)
    for r in rows:
        units[r.get("model")].add(family(r))

    def name(r: Row) -> str:
        model = series_rule.show("model", r.get("model") or "(blank)")
        return f"{model} ({family(r)})" if len(units[r.get("model")]) > 1 else model

    return name


def units_of(rows: Iterable[Row]) -> str:
    """What the rows count, for an axis title ("images/s, sequences/s")."""
    return ", ".join(sorted({family(r) for r in rows})) or "items/s"


# -- 3. scaling --
def scaling_families(
    rows: Sequence[Row], along: Sequence[str]
) -> tuple[series_rule.Grouping, list[series_rule.Panel]]:
    """Training throughput rows joined like with like (only the system size
    differs along a line), keeping lines measured at two sizes or more; and
    those lines in panels (``series_rule.panels``)."""
    return series_rule.panels(
        [
            r
            for r in rows
            if r.get("metric") == "throughput"
            and r.get("task") == "training"
            and r.get("accelerators")
        ],
        along,
        lambda r: r["accelerators"],
        lambda rs: len({r["accelerators"] for r in rs}) >= 2,
    )


def scaling_efficiency(row: Row, base: Row) -> float:
    """Per-accelerator throughput relative to the family's smallest system."""
    if row.get("per_accelerator"):  # figures already per chip
        return float(row["value"] / base["value"])
    per_chip = row["value"] / row["accelerators"]
    return float(per_chip / (base["value"] / base["accelerators"]))


def scaling_plot(
    rows: Sequence[Row], along: Sequence[str], color_order: Sequence[object] = ()
) -> Plot:
    grouping, panels = scaling_families(rows, along)
    fams = grouping.lines
    series: list[Series] = []
    for panel in panels:
        series += _scaling_lines(panel.grouping.lines, panel.title)
    sizes = {r["accelerators"] for rs in fams.values() for r in rs}
    ticks = tuple((float(n), str(n)) for n in sorted(sizes))
    return Plot(
        "scaling",
        "Scaling with system size",
        "Accelerators (log2 scale)",
        f"Throughput ({units_of(r for rs in fams.values() for r in rs)})"
        " — higher is better",
        tuple(series),
        log2_x=True,
        log_y=True,
        x_ticks=ticks,
        legend_corner="tl",
        notes=(
            "dashed: ideal linear scaling from the smallest system; "
            "labels: scaling efficiency",
        ),
        rows=tuple(r for rs in fams.values() for r in rs),
        shared=grouping.shared,
    )


def _scaling_lines(fams: dict[str, list[Row]], panel: str) -> list[Series]:
    """Each family's line, efficiency written at its points, and its ideal
    (dashed, the same colour): one panel's worth."""
    colors = series_colors(list(fams))
    symbols = line_symbols(colors)
    series = []
    for name, rs in sorted(fams.items()):
        base = rs[0]
        color = colors[name]
        pts = []
        for r in rs:
            eff = scaling_efficiency(r, base)
            # Efficiency at every point but the baseline (100% by definition);
            # the builder thins labels when a chart is too crowded to read them.
            pts.append(
                Point(
                    r["accelerators"],
                    r["value"],
                    r["result_id"],
                    "" if r is base else f"{eff:.0%}",
                    tooltip(r) + f"\nscaling efficiency {eff:.1%}",
                )
            )
        series.append(
            Series(name, color, tuple(pts), "line", symbol=symbols[name], panel=panel)
        )
        top = rs[-1]["accelerators"]
        ideal = base["value"] / base["accelerators"]
        if base.get("per_accelerator"):  # ideal per chip: flat
            ideal = base["value"] / top
        series.append(
            Series(
                f"{name} (ideal)",
                color,
                (Point(base["accelerators"], base["value"]), Point(top, ideal * top)),
                "line",
                dashed=True,
                in_legend=False,
                panel=panel,
            )
        )
    return series


# -- 4. generation / SDK progress --
def progress_groups(rows: Sequence[Row], along: Sequence[str]) -> series_rule.Grouping:
    """Results identical but for generation and SDK, measured on more than one
    of them, oldest first (by generation, then SDK)."""
    gen_order: dict[str | None, int] = {"IPU Mk2 Classic": 0, "Bow": 1}
    return series_rule.group(
        [
            r
            for r in rows
            if r.get("metric") == "throughput" and r.get("task") == "training"
        ],
        along,
        lambda r: (gen_order.get(r.get("generation"), 9), r.get("sdk_sort") or 0),
        lambda rs: len({(r.get("generation"), r.get("sdk_version")) for r in rs}) >= 2,
    )


def progress_plot(
    rows: Sequence[Row], along: Sequence[str], color_order: Sequence[object] = ()
) -> Plot:
    grouping = progress_groups(rows, along)
    groups = grouping.lines
    order = [str(v) for v in color_order]
    labels: list[str] = []
    by_gen: dict[str, list[Point]] = defaultdict(list)
    for name, rs in sorted(groups.items()):
        base = rs[0]
        for r in rs:
            speedup = r["value"] / base["value"]
            y = len(labels)
            labels.append(f"{name} · {r['generation']} {r['sdk_version']}")
            by_gen[str(r["generation"])].append(
                Point(
                    speedup,
                    y,
                    r["result_id"],
                    f"{speedup:.2f}×",
                    tooltip(r) + f"\n{speedup:.2f}× the {base['generation']} "
                    f"{base['sdk_version']} figure",
                )
            )
    series = bar_series(by_gen, order)
    return Plot(
        "progress",
        "Generation / SDK progress",
        "Speed-up over the oldest generation and SDK (×) — higher is better",
        "",
        series,
        horizontal_bars=True,
        categories=tuple(labels),
        notes=("each group: identical but for generation and SDK",),
        rows=tuple(r for rs in groups.values() for r in rs),
        shared=grouping.shared,
    )
