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

    kind: str = "throughput"  # a key of domain.plots.KINDS
    metric: str | None = None  # None: follow the metric filter, else throughput
    max_bars: int = 60
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

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ChartSpec:
        """Known keys with values of the right type; raises ValueError otherwise."""
        if not isinstance(data, dict):
            raise ValueError("chart options must be an object")
        known = {f.name: f for f in fields(cls)}
        kw = {}
        for k, v in data.items():
            if k not in known:
                continue
            default = getattr(cls(), k)
            if (
                default is not None
                and v is not None
                and not isinstance(v, type(default))
                and not (isinstance(default, float) and isinstance(v, int))
            ):
                raise ValueError(f"chart option {k!r} has the wrong type")
            kw[k] = v
        spec = cls(**kw)
        from ipubench_gui.domain.plots import KINDS

        if spec.kind not in KINDS:
            raise ValueError(f"unknown chart kind {spec.kind!r}")
        return spec


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


def chart_metric(spec: ChartSpec, selected_metrics: frozenset[object]) -> str:
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
    per_point: int = 1  # >1: each row is a median over this many rows at most


def chart_unit(
    counts: Sequence[tuple[str, str, int]], metric: str
) -> tuple[str | None, int, int, int]:
    """From filtered row counts per (metric, unit): the unit a chart of ``metric``
    draws (its most common; on a tie the alphabetically first), and how many rows
    there are in all, of ``metric``, and of ``metric`` in that unit."""
    total = sum(n for _, _, n in counts)
    mine = [(n, unit) for m, unit, n in counts if m == metric]
    if not mine:
        return None, total, 0, 0
    plotted, unit = max(mine, key=lambda nu: (nu[0], [-ord(c) for c in nu[1]]))
    return unit, total, sum(n for n, _ in mine), plotted


def best_rows(rows: Sequence[Mapping[str, Any]], metric: str, limit: int) -> ChartRows:
    """The bar chart's rows picked from every filtered row, already fetched: the
    same answer as the store's Top-N query (``fetch.chart_rows``), for small
    results where a second query would cost more than the sort."""
    counts = Counter((r["metric"], r["unit"]) for r in rows)
    unit, total, mine, plotted = chart_unit(
        [(m, u, n) for (m, u), n in counts.items()], metric
    )
    if unit is None:
        return ChartRows(metric, (), total, 0, 0)
    sign = 1 if metric in LOWER_IS_BETTER else -1
    picked = sorted(
        (r for r in rows if r["metric"] == metric and r["unit"] == unit),
        key=lambda r: (
            r["value"] is None,  # NULLS LAST, as DuckDB sorts
            sign * r["value"] if r["value"] is not None else 0.0,
            r["result_id"],
        ),
    )
    return ChartRows(metric, tuple(picked[:limit]), total, mine, plotted)
