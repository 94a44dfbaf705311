"""ChartSpec: what to draw, as an immutable value, and the metric it plots."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

# Dimensions a bar chart can be coloured and grouped by (chart options, CLI).
COLOR_CHOICES: tuple[str, ...] = (
    "framework",
    "platform",
    "generation",
    "sdk_version",
    "precision",
    "model",
    "dataset",
    "source_file",
)
GROUP_CHOICES: tuple[str | None, ...] = (
    None,
    "model",
    "platform",
    "framework",
    "generation",
    "dataset",
)


@dataclass(frozen=True)
class ChartSpec:
    """What the canvas draws. Data fields change the rows; style fields do not."""

    kind: str = "throughput"  # a key of domain.kinds.KINDS
    metric: str | None = None  # None: follow the metric filter, else throughput
    max_bars: int = 60
    # what the bars count ("images/s"); None: the largest group of the rows
    unit_family: str | None = None
    # figures per accelerator chip (domain/per_chip.py): derived, labelled so
    per_accelerator: bool = False
    # the MLPerf chart: one benchmark (a model; None: the one with the most
    # results) and the closed division unless Open results are asked for too
    benchmark: str | None = None
    open_division: bool = False
    # style fields: the same rows, drawn differently
    color_by: str = "framework"
    group_by: str | None = None
    log: bool = True  # log axes where the kind offers them
    budget_ms: float | None = None  # latency budget (latency-throughput)
    title: str = ""
    subtitle: str = ""

    STYLE_FIELDS = ("color_by", "group_by", "log", "budget_ms", "title", "subtitle")

    def data_key(self) -> tuple[object, ...]:
        """The fields that decide which rows are drawn (a change means re-query)."""
        return tuple(
            getattr(self, f.name)
            for f in fields(self)
            if f.name not in self.STYLE_FIELDS
        )

    def with_(self, **kw: Any) -> ChartSpec:
        return replace(self, **kw)

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def chart_metric(spec: ChartSpec, selected_metrics: frozenset[object]) -> str:
    """The metric a chart plots: the spec's, else the single filtered one, else
    throughput. Mixed metrics are never put on one axis."""
    if spec.metric:
        return spec.metric
    if len(selected_metrics) == 1:
        return str(next(iter(selected_metrics)))
    return "throughput"
