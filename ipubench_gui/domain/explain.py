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

from ipubench_gui.domain import compare, metrics
from ipubench_gui.domain.comparability import not_comparable
from ipubench_gui.domain.fields import AS_PRINTED
from ipubench_gui.domain.format import counted, format_number, shown_unit, source_name
from ipubench_gui.domain.metrics import CHIP_TIMES
from ipubench_gui.domain.per_chip import chip_time_words, per_chip

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
    if row.get("mlperf_status") and row.get("runs_found") is not None:
        # an MLPerf Training time is the app's own score of the runs' logs
        # (its two-decimal text is ours); a vendor page sharing the result
        # printed its own. An Inference figure is a line its log prints.
        out = [
            f"1. Scored here from the official logs ({row.get('runs_used')} of "
            f"{row.get('runs_found')} runs used; no log prints a time to train), "
            f"{_where(row)}"
        ]
        said = row.get("vendor_value_as_printed")
        if said:
            agree = str(row.get("sources_agree") or "")
            out.append(
                f"   As printed: {said!r} on the vendor's page "
                f"({row.get('vendor_source_file')})"
                + (
                    f": {agree}"
                    if agree and agree != "agrees"
                    else ", as the logs give"
                )
            )
        return out
    if text:
        return [f"1. As printed: {text!r} in {_where(row)}"]
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


def shown(row: Row, per_chip_on: bool = False) -> list[str]:
    """3. The value the window shows: per accelerator chip when the window
    shows figures per chip, the very number of the cell."""
    derived = _per_chip(row) if per_chip_on else None
    if derived is not None:
        words, arithmetic, result = derived
        out = [f"3. Shown: {result} = {arithmetic}, {words}"]
    else:
        out = [f"3. Shown: {_fig(row.get('value'), shown_unit(row))}"]
    if row.get("latency_ms") is not None:
        out.append(f"   at a latency of {_fig(row['latency_ms'], 'ms')}")
    return out


def _per_chip(row: Row) -> tuple[str, str, str] | None:
    """The row's figure per accelerator chip: what it is, its arithmetic and
    its value as shown ("chip-minutes (time × accelerators, derived)",
    "19.64 min × 16 chips", "314.24 chip-minutes"); None without one."""
    pc = per_chip(row)
    if pc is None:
        return None
    v, n, unit = row["value"], row["accelerators"], shown_unit(row)
    result = _fig(pc["value"], shown_unit(pc))
    if row.get("metric") in CHIP_TIMES:
        return chip_time_words(unit), f"{_fig(v, unit)} × {counted(n, 'chip')}", result
    return "per accelerator chip (derived)", f"{_fig(v)} / {counted(n, 'chip')}", result


def built_on(
    row: Row,
    others: Sequence[Row] = (),
    baseline: Row | None = None,
    per_chip_on: bool = False,
    compared_per_chip: bool | None = None,
) -> list[str]:
    """4. What is computed from it: per accelerator chip, ratios against the
    comparison's baseline, of the figures the comparison shows (per chip
    when ``compared_per_chip``, by default ``per_chip_on``)."""
    out = ["4. Built on it:"]
    if (derived := _per_chip(row)) and not per_chip_on:
        words, arithmetic, result = derived
        out.append(f"   {words}: {arithmetic} = {result}")
    chips = per_chip_on if compared_per_chip is None else compared_per_chip

    def as_shown(r: Row) -> Row:
        return (per_chip(r) or r) if chips else r

    if baseline is not None and baseline.get("result_id") != row.get("result_id"):
        out += _ratio(as_shown(row), as_shown(baseline))
        out += _latency_ratio(row, baseline)
    if baseline is not None and baseline.get("result_id") == row.get("result_id"):
        for other in others:
            if other.get("result_id") != row.get("result_id"):
                out += _ratio(as_shown(other), as_shown(row))
                out += _latency_ratio(other, row)
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
    return [
        f"   {who}: {_fig(v, shown_unit(row))} / {_fig(b, shown_unit(base))} = "
        f"{v / b:.4g}, shown as {text!r}"
    ]


def _latency_ratio(row: Row, base: Row) -> list[str]:
    """The comparator's "Latency against the baseline", with its arithmetic."""
    text = compare.latency_text(row, base)
    if not text:
        return []
    v, b = row["latency_ms"], base["latency_ms"]
    return [
        f"   latency, {row.get('result_id')} against {base.get('result_id')}: "
        f"{_fig(v, 'ms')} / {_fig(b, 'ms')} = {v / b:.4g}, shown as {text!r}"
    ]


def explain(
    row: Row,
    others: Sequence[Row] = (),
    baseline: Row | None = None,
    per_chip_on: bool = False,
    compared_per_chip: bool | None = None,
) -> str:
    """The whole explanation of ``row``'s figure (as stored), one step a
    line; ``per_chip_on``: the window shows figures per accelerator chip, so
    the value shown and the ratios are those per chip, as in its cells;
    ``compared_per_chip``: whether the comparison's ratios are per chip, when
    the cell explained is not (a table cell while the comparator is)."""
    head = (
        f"{compare.column_label(row)} ({row.get('result_id')}): "
        f"{metrics.label(row.get('metric'))}"
    )
    lines = [head, *printed(row), *normalised(row), *shown(row, per_chip_on)]
    lines += built_on(row, others, baseline, per_chip_on, compared_per_chip)
    return "\n".join(lines)
