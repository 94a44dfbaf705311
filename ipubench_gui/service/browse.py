"""Browsing: what the window shows of a state (the table's page, facet
counts, the chart's rows, the universe of values) and the rows of given ids,
as functions of immutable inputs.

Each returns plain values and runs on whatever thread calls it (the UI's
worker thread, the command line, tests).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from ipubench_gui import paths
from ipubench_gui.domain.chartrows import (
    ChartRows,
    best_rows,
    chart_unit,
    shares,
    task_order,
)
from ipubench_gui.domain.chartspec import ChartSpec, chart_metric
from ipubench_gui.domain.fields import FACETS, RANGES
from ipubench_gui.domain.fields import field as field_of
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.format import source_labels, source_list_labels
from ipubench_gui.domain.kinds import kind
from ipubench_gui.domain.metrics import LOWER_IS_BETTER
from ipubench_gui.service import claims
from ipubench_gui.store.db import Database, Query, QueryResult
from ipubench_gui.store.query import queries as q
from ipubench_gui.store.query.cache import cache_of
from ipubench_gui.store.query.snapshot import (
    INLINE_MAX_ROWS as SNAPSHOT_INLINE_MAX_ROWS,
)
from ipubench_gui.store.query.snapshot import MAX_ROWS as SNAPSHOT_MAX_ROWS
from ipubench_gui.store.query.snapshot import Snapshot

TABLE_LIMIT = 5000  # rows of a page answered from memory
# A page DuckDB answers starts with the rows that fill the view and brings the
# rest as the table scrolls (``more``): over a large store a whole page cost a
# filter change far more than the few dozen rows a table shows.
FIRST_PAGE = 200
MORE_PAGE = 1000


@dataclass(frozen=True)
class Universe:
    """What exists regardless of filters: facet values (and how many rows hold
    each), numeric bounds, sources."""

    values: dict[str, list[object]]
    bounds: dict[str, tuple[float, float]]
    total: int
    sources: tuple[tuple[str, str, str | None, str], ...]  # file, title, date, kind
    counts: dict[str, dict[object, int]] = field(default_factory=dict)

    @cached_property  # read on every page and chart: made once a universe
    def names(self) -> dict[str, dict[str, str]]:
        """How values are named where that is not the value itself: a source
        by its title and date, not its file id (``FilterState.chips``)."""
        return {"source_file": source_labels(self.sources)}

    @cached_property
    def list_names(self) -> dict[str, dict[str, str]]:
        """``names`` short enough for a narrow list (the facet lists)."""
        return {"source_file": source_list_labels(self.sources)}


@dataclass(frozen=True)
class Page:
    """The filtered rows shown first and how many match (``result.truncated``:
    more follow, see :func:`more`)."""

    result: QueryResult
    matching: int


def universe(db: Database) -> Universe:
    vals: dict[str, list[object]] = {f.name: [] for f in FACETS}
    counts: dict[str, dict[object, int]] = {f.name: {} for f in FACETS}
    for facet, text, n in db.run(q.distinct_values()).rows:
        value = field_of(facet).parse(text)
        vals[facet].append(value)
        counts[facet][value] = n
    for vs in vals.values():
        vs.sort(key=lambda v: (v is None, v if isinstance(v, (int, float)) else str(v)))
    names = [f.name for f in RANGES]
    total, *row = db.run(q.bounds(names)).rows[0]
    bounds = {
        n: (row[2 * i], row[2 * i + 1])
        for i, n in enumerate(names)
        if row[2 * i] is not None
    }
    src = db.run(
        Query(
            "SELECT source_file, title, CAST(date AS VARCHAR), date_kind "
            "FROM sources ORDER BY source_file",
            {},
        )
    ).rows
    return Universe(vals, bounds, total, tuple(src), counts)


def snapshot(db: Database) -> Snapshot | None:
    """The store's rows in memory when it is small (see ``store.query.snapshot``),
    else None. Loaded once per database, and again after ``db.data_changed()``."""
    cache = cache_of(db)
    with cache.lock:
        if cache.snapshot is None:
            rows = db.scalar("SELECT count(*) FROM results_v")
            snap: Snapshot | Literal[False] = False
            if rows <= SNAPSHOT_MAX_ROWS:
                snap = Snapshot.load(db)
                snap.projected(q.result_columns())  # the table's, made here
            cache.snapshot = snap
        return cache.snapshot or None


def inline_snapshot(db: Database) -> Snapshot | None:
    """``db``'s rows in memory if they are held already (never loads them) and
    few enough (``snapshot.INLINE_MAX_ROWS``) that a filter's table and counts
    take a millisecond or two, little enough for the GUI thread. Pass it to the
    jobs run there (``snap=``): asking again could find it dropped by a write
    in between and load the rows through DuckDB on the GUI thread."""
    snap = cache_of(db).snapshot
    if isinstance(snap, Snapshot) and 0 < len(snap) <= SNAPSHOT_INLINE_MAX_ROWS:
        return snap
    return None


def answers_at_once(db: Database) -> bool:
    """Whether :func:`inline_snapshot` has the rows."""
    return inline_snapshot(db) is not None


def page(
    db: Database,
    state: FilterState,
    sort: tuple[str | None, bool],
    limit: int | None = None,
    snap: Snapshot | None = None,
) -> Page:
    """The table's first page; from ``snap`` (else ``db``'s rows in memory, if
    held: ``TABLE_LIMIT`` rows), else from DuckDB (``FIRST_PAGE`` rows)."""
    snap = snap or snapshot(db)
    if snap is not None:
        lim = TABLE_LIMIT if limit is None else limit
        res, matching = snap.page(state, q.result_columns(), *sort, limit=lim)
        return Page(res, matching)
    lim = FIRST_PAGE if limit is None else limit
    res = _sql_rows(db, state, sort, lim, 0)
    n = (
        len(res.rows)
        if not res.truncated
        else db.run(q.count(state, cube_pays(db))).rows[0][0]
    )
    return Page(res, n)


def more(
    db: Database,
    state: FilterState,
    sort: tuple[str | None, bool],
    offset: int,
    limit: int | None = None,
    snap: Snapshot | None = None,
) -> QueryResult:
    """The table's rows after its first ``offset`` (``MORE_PAGE`` of them), in
    :func:`page`'s order (``truncated``: more follow)."""
    limit = MORE_PAGE if limit is None else limit
    snap = snap or snapshot(db)
    if snap is not None:
        res, _n = snap.page(
            state, q.result_columns(), *sort, limit=limit, offset=offset
        )
        return res
    return _sql_rows(db, state, sort, limit, offset)


def _sql_rows(
    db: Database,
    state: FilterState,
    sort: tuple[str | None, bool],
    limit: int,
    offset: int,
) -> QueryResult:
    # The two-phase Top-N pays only on a large store (see queries.results);
    # past the first rows the query itself must skip them.
    narrow = cube_pays(db) or offset > 0
    query = q.results(
        state,
        order_by=sort[0],
        descending=sort[1],
        limit=limit if narrow else None,
        offset=offset,
    )
    return db.run(query, limit=limit)


def cube_pays(db: Database) -> bool:
    """Whether the facet cube is at least 4x smaller than the rows (asked once)."""
    cache = cache_of(db)
    if cache.cube_pays is None:
        cube, rows = db.run(q.cube_size()).rows[0]
        cache.cube_pays = cube * 4 <= rows
    return cache.cube_pays


def facet_counts(
    db: Database, state: FilterState, snap: Snapshot | None = None
) -> dict[str, dict[object, int]]:
    """Per facet, rows per value with every filter but its own; from ``snap``
    (else ``db``'s rows in memory, if held)."""
    snap = snap or snapshot(db)
    if snap is not None:
        return snap.facet_counts(state)
    out: dict[str, dict[object, int]] = {f.name: {} for f in FACETS}
    # One grouped scan per facet, on the cube when it can answer. (A single
    # pass yielding (facet, value, keep) per row won only below 20,000 rows,
    # which are answered from memory; above, it was slower than this.)
    query = q.facet_counts(state, cube_pays=cube_pays(db))
    for facet, value, n in db.run(query).rows:
        out[facet][field_of(facet).parse(value)] = n
    return out


def chart_rows(
    db: Database,
    state: FilterState,
    metric: str,
    limit: int,
    wanted: str | None = None,
    per_chip: bool = False,
) -> ChartRows:
    """The best rows of ``metric`` in one unit family among the filtered rows
    (``wanted``, else the largest group: mixed metrics or families never share
    an axis), and what was left out; as ``best_rows`` picks them, in two
    queries whatever the number of tasks (the counts and cuts, then the rows)."""
    lower = metric in LOWER_IS_BETTER
    stats = db.run(q.chart_stats(state, metric, limit, lower, per_chip)).rows
    families: Counter[tuple[str, str]] = Counter()
    for m, fam, _task, n, _best in stats:
        families[m, fam] += n
    unit, total, mine, plotted, others = chart_unit(
        [(m, fam, n) for (m, fam), n in families.items()], metric, wanted
    )
    if unit is None:
        return ChartRows(metric, (), total, 0, 0)
    drawn = [(t, n, best) for m, fam, t, n, best in stats if (m, fam) == (metric, unit)]
    counts = {t: (n, best or []) for t, n, best in drawn}
    order = task_order(counts)
    # each task's best apart, the bars shared out (as best_rows does)
    room = [limit] if len(order) < 2 else shares([counts[t][0] for t in order], limit)
    picks = []
    for t, k in zip(order, room):
        best = counts[t][1]
        if k > 0:  # the k-th best figure, unless blanks are among the best k
            picks.append((t, k, best[k - 1] if len(best) >= k else None))
    rank = {t: i for i, t in enumerate(order)}
    found = db.run(q.chart_best(state, metric, unit, lower, picks, per_chip)).dicts()
    rows = tuple(sorted(found, key=lambda r: rank[r["task"]]))  # stable
    if len(order) < 2:
        return ChartRows(metric, rows, total, mine, plotted, 1, others)
    tasks = tuple((t, k, counts[t][0]) for t, k in zip(order, room))
    return ChartRows(metric, rows, total, mine, plotted, 1, others, tasks)


KIND_ROW_CAP = 5000


def chart_data(
    db: Database,
    state: FilterState,
    spec: ChartSpec,
    page: Page | None = None,
    snap: Snapshot | None = None,
) -> ChartRows:
    """The rows ``spec.kind`` draws (see ``ChartKind.rows``).

    A chart of the best rows is picked from the rows held in memory (``snap``,
    else ``db``'s if held), else in Python (``best_rows``) from ``page``, the
    table's page for the same filter, when it holds every filtered row: a
    fraction of the chart's own queries, and the same rows. Other kinds take
    at most KIND_ROW_CAP rows, else medians per point computed in DuckDB (Python
    never sees a million rows).
    """
    chart = kind(spec.kind)
    if chart.rows == "best":
        metric = chart_metric(spec, state.values("metric"))
        held = snap or _held(db)
        if held is not None:
            return held.best_rows(
                state,
                metric,
                spec.max_bars,
                q.result_columns(),
                spec.unit_family,
                spec.per_accelerator,
            )
        if page is not None and _bars_from_page(spec, page.result.truncated):
            return best_rows(
                _page_dicts(db, page),
                metric,
                spec.max_bars,
                spec.unit_family,
                spec.per_accelerator,
            )
        return chart_rows(
            db, state, metric, spec.max_bars, spec.unit_family, spec.per_accelerator
        )
    if chart.rows == "comparisons":
        # each with its verdict: the claims audit's own Audit, not one of its own
        stated, audits = claims.vendor_comparisons(db, paths.data_dir())
        rows = tuple({**c, "audit": audits.get(c["comparison_id"])} for c in stated)
        return ChartRows("ratio", rows, len(rows), len(rows), len(rows))
    n = db.run(q.kind_count(state, chart, cube_pays(db))).rows[0][0]
    if n <= KIND_ROW_CAP:
        rows = tuple(db.run(q.kind_rows(state, chart, KIND_ROW_CAP)).dicts())
        return ChartRows(chart.metric, rows, n, n, n)
    res = db.run(q.kind_aggregate(state, chart)).dicts()
    if any(r["mixed"] for r in res):  # two configurations in one hash
        res = db.run(q.kind_aggregate(state, chart, exact=True)).dicts()
    for r in res:
        del r["mixed"]
    per = max((r["n"] for r in res), default=1)
    return ChartRows(chart.metric, tuple(res), n, n, n, per_point=per)


def _held(db: Database) -> Snapshot | None:
    """``db``'s rows in memory if they are held already (never loads them)."""
    held = cache_of(db).snapshot
    return held if isinstance(held, Snapshot) else None


def _page_dicts(db: Database, page: Page) -> list[dict[str, Any]]:
    """``page``'s rows as dicts: those of the rows held in memory when the
    page is theirs (made once), else made now."""
    held = cache_of(db).snapshot
    made = held.row_dicts(page.result) if isinstance(held, Snapshot) else None
    return page.result.dicts() if made is None else made


def _bars_from_page(spec: ChartSpec, truncated: bool) -> bool:
    """The rule :func:`chart_data` follows: a chart of the best rows is
    picked from the page's rows when the page holds every filtered row."""
    return kind(spec.kind).rows == "best" and not truncated


def chart_from_page(snap: Snapshot, state: FilterState, spec: ChartSpec) -> bool:
    """Whether :func:`page_and_chart` over ``snap`` answers ``spec``'s chart
    with no query of its own (a chart of the best rows: from the rows held)."""
    return kind(spec.kind).rows == "best"


def page_and_chart(
    db: Database,
    state: FilterState,
    sort: tuple[str | None, bool],
    spec: ChartSpec,
    snap: Snapshot | None = None,
) -> dict[str, object]:
    """The table's page and the chart's rows for one filter state, as the
    runner's ``page`` and ``chart`` results (the chart from the page when it
    can be, see :func:`chart_data`)."""
    p = page(db, state, sort, snap=snap)
    return {"page": p, "chart": chart_data(db, state, spec, page=p, snap=snap)}


class UnknownIds(KeyError):
    """Result ids that are not in the store; ``ids`` lists them."""

    def __init__(self, ids: list[str]):
        super().__init__(ids)
        self.ids = ids

    def __str__(self) -> str:
        return (
            "unknown result id"
            + ("s" if len(self.ids) > 1 else "")
            + ": "
            + ", ".join(self.ids)
        )


def rows_by_ids(db: Database, ids: list[str]) -> list[dict[str, Any]]:
    """The rows of ``ids`` in the order given; raises UnknownIds naming the missing."""
    found = {r["result_id"]: r for r in db.run(q.by_ids(ids)).dicts()}
    missing = [i for i in ids if i not in found]
    if missing:
        raise UnknownIds(missing)
    return [found[i] for i in ids]


def family_rows(db: Database, row: Mapping[str, Any]) -> list[dict[str, Any]]:
    return db.run(q.family(row)).dicts()


def existing_ids(db: Database, ids: list[str]) -> set[str]:
    return {r["result_id"] for r in db.run(q.by_ids(ids)).dicts()} if ids else set()
