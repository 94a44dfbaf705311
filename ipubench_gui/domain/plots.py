"""Chart kinds by name, the dispatch from a ChartSpec to a Plot, and footnotes.

The Plot value lives in ``plot_model``, the kinds themselves in ``plot_kinds``;
this module is what the rest of the app imports.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ipubench_gui.domain.chartspec import ChartRows, ChartSpec
from ipubench_gui.domain.format import format_number
from ipubench_gui.domain.plot_kinds import (
    bars_plot,
    best_within,
    latency_throughput_plot,
    mlperf_plot,
    pareto_front,
    progress_plot,
    scaling_efficiency,
    scaling_plot,
)
from ipubench_gui.domain.plot_model import Plot, Point, Series
from ipubench_gui.domain.plot_vendor import vendor_plot

__all__ = [
    "KINDS",
    "Plot",
    "Point",
    "Series",
    "best_within",
    "build_plot",
    "footnote",
    "pareto_front",
    "scaling_efficiency",
]

KINDS: dict[str, str] = {
    "throughput": "Throughput comparison",
    "latency-throughput": "Latency vs throughput (inference)",
    "scaling": "Scaling with system size",
    "progress": "Generation / SDK progress",
    "mlperf": "MLPerf time to train",
    "vendor": "Vendor IPU-vs-GPU claims",
}


def build_plot(
    spec: ChartSpec, data: ChartRows, color_order: Sequence[object] = ()
) -> Plot:
    """The Plot of ``spec.kind`` for the rows the store returned."""
    rows = data.rows
    if spec.kind == "throughput":
        plot = bars_plot(data, spec.color_by, spec.group_by, color_order)
    elif spec.kind == "latency-throughput":
        plot = latency_throughput_plot(rows, spec.budget_ms, spec.log, color_order)
    elif spec.kind == "scaling":
        plot = scaling_plot(rows, color_order)
    elif spec.kind == "progress":
        plot = progress_plot(rows, color_order)
    elif spec.kind == "mlperf":
        plot = mlperf_plot(rows, color_order)
    elif spec.kind == "vendor":
        plot = vendor_plot(rows)
    else:
        raise ValueError(f"unknown chart kind {spec.kind!r}; known: {sorted(KINDS)}")
    extra: tuple[str, ...] = ()
    if data.per_point > 1:
        extra = (
            f"large selection: each point is the median of up to "
            f"{format_number(data.per_point)} rows",
        )
    if spec.kind != "throughput" and not spec.log and plot.log_y:
        plot = replace(plot, log_x=False, log_y=False)
    return replace(plot, title=spec.title or plot.title, notes=plot.notes + extra)


PRECISION_NOTE = (
    "Precision X.Y: X-bit activations and gradients, Y-bit weights "
    "(the vendor's notation)."
)
MLPERF_NOTE = (
    "MLPerf is a trademark of MLCommons Association in the United States "
    "and other countries."
)
VENDOR_NOTE = "Ratios as stated by the vendor; not measured or verified here."


def footnote(plot: Plot) -> str:
    """Sources of the plotted rows with their dates, and the notes they need."""
    seen: dict[str, str] = {}
    for r in plot.rows:
        f = r.get("source_file")
        if not f or f in seen:
            continue
        title = r.get("source_title") or f
        date = r.get("source_date")
        when = (
            f"{r.get('source_date_kind') or 'dated'} {date}"
            if date
            else "date not stated"
        )
        seen[f] = f"{title} ({when})"
    parts = []
    if seen:
        parts.append("Source: " + "; ".join(seen[k] for k in sorted(seen)) + ".")
    if any(r.get("precision") or r.get("ipu_precision") for r in plot.rows):
        parts.append(PRECISION_NOTE)
    if plot.kind == "vendor":
        parts.append(VENDOR_NOTE)
    if any(r.get("mlperf_id") for r in plot.rows):
        parts.append(MLPERF_NOTE)
    return " ".join(parts)
