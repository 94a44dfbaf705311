"""Explain this number: a figure from the cell as its source printed it,
through what the store did to it (numbers read, units, canonical names), to the
value shown and every ratio or derived figure built on it.

Pure functions over result rows (mappings with the results_v columns); the
window shows their lines for the selected table or comparator cell.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ipubench_gui.domain import compare
from ipubench_gui.domain.chartrows import METRIC_LABELS
from ipubench_gui.domain.comparability import not_comparable
from ipubench_gui.domain.fields import AS_PRINTED
from ipubench_gui.domain.format import format_number, shown_unit, source_name
from ipubench_gui.domain.per_chip import TIMES

Row = Mapping[str, Any]
_HM = re.compile(r"\s*(\d+)\s*h\s*(\d+)\s*m\s*")


def _where(row: Row) -> str:
    where = source_name(row)
    if row.get("table"):
        where += f", table '{row['table']}'"
        if row.get("row"):
            where += f", row {row['row']}"
    return where


def _fig(v: Any, unit: str = "") -> str:
    return f"{format_number(v)} {unit}".strip()


def printed(row: Row) -> list[str]:
    """1. The cell as the source printed it, and where."""
    text = row.get("value_as_printed")
    if text:
        return [f"1. As printed: {text!r} in {_where(row)}"]
    if row.get("mlperf_status"):
        return [
            f"1. Not printed anywhere: scored from the official logs "
            f"({row.get('runs_used')} of {row.get('runs_found')} runs used), "
            f"{_where(row)}"
        ]
    return [f"1. As given: {_fig(row.get('value'))} in {_where(row)}"]


def normalised(row: Row) -> list[str]:
    """2. What the store did to it: the number read, the unit, the names."""
    out = ["2. Normalised:"]
    text = str(row.get("value_as_printed") or "")
    value, unit = row.get("value"), str(row.get("unit") or "")
    hm = _HM.fullmatch(text)
    if hm:
        h, m = int(hm[1]), int(hm[2])
        out.append(f"   {text!r} read as {h} h × 60 + {m} min = {h * 60 + m} {unit}")
    elif text and text.replace(",", "") != text:
        out.append(f"   thousands separators dropped: {text!r} → {value:g} {unit}")
    elif text:
        out.append(f"   read as {value:g} {unit}")
    else:
        out.append(f"   stored as {value:g} {unit}")
    family = row.get("unit_family")
    if family and family not in (unit, "time"):
        out.append(
            f"   {unit} counts what one item of {row.get('model')} is: {family} "
            "(compared only with figures counting the same)"
        )
    for key in AS_PRINTED:
        said = row.get(f"{key}_as_printed")
        if said and said != row.get(key):
            out.append(f"   {key} {said!r} → canonical name {row.get(key)!r}")
    if len(out) == 1:
        out.append("   nothing changed: the figure and its names are as given")
    return out


def shown(row: Row) -> list[str]:
    """3. The value the window shows."""
    out = [f"3. Shown: {_fig(row.get('value'), shown_unit(row))}"]
    if row.get("latency_ms") is not None:
        out.append(f"   at a latency of {_fig(row['latency_ms'], 'ms')}")
    return out


def built_on(
    row: Row, others: Sequence[Row] = (), baseline: Row | None = None
) -> list[str]:
    """4. What is computed from it: per accelerator chip, ratios against the
    comparison's baseline."""
    out = ["4. Built on it:"]
    v, n = row.get("value"), row.get("accelerators")
    unit = shown_unit(row)
    if v is not None and n:
        if row.get("metric") == "throughput":
            out.append(
                f"   per accelerator chip (derived): {_fig(v)} / {n} chips = "
                f"{_fig(v / n, unit)}"
            )
        elif row.get("metric") in TIMES:
            out.append(
                f"   per accelerator chip (derived): {_fig(v)} × {n} chips = "
                f"{_fig(v * n, 'chip-' + unit)}"
            )
    if baseline is not None and baseline.get("result_id") != row.get("result_id"):
        out += _ratio(row, baseline)
    if baseline is not None and baseline.get("result_id") == row.get("result_id"):
        for other in others:
            if other.get("result_id") != row.get("result_id"):
                out += _ratio(other, row)
    if len(out) == 1:
        out.append("   nothing")
    return out


def _ratio(row: Row, base: Row) -> list[str]:
    text = compare.ratio_text(row, base)
    v, b = row.get("value"), base.get("value")
    who = f"{row.get('result_id')} against {base.get('result_id')}"
    if not_comparable(row, base):
        return [f"   {who}: no ratio, {text}"]
    if not v or not b:
        return []
    return [f"   {who}: {_fig(v)} / {_fig(b)} = {v / b:.4g}, shown as {text!r}"]


def explain(row: Row, others: Sequence[Row] = (), baseline: Row | None = None) -> str:
    """The whole explanation of ``row``'s figure, one step a line."""
    head = (
        f"{compare.column_label(row)} ({row.get('result_id')}): "
        f"{METRIC_LABELS.get(str(row.get('metric')), row.get('metric'))}"
    )
    lines = [head, *printed(row), *normalised(row), *shown(row)]
    lines += built_on(row, others, baseline)
    return "\n".join(lines)
