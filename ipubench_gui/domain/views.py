"""Saved views: the whole state (filters, chart, comparator) as versioned JSON."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.compare import Comparison
from ipubench_gui.domain.filters import FilterState

FORMAT = "ipubench-gui view"
VERSION = 1


@dataclass(frozen=True)
class View:
    filters: FilterState = FilterState()
    chart: ChartSpec = ChartSpec()
    comparison: Comparison = Comparison()

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "filters": self.filters.to_json(),
            "chart": self.chart.to_json(),
            "comparison": {
                "ids": list(self.comparison.ids),
                "baseline": self.comparison.baseline,
                "focus": self.comparison.focus,
            },
        }

    @classmethod
    def from_json(cls, data: object) -> View:
        """Parse a saved view; ValueError says what is wrong with it."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError("not an ipubench-gui view file")
        version = data.get("version")
        if not isinstance(version, int) or version > VERSION:
            raise ValueError(
                f"view format version {version!r} is newer than this "
                f"app understands ({VERSION})"
            )
        c = data.get("comparison") or {}
        ids = c.get("ids") or []
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            raise ValueError("comparison ids must be a list of strings")
        return cls(
            FilterState.from_json(data.get("filters") or {}),
            ChartSpec.from_json(data.get("chart") or {}),
            Comparison(tuple(ids), c.get("baseline"), c.get("focus")),
        )


def reconcile(
    view: View, values: Mapping[str, Collection[object]], known_ids: Collection[str]
) -> tuple[View, list[str]]:
    """Drop facet values and result ids the store no longer has; say which."""
    dropped: list[str] = []
    f = view.filters
    for dim, vals in view.filters.selected:
        known = values.get(dim)
        if known is None:
            dropped.append(f"filter on unknown dimension {dim!r}")
            f = f.with_values(dim, ())
            continue
        gone = sorted(str(v) for v in vals if v not in known)
        if gone:
            dropped.append(f"{dim}: {', '.join(gone)}")
            f = f.with_values(dim, [v for v in vals if v in known])
    ids = tuple(i for i in view.comparison.ids if i in known_ids)
    gone_ids = [i for i in view.comparison.ids if i not in known_ids]
    if gone_ids:
        dropped.append(f"compared results: {', '.join(gone_ids)}")
    base = (
        view.comparison.baseline
        if view.comparison.baseline in ids
        else (ids[0] if ids else None)
    )
    cmp = Comparison(ids, base, view.comparison.focus)
    return replace(view, filters=f, comparison=cmp), dropped
