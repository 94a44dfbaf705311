"""Every field of what a view saves (filters, chart, comparison) comes back
as it was, through JSON text, whatever its value: the strategies are built
from the value types' own fields, so a field added to a type is drawn here
the day it is added (and a type this file cannot draw fails loudly)."""

from __future__ import annotations

import dataclasses
import json
from typing import Any, get_type_hints

from hypothesis import given
from hypothesis import strategies as st

from ipubench_gui.domain.chartspec import COLOR_CHOICES, GROUP_CHOICES, ChartSpec
from ipubench_gui.domain.compare import Comparison
from ipubench_gui.domain.fields import FACETS, RANGES
from ipubench_gui.domain.filters import FilterState, NumRange
from ipubench_gui.domain.kinds import KINDS
from ipubench_gui.domain.view_schema import MAX_TEXT, parse_chart, parse_filters
from ipubench_gui.domain.views import FORMAT, View

_text = st.text(max_size=40)
_id = st.text(min_size=1, max_size=20)
# Fields whose values are limited: what the app itself can hold.
CHART = {
    "kind": st.sampled_from(sorted(KINDS)),
    "metric": st.none() | st.text(max_size=40),
    "max_bars": st.integers(1, 10_000),
    "color_by": st.sampled_from(COLOR_CHOICES),
    "group_by": st.sampled_from(GROUP_CHOICES),
    "budget_ms": st.none()
    | st.floats(min_value=0, exclude_min=True, allow_infinity=False),
    "title": _text | st.just("x" * MAX_TEXT),
}
COMPARISON = {
    "ids": st.lists(_id, max_size=Comparison.MAX, unique=True).map(tuple),
}
_BY_TYPE: dict[Any, st.SearchStrategy[Any]] = {
    bool: st.booleans(),
    str: _text,
    str | None: st.none() | _text,
}


def _of(cls: type[Any], limited: dict[str, st.SearchStrategy[Any]]) -> Any:
    """Instances of dataclass ``cls`` with every field drawn: from ``limited``,
    else by the field's type."""
    hints = get_type_hints(cls)
    return st.builds(
        cls,
        **{
            f.name: limited[f.name] if f.name in limited else _BY_TYPE[hints[f.name]]
            for f in dataclasses.fields(cls)
        },
    )


_value = st.none() | _text | st.integers(-(10**9), 10**9)
_bound = st.none() | st.floats(-1e9, 1e9, allow_nan=False)


@st.composite
def filter_states(draw: st.DrawFn) -> FilterState:
    state = FilterState().with_text(draw(st.text(max_size=MAX_TEXT)))
    for dim in draw(st.lists(st.sampled_from([f.name for f in FACETS]), unique=True)):
        state = state.with_values(dim, draw(st.lists(_value, min_size=1, max_size=4)))
    for dim in draw(st.lists(st.sampled_from([f.name for f in RANGES]), unique=True)):
        lo, hi = draw(_bound), draw(_bound)
        if lo is not None and hi is not None and lo > hi:
            lo, hi = hi, lo
        state = state.with_range(dim, NumRange(lo, hi))
    return state


def _through_text(data: dict[str, Any]) -> Any:
    return json.loads(json.dumps(data))


def test_every_field_of_filter_state_is_drawn_here_and_saved():
    """FilterState is read part by part (a bad selection is dropped alone), so
    its schema is not derived: this says when a field is added to it."""
    names = {f.name for f in dataclasses.fields(FilterState)}
    assert names == {"selected", "ranges", "text"}
    assert set(FilterState().to_json()) == names


@given(_of(ChartSpec, CHART))
def test_chart_options_come_back_whole(spec):
    assert parse_chart(_through_text(spec.to_json())) == (spec, [])


@given(filter_states())
def test_filters_come_back_whole(state):
    assert parse_filters(_through_text(state.to_json())) == (state, [])


@given(filter_states(), _of(ChartSpec, CHART), _of(Comparison, COMPARISON))
def test_views_come_back_whole(filters, chart, comparison):
    view = View(filters, chart, comparison)
    assert View.parse(_through_text(view.to_json())) == (view, [])


def test_per_chip_and_unit_family_are_saved():
    """The two fields the hand-written schema once left out."""
    spec = ChartSpec(per_accelerator=True, unit_family="images/s")
    assert parse_chart(spec.to_json()) == (spec, [])
    view = {"format": FORMAT, "version": 1, "chart": spec.to_json()}
    assert View.parse(view)[0].chart == spec
