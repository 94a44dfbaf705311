"""A FilterState compiled once into clauses, each answered in SQL or in memory.

One table of filter kinds (``KINDS``) says, for each kind, both how it reads as
SQL with bound parameters (``queries``) and how it tests the rows held in
memory (``snapshot``): the two evaluators cannot drift apart, and
``tests/store/test_snapshot.py`` checks them answer for answer. A new kind of
filter is one entry here plus the part of ``FilterState`` that holds it
(``compile_filters`` says which part is which kind).

The rules both evaluators share are written here once too: the text-search
haystack (``HAY_SQL``), "every filter except the facet's own" for facet counts
(``without_own``) and the table's sort order (``order_sql``/``order_rows``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from ipubench_gui.domain.filters import FilterState, NumRange, Value
from ipubench_gui.store.db import Row
from ipubench_gui.store.schema import quote_ident


class HeldRows(Protocol):
    """What the in-memory evaluation reads of the rows (``store.query.snapshot``)."""

    hay: list[str]  # per row, the search haystack (HAY_SQL's value)

    def __len__(self) -> int: ...
    def floats(self, column: str) -> np.ndarray: ...
    def is_in(self, column: str, values: frozenset[Value]) -> np.ndarray: ...


# The text a search term must occur in: the searched columns (TEXT_SEARCH),
# lowered, joined by a space, stored with every row (``search_text``, made by
# store/bundled/names.SEARCH_TEXT). The snapshot asks DuckDB for this same expression
# per row, so case folding is the SQL path's own.
HAY_SQL = f"coalesce({quote_ident('search_text')}, '')"
TEXT = "text"  # the dimension a search term belongs to (chips, views)


Bind = Callable[[str, object], str]  # (name suffix, value) -> "$parameter"


@dataclass(frozen=True)
class FilterKind:
    """How one kind of condition reads in SQL and tests rows in memory.

    ``sql(column, arg, name)`` returns the condition's text; it binds its values
    by calling ``name(suffix, value)``, which returns the ``$parameter`` to
    write. ``mask(snapshot, column, arg)`` returns one bool per held row.
    ``facet_own``: a facet's counts leave out this kind of clause on its own
    column (a selection), so another value of the facet can still be ticked.
    """

    sql: Callable[[str, Any, Bind], str]
    mask: Callable[[HeldRows, str, Any], np.ndarray]
    facet_own: bool = False


def _values_sql(col: str, values: frozenset[Value], name: Bind) -> str:
    conds = []
    non_null = [v for v in values if v is not None]
    if non_null:
        # list_contains plans far cheaper than IN (SELECT unnest(...)) here.
        conds.append(f"list_contains({name('', non_null)}, {col})")
    if None in values:
        conds.append(f"{col} IS NULL")
    return "(" + " OR ".join(conds) + ")"


def _range_sql(col: str, rng: NumRange, name: Bind) -> str:
    parts = []
    if rng.lo is not None:
        parts.append(f"{col} >= {name('lo', rng.lo)}")
    if rng.hi is not None:
        parts.append(f"{col} <= {name('hi', rng.hi)}")
    return " AND ".join(parts)


def _range_mask(snap: HeldRows, column: str, rng: NumRange) -> np.ndarray:
    col = snap.floats(column)  # NaN for blank: never within a range
    keep = np.ones(len(col), dtype=bool)
    with np.errstate(invalid="ignore"):
        if rng.lo is not None:
            keep &= col >= rng.lo
        if rng.hi is not None:
            keep &= col <= rng.hi
    return keep


def _term_mask(snap: HeldRows, _column: str, term: str) -> np.ndarray:
    t = term.lower()
    return np.fromiter((t in h for h in snap.hay), dtype=bool, count=len(snap.hay))


# Selections OR their values (None: blank); ranges are closed with open None
# bounds and exclude blanks; each search term must occur in the haystack.
KINDS: dict[str, FilterKind] = {
    "values": FilterKind(
        _values_sql,
        lambda snap, column, values: snap.is_in(column, values),
        facet_own=True,
    ),
    "range": FilterKind(_range_sql, _range_mask),
    "term": FilterKind(
        lambda _col, term, name: f"strpos({HAY_SQL}, {name('', term.lower())}) > 0",
        _term_mask,
    ),
}


@dataclass(frozen=True)
class Clause:
    """One condition of a filter: its kind, the dimension it belongs to (whose
    facet counts leave it out) and its argument."""

    kind: str
    dim: str
    arg: Any


def compile_filters(state: FilterState) -> tuple[Clause, ...]:
    """``state`` as clauses, all of which a row must meet (see domain.filters)."""
    return (
        *(Clause("values", dim, vals) for dim, vals in state.selected),
        *(Clause("range", dim, rng) for dim, rng in state.ranges),
        *(Clause("term", TEXT, term) for term in state.terms()),
    )


def without_own(clauses: Sequence[Clause], facet: str | None) -> list[Clause]:
    """The clauses a facet's counts apply: every one but the facet's own
    (``facet`` None: every one)."""
    return [c for c in clauses if c.dim != facet or not KINDS[c.kind].facet_own]


def where_sql(
    clauses: Sequence[Clause], prefix: str = ""
) -> tuple[str, dict[str, object]]:
    """The clauses AND-ed as SQL (``"TRUE"`` when none) and their parameters;
    ``prefix`` keeps parameter names apart when several share one statement."""
    params: dict[str, object] = {}
    parts = []
    for i, c in enumerate(clauses):

        def name(suffix: str, value: object, i: int = i) -> str:
            key = f"{prefix}c{i}{suffix}"
            params[key] = value
            return f"${key}"

        col = "" if c.dim == TEXT else quote_ident(c.dim)
        parts.append(KINDS[c.kind].sql(col, c.arg, name))
    return (" AND ".join(parts) or "TRUE"), params


def clause_mask(snap: HeldRows, clause: Clause) -> np.ndarray:
    return KINDS[clause.kind].mask(snap, clause.dim, clause.arg)


def all_of(masks: Sequence[np.ndarray], n: int) -> np.ndarray:
    """Rows meeting every mask (all rows when there are none)."""
    keep = np.ones(n, dtype=bool)
    for m in masks:
        keep &= m
    return keep


# -- the table's order --------------------------------------------------------
def order_sql(column: str, descending: bool) -> str:
    """``ORDER BY`` text: the column's values, blanks last, ties by result id."""
    return (
        f"{quote_ident(column)} {'DESC' if descending else 'ASC'} NULLS LAST, result_id"
    )


def order_rows(
    rows: Sequence[Row], column: int, result_id: int, descending: bool
) -> list[int]:
    """Row numbers in :func:`order_sql`'s order, for rows held in memory."""
    by_id = sorted(range(len(rows)), key=lambda i: rows[i][result_id])
    present = [i for i in by_id if rows[i][column] is not None]
    present.sort(key=lambda i: rows[i][column], reverse=descending)  # stable
    blank = [i for i in by_id if rows[i][column] is None]  # NULLS LAST
    return present + blank
