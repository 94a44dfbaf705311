"""What one change of the window's filters, chart or comparison is called, and
which changes run together into one undo step.

Each change is one step. A change that goes on (typing a search, dragging a
range's handle or the latency budget) runs into one step: its ``key`` names
what it changes, and consecutive changes with one key merge (``ui/state.py``
merges them while they come within ``MERGE_SECONDS`` of each other).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.compare import NAMES, Comparison
from ipubench_gui.domain.fields import filter_field
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.kinds import KINDS

MERGE_SECONDS = 1.5


@dataclass(frozen=True)
class Change:
    """A step's name ("Filter Model", "Clear filters"), what it runs into
    (``key``; "" never merges), and what the status line says of it, with how
    to go back, when it drops much at once ("Filters cleared")."""

    text: str
    key: str = ""
    announce: str = ""


def _label(dim: str) -> str:
    try:
        return filter_field(dim).label
    except KeyError:
        return dim


def filters_change(old: FilterState, new: FilterState) -> Change:
    if new.is_empty() and not old.is_empty():
        return Change("Clear filters", announce="Filters cleared")
    dims = {d for d, _ in old.selected + new.selected if old.values(d) != new.values(d)}
    ranges = {d for d, _ in old.ranges + new.ranges if old.range(d) != new.range(d)}
    text = old.text != new.text
    if text and not dims and not ranges:
        return Change(f"Search “{new.text}”" if new.text else "Clear search", "text")
    if len(ranges) == 1 and not dims and not text:
        (dim,) = ranges
        return Change(f"Range {_label(dim)}", f"range:{dim}")
    if len(dims) == 1 and not ranges and not text:
        (dim,) = dims
        return Change(
            f"Filter {_label(dim)}" if new.values(dim) else f"Clear {_label(dim)}"
        )
    return Change("Filters")


_CHART_NAMES = {
    "kind": "Chart kind",
    "metric": "Chart metric",
    "max_bars": "Bars shown",
    "unit_family": "Counts",
    "per_accelerator": "Figures per chip",
    "color_by": "Colour by",
    "group_by": "Group by",
    "log": "Log axes",
    "budget_ms": "Latency budget",
    "title": "Chart title",
    "subtitle": "Chart subtitle",
}
# Chart fields changed continuously (a dragged line, typed text): one step.
_CHART_RUNS = frozenset({"budget_ms", "title", "subtitle", "max_bars"})


def chart_change(old: ChartSpec, new: ChartSpec) -> Change:
    changed = [
        f.name
        for f in fields(ChartSpec)
        if getattr(old, f.name) != getattr(new, f.name)
    ]
    if len(changed) != 1:
        return Change("Chart options")
    (name,) = changed
    text = _CHART_NAMES.get(name, name)
    if name == "kind" and new.kind in KINDS:
        text = f"Chart: {KINDS[new.kind].label}"
    elif name == "per_accelerator":
        text = f"Figures per chip {'on' if new.per_accelerator else 'off'}"
    return Change(text, f"chart:{name}" if name in _CHART_RUNS else "")


def comparison_change(old: Comparison, new: Comparison) -> Change:
    added = [i for i in new.ids if i not in old.ids]
    removed = [i for i in old.ids if i not in new.ids]
    if added and not removed:
        return Change(
            "Add to comparison" + (f" ({len(added)})" if len(added) > 1 else "")
        )
    if removed and not added:
        emptied = "" if new.ids else "The comparison emptied"
        return Change("Remove from comparison", announce=emptied)
    if added or removed:
        return Change("Comparison", announce="The comparison changed")
    if old.ids != new.ids:
        return Change("Move a column")
    if old.baseline != new.baseline:
        return Change("Baseline")
    if old.focus != new.focus:
        what = NAMES.get(new.focus, new.focus) if new.focus else "(automatic)"
        return Change(f"Comparing: {what}")
    if old.only_differences != new.only_differences:
        return Change(f"Only differences {'on' if new.only_differences else 'off'}")
    return Change("Comparison")


CHANGES: dict[str, Callable[[Any, Any], Change]] = {
    "filters": filters_change,
    "chart": chart_change,
    "comparison": comparison_change,
}


def change(concept: str, old: Any, new: Any) -> Change:
    """What changing ``concept`` ("filters", "chart", "comparison") from
    ``old`` to ``new`` is called, and what it runs into."""
    return CHANGES[concept](old, new)
