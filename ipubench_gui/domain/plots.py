"""From a ChartSpec and its rows to a Plot (through the kind's entry in
``domain.kinds``), and the footnote a chart carries.

The Plot value lives in ``plot_model``, the kinds' builders in ``plot_kinds``
and ``plot_vendor``, their registry in ``kinds``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ipubench_gui.domain.chartrows import ChartRows
from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.format import format_number
from ipubench_gui.domain.kinds import KINDS, kind
from ipubench_gui.domain.plot_kinds import best_within, pareto_front, scaling_efficiency
from ipubench_gui.domain.plot_mlperf import mlperf_footnote
from ipubench_gui.domain.plot_model import Plot, Point, Series

__all__ = [
    "Chart",
    "Plot",
    "Point",
    "Series",
    "best_within",
    "build_plot",
    "chart_of",
    "footnote",
    "pareto_front",
    "scaling_efficiency",
]


def build_plot(
    spec: ChartSpec, data: ChartRows, color_order: Sequence[object] = ()
) -> Plot:
    """The Plot of ``spec.kind`` for the rows the store returned."""
    k = kind(spec.kind)
    plot = k.build(spec, data, color_order, k.series)
    extra: tuple[str, ...] = ()
    if data.per_point > 1:
        extra = (
            f"large selection: each point is the median of up to "
            f"{format_number(data.per_point)} rows",
        )
    if "log" in k.uses and not spec.log and plot.log_y:
        plot = replace(plot, log_x=False, log_y=False)
    return replace(plot, title=spec.title or plot.title, notes=plot.notes + extra)


PRECISION_NOTE = (
    "Precision X.Y: X-bit activations and gradients, Y-bit weights "
    "(the vendor's notation)."
)


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
    if plot.kind in KINDS and KINDS[plot.kind].note:
        parts.append(KINDS[plot.kind].note)
    mlperf = mlperf_footnote(plot.rows)
    if mlperf:
        parts.append(mlperf)
    return " ".join(parts)


@dataclass(frozen=True)
class Chart:
    """A chart as the window shows it and every export writes it."""

    plot: Plot
    subtitle: str  # the filters, in words ("" when none)
    footnote: str  # sources, dates and the notes the figures need


def chart_of(
    spec: ChartSpec,
    data: ChartRows,
    filters: FilterState,
    color_order: Sequence[object] = (),
) -> Chart:
    """The Chart of ``spec`` over the rows the store returned for ``filters``;
    ``color_order``: the values of ``spec.color_by`` in the store's order, so a
    value keeps its colour from chart to chart."""
    plot = build_plot(spec, data, color_order)
    subtitle = "" if filters.is_empty() else f"Filters: {filters.describe()}"
    return Chart(plot, subtitle, footnote(plot))
