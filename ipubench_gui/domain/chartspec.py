"""ChartSpec (what to draw) and the pure data derivations behind each chart."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

METRIC_LABELS = {
    "throughput": "Throughput",
    "latency": "Latency",
    "time_to_train": "Time to train",
    "time_to_result": "Time to result",
}
LOWER_IS_BETTER = {"latency", "time_to_train", "time_to_result"}

# Okabe & Ito's colour-blind-safe palette, then Paul Tol's muted set for more.
PALETTE: tuple[str, ...] = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#CC79A7",
    "#56B4E9",
    "#D55E00",
    "#F0E442",
    "#000000",
    "#332288",
    "#88CCEE",
    "#44AA99",
    "#117733",
    "#999933",
    "#DDCC77",
    "#CC6677",
    "#882255",
    "#AA4499",
    "#DDDDDD",
)


@dataclass(frozen=True)
class ChartSpec:
    """What the canvas draws. Data fields change the rows; style fields do not."""

    kind: str = "bars"
    metric: str | None = None  # None: follow the metric filter, else throughput
    max_bars: int = 60
    # style fields: the same rows, drawn differently
    color_by: str = "framework"
    log_x: bool = False
    title: str = ""

    STYLE_FIELDS = ("color_by", "log_x", "title")

    def data_key(self) -> tuple:
        """The fields that decide which rows are drawn (a change means re-query)."""
        return tuple(
            getattr(self, f.name)
            for f in fields(self)
            if f.name not in self.STYLE_FIELDS
        )

    def with_(self, **kw: Any) -> ChartSpec:
        return replace(self, **kw)


def stable_color(value: object, order: Sequence[object] = ()) -> str:
    """The palette colour of a value: its position in ``order`` when known (so a
    platform keeps its colour across charts), else a hash of its text."""
    if value in order:
        return PALETTE[list(order).index(value) % len(PALETTE)]
    h = sum(ord(c) * (i + 1) for i, c in enumerate(str(value)))
    return PALETTE[h % len(PALETTE)]


def config_label(row: Mapping[str, Any]) -> str:
    """A short, readable name of a configuration for axis labels."""
    parts = [
        row.get("model"),
        row.get("variant"),
        row.get("platform"),
        row.get("framework"),
    ]
    text = " · ".join(str(p) for p in parts if p)
    if row.get("batch_size") is not None:
        text += f" · bs {row['batch_size']:,}"
    return text


DISAMBIGUATE_BY = (
    "dataset",
    "sdk_version",
    "precision",
    "variant",
    "latency_ms",
    "result_id",
)


def unique_labels(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """Configuration labels, with the first field that tells apart rows whose
    labels would otherwise be the same (e.g. Cluster-GCN on five datasets)."""
    labels = [config_label(r) for r in rows]
    for key in DISAMBIGUATE_BY:
        dup = Counter(labels)
        if all(n == 1 for n in dup.values()):
            break
        labels = [
            f"{lab} · {_suffix(key, r.get(key))}"
            if dup[lab] > 1 and r.get(key) is not None
            else lab
            for lab, r in zip(labels, rows)
        ]
    return labels


def _suffix(key: str, v: object) -> str:
    return f"{v} ms" if key == "latency_ms" else str(v)


@dataclass(frozen=True)
class Bar:
    result_id: str
    label: str
    value: float
    group: str
    color: str
    row: Mapping[str, Any]


@dataclass(frozen=True)
class BarData:
    """Bars of one metric in one unit, best first, with what was left out and why."""

    metric: str
    unit: str
    bars: tuple[Bar, ...]
    groups: tuple[tuple[str, str], ...]  # (group, colour) in legend order
    total_rows: int
    other_metric_rows: int
    other_unit_rows: int
    dropped_for_limit: int

    @property
    def lower_is_better(self) -> bool:
        return self.metric in LOWER_IS_BETTER

    @property
    def axis_title(self) -> str:
        direction = "lower is better" if self.lower_is_better else "higher is better"
        return (
            f"{METRIC_LABELS.get(self.metric, self.metric)} ({self.unit}) — {direction}"
        )

    def notes(self) -> list[str]:
        out = []
        if self.other_metric_rows:
            out.append(f"{self.other_metric_rows} rows of other metrics not plotted")
        if self.other_unit_rows:
            out.append(f"{self.other_unit_rows} rows in other units not plotted")
        if self.dropped_for_limit:
            out.append(
                f"showing the best {len(self.bars)} of "
                f"{len(self.bars) + self.dropped_for_limit}"
            )
        return out


def chart_metric(spec: ChartSpec, selected_metrics: frozenset) -> str:
    """The metric a chart plots: the spec's, else the single filtered one, else
    throughput. Mixed metrics are never put on one axis."""
    if spec.metric:
        return spec.metric
    if len(selected_metrics) == 1:
        return str(next(iter(selected_metrics)))
    return "throughput"


@dataclass(frozen=True)
class ChartRows:
    """What the store returns for a bar chart: the best rows of one metric in
    one unit, and how many filtered rows were left out and why."""

    metric: str
    rows: tuple[Mapping[str, Any], ...]
    total: int  # filtered rows of any metric
    mine: int  # of which of this metric
    plotted: int  # of which in the unit drawn


def make_bars(
    spec: ChartSpec, data: ChartRows, color_order: Sequence[object] = ()
) -> BarData:
    """Bars from the store's rows; colour grouping follows ``spec.color_by``."""
    kept = list(data.rows)
    unit = str(kept[0]["unit"]) if kept else ""
    order = [_group(v) for v in color_order]
    bars = tuple(
        Bar(
            r["result_id"],
            label,
            float(r["value"]),
            g := _group(r.get(spec.color_by)),
            stable_color(g, order),
            r,
        )
        for r, label in zip(kept, unique_labels(kept))
    )
    seen: dict[str, str] = {}
    for b in bars:
        seen.setdefault(b.group, b.color)
    return BarData(
        data.metric,
        unit,
        bars,
        tuple(sorted(seen.items())),
        data.total,
        data.total - data.mine,
        data.mine - data.plotted,
        data.plotted - len(kept),
    )


def _group(v: object) -> str:
    return "(blank)" if v is None else str(v)
