"""Side-by-side comparison of configurations: differences, ratios, verdicts.

Pure functions over result rows (mappings with the results_v columns).

Decisions, made once here:

* Whether two results are like for like is ``domain/likeness.py``: every
  attribute is the same, differs or is unknown (a blank), on the workload's
  side or the system's, and the verdict follows from that. Here: the table
  (one row per attribute, figure, ratio and provenance field, each with its
  status over the columns), ratios, counterparts and the text exports.
* The user may name the attribute the comparison is about (``focus``): it is
  listed first after the chip counts.
* **Counterparts** of a result differ from it in exactly one of
  ``COUNTERPART_ATTRS``, everything else equal, with one exception: across
  hardware generations the SDK is allowed to differ too, because each
  generation ships with its own SDK (no Bow result uses a Classic SDK), and the
  SDK difference is stated with the counterpart.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ipubench_gui.domain import metrics
from ipubench_gui.domain.comparability import not_comparable
from ipubench_gui.domain.format import format_number, shown_unit
from ipubench_gui.domain.likeness import (
    BY_KEY,
    DIFFERS,
    NOT_APPLICABLE,
    SAME,
    UNKNOWN,
    Assessment,
    assess,
    relate,
    relate_all,
    sequence_length,
)
from ipubench_gui.domain.per_chip import LABEL as CHIP_LABEL
from ipubench_gui.domain.per_chip import NOTE as CHIP_NOTE
from ipubench_gui.domain.per_chip import chip_time_title

Row = Mapping[str, Any]

# (key, label) of the rows of the comparison table, in display order (the
# rows of the CSV and Markdown exports: new ones go last, after Metric).
ATTRIBUTES: tuple[tuple[str, str], ...] = (
    ("model", "Model"),
    ("variant", "Variant"),
    ("task", "Task"),
    ("platform", "Platform"),
    ("generation", "Accelerator type"),
    ("accelerators", "Accelerators"),
    ("sdk_version", "SDK"),
    ("framework", "Framework"),
    ("dataset", "Dataset"),
    ("data_kind", "Data"),
    ("batch_size", "Batch size"),
    ("precision", "Precision"),
    ("metric", "Metric"),
    ("sequence_length", "Sequence length"),
    ("division", "MLPerf division"),
    ("quality_target", "Quality target"),
    ("scenario", "Scenario"),
    ("system_type", "System type"),
)
FIGURES: tuple[tuple[str, str], ...] = (
    ("value", "Figure"),
    ("latency_ms", "Latency (ms)"),
    ("throughput_per_accelerator", "Throughput per chip (derived)"),
)
PROVENANCE: tuple[tuple[str, str], ...] = (
    ("source_title", "Source"),
    ("table", "Table"),
    ("source_date", "Date"),
    ("retrieved", "Retrieved"),
    ("source_link", "Link"),
    ("mlperf_id", "MLPerf ID"),
    ("result_id", "Result id"),
)
FOCUS_ORDER = (
    "generation",
    "accelerators",
    "framework",
    "sdk_version",
    "precision",
    "batch_size",
    "data_kind",
    "dataset",
    "variant",
    "model",
)
COUNTERPART_ATTRS = (
    "generation",
    "accelerators",
    "framework",
    "sdk_version",
    "batch_size",
)
SAME_FOR_COUNTERPARTS = (
    "model",
    "variant",
    "task",
    "metric",
    "dataset",
    "precision",
    "unit",
    "scenario",
)
LABELS = dict(ATTRIBUTES + FIGURES + PROVENANCE)
# How attributes read in a sentence ("only the system size differs").
NAMES = {
    **{k: v.lower() for k, v in LABELS.items()},
    "accelerators": "system size",
    "sdk_version": "SDK version",
    "data_kind": "data (real vs synthetic)",
    "generation": "accelerator type",
}


def data_kind(row: Row) -> str | None:
    """``real`` or ``synthetic`` data, from the dataset's name."""
    d = (row.get("dataset") or "").lower()
    if not d:
        return None
    return "synthetic" if ("synthetic" in d or d == "generated") else "real"


def value_of(row: Row, key: str) -> Any:
    if key == "source_link":
        # the row's own table's address only: the addresses a page gives
        # elsewhere are not this row's (the source's are in its details)
        return row.get("link") or None
    if key == "sequence_length":
        return sequence_length(row)
    return data_kind(row) if key == "data_kind" else row.get(key)


def show(row: Row, key: str) -> str:
    v = value_of(row, key)
    if v is None or (isinstance(v, str) and not v.strip()):
        return ""  # a blank, also of spaces only: unknown
    if key in ("value", "throughput_per_accelerator"):
        return f"{format_number(v)} {shown_unit(row)}".strip()
    return format_number(v) if isinstance(v, (int, float)) else str(v)


def status(key: str, rows: Sequence[Row]) -> str:
    """A table row's status over its columns: ``SAME``, ``DIFFERS``,
    ``UNKNOWN`` (a blank beside a value: never the same, never a difference)
    or ``NOT_APPLICABLE``. Attributes follow ``likeness``; other rows
    (figures, provenance, real vs synthetic data) their shown values."""
    if key in BY_KEY:
        return relate_all(BY_KEY[key], rows)
    return _shown_status([show(r, key) for r in rows])


def _shown_status(values: Sequence[str]) -> str:
    known = {v for v in values if v}
    if len(known) > 1:
        return DIFFERS
    if not known:
        return NOT_APPLICABLE
    return UNKNOWN if "" in values else SAME


def cell_status(key: str, row: Row, base: Row) -> str:
    """One cell's status against the baseline's cell."""
    if key in BY_KEY:
        return relate(BY_KEY[key], row, base)
    return status(key, [row, base])


# -- ratios --
# What a metric measures, as the noun of "3.12× less time".
def ratio_words(value: float, base: float, metric: str, noun: str | None = None) -> str:
    """``value`` against ``base`` as a multiple and a signed percentage, in the
    metric's own direction: "3.12× less time (−68%)", "2.10× more throughput
    (+110%)". The multiple is always ≥ 1; "more"/"less" says which way.
    ``noun`` names what is counted instead ("chip-minutes": "fewer")."""
    r = value / base
    counted = noun is not None and noun.startswith("chip-")
    noun = noun or metrics.noun(metric)
    pct = (r - 1) * 100
    if r == 1:
        return f"the same {noun} (0%)"
    sign = "+" if pct > 0 else "\u2212"  # a real minus sign
    # a whole percent, or a tenth below one ("+0.4%", not "+0%")
    share = f"{sign}{abs(pct):.0f}%" if abs(pct) >= 0.5 else f"{sign}{abs(pct):.1f}%"
    times = f"{max(r, 1 / r):.2f}×"
    if times == "1.00×":  # no direction the multiple can show: "1.00× more time"
        return f"1.00×, about the same {noun} ({share})"
    more = "more" if r > 1 else ("fewer" if counted else "less")
    return f"{times} {more} {noun} ({share})"


def _noun(row: Row) -> str | None:
    """What a per-chip figure counts, for its ratio: chip-minutes (a time ×
    chips is not a time), throughput per chip; None for a figure as stored."""
    if not row.get("per_accelerator"):
        return None
    if row.get("metric") in metrics.CHIP_TIMES:
        return str(row.get("unit"))
    return f"{metrics.label(row.get('metric'), 'figure').lower()} per chip"


def ratio_text(row: Row, base: Row) -> str:
    """The row's main figure against the baseline's, in the metric's direction."""
    why = not_comparable(row, base)
    if why and row.get("result_id") != base.get("result_id"):
        return why
    v, b = row.get("value"), base.get("value")
    if not v or not b:
        return ""
    if row is base or row.get("result_id") == base.get("result_id"):
        return "baseline"
    return ratio_words(v, b, row["metric"], _noun(row))


def latency_text(row: Row, base: Row) -> str:
    v, b = row.get("latency_ms"), base.get("latency_ms")
    if not v or not b or row.get("result_id") == base.get("result_id"):
        return ""
    if not_comparable(row, base):
        return ""
    return ratio_words(v, b, "latency")


def column_label(row: Row) -> str:
    """A comparison column's header: "model · platform · batch N"."""
    parts = [str(row[k]) for k in ("model", "platform") if row.get(k)]
    if row.get("batch_size") is not None:
        parts.append(f"batch {format_number(row['batch_size'])}")
    return " · ".join(parts) or str(row.get("result_id") or "")


def column_names(rows: Sequence[Row]) -> list[str]:
    """Each column as its header names it ("model · platform · batch"); the
    result id added where two headers read alike."""
    labels = [column_label(r) for r in rows]
    return [
        f"{label} ({r.get('result_id')})" if labels.count(label) > 1 else label
        for label, r in zip(labels, rows, strict=True)
    ]


# -- verdict --
def verdict(row: Row, base: Row, focus: str | None = None) -> Assessment:
    """``row`` against ``base``: like for like, not, or can't tell, and why
    (``likeness.assess``)."""
    return assess(row, base, focus)


# -- the table --
@dataclass(frozen=True)
class CompareRow:
    key: str
    label: str
    values: tuple[str, ...]  # as shown; a blank is unknown (``status``)
    status: str  # over the columns: same | differs | unknown | n/a
    kind: str  # attribute | figure | ratio | provenance
    cells: tuple[str, ...] = ()  # each cell's status against the baseline's

    @property
    def differs(self) -> bool:
        return self.status == DIFFERS

    @property
    def side(self) -> str:
        """``workload`` or ``system`` for an attribute likeness judges."""
        return BY_KEY[self.key].side if self.key in BY_KEY else ""

    def shown(self, i: int) -> str:
        """Cell ``i`` as the window and Markdown show it: a blank where the
        attribute applies reads "unknown"."""
        v = self.values[i]
        if v or self.kind != "attribute" or self.status == NOT_APPLICABLE:
            return v
        cell = self.cells[i] if i < len(self.cells) and self.cells[i] else self.status
        if self.key == "quality_target" and cell == SAME:
            # two MLPerf results of one round and benchmark: one target by the
            # rules, though only a vendor page prints it
            return "not printed; the same by the benchmark's rules"
        return "unknown"


def table(
    rows: Sequence[Row], baseline: int = 0, focus: str | None = None
) -> list[CompareRow]:
    """The comparison, one row per attribute, figure, ratio and provenance field."""
    out: list[CompareRow] = []
    base = rows[baseline] if rows else {}

    def add(key: str, label: str, kind: str, values: list[str]) -> None:
        if kind == "ratio":  # what is compared: it differs where it says so
            st = DIFFERS if len(set(values)) > 1 else SAME
            out.append(CompareRow(key, label, tuple(values), st, kind))
            return
        # an attribute the verdict rests on, by likeness; any other row, and
        # one with no meaning for the pair (two MLPerf results' precision),
        # by the values shown
        judged = BY_KEY.get(key)
        st = relate_all(judged, rows) if judged else NOT_APPLICABLE
        if st == NOT_APPLICABLE:
            st = _shown_status(values)

        def cell(i: int, r: Row) -> str:
            if i == baseline:
                return ""
            c = relate(judged, r, base) if judged else NOT_APPLICABLE
            if c == NOT_APPLICABLE:
                return _shown_status([values[i], values[baseline]])
            return c

        cells = tuple(cell(i, r) for i, r in enumerate(rows))
        out.append(CompareRow(key, label, tuple(values), st, kind, cells))

    for key, label in ATTRIBUTES:
        add(key, label, "attribute", [show(r, key) for r in rows])
    derived = per_chip_shown(rows)
    for key, label in FIGURES:
        if key == "value" and derived:
            label = _per_chip_label(rows)
        add(key, label, "figure", [show(r, key) for r in rows])
    add("ratio", "Against the baseline", "ratio", [ratio_text(r, base) for r in rows])
    add(
        "latency_ratio",
        "Latency against the baseline",
        "ratio",
        [latency_text(r, base) for r in rows],
    )
    add(
        "verdict",
        "Like for like?",
        "ratio",
        [
            "baseline" if i == baseline else verdict(r, base).text()
            for i, r in enumerate(rows)
        ],
    )
    for key, label in PROVENANCE:
        add(key, label, "provenance", [show(r, key) for r in rows])
    return out


def _per_chip_label(rows: Sequence[Row]) -> str:
    """The Figure row's label when figures are per chip: a time × chips is
    chip-minutes, and said so in full."""
    units = {r.get("system_unit") for r in rows if r.get("per_accelerator")}
    chipped = [r for r in rows if r.get("per_accelerator")]
    if all(r.get("metric") in metrics.CHIP_TIMES for r in chipped):
        unit = units.pop() if len(units) == 1 else "min"
        return f"Figure in {chip_time_title(str(unit)).lower()}"
    return f"Figure {CHIP_LABEL}"


def per_chip_shown(rows: Sequence[Row]) -> bool:
    """Whether any figure compared is per accelerator chip (derived here)."""
    return any(r.get("per_accelerator") for r in rows)


def shown(t: Sequence[CompareRow], only_differences: bool = False) -> list[CompareRow]:
    """The rows worth showing: never an empty one (an attribute blank in every
    column is unknown, and shown so); with ``only_differences``,
    none whose values are the same in every column (attributes, figures and
    provenance alike): a row with a blank beside a value is unknown, not the
    same, and stays. The ratio rows stay: they are what is compared."""
    return [
        cr
        for cr in t
        if (any(cr.values) or cr.status == UNKNOWN)
        and not (only_differences and cr.kind != "ratio" and cr.status == SAME)
    ]


# -- counterparts --
@dataclass(frozen=True)
class Counterpart:
    attribute: str
    row: Row
    note: str  # e.g. "also SDK 3.1 (was SDK 2.4.0)"


def _pair_status(key: str, a: Row, b: Row) -> str:
    """``key`` between two rows: same, differs or unknown (a blank on either
    side); an attribute with no meaning for the pair counts as the same."""
    st = cell_status(key, a, b)
    return SAME if st == NOT_APPLICABLE else st


def counterparts(row: Row, candidates: Sequence[Row]) -> dict[str, list[Counterpart]]:
    """Rows differing from ``row`` in exactly one COUNTERPART_ATTRS attribute
    (generation may bring its SDK along), grouped by that attribute. A blank
    is never the same nor a difference: the attribute counted must be known
    on both sides, and what else is unknown is said in the note."""
    out: dict[str, list[Counterpart]] = {a: [] for a in COUNTERPART_ATTRS}
    for c in candidates:
        if c.get("result_id") == row.get("result_id"):
            continue
        kept = {k: _pair_status(k, c, row) for k in SAME_FOR_COUNTERPARTS}
        if DIFFERS in kept.values() or not_comparable(c, row):
            continue
        varied = {a: _pair_status(a, c, row) for a in COUNTERPART_ATTRS}
        diffs = [a for a, st in varied.items() if st == DIFFERS]
        notes = []
        if "generation" in diffs and "sdk_version" in diffs:
            diffs.remove("sdk_version")
            notes.append(f"with {c.get('sdk_version')} (was {row.get('sdk_version')})")
        unknown = [k for k, st in {**kept, **varied}.items() if st == UNKNOWN]
        if unknown:
            notes.append("unknown: " + ", ".join(NAMES.get(k, k) for k in unknown))
        if len(diffs) == 1:
            out[diffs[0]].append(Counterpart(diffs[0], c, "; ".join(notes)))
    for v in out.values():
        v.sort(
            key=lambda cp: (
                str(value_of(cp.row, cp.attribute)),
                cp.row.get("result_id"),
            )
        )
    return {k: v for k, v in out.items() if v}


# -- text exports --
def _markdown_cell(cr: CompareRow, i: int) -> str:
    """A cell for Markdown: its value, or *unknown* in italics for a blank."""
    if cr.values[i]:
        return cr.values[i].replace("|", "\\|")
    return f"*{cr.shown(i)}*" if cr.shown(i) else ""


def to_markdown(
    rows: Sequence[Row],
    baseline: int = 0,
    only_differences: bool = False,
    focus: str | None = None,
) -> str:
    names = column_names(rows)
    head = [
        "",
        *[
            f"{name}{' (baseline)' if i == baseline else ''}".replace("|", "\\|")
            for i, name in enumerate(names)
        ],
    ]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for cr in shown(table(rows, baseline, focus), only_differences):
        cells = [_markdown_cell(cr, i) for i in range(len(cr.values))]
        label = f"**{cr.label}**" if cr.differs and cr.kind == "attribute" else cr.label
        lines.append("| " + " | ".join([label, *cells]) + " |")
    base = rows[baseline]
    lines.append("")
    for i, r in enumerate(rows):
        if i != baseline:  # columns named as their headers, as the window does
            lines.append(
                f"- {names[i]} against the baseline: {verdict(r, base, focus).text()}"
            )
    if per_chip_shown(rows):
        lines += ["", CHIP_NOTE]
    return "\n".join(lines) + "\n"


# The CSV's "differs" column: yes, unknown (a blank beside a value), or empty.
_DIFFERS_CELL = {DIFFERS: "yes", UNKNOWN: "unknown"}


def to_rows(
    rows: Sequence[Row],
    baseline: int = 0,
    only_differences: bool = False,
    focus: str | None = None,
) -> tuple[list[str], list[list[str]]]:
    """Header and body for CSV/TSV: one line per comparison row."""
    header = [
        "attribute",
        *[
            f"{r.get('result_id')}{' (baseline)' if i == baseline else ''}"
            for i, r in enumerate(rows)
        ],
        "differs",
    ]
    body = [
        [cr.label, *cr.values, _DIFFERS_CELL.get(cr.status, "")]
        for cr in (
            shown(table(rows, baseline, focus), True)
            if only_differences
            else table(rows, baseline, focus)
        )
    ]
    return header, body


@dataclass(frozen=True)
class Comparison:
    """What the comparator holds: result ids in column order, the baseline's id,
    optionally the attribute the user says is being compared, and whether only
    the rows that differ are shown. Saved in views."""

    ids: tuple[str, ...] = ()
    baseline: str | None = None
    focus: str | None = None
    only_differences: bool = False
    MAX = 6

    @property
    def baseline_index(self) -> int:
        return self.ids.index(self.baseline) if self.baseline in self.ids else 0

    def added(self, rid: str) -> Comparison:
        if rid in self.ids or len(self.ids) >= self.MAX:
            return self
        return replace(self, ids=self.ids + (rid,), baseline=self.baseline or rid)

    def removed(self, rid: str) -> Comparison:
        ids = tuple(i for i in self.ids if i != rid)
        base = self.baseline if self.baseline in ids else (ids[0] if ids else None)
        return replace(self, ids=ids, baseline=base)

    def moved(self, rid: str, step: int) -> Comparison:
        ids = list(self.ids)
        i = ids.index(rid)
        j = min(max(i + step, 0), len(ids) - 1)
        ids.insert(j, ids.pop(i))
        return replace(self, ids=tuple(ids))

    def with_focus(self, focus: str | None) -> Comparison:
        return replace(self, focus=focus)

    def with_baseline(self, rid: str) -> Comparison:
        return replace(self, baseline=rid if rid in self.ids else self.baseline)

    def with_only_differences(self, on: bool) -> Comparison:
        return replace(self, only_differences=on)
