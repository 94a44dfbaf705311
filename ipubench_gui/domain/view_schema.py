"""One schema for saved views and restored settings (msgspec): outside JSON is
decoded into typed values part by part; a part that does not fit is dropped,
with a notice saying what and why, and never reaches a widget.

msgspec rather than pydantic: one small compiled package with no dependencies
(pydantic needs pydantic-core, typing-extensions and annotated-types), and a
fraction of pydantic's import time, which every start of the app would pay.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import operator
from collections.abc import Mapping
from types import NoneType, UnionType
from typing import Annotated, Any, Union, get_args, get_origin, get_type_hints

import msgspec

from ipubench_gui.domain.chartspec import COLOR_CHOICES, GROUP_CHOICES, ChartSpec
from ipubench_gui.domain.compare import Comparison
from ipubench_gui.domain.fields import RANGES, field
from ipubench_gui.domain.filters import FilterState, NumRange
from ipubench_gui.domain.kinds import KINDS

MAX_TEXT = 500
Text = Annotated[str, msgspec.Meta(max_length=MAX_TEXT)]
Value = str | int | float | None


def _bounded(hint: Any, meta: msgspec.Meta | None = None) -> Any:
    """``hint`` with every ``str`` in it at most MAX_TEXT long, and ``meta``'s
    limits on the value itself (on each member of a union but None)."""
    origin, args = get_origin(hint), get_args(hint)
    if origin in (Union, UnionType):
        members = [a if a is NoneType else _bounded(a, meta) for a in args]
        return functools.reduce(operator.or_, members)
    if origin is tuple:
        hint = tuple.__class_getitem__(
            tuple(a if a is ... else _bounded(a) for a in args)
        )
    elif hint is str and meta is None:
        return Text
    return Annotated[hint, meta] if meta is not None else hint


def schema_of(cls: type[Any], limits: Mapping[str, msgspec.Meta]) -> type[Any]:
    """The schema of a frozen dataclass as saved: its own fields, types and
    defaults (a field added to the class is saved and read the day it is
    added), ``limits`` on some of them; unknown keys (a newer app's) ignored."""
    hints = get_type_hints(cls)
    unknown = set(limits) - {f.name for f in dataclasses.fields(cls)}
    if unknown:
        raise TypeError(f"limits on no field of {cls.__name__}: {sorted(unknown)}")
    return msgspec.defstruct(
        f"{cls.__name__}Doc",
        [
            (f.name, _bounded(hints[f.name], limits.get(f.name)), f.default)
            for f in dataclasses.fields(cls)
        ],
        forbid_unknown_fields=False,
    )


ChartDoc = schema_of(
    ChartSpec,
    {
        "metric": msgspec.Meta(max_length=40),
        "max_bars": msgspec.Meta(ge=1, le=10_000),
        "budget_ms": msgspec.Meta(gt=0),
    },
)
ComparisonDoc = schema_of(Comparison, {"ids": msgspec.Meta(max_length=Comparison.MAX)})


def to_saved(value: Comparison) -> dict[str, Any]:
    """A comparison as saved JSON: every field, by name."""
    out: dict[str, Any] = msgspec.to_builtins(value)
    return out


def _error(exc: Exception) -> str:
    return str(exc).replace("`", "'")


def parse_chart(data: object) -> tuple[ChartSpec, list[str]]:
    """Chart options from JSON; defaults (with a notice) where they do not fit."""
    if data is None or data == {}:
        return ChartSpec(), []
    try:
        spec = ChartSpec(**msgspec.structs.asdict(msgspec.convert(data, ChartDoc)))
    except msgspec.ValidationError as exc:
        return ChartSpec(), [f"chart options ({_error(exc)}): the defaults are used"]
    notes = []
    if spec.kind not in KINDS:
        notes.append(f"unknown chart kind {spec.kind[:40]!r}: throughput is shown")
        spec = spec.with_(kind="throughput")
    if spec.color_by not in COLOR_CHOICES:
        notes.append(f"chart colour by {spec.color_by[:40]!r} is unknown: framework")
        spec = spec.with_(color_by="framework")
    if spec.group_by not in GROUP_CHOICES:
        notes.append(f"chart group by {str(spec.group_by)[:40]!r} is unknown: none")
        spec = spec.with_(group_by=None)
    return spec, notes


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
        got = Comparison(**msgspec.structs.asdict(msgspec.convert(data, ComparisonDoc)))
    except msgspec.ValidationError as exc:
        return Comparison(), [f"comparison ({_error(exc)}): dropped"]
    return dataclasses.replace(got, ids=tuple(dict.fromkeys(got.ids))), []


def decode_json(raw: bytes) -> Any:
    """JSON text to Python values; ValueError in words (malformed, nested too
    deeply to be a view, or a number out of range)."""
    try:
        return msgspec.json.decode(raw)
    except msgspec.DecodeError as exc:
        raise ValueError(f"not valid JSON ({_error(exc)})") from None
    except RecursionError:
        raise ValueError("not a view: nested too deeply") from None
