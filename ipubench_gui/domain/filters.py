"""FilterState: what the user has selected, as an immutable value.

Semantics (decided once, here):

* Within one facet, selected values are OR-ed: ``framework in {PyTorch, PopART}``.
* Across facets, ranges and the text box, conditions are AND-ed.
* A facet's counts are computed with every filter applied *except its own*
  (as Datasette does), so ticking a second value in the same facet is always
  possible and the panel shows what each value would add.
* ``None`` is a selectable value meaning "blank in the source".
* A range bound of ``None`` is open; a set range excludes rows where the column
  is blank (a row with no latency is not "within 0-2 ms").
* Text search: every whitespace-separated term must occur, case-insensitively,
  in a row's search text: its model, variant and dataset, its system (platform,
  MLPerf system name and folder), accelerator, MLPerf submitter, and every
  spelling the entity tables list for these. Terms are literal.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ipubench_gui.domain.fields import filter_field
from ipubench_gui.domain.format import format_number

Value = str | int | float | None
# per dimension, value -> how it is named where that is not the value itself
Names = Mapping[str, Mapping[Any, str]]


@dataclass(frozen=True)
class NumRange:
    """A closed numeric interval; ``None`` bounds are open."""

    lo: float | None = None
    hi: float | None = None

    def is_open(self) -> bool:
        return self.lo is None and self.hi is None


@dataclass(frozen=True)
class FilterState:
    """Selections per facet, numeric ranges and free text. Change with methods."""

    selected: tuple[tuple[str, frozenset[Value]], ...] = ()
    ranges: tuple[tuple[str, NumRange], ...] = ()
    text: str = ""

    # -- reading -------------------------------------------------------------
    def values(self, dim: str) -> frozenset[Value]:
        return dict(self.selected).get(dim, frozenset())

    def range(self, dim: str) -> NumRange:
        return dict(self.ranges).get(dim, NumRange())

    def terms(self) -> list[str]:
        return self.text.split()

    def is_empty(self) -> bool:
        return not self.selected and not self.ranges and not self.terms()

    # -- changing (each returns a new instance) ------------------------------
    def with_values(self, dim: str, values: Iterable[Value]) -> FilterState:
        sel = dict(self.selected)
        vals = frozenset(values)
        if vals:
            sel[dim] = vals
        else:
            sel.pop(dim, None)
        return replace(self, selected=tuple(sorted(sel.items())))

    def toggled(self, dim: str, value: Value) -> FilterState:
        vals = set(self.values(dim))
        vals.symmetric_difference_update({value})
        return self.with_values(dim, vals)

    def with_range(self, dim: str, rng: NumRange | None) -> FilterState:
        rs = dict(self.ranges)
        if rng is None or rng.is_open():
            rs.pop(dim, None)
        else:
            rs[dim] = rng
        return replace(self, ranges=tuple(sorted(rs.items())))

    def with_text(self, text: str) -> FilterState:
        return replace(self, text=text)

    def cleared(self, dim: str | None = None) -> FilterState:
        """Clear one facet, range or ``"text"``; or everything when ``dim`` is None."""
        if dim is None:
            return FilterState()
        if dim == "text":
            return self.with_text("")
        return self.with_values(dim, ()).with_range(dim, None)

    # -- describing ----------------------------------------------------------
    def chips(self, names: Names | None = None) -> list[tuple[str, str]]:
        """``(dim, label)`` for each active condition, for removable chips.
        ``names``: per dimension, how a value is named where that is not the
        value itself (a source's title for its file id)."""
        out: list[tuple[str, str]] = []
        for dim, vals in self.selected:
            named = (names or {}).get(dim, {})
            shown = ", ".join(sorted(named.get(v) or _show(v) for v in vals))
            out.append((dim, f"{filter_field(dim).label}: {shown}"))
        for dim, r in self.ranges:
            f = filter_field(dim)
            unit = f" {f.unit}" if f.unit else ""
            if r.lo is not None and r.hi is not None:
                text = f"{format_number(r.lo)}–{format_number(r.hi)}{unit}"
            elif r.lo is not None:
                text = f"≥ {format_number(r.lo)}{unit}"
            else:
                text = f"≤ {format_number(r.hi)}{unit}"
            out.append((dim, f"{f.label}: {text}"))
        if self.terms():
            out.append(("text", f"Text: “{self.text.strip()}”"))
        return out

    def describe(self, names: Names | None = None) -> str:
        """One line for subtitles: ``"Model: BERT Large; Batch size: ≥ 8"``."""
        return "; ".join(label for _, label in self.chips(names)) or "all results"

    # -- serialising (saved views, QSettings) --------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "selected": {d: sorted(vals, key=_sort_key) for d, vals in self.selected},
            "ranges": {d: [r.lo, r.hi] for d, r in self.ranges},
            "text": self.text,
        }


def _show(v: Value) -> str:
    return "(blank)" if v is None else str(v)


def _sort_key(v: Value) -> tuple[int, str]:
    return (0, "") if v is None else (1, f"{v:>20}" if isinstance(v, int) else str(v))
