"""From a ChartSpec and its rows to a Plot (through the kind's entry in
``domain.kinds``), and the footnote a chart carries.

The Plot value lives in ``plot_model``, the kinds' builders in ``plot_kinds``
and ``plot_vendor``, their registry in ``kinds``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ipubench_gui.domain.chartrows import ChartRows
from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.filters import FilterState, Names
from ipubench_gui.domain.format import counted, format_number, yours
from ipubench_gui.domain.kinds import KINDS, kind
from ipubench_gui.domain.metrics import CHIP_TIMES
from ipubench_gui.domain.per_chip import LABEL as CHIP_LABEL
from ipubench_gui.domain.per_chip import NOTE as CHIP_NOTE
from ipubench_gui.domain.per_chip import (
    chip_time_title,
    chip_time_unit,
    per_chip_rows,
)
from ipubench_gui.domain.plot_kinds import best_within, pareto_front, scaling_efficiency
from ipubench_gui.domain.plot_mlperf import mlperf_footnote
from ipubench_gui.domain.plot_model import Plot, Point, Row, Series

__all__ = [
    "Chart",
    "Plot",
    "Point",
    "Series",
    "best_within",
    "build_plot",
    "chart_of",
    "footnote",
    "subtitle",
    "pareto_front",
    "scaling_efficiency",
]


def build_plot(
    spec: ChartSpec, data: ChartRows, color_order: Sequence[object] = ()
) -> Plot:
    """The Plot of ``spec.kind`` for the rows the store returned."""
    k = kind(spec.kind)
    dropped = 0
    per_chip = spec.per_accelerator and k.rows != "comparisons"
    if per_chip:
        chip_rows, dropped = per_chip_rows(data.rows)
        data = replace(data, rows=tuple(chip_rows))
    plot = k.build(spec, data, color_order, k.along)
    extra: tuple[str, ...] = ()
    if data.per_point > 1:
        extra = (
            f"large selection: each point is the median of up to "
            f"{format_number(data.per_point)} rows",
        )
    if "log" in k.uses and not spec.log and plot.log_y:
        plot = replace(plot, log_x=False, log_y=False)
    if per_chip:
        plot = _per_chip_labels(plot, dropped)
    mine = frozenset(r["result_id"] for r in data.rows if yours(r))
    return replace(
        plot,
        title=spec.title or plot.title,
        notes=plot.notes + extra,
        yours=mine & frozenset(plot.point_ids()),
    )


VENDOR_SOURCE = "Vendor page"  # results_v.source of the vendor's own tables
_XY = re.compile(r"\d+\.\d+")
PRECISION_NOTE = (
    "Precision X.Y: X-bit activations and gradients, Y-bit weights "
    "(the vendor's notation)."
)


def vendor_precision(row: Row) -> bool:
    """Whether ``row`` is a vendor-page figure whose precision is written in
    the vendor's X.Y notation (what ``PRECISION_NOTE`` explains). MLPerf
    results (even those a vendor page cites) and imported rows are not."""
    precision = str(row.get("precision") or row.get("ipu_precision") or "")
    return row.get("source") == VENDOR_SOURCE and bool(_XY.fullmatch(precision))


def _per_chip_labels(plot: Plot, dropped: int) -> Plot:
    """Say on the chart itself that its figures are per chip and derived: in
    the value axis's title, every legend entry, and a note. Times multiplied
    by chips are chip-minutes, and their axis says so in full."""
    bars = plot.horizontal_bars
    notes = plot.notes + (CHIP_NOTE,)
    if dropped:
        notes += (f"{counted(dropped, 'row')} without an accelerator count not shown",)
    title = plot.x_title if bars else plot.y_title
    units = {r.get("system_unit") for r in plot.rows}
    tag = "per chip"
    if plot.rows and all(r.get("metric") in CHIP_TIMES for r in plot.rows):
        unit = str(units.pop()) if len(units) == 1 else "min"
        title, tag = chip_time_title(unit), chip_time_unit(unit)
    else:
        title += f" — {CHIP_LABEL}"
    return replace(
        plot,
        x_title=title if bars else plot.x_title,
        y_title=plot.y_title if bars else title,
        series=tuple(replace(s, name=f"{s.name} ({tag})") for s in plot.series),
        notes=notes,
    )


# The vendor's stated comparisons are drawn whatever the filters say; a
# subtitle naming the filters read as if they had chosen what is shown.
IGNORES_FILTERS = "Every stated comparison (the filters do not apply to this chart)"


def subtitle(filters: str, plot: Plot) -> str:
    """A chart's subtitle: the filters in words, and what every line shown
    shares (their legends name only what differs)."""
    parts = [f"Filters: {filters}"] if filters else []
    if plot.shared:
        parts.append(f"All shown: {plot.shared}")
    return " — ".join(parts)


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
    if any(vendor_precision(r) for r in plot.rows):
        parts.append(PRECISION_NOTE)
    if plot.kind in KINDS and KINDS[plot.kind].note:
        parts.append(KINDS[plot.kind].note)
    parts += plot.footnotes
    mlperf = mlperf_footnote(plot.rows)
    if mlperf:
        parts.append(mlperf)
    if any(r.get("per_accelerator") for r in plot.rows) and CHIP_NOTE not in plot.notes:
        parts.append(CHIP_NOTE)
    return " ".join(parts)


@dataclass(frozen=True)
class Chart:
    """A chart as the window shows it and every export writes it."""

    plot: Plot
    subtitle: str  # the filters, in words, and what every line shares
    footnote: str  # sources, dates and the notes the figures need


def chart_of(
    spec: ChartSpec,
    data: ChartRows,
    filters: FilterState,
    color_order: Sequence[object] = (),
    names: Names | None = None,
) -> Chart:
    """The Chart of ``spec`` over the rows the store returned for ``filters``;
    ``color_order``: the values of ``spec.color_by`` in the store's order, so a
    value keeps its colour from chart to chart; ``names``: how the filters'
    values are named (``FilterState.chips``)."""
    plot = build_plot(spec, data, color_order)
    if kind(spec.kind).rows == "comparisons":  # drawn whatever the filters
        sub = subtitle("", plot)
        if not filters.is_empty():
            sub = " — ".join(p for p in (IGNORES_FILTERS, sub) if p)
    else:
        sub = subtitle("" if filters.is_empty() else filters.describe(names), plot)
    return Chart(plot, spec.subtitle or sub, footnote(plot))
