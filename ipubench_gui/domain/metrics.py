"""The metrics a figure can measure, read from ``data/metrics.csv`` (the one
list): each one's label, which way is better, default unit, what a ratio of
two of its figures counts, the task it implies, and how a figure per
accelerator chip is made of it; with the SQL of the same rules, so the store
and the code cannot drift apart.

A figure per chip is one rule per metric, written once in ``PER_CHIP`` and
evaluated two ways: ``per_chip_value`` in Python, ``per_chip_sql`` in SQL
(as the filter kinds are).
"""

from __future__ import annotations

import csv
import operator
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ipubench_gui.paths import data_dir


@dataclass(frozen=True)
class PerChip:
    """How a figure per accelerator chip is made: the operation on the
    system's figure and its chips, in Python and as an SQL operator."""

    apply: Callable[[float, float], float]
    sql_operator: str


# "divide": throughput per chip; "multiply": a time × chips is chip-time
# (chip-minutes), the cost of a result in chips, not a time.
PER_CHIP = {
    "divide": PerChip(operator.truediv, "/"),
    "multiply": PerChip(operator.mul, "*"),
}


@dataclass(frozen=True)
class Metric:
    name: str
    label: str  # "Time to train"
    higher_is_better: bool
    default_unit: str
    per_chip: str  # a key of PER_CHIP, or "" where a figure per chip means nothing
    noun: str  # what a ratio counts: "3.12× less time"
    task: str  # the task a figure implies ("training"), or "" for either


def read(path: Path) -> dict[str, Metric]:
    """The metrics of a metrics.csv, in its order; ValueError names a bad row."""
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    out = {}
    for r in rows:
        if r["per_chip"] not in ("", *PER_CHIP):
            raise ValueError(f"{path}: {r['metric']}: unknown per_chip rule")
        out[r["metric"]] = Metric(
            r["metric"],
            r["label"],
            r["higher_is_better"] == "true",
            r["default_unit"],
            r["per_chip"],
            r["noun"],
            r["task"],
        )
    return out


METRICS: Mapping[str, Metric] = read(data_dir() / "metrics.csv")
NAMES: tuple[str, ...] = tuple(METRICS)
LOWER_IS_BETTER = frozenset(m for m, d in METRICS.items() if not d.higher_is_better)
# Metrics whose figure per chip is chip-time (a time × chips), named so in full.
CHIP_TIMES = frozenset(m for m, d in METRICS.items() if d.per_chip == "multiply")


# What a figure counts ("images/s", "sequences/s", "time"): results_v's
# unit_family (what the unit counts of this model: views.sql), else the unit.
FAMILY_SQL = "coalesce(unit_family, unit)"


def family(row: Mapping[str, Any]) -> str:
    """``FAMILY_SQL`` of one row ("" when it has neither)."""
    return str(row.get("unit_family") or row.get("unit") or "")


def label(metric: object, unknown: str | None = None) -> str:
    """The metric's label ("Time to train"); ``unknown`` (else the name itself)
    for a metric the list does not hold."""
    m = METRICS.get(str(metric))
    if m is not None:
        return m.label
    return str(metric) if unknown is None else unknown


def noun(metric: str) -> str:
    """What a ratio of two figures of ``metric`` counts ("time")."""
    m = METRICS.get(metric)
    return m.noun if m is not None else metric


def per_chip_value(metric: object, value: float, chips: float) -> float | None:
    """``value`` of a system with ``chips`` accelerators, per chip; None when
    the metric has no figure per chip."""
    m = METRICS.get(str(metric))
    if m is None or not m.per_chip:
        return None
    return PER_CHIP[m.per_chip].apply(value, chips)


def sql_literal(text: str) -> str:
    """Our own constant text (a metric name, a label) as an SQL literal: for
    statements that take no parameters of their own (COPY)."""
    return "'" + text.replace("'", "''") + "'"


def sql_list(names: Iterable[str]) -> str:
    """``('a', 'b')``: metric names for an SQL ``IN``."""
    return "(" + ", ".join(sql_literal(n) for n in names) + ")"


def per_chip_sql(
    value: str = "value", chips: str = "accelerators", metric: str = "metric"
) -> str:
    """SQL of ``per_chip_value`` over the columns named: NULL where the metric
    has no figure per chip."""
    whens = " ".join(
        f"WHEN {sql_literal(m)} THEN {value} {PER_CHIP[d.per_chip].sql_operator} "
        f"{chips}"
        for m, d in METRICS.items()
        if d.per_chip
    )
    return f"CASE {metric} {whens} END"


def with_per_chip(rule: str) -> tuple[str, ...]:
    """The metrics whose figure per chip is made by ``rule`` (a PER_CHIP key)."""
    return tuple(m for m, d in METRICS.items() if d.per_chip == rule)


# Tasks a metric implies, in the list's order ("inference", "training").
TASKS: tuple[str, ...] = tuple(
    dict.fromkeys(d.task for d in METRICS.values() if d.task)
)


def with_task(task: str) -> tuple[str, ...]:
    """The metrics whose figures are all of ``task``."""
    return tuple(m for m, d in METRICS.items() if d.task == task)
