"""Saved views: the whole state (filters, chart, comparator) as versioned JSON."""

from __future__ import annotations

import stat
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
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
        from ipubench_gui.domain.view_schema import to_saved

        return {
            "format": FORMAT,
            "version": VERSION,
            "filters": self.filters.to_json(),
            "chart": self.chart.to_json(),
            "comparison": to_saved(self.comparison),
        }

    @classmethod
    def parse(cls, data: object) -> tuple[View, list[str]]:
        """A saved view and notices of what was dropped from it; ValueError when
        it is no view at all, or one from a newer app."""
        from ipubench_gui.domain.view_schema import (
            parse_chart,
            parse_comparison,
            parse_filters,
        )

        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError("not an ipubench-gui view file")
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            raise ValueError(
                f"the view's format version should be a whole number from 1, "
                f"got {str(version)[:20]!r}"
            )
        if version > VERSION:
            raise ValueError(
                f"saved by a newer ipubench-gui (view format {version}; this app "
                f"reads format {VERSION} and older): update the app to open it"
            )
        filters, n1 = parse_filters(data.get("filters"))
        chart, n2 = parse_chart(data.get("chart"))
        comparison, n3 = parse_comparison(data.get("comparison"))
        return cls(filters, chart, comparison), n1 + n2 + n3


MAX_VIEW_BYTES = 1 << 20


def load_view(path: Path) -> tuple[View, list[str]]:
    """Read a view file: a regular file of at most 1 MB (a FIFO or /dev/zero
    would never end); OSError or ValueError in words otherwise."""
    from ipubench_gui.domain.files import NotRegular, read_regular
    from ipubench_gui.domain.view_schema import decode_json

    special = ValueError("not a regular file (a device, a pipe or a folder)")
    st = Path(path).stat()
    if not stat.S_ISREG(st.st_mode):
        raise special
    if st.st_size > MAX_VIEW_BYTES:
        raise ValueError(
            f"{st.st_size / 1e6:,.1f} MB is too large for a view file "
            f"(at most {MAX_VIEW_BYTES >> 20} MB)"
        )
    try:  # never blocks, should a pipe have taken the file's place
        raw = read_regular(Path(path), MAX_VIEW_BYTES)
    except NotRegular:
        raise special from None
    return View.parse(decode_json(raw))


def reconcile(
    view: View,
    values: Mapping[str, Collection[object]],
    known_ids: Collection[str],
    rename: Callable[[str, Any], Any] | None = None,
) -> tuple[View, list[str]]:
    """Drop facet values and result ids the store no longer has; say which.

    ``rename(dim, value)`` gives a value's name today first: a view saved when
    the facet listed 'ResNet-50v1.5' selects 'ResNet-50 v1.5' now."""
    dropped: list[str] = []
    f = view.filters
    if rename is not None:
        for dim, vals in view.filters.selected:
            f = f.with_values(dim, list(dict.fromkeys(rename(dim, v) for v in vals)))
    for dim, vals in f.selected:
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
    cmp = replace(view.comparison, ids=ids, baseline=base)
    return replace(view, filters=f, comparison=cmp), dropped
