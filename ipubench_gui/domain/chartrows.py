"""The rows behind a chart: colours, labels, and the best rows
of one metric in one unit (``ChartRows``), as the store and the kinds use them."""

from __future__ import annotations

import heapq
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from ipubench_gui.domain.metrics import LOWER_IS_BETTER, TASKS, per_chip_value
from ipubench_gui.domain.series_rule import SEP  # between a label's parts

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


T = TypeVar("T")


def _hashed(value: object) -> int:
    return sum(ord(c) * (i + 1) for i, c in enumerate(str(value)))


def distinct_colors(
    names: Iterable[str],
    order: Sequence[object] = (),
    fixed: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """The colour of each of ``names`` drawn together in one chart (or panel),
    no two alike while they are no more than the palette's colours.

    A name prefers the palette colour of its position in ``order`` (the
    store's values of what colours the chart, so it keeps its colour as the
    filters change), or of a hash of its text; ``fixed`` gives some names a
    colour of their own (one colour per accelerator type), which no other
    name then takes. A name keeps the colour it prefers unless a name before
    it in ``order`` prefers the same one; then it takes the next colour no
    name wears (so which of two keeps it does not follow the ranking).
    Beyond the palette's size the names first in ``names`` (the best bars:
    what a slide cut short shows) still have a colour each, and the rest
    wear the least-worn colours again (``repeats`` names them).
    """
    fixed = fixed or {}
    index = {str("(blank)" if v is None else v): i for i, v in enumerate(order)}
    n = len(PALETTE)

    def preferred(name: str) -> int:
        at = index.get(name)
        return at % n if at is not None else _hashed(name) % n

    ranked = list(dict.fromkeys(names))
    out = {m: fixed[m] for m in ranked if m in fixed}
    used = Counter(PALETTE.index(c) for c in out.values() if c in PALETTE)
    rest = [m for m in ranked if m not in out]
    head = sorted(rest[: n - len(used)], key=lambda m: (index.get(m, len(index)), m))
    late = []
    for m in head:  # first, each name no name before it prefers the colour of
        if used[preferred(m)] == 0:
            used[preferred(m)] += 1
            out[m] = PALETTE[preferred(m)]
        else:
            late.append(m)
    for m in late + rest[len(head) :]:  # then the next of the least-worn colours
        least = min(used[i] for i in range(n))
        slot = next(
            s
            for s in ((preferred(m) + k) % n for k in range(n))
            if used[s] == least
        )
        used[slot] += 1
        out[m] = PALETTE[slot]
    return out


def repeats(colors: Mapping[str, str]) -> dict[str, int]:
    """Of ``distinct_colors``'s answer, the names wearing a colour that names
    before them already wear, and how many do: more names than colours, told
    apart some other way (a line's point symbol)."""
    worn: Counter[str] = Counter()
    again = {}
    for name, color in colors.items():
        if worn[color]:
            again[name] = worn[color]
        worn[color] += 1
    return again


def config_label(row: Mapping[str, Any]) -> str:
    """A short, readable name of a configuration for axis labels."""
    parts = [
        row.get("model"),
        row.get("variant"),
        row.get("platform"),
        framework_shown(row),
    ]
    text = " · ".join(str(p) for p in parts if p)
    if row.get("batch_size") is not None:
        text += f" · bs {row['batch_size']:,}"
    return text


def shared_parts(labels: Sequence[str]) -> list[str]:
    """The parts (``SEP``) every one of ``labels`` has, in the first's order;
    none for fewer than two labels (one bar's name is its own)."""
    if len(labels) < 2:
        return []
    common = set.intersection(*(set(lb.split(SEP)) for lb in labels))
    return [p for p in labels[0].split(SEP) if p in common]


def without(label: str, parts: Sequence[str]) -> str:
    """``label`` less ``parts`` (said elsewhere); whole if nothing is left."""
    kept = [p for p in label.split(SEP) if p not in parts]
    return SEP.join(kept) if kept else label


# What a system file's framework text carries when no framework family was
# recognised in it (the store then keeps the text itself as the framework):
# a version ("CUDA 11.6", "Qualcomm Cloud AI SDK v1.8.3") or a list
# ("Triton 2.30.0 , CUDA 12.0"). No canonical framework name has either.
_SUBMITTED = re.compile(r"\d\.\d|,")


def framework_shown(row: Mapping[str, Any]) -> str | None:
    """A row's framework as charts name it: tidied (no space before a
    comma), and, where it is the submitter's own text rather than a
    framework recognised in it, said so: "Triton 2.30.0, CUDA 12.0 (as
    submitted)"."""
    fw = row.get("framework")
    if fw is None:
        return None
    shown = re.sub(r"\s+,", ",", str(fw)).strip()
    if str(fw) == str(row.get("framework_as_printed")) and _SUBMITTED.search(shown):
        return f"{shown} (as submitted)"
    return shown


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
    # rows of more than one task: each task's best picked apart (``shares``),
    # as (task, rows picked, rows of the task in the unit drawn), in order
    tasks: tuple[tuple[object, int, int], ...] = ()


def shares(sizes: Sequence[int], limit: int) -> list[int]:
    """``limit`` places shared between parts holding ``sizes`` items: evenly,
    a part with fewer items than its share giving the rest to the others."""
    out = [0] * len(sizes)
    left = limit
    by_size = sorted(range(len(sizes)), key=lambda i: sizes[i])
    for k, i in enumerate(by_size):
        out[i] = min(sizes[i], -(-left // (len(sizes) - k)))
        left -= out[i]
    return out


def task_order(tasks: Iterable[T]) -> list[T]:
    """Tasks in the order charts show them: as ``metrics.TASKS`` lists them,
    any other after by name, blank last."""
    rank: dict[object, int] = {t: i for i, t in enumerate(TASKS)}
    return sorted(set(tasks), key=lambda t: (t is None, rank.get(t, len(rank)), str(t)))


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

    drawn = [r for r, f in zip(rows, fams) if f == unit and r["metric"] == metric]
    by_task: dict[object, list[Mapping[str, Any]]] = {}
    for r in drawn:
        by_task.setdefault(r.get("task"), []).append(r)
    if len(by_task) < 2:
        picked = heapq.nsmallest(limit, drawn, key=key)
        return ChartRows(metric, tuple(picked), total, mine, plotted, 1, others)
    # training and inference figures are never ranked together: each task's
    # best, the bars shared out between the tasks
    order = task_order(by_task)
    room = shares([len(by_task[t]) for t in order], limit)
    picked, tasks = [], []
    for t, k in zip(order, room):
        picked += heapq.nsmallest(k, by_task[t], key=key)
        tasks.append((t, k, len(by_task[t])))
    return ChartRows(
        metric, tuple(picked), total, mine, plotted, 1, others, tuple(tasks)
    )
