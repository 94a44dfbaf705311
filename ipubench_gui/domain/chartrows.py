"""The rows behind a chart: colours, labels, and the best rows
of one metric in one unit (``ChartRows``), as the store and the kinds use them."""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ipubench_gui.domain.metrics import LOWER_IS_BETTER, per_chip_value

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
    "scenario",  # MLPerf Inference: one system's Offline and Server figures
    "mlperf_round",  # a system listed again in a later round
    "result_id",
)


def unique_labels(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """Configuration labels, with the first field that tells apart rows whose
    labels would otherwise be the same (e.g. Cluster-GCN on five datasets); a
    field the rows of one label share is not added to them."""
    labels = [config_label(r) for r in rows]
    for key in DISAMBIGUATE_BY:
        dup = Counter(labels)
        if all(n == 1 for n in dup.values()):
            break
        values: dict[str, set[object]] = {}
        for lab, r in zip(labels, rows):
            values.setdefault(lab, set()).add(r.get(key))
        labels = [
            f"{lab} · {_suffix(key, r.get(key))}"
            if dup[lab] > 1 and len(values[lab]) > 1 and r.get(key) is not None
            else lab
            for lab, r in zip(labels, rows)
        ]
    return labels


def _suffix(key: str, v: object) -> str:
    return f"{v} ms" if key == "latency_ms" else str(v)


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
    # the unit families of this metric not drawn, with their row counts
    others: tuple[tuple[str, int], ...] = ()


def chart_unit(
    counts: Sequence[tuple[str, str, int]], metric: str, wanted: str | None = None
) -> tuple[str | None, int, int, int, tuple[tuple[str, int], ...]]:
    """From filtered row counts per (metric, unit family): the family a chart of
    ``metric`` draws (``wanted`` if the rows have it, else the most common; on
    a tie the alphabetically first: images/s never share an axis with nodes/s),
    how many rows there are in all, of ``metric``, of ``metric`` in that family,
    and the other families with their counts (largest first)."""
    total = sum(n for _, _, n in counts)
    mine = [(n, unit) for m, unit, n in counts if m == metric]
    if not mine:
        return None, total, 0, 0, ()
    plotted, unit = max(mine, key=lambda nu: (nu[0], [-ord(c) for c in nu[1]]))
    for n, u in mine:
        if u == wanted:
            plotted, unit = n, u
    others = tuple(
        (u, n) for n, u in sorted(mine, key=lambda nu: (-nu[0], nu[1])) if u != unit
    )
    return unit, total, sum(n for n, _ in mine), plotted, others


def best_rows(
    rows: Sequence[Mapping[str, Any]],
    metric: str,
    limit: int,
    wanted: str | None = None,
    per_chip: bool = False,
) -> ChartRows:
    """The bar chart's rows picked from every filtered row, already fetched: the
    same answer as the store's Top-N query (``service.browse.chart_rows``), for small
    results where a second query would cost more than the sort."""
    # each row's family once (metrics.family, inlined: a call per row was a
    # visible part of a change), kept in one list: no object per row outlives
    # the line (a tuple per row woke the garbage collector over the store's
    # rows), then the best ``limit`` of the unit drawn by a heap, not a sort
    rows = rows if isinstance(rows, list) else list(rows)
    fams = [str(r.get("unit_family") or r.get("unit") or "") for r in rows]
    counts = Counter(zip([r["metric"] for r in rows], fams))
    unit, total, mine, plotted, others = chart_unit(
        [(m, u, n) for (m, u), n in counts.items()], metric, wanted
    )
    if unit is None:
        return ChartRows(metric, (), total, 0, 0)
    sign = 1 if metric in LOWER_IS_BETTER else -1

    def figure(r: Mapping[str, Any]) -> float | None:
        v: float | None = r["value"]
        n = r.get("accelerators")
        if not per_chip or v is None:
            return v
        if not n:
            return None
        return per_chip_value(metric, v, n)

    def key(r: Mapping[str, Any]) -> tuple[bool, float, str]:
        f = figure(r)
        return (f is None, sign * (f or 0.0), r["result_id"])  # NULLS LAST

    picked = heapq.nsmallest(
        limit,
        (r for r, f in zip(rows, fams) if f == unit and r["metric"] == metric),
        key=key,
    )
    return ChartRows(metric, tuple(picked), total, mine, plotted, 1, others)
