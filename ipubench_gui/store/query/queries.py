"""Query builders: FilterState and options in, Query(sql, params) out.

Every value is a bound parameter; every identifier comes from schema.quote_ident.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ipubench_gui.domain.compare import SAME_FOR_COUNTERPARTS
from ipubench_gui.domain.fields import FACETS, PROVENANCE, TABLE_COLUMNS
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.kinds import ChartKind
from ipubench_gui.domain.metrics import FAMILY_SQL, per_chip_sql
from ipubench_gui.domain.series_rule import CONFIGURATION
from ipubench_gui.store.db import Params, Query
from ipubench_gui.store.query.clauses import (
    TEXT,
    compile_filters,
    order_sql,
    where_sql,
    without_own,
)
from ipubench_gui.store.schema import CUBE_COLUMNS, quote_ident

VIEW = "results_v"
CUBE = "facet_cube"
# A filter touching only these can be counted on the cube.
CUBED = frozenset(CUBE_COLUMNS)


def cube_answers(state: FilterState, cube_pays: bool = True) -> bool:
    """Whether counts for ``state`` can come from the pre-aggregated cube.

    ``cube_pays``: the cube is much smaller than the rows (false at seed scale,
    where summing it costs more than counting the rows themselves).
    """
    return cube_pays and all(
        c.dim in CUBED for c in compile_filters(state) if c.dim != TEXT
    )


def cube_size() -> Query:
    return Query(
        f"SELECT (SELECT count(*) FROM {CUBE}), (SELECT count(*) FROM {VIEW})", {}
    )


def where(
    state: FilterState, exclude: str | None = None, prefix: str = ""
) -> tuple[str, Params]:
    """SQL condition (``"TRUE"`` when empty) and params for ``state``.

    ``exclude`` drops that facet's own selection, for its counts; ``prefix``
    keeps parameter names apart when several conditions share one statement.
    The conditions themselves are ``store.query.clauses``'.
    """
    return where_sql(without_own(compile_filters(state), exclude), prefix)


def result_columns(columns: Sequence[str] | None = None) -> list[str]:
    """The columns of :func:`results`: ``columns`` (default: the table's), then
    provenance, each once."""
    return list(
        dict.fromkeys([*(columns or [f.name for f in TABLE_COLUMNS]), *PROVENANCE])
    )


def results(
    state: FilterState,
    columns: Sequence[str] | None = None,
    order_by: str | None = None,
    descending: bool = False,
    limit: int | None = None,
    offset: int = 0,
) -> Query:
    """Rows matching ``state`` with display and provenance columns.

    With ``limit``, the first ``limit + 1`` rows (one more, to tell truncation)
    are found by a narrow Top-N over ``ord`` alone and only then fetched whole:
    a Top-N that carries every column through the sort costs several times
    more over a large store (tests/bench: store).
    """
    cols = result_columns(columns)
    cond, params = where(state)
    # Default: the order of the source pages, which readers know (``ord`` is
    # that order, precomputed, so a top-N sort on one integer does it).
    order = "ord"
    if order_by:
        order = order_sql(order_by, descending)
    select = ", ".join(quote_ident(c) for c in cols)
    if limit is None:
        return Query(
            f"SELECT {select} FROM {VIEW} WHERE {cond} ORDER BY {order}", params
        )
    sql = (
        f"WITH top AS (SELECT ord FROM {VIEW} WHERE {cond} ORDER BY {order} "
        f"LIMIT $limit_plus_one OFFSET $offset) "
        f"SELECT {select} FROM {VIEW} SEMI JOIN top USING (ord) ORDER BY {order}"
    )
    return Query(sql, dict(params, limit_plus_one=int(limit) + 1, offset=int(offset)))


def count(state: FilterState, cube_pays: bool = True) -> Query:
    cond, params = where(state)
    if cube_answers(state, cube_pays):
        return Query(
            f"SELECT CAST(coalesce(sum(n), 0) AS BIGINT) FROM {CUBE} WHERE {cond}",
            params,
        )
    return Query(f"SELECT count(*) FROM {VIEW} WHERE {cond}", params)


def _chart_figure(per_chip: bool) -> str:
    """SQL: the figure a chart of the best rows ranks by, per accelerator chip
    as domain/metrics defines it (NULL where a metric has none)."""
    return per_chip_sql() if per_chip else "value"


def chart_stats(
    state: FilterState,
    metric: str,
    limit: int,
    lower_is_better: bool,
    per_chip: bool = False,
) -> Query:
    """Filtered rows counted per (metric, unit family, task) and, for
    ``metric``'s, the best ``limit`` figures of each group, best first,
    blanks left out: what a chart of the best rows can show and, once each
    task's share of the bars is known, the least good figure a best row of
    it can have (:func:`chart_best`'s cut). One scan."""
    cond, params = where(state)
    best = "min" if lower_is_better else "max"
    fig = _chart_figure(per_chip)
    return Query(
        f"SELECT metric, {FAMILY_SQL}, task, count(*), "
        f"{best}({fig}, $lim) FILTER (WHERE metric = $metric) "
        f"FROM {VIEW} WHERE {cond} GROUP BY ALL",
        dict(params, metric=metric, lim=max(int(limit), 1)),
    )


def _ranked(
    state: FilterState, metric: str, unit: str, lower_is_better: bool, per_chip: bool
) -> tuple[str, Params, str, str]:
    """What the chart of the best rows ranks: its rows (FROM ... WHERE) and
    their parameters, the figure, and the way (ASC or DESC) best first."""
    cond, params = where(state)
    return (
        f"FROM {VIEW} WHERE {cond} AND metric = $metric AND {FAMILY_SQL} = $unit",
        dict(params, metric=metric, unit=unit),
        _chart_figure(per_chip),
        "ASC" if lower_is_better else "DESC",
    )


def chart_best(
    state: FilterState,
    metric: str,
    unit: str,
    lower_is_better: bool,
    picks: Sequence[tuple[object, int, float | None]],
    per_chip: bool = False,
) -> Query:
    """The best rows of ``metric`` in ``unit`` (a unit family) of each task
    of ``picks`` (task, how many, cut), each task's ranked apart, best first
    (in the order of their figures; the caller orders the tasks).

    Done in SQL so a chart over a million rows fetches ~60, and the bars are the
    true best, not the best of whatever page the table happens to hold. A
    task's ``cut`` (from :func:`chart_stats`) keeps only rows at least that
    good for the ranking with its tie-break, result_id, which imported rows
    compute (for every imported row, most of the time otherwise).
    """
    rows, params, fig, way = _ranked(state, metric, unit, lower_is_better, per_chip)
    tests, room = [], []
    for i, (task, k, cut) in enumerate(picks):
        params[f"task{i}"], params[f"room{i}"] = task, int(k)
        test = f"task IS NOT DISTINCT FROM $task{i}"
        room.append(f"WHEN {test} THEN $room{i}")
        if cut is not None:
            test += f" AND {fig} {'<=' if lower_is_better else '>='} $cut{i}"
            params[f"cut{i}"] = cut
        tests.append(f"({test})")
    cols = list(dict.fromkeys([f.name for f in TABLE_COLUMNS] + list(PROVENANCE)))
    order = f"{fig} {way} NULLS LAST, result_id"
    # Narrow ranking first, whole rows after (see results()).
    return Query(
        f"WITH top AS (SELECT ord {rows} AND ({' OR '.join(tests) or 'FALSE'}) "
        f"QUALIFY row_number() OVER (PARTITION BY task ORDER BY {order}) "
        f"<= CASE {' '.join(room) or 'WHEN TRUE THEN 0'} END) "
        f"SELECT {', '.join(quote_ident(c) for c in cols)} FROM {VIEW} "
        f"SEMI JOIN top USING (ord) ORDER BY {order}",
        params,
    )


def facet_counts(
    state: FilterState, dims: Sequence[str] | None = None, cube_pays: bool = True
) -> Query:
    """Counts per value of every facet, each with all *other* filters applied.

    One grouped scan per facet, joined by UNION ALL: in tests/bench it beats a
    single GROUPING SETS scan at the bundled scale and over a million rows,
    and an unnest-based single pass loses badly over a million.
    Rows are ``(facet, value, n)`` with ``value`` as text (NULL for blank cells)
    so one column holds every facet; ``Field.parse`` restores numbers.
    """
    src, n = (CUBE, "sum(n)") if cube_answers(state, cube_pays) else (VIEW, "count(*)")
    parts: list[str] = []
    params: Params = {}
    for j, d in enumerate(dims or [f.name for f in FACETS]):
        cond, p = where(state, exclude=d, prefix=f"f{j}_")
        params.update(p)
        col = quote_ident(d)
        parts.append(
            f"SELECT '{d}' AS facet, CAST({col} AS VARCHAR) AS value, "
            f"CAST({n} AS BIGINT) AS n FROM {src} WHERE {cond} GROUP BY {col}"
        )
    return Query(" UNION ALL ".join(parts), params)


def distinct_values(dims: Sequence[str] | None = None) -> Query:
    """Every value of every facet over all rows (as text; NULL kept) and how
    many rows hold it, one scan.

    Read from the facet cube, which holds every facet column grouped: a few
    hundred rows even over a million results. One scan of (facet, value)
    pairs costs a third of one DISTINCT per facet, which was the start-up's
    slowest query.
    """
    dims = list(dims or [f.name for f in FACETS])
    src, n = (CUBE, "n") if set(dims) <= CUBED else (VIEW, "1")
    pairs = ", ".join(
        f"{{'facet': '{d}', 'value': CAST({quote_ident(d)} AS VARCHAR)}}" for d in dims
    )
    return Query(
        f"SELECT facet, value, CAST(sum(n) AS BIGINT) FROM "
        f"(SELECT unnest([{pairs}], recursive := true), {n} AS n FROM {src}) "
        "GROUP BY ALL",
        {},
    )


def bounds(dims: Sequence[str]) -> Query:
    """How many rows, then the min and max of each numeric column, in one scan."""
    cols = ", ".join(f"min({quote_ident(d)}), max({quote_ident(d)})" for d in dims)
    return Query(f"SELECT count(*), {cols} FROM {VIEW}", {})


def by_ids(ids: Sequence[str]) -> Query:
    cols = list(dict.fromkeys([f.name for f in TABLE_COLUMNS] + list(PROVENANCE)))
    return Query(
        f"SELECT {', '.join(quote_ident(c) for c in cols)} FROM {VIEW} "
        "WHERE list_contains($ids, result_id)",
        {"ids": list(ids)},
    )


def kind_where(state: FilterState, chart: ChartKind) -> tuple[str, Params]:
    """The filter AND the rows ``chart`` draws (its ``RowRule``, constants bound
    as parameters like every value)."""
    cond, params = where(state)
    parts = [cond]
    for i, (col, value) in enumerate(chart.condition.equals):
        params[f"kind{i}"] = value
        parts.append(f"{quote_ident(col)} = $kind{i}")
    parts += [f"{quote_ident(col)} IS NOT NULL" for col in chart.condition.present]
    return " AND ".join(parts), params


def kind_count(state: FilterState, chart: ChartKind, cube_pays: bool = False) -> Query:
    """How many rows ``chart`` would draw: from the facet cube when it pays and
    holds every column the filter and the kind's rule test (a scan of a few
    hundred rows instead of every row), else from the rows."""
    cond, params = kind_where(state, chart)
    rule = {c for c, _ in chart.condition.equals} | set(chart.condition.present)
    if cube_answers(state, cube_pays) and rule <= CUBED:
        return Query(
            f"SELECT CAST(coalesce(sum(n), 0) AS BIGINT) FROM {CUBE} WHERE {cond}",
            params,
        )
    return Query(f"SELECT count(*) FROM {VIEW} WHERE {cond}", params)


def kind_rows(state: FilterState, chart: ChartKind, limit: int) -> Query:
    cond, params = kind_where(state, chart)
    cols = list(
        dict.fromkeys([f.name for f in TABLE_COLUMNS] + list(PROVENANCE) + ["sdk_sort"])
    )
    return Query(
        f"SELECT {', '.join(quote_ident(c) for c in cols)} FROM {VIEW} "
        f"WHERE {cond} ORDER BY value DESC, result_id LIMIT $lim",
        dict(params, lim=limit),
    )


# Carried by a median point beside its keys (constant within one point, or the
# companions of its x such as the platform naming a system size).
_CARRIED = (
    *CONFIGURATION,
    "unit_family",
    "mlperf_id",
    "mlperf_round",
    "quality_target",
    "category",
    "sdk_sort",
)


def kind_aggregate(state: FilterState, chart: ChartKind, exact: bool = False) -> Query:
    """One row per group of ``chart.keys`` (one line at one x, by the series
    rule): median value and latency, how many rows (``n``), and the keys,
    carried columns and id of a representative row (the group's first in
    source order).

    Grouped on a 64-bit hash of the 14-16 text keys, and the representative's
    columns read by its ``ord`` afterwards instead of carried through the
    grouping as ``any_value``: half the time over the large bench store.
    ``mixed`` is true for a group
    whose rows differ in a second hash of the keys (in reverse order): two
    configurations met in one hash, and the caller asks again with ``exact``,
    grouped on the keys themselves."""
    cond, params = kind_where(state, chart)
    keys = ", ".join(quote_ident(k) for k in chart.keys)
    check = ", ".join(quote_ident(k) for k in reversed(chart.keys))
    group, mixed = (keys, "false") if exact else (f"hash({keys})", f"hash({check})")
    shown = dict.fromkeys([*chart.keys, *_CARRIED, "result_id"])
    cols = ", ".join(f"r.{quote_ident(c)}" for c in shown)
    return Query(
        f"WITH g AS (SELECT median(value) AS value, median(latency_ms) AS latency_ms, "
        f"min(ord) AS ord, count(*) AS n, min({mixed}) <> max({mixed}) AS mixed "
        f"FROM {VIEW} WHERE {cond} GROUP BY {group}) "
        f"SELECT {cols}, g.value, g.latency_ms, g.n, g.mixed "
        f"FROM g JOIN {VIEW} r USING (ord)",
        params,
    )


def comparisons() -> Query:
    return Query(
        "SELECT c.*, s.date AS source_date, s.date_kind AS source_date_kind, "
        "s.title AS source_title FROM comparisons c "
        "JOIN sources s USING (source_file) ORDER BY comparison_id",
        {},
    )


def family(row: Mapping[str, Any]) -> Query:
    """Rows that could be counterparts of ``row``: same model, variant, task,
    metric, dataset, precision, unit and MLPerf scenario (NULL-safe)."""
    keys = SAME_FOR_COUNTERPARTS
    cols = list(dict.fromkeys([f.name for f in TABLE_COLUMNS] + list(PROVENANCE)))
    cond = " AND ".join(f"{quote_ident(k)} IS NOT DISTINCT FROM ${k}" for k in keys)
    return Query(
        f"SELECT {', '.join(quote_ident(c) for c in cols)} FROM {VIEW} "
        f"WHERE {cond} ORDER BY ord",
        {k: row.get(k) for k in keys},
    )
