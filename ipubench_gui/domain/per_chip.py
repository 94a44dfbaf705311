"""Per-accelerator figures: throughput per accelerator chip, and time to train
times chips (chip-minutes). Derived here, never published: every place that
shows them says so (axis titles, legends, the comparator, export footnotes).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ipubench_gui.domain.metrics import (
    CHIP_TIMES,
    METRICS,
    per_chip_sql,
    per_chip_value,
    sql_list,
    sql_literal,
    with_per_chip,
)

Row = Mapping[str, Any]

LABEL = "per accelerator chip (derived)"
NOTE = (
    "Per accelerator chip (derived here, not published): throughput divided by "
    "the system's accelerator chips; time to train multiplied by them: "
    "chip-minutes (time × accelerators). An IPU-M2000 or Bow-2000 holds 4 "
    "IPUs, a PodN N."
)
# A time multiplied by chips is chip-time, called so in full wherever shown.
TIME_WORDS = {"min": "minutes", "s": "seconds", "h": "hours", "ms": "milliseconds"}


@dataclass(frozen=True)
class Spelling:
    """A text made of the system's unit: ``prefix``, the unit (in words where
    TIME_WORDS spells it, with ``words``; left out when not ``with_unit``),
    ``suffix``. Written once, said in Python (``text``) and SQL (``sql``)."""

    prefix: str = ""
    suffix: str = ""
    words: bool = False
    with_unit: bool = True

    def text(self, unit: str) -> str:
        if not self.with_unit:
            return self.prefix
        shown = TIME_WORDS.get(unit, unit) if self.words else unit
        return f"{self.prefix}{shown}{self.suffix}"

    def sql(self, unit: str) -> str:
        """The same text in SQL, ``unit`` the SQL of the unit."""
        if not self.with_unit:
            return sql_literal(self.prefix)
        if self.words:
            whens = " ".join(
                f"WHEN {sql_literal(u)} THEN {sql_literal(w)}"
                for u, w in TIME_WORDS.items()
            )
            unit = f"CASE {unit} {whens} ELSE {unit} END"
        parts = [sql_literal(self.prefix)] if self.prefix else []
        parts += [unit] + ([sql_literal(self.suffix)] if self.suffix else [])
        return " || ".join(parts)


# Per metrics.PER_CHIP rule: the unit of a figure per chip, and how it says
# it is derived.
UNIT = {
    "divide": Spelling(suffix=" per chip"),
    "multiply": Spelling(prefix="chip-", words=True),
}
DERIVED = {
    "divide": Spelling(prefix=LABEL, with_unit=False),
    "multiply": Spelling(
        prefix="chip-", suffix=" (time × accelerators, derived)", words=True
    ),
}


def chip_time_unit(unit: str) -> str:
    """The unit of a time multiplied by chips: "min" → "chip-minutes"."""
    return UNIT["multiply"].text(unit)


def chip_time_words(unit: str = "min") -> str:
    """What a per-chip time is: "chip-minutes (time × accelerators, derived)"."""
    return DERIVED["multiply"].text(unit)


def chip_time_title(unit: str = "min") -> str:
    """An axis or column title for per-chip times: "Chip-minutes (time ×
    accelerators, derived) — lower is better"."""
    words = chip_time_words(unit)
    return f"{words[0].upper()}{words[1:]} — lower is better"


def derived_as(row: Row) -> str:
    """How a per-chip figure says it is derived: chip-minutes for a time
    (``chip_time_words``), ``LABEL`` for a throughput."""
    if row.get("metric") in CHIP_TIMES:
        return chip_time_words(str(row.get("system_unit") or "min"))
    return LABEL


def per_chip(row: Row) -> dict[str, Any] | None:
    """``row`` with its figure per accelerator chip, or None when it has no
    chip count or its metric has no per-chip meaning (latency)."""
    n = row.get("accelerators")
    v = row.get("value")
    metric = row.get("metric")
    value = per_chip_value(metric, v, n) if n and v is not None else None
    if value is None:
        return None
    rule = METRICS[str(metric)].per_chip
    unit = str(row.get("unit") or "")
    fam = str(row.get("unit_family") or unit)
    out = dict(row)
    # the system's own figure stays beside it: verdicts name both
    out.update(
        value=value,
        unit=UNIT[rule].text(unit),
        unit_family=UNIT[rule].text(fam) if rule == "divide" else fam,
        per_accelerator=True,
        system_value=v,
        system_unit=unit,
    )
    if metric == "throughput":
        out["throughput"] = value
    return out


def _rule_sql(table: Mapping[str, Spelling], unit: str) -> str:
    """SQL of ``table``'s spelling for each row's metric's rule."""
    whens = " ".join(
        f"WHEN metric IN {sql_list(with_per_chip(rule))} THEN {spelling.sql(unit)}"
        for rule, spelling in table.items()
        if with_per_chip(rule)
    )
    return f"CASE {whens} END"


def per_chip_select(sql: str) -> str:
    """``per_chip`` in SQL over the rows of ``sql`` (results columns): each
    row's figure per chip, its unit, and a ``derived`` column saying how it
    was derived; rows with no chip count, or no figure per chip, left out."""
    return f"""
SELECT * REPLACE (
    {per_chip_sql()} AS value,
    {_rule_sql(UNIT, "unit")} AS unit
), {_rule_sql(DERIVED, "unit")} AS derived
FROM ({sql}) WHERE accelerators <> 0 AND {per_chip_sql()} IS NOT NULL
"""


def per_chip_rows(rows: Sequence[Row]) -> tuple[list[dict[str, Any]], int]:
    """Rows with per-chip figures, and how many had none (left out)."""
    out = [r for r in (per_chip(r) for r in rows) if r is not None]
    return out, len(rows) - len(out)


def per_chip_or_as_is(rows: Sequence[Row]) -> list[Row]:
    """Each row per accelerator chip where it has such a figure; a row with
    none stays as it is (its unit then differs, so no ratio is made against
    it). What the comparator shows, in the window and from the command line."""
    return [per_chip(r) or r for r in rows]
