"""The MLPerf results table: one row per system and framework, one column per
benchmark, minutes (or chip-minutes), as MLCommons' own results tables are
laid out; sorting, cell text and the words its exports carry.

The store pivots the rows (store/mlperf_table.py); this module only says what
the table holds and how it reads.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ipubench_gui.domain.format import format_number
from ipubench_gui.domain.per_chip import chip_time_title
from ipubench_gui.domain.plot_mlperf import DERIVED, TRADEMARK

#: The columns naming a row (results_v columns) and their headers, in order.
KEYS: tuple[tuple[str, str], ...] = (
    ("mlperf_round", "Round"),
    ("division", "Division"),
    ("category", "Availability"),
    ("submitter", "Submitter"),
    ("system_name", "System"),
    ("accelerator_type", "Accelerator"),
    ("accelerators", "Accelerators"),
    ("framework", "Framework"),
    ("system_id", "System ID"),
)
KEY_COLUMNS: tuple[str, ...] = tuple(k for k, _ in KEYS)
KEY_HEADERS: tuple[str, ...] = tuple(h for _, h in KEYS)
LOGS_MISSING = "logs missing"
MINUTES = "Time to train (minutes) — lower is better"
CHIP_MINUTES = chip_time_title("min")  # the words every per-chip time uses
CHIP_NOTE = (
    "Chip-minutes are derived here (time to train × the system's accelerator "
    "chips), not official MLPerf results."
)
FORMATS = ("csv", "markdown", "xlsx")


@dataclass(frozen=True)
class Cell:
    """One result in the table: its score, or why there is none."""

    result_id: str
    minutes: float | None  # the result's time to train; None: not scored
    status: str  # scored | no score | logs missing | unreadable
    accelerators: int | None
    mlperf_id: str | None = None

    def value(self, per_chip: bool) -> float | None:
        """The figure shown: minutes, or chip-minutes (None without chips)."""
        if self.minutes is None:
            return None
        if not per_chip:
            return self.minutes
        return self.minutes * self.accelerators if self.accelerators else None

    def text(self, per_chip: bool) -> str:
        """Two decimals, as MLCommons' tables print; "logs missing" where
        the copy lacks the logs; blank where the result has no score."""
        v = self.value(per_chip)
        if v is not None:
            return format_number(v) if v >= 1000 else f"{v:.2f}"
        return LOGS_MISSING if self.status == LOGS_MISSING else ""

    def export(self, per_chip: bool) -> float | str:
        """The cell in a CSV or workbook: the number unrounded, else its text."""
        v = self.value(per_chip)
        return v if v is not None else self.text(per_chip)


@dataclass(frozen=True)
class TableRow:
    keys: tuple[Any, ...]  # KEY_COLUMNS' values
    cells: tuple[Cell | None, ...]  # one per benchmark; None: no result


@dataclass(frozen=True)
class MLPerfTable:
    """Rows of systems, columns of benchmarks (their canonical model names)."""

    benchmarks: tuple[str, ...]
    rows: tuple[TableRow, ...]
    per_chip: bool = False

    @property
    def headers(self) -> tuple[str, ...]:
        return (*KEY_HEADERS, *self.benchmarks)

    @property
    def unit(self) -> str:
        return CHIP_MINUTES if self.per_chip else MINUTES

    def cell(self, row: int, column: int) -> Cell | None:
        """The result at a (row, column) of :attr:`headers`; None for a key
        column or an empty cell."""
        at = column - len(KEYS)
        return self.rows[row].cells[at] if at >= 0 else None

    def result_ids(self) -> tuple[str, ...]:
        return tuple(c.result_id for r in self.rows for c in r.cells if c)

    def sorted_by(self, column: int, descending: bool = False) -> MLPerfTable:
        """Rows ordered by a column of :attr:`headers`; blanks last either way."""

        def sort_key(r: TableRow) -> tuple[int, Any]:
            if column < len(KEYS):
                v = r.keys[column]
                if v is None or v == "":
                    return (1, 0)
                return (0, v if isinstance(v, (int, float)) else str(v).casefold())
            c = r.cells[column - len(KEYS)]
            fig = c.value(self.per_chip) if c else None
            return (1, 0) if fig is None else (0, fig)

        ranked = [r for r in self.rows if sort_key(r)[0] == 0]
        blank = [r for r in self.rows if sort_key(r)[0] == 1]
        ranked.sort(key=sort_key, reverse=descending)
        return replace(self, rows=(*ranked, *blank))

    def records(self) -> list[list[Any]]:
        """Every row as exported: keys, then each benchmark's figure."""
        return [
            [*r.keys, *("" if c is None else c.export(self.per_chip) for c in r.cells)]
            for r in self.rows
        ]

    def footnote(self) -> str:
        """What the MLPerf messaging rules ask a figure to carry: rounds,
        divisions, categories, where the results come from, that the scores
        are computed here, per chip that it is derived; the trademark line."""
        col = {k: i for i, k in enumerate(KEY_COLUMNS)}

        def seen(key: str) -> str:
            vals = sorted({str(r.keys[col[key]]) for r in self.rows} - {"", "None"})
            return ", ".join(vals)

        rounds = ", ".join(f"v{x}" for x in seen("mlperf_round").split(", ") if x)
        if not self.rows:
            return "No MLPerf results match the filters. " + TRADEMARK
        ids = sorted(
            {c.mlperf_id for r in self.rows for c in r.cells if c and c.mlperf_id}
        )
        parts = [
            f"MLPerf™ Training {rounds}; division: {seen('division') or '—'}; "
            f"availability: {seen('category') or '—'}; each cell's result ID in "
            "its tooltip" + (f"; MLPerf IDs: {', '.join(ids)}." if ids else "."),
            "From github.com/mlcommons/training_results_vX.Y. " + DERIVED,
            CHIP_NOTE if self.per_chip else "",
            TRADEMARK,
        ]
        return " ".join(p for p in parts if p)


def build(
    benchmarks: Sequence[str],
    rows: Sequence[tuple[Any, ...]],
    per_chip: bool = False,
) -> MLPerfTable:
    """The table of pivoted rows: each row is KEY_COLUMNS' values, then per
    benchmark a mapping (result_id, value, status, accelerators, mlperf_id)
    or None."""
    n = len(KEYS)
    out = []
    for r in rows:
        cells = tuple(_cell(c) for c in r[n : n + len(benchmarks)])
        out.append(TableRow(tuple(r[:n]), cells))
    return MLPerfTable(tuple(benchmarks), tuple(out), per_chip)


def _cell(c: Any) -> Cell | None:
    if not c or not c.get("result_id"):
        return None
    v = c.get("value")
    minutes = float(v) if v is not None and math.isfinite(float(v)) else None
    n = c.get("accelerators")
    return Cell(
        str(c["result_id"]),
        minutes,
        str(c.get("status") or ("scored" if minutes is not None else "no score")),
        int(n) if n else None,
        c.get("mlperf_id") or None,
    )


def markdown(table: MLPerfTable) -> str:
    """A GitHub-flavoured Markdown table (figures as the window shows them),
    the footnote below."""

    def esc(v: object) -> str:
        return "" if v is None else str(v).replace("|", "\\|")

    head = [*table.headers]
    lines = [
        "| " + " | ".join(head) + " |",
        "|"
        + "|".join("---:" if i >= len(KEYS) else "---" for i in range(len(head)))
        + "|",
    ]
    for r in table.rows:
        cells = [c.text(table.per_chip) if c else "" for c in r.cells]
        lines.append("| " + " | ".join(esc(v) for v in (*r.keys, *cells)) + " |")
    return "\n".join([f"{table.unit}", "", *lines, "", table.footnote(), ""])
