"""One schema for saved views and restored settings (msgspec): outside JSON is
decoded into typed values part by part; a part that does not fit is dropped,
with a notice saying what and why, and never reaches a widget.

msgspec rather than pydantic: one small compiled package with no dependencies
(pydantic needs pydantic-core, typing-extensions and annotated-types), ~5 ms
to import against pydantic's ~100 ms, which every start of the app would pay.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Annotated, Any

import msgspec

from ipubench_gui.domain.chartspec import COLOR_CHOICES, GROUP_CHOICES, ChartSpec
from ipubench_gui.domain.compare import Comparison
from ipubench_gui.domain.fields import RANGES, field
from ipubench_gui.domain.filters import FilterState, NumRange
from ipubench_gui.domain.kinds import KINDS

MAX_TEXT = 500
Text = Annotated[str, msgspec.Meta(max_length=MAX_TEXT)]
Value = str | int | float | None


class ChartDoc(msgspec.Struct, forbid_unknown_fields=False):
    """Chart options as saved (unknown keys are ignored: a newer app's)."""

    kind: str = "throughput"
    metric: Annotated[str, msgspec.Meta(max_length=40)] | None = None
    max_bars: Annotated[int, msgspec.Meta(ge=1, le=10_000)] = 60
    color_by: str = "framework"
    group_by: str | None = None
    log: bool = True
    budget_ms: Annotated[float, msgspec.Meta(gt=0)] | None = None
    title: Text = ""
    subtitle: Text = ""


class ComparisonDoc(msgspec.Struct, forbid_unknown_fields=False):
    ids: Annotated[list[Text], msgspec.Meta(max_length=Comparison.MAX)] = []
    baseline: Text | None = None
    focus: Text | None = None
    only_differences: bool = False  # absent in views saved before it was kept


def _error(exc: Exception) -> str:
    return str(exc).replace("`", "'")


def parse_chart(data: object) -> tuple[ChartSpec, list[str]]:
    """Chart options from JSON; defaults (with a notice) where they do not fit."""
    if data is None or data == {}:
        return ChartSpec(), []
    try:
        doc = msgspec.convert(data, ChartDoc)
    except msgspec.ValidationError as exc:
        return ChartSpec(), [f"chart options ({_error(exc)}): the defaults are used"]
    notes = []
    if doc.kind not in KINDS:
        notes.append(f"unknown chart kind {doc.kind[:40]!r}: throughput is shown")
        doc.kind = "throughput"
    if doc.color_by not in COLOR_CHOICES:
        notes.append(f"chart colour by {doc.color_by[:40]!r} is unknown: framework")
        doc.color_by = "framework"
    if doc.group_by not in GROUP_CHOICES:
        notes.append(f"chart group by {str(doc.group_by)[:40]!r} is unknown: none")
        doc.group_by = None
    return ChartSpec(**msgspec.structs.asdict(doc)), notes


def parse_filters(data: object) -> tuple[FilterState, list[str]]:
    """Filters from JSON, entry by entry: a selection on a dimension the app
    does not know, or a range that is not two numbers, is dropped with a notice."""
    if data is None:
        return FilterState(), []
    if not isinstance(data, Mapping):
        return FilterState(), ["filters are not an object: none are applied"]
    notes: list[str] = []
    st = FilterState()
    text = data.get("text", "")
    if isinstance(text, str) and len(text) <= MAX_TEXT:
        st = st.with_text(text)
    else:
        notes.append("search text is not a short text: dropped")
    selected = data.get("selected", {})
    if not isinstance(selected, Mapping):
        notes.append("selections are not an object: dropped")
        selected = {}
    for dim, vals in selected.items():
        try:
            field(str(dim))
            values = msgspec.convert(vals, list[Value])
        except KeyError:
            notes.append(f"filter on unknown dimension {str(dim)[:40]!r}: dropped")
            continue
        except msgspec.ValidationError as exc:
            notes.append(f"filter on {str(dim)[:40]!r} ({_error(exc)}): dropped")
            continue
        st = st.with_values(str(dim), values)
    ranges = data.get("ranges", {})
    if not isinstance(ranges, Mapping):
        notes.append("ranges are not an object: dropped")
        ranges = {}
    known = {f.name for f in RANGES}
    for dim, bounds in ranges.items():
        if dim not in known:
            notes.append(f"range on unknown dimension {str(dim)[:40]!r}: dropped")
            continue
        try:
            lo, hi = msgspec.convert(bounds, tuple[float | None, float | None])
        except msgspec.ValidationError as exc:
            notes.append(f"range on {dim!r} ({_error(exc)}): dropped")
            continue
        if any(b is not None and not math.isfinite(b) for b in (lo, hi)) or (
            lo is not None and hi is not None and lo > hi
        ):
            notes.append(f"range on {dim!r} is not LO <= HI: dropped")
            continue
        st = st.with_range(dim, NumRange(lo, hi))
    return st, notes


def parse_comparison(data: object) -> tuple[Comparison, list[str]]:
    if data is None or data == {}:
        return Comparison(), []
    try:
        doc = msgspec.convert(data, ComparisonDoc)
    except msgspec.ValidationError as exc:
        return Comparison(), [f"comparison ({_error(exc)}): dropped"]
    ids = tuple(dict.fromkeys(doc.ids))
    return Comparison(ids, doc.baseline, doc.focus, doc.only_differences), []


def decode_json(raw: bytes) -> Any:
    """JSON text to Python values; ValueError in words (malformed, nested too
    deeply to be a view, or a number out of range)."""
    try:
        return msgspec.json.decode(raw)
    except msgspec.DecodeError as exc:
        raise ValueError(f"not valid JSON ({_error(exc)})") from None
    except RecursionError:
        raise ValueError("not a view: nested too deeply") from None
