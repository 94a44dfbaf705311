"""Per-accelerator figures: throughput per accelerator chip, and time to train
times chips (chip-minutes). Derived here, never published: every place that
shows them says so (axis titles, legends, the comparator, export footnotes).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

Row = Mapping[str, Any]

LABEL = "per accelerator chip (derived)"
NOTE = (
    "Per accelerator chip (derived here, not published): throughput divided by "
    "the system's accelerator chips; time to train multiplied by them: "
    "chip-minutes (time × accelerators). An IPU-M2000 or Bow-2000 holds 4 "
    "IPUs, a PodN N."
)
TIMES = frozenset({"time_to_train", "time_to_result"})
# A time multiplied by chips is chip-time, called so in full wherever shown.
TIME_WORDS = {"min": "minutes", "s": "seconds", "h": "hours", "ms": "milliseconds"}


def chip_time_unit(unit: str) -> str:
    """The unit of a time multiplied by chips: "min" → "chip-minutes"."""
    return "chip-" + TIME_WORDS.get(unit, unit)


def chip_time_words(unit: str = "min") -> str:
    """What a per-chip time is: "chip-minutes (time × accelerators, derived)"."""
    return f"{chip_time_unit(unit)} (time × accelerators, derived)"


def chip_time_title(unit: str = "min") -> str:
    """An axis or column title for per-chip times: "Chip-minutes (time ×
    accelerators, derived) — lower is better"."""
    words = chip_time_words(unit)
    return f"{words[0].upper()}{words[1:]} — lower is better"


def derived_as(row: Row) -> str:
    """How a per-chip figure says it is derived: chip-minutes for a time
    (``chip_time_words``), ``LABEL`` for a throughput."""
    if row.get("metric") in TIMES:
        return chip_time_words(str(row.get("system_unit") or "min"))
    return LABEL


def per_chip(row: Row) -> dict[str, Any] | None:
    """``row`` with its figure per accelerator chip, or None when it has no
    chip count or its metric has no per-chip meaning (latency)."""
    n = row.get("accelerators")
    v = row.get("value")
    metric = row.get("metric")
    if not n or v is None or (metric != "throughput" and metric not in TIMES):
        return None
    unit = str(row.get("unit") or "")
    fam = str(row.get("unit_family") or unit)
    if metric == "throughput":
        value, shown, fam = v / n, f"{unit} per chip", f"{fam} per chip"
    else:
        value, shown, fam = v * n, chip_time_unit(unit), fam
    out = dict(row)
    # the system's own figure stays beside it: verdicts name both
    out.update(
        value=value,
        unit=shown,
        unit_family=fam,
        per_accelerator=True,
        system_value=v,
        system_unit=unit,
    )
    if metric == "throughput":
        out["throughput"] = value
    return out


def per_chip_rows(rows: Sequence[Row]) -> tuple[list[dict[str, Any]], int]:
    """Rows with per-chip figures, and how many had none (left out)."""
    out = [r for r in (per_chip(r) for r in rows) if r is not None]
    return out, len(rows) - len(out)


def per_chip_or_as_is(rows: Sequence[Row]) -> list[Row]:
    """Each row per accelerator chip where it has such a figure; a row with
    none stays as it is (its unit then differs, so no ratio is made against
    it). What the comparator shows, in the window and from the command line."""
    return [per_chip(r) or r for r in rows]
