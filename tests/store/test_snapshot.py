"""The in-memory answers (store.query.snapshot) against the SQL path, answer for answer.

Small stores are filtered and counted in memory; larger ones by DuckDB. Both
must give the same page (rows, order, truncation, count) and the same facet
counts for any filter state and sort, so each case asks the same Database
twice: once with its snapshot, once with it switched off.
"""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ipubench_gui.domain.fields import FACETS, RANGES, TABLE_COLUMNS
from ipubench_gui.domain.filters import FilterState, NumRange
from ipubench_gui.service import browse
from ipubench_gui.store.db import Database
from ipubench_gui.store.query.cache import cache_of
from tests.conftest import STORE_ROWS, examples


@contextmanager
def _sql_only(db: Database):
    """The SQL path: the snapshot marked as too large, as for a big store."""
    cache = cache_of(db)
    with cache.lock:
        saved, cache.snapshot = cache.snapshot, False
    try:
        yield
    finally:
        with cache.lock:
            cache.snapshot = saved


@pytest.fixture(scope="module")
def synthetic_db(tmp_path_factory):
    """3,000 rows resampled from the seed (its vocabulary, blanks and skew)."""
    from ipubench_gui.store.bundled.build import build_store
    from tests.bench.synthetic import make_data

    tmp = tmp_path_factory.mktemp("syn")
    d = Database.open(build_store(make_data(tmp / "data", 3000), tmp / "s.duckdb"))
    yield d
    d.close()


def _states(db: Database):
    """Filter states over the store's own values: selections (blank included),
    ranges within and beyond its bounds, and text terms in any case."""
    u = browse.universe(db)
    words = sorted(
        {
            w
            for f in ("model", "variant", "dataset")
            for v in u.values[f]
            if v
            for w in str(v).replace("-", " ").split()
        }
    )

    @st.composite
    def states(draw):
        state = FilterState()
        for dim in draw(
            st.lists(st.sampled_from([f.name for f in FACETS]), max_size=3, unique=True)
        ):
            values = st.sampled_from(u.values[dim])
            state = state.with_values(
                dim, draw(st.lists(values, min_size=1, max_size=3))
            )
        for dim in draw(
            st.lists(st.sampled_from([f.name for f in RANGES]), max_size=2, unique=True)
        ):
            lo, hi = u.bounds[dim]
            a = draw(st.one_of(st.none(), st.floats(lo * 0.5, hi * 1.5)))
            b = draw(st.one_of(st.none(), st.floats(lo * 0.5, hi * 1.5)))
            state = state.with_range(dim, NumRange(a, b))
        terms = draw(st.lists(st.sampled_from(words), max_size=2))
        case = draw(st.sampled_from([str.lower, str.upper, str]))
        cut = [t[: draw(st.integers(1, 6))] for t in terms]
        return state.with_text(" ".join(case(t) for t in cut))

    return states()


SORTS = st.tuples(
    st.one_of(st.none(), st.sampled_from([f.name for f in TABLE_COLUMNS])),
    st.booleans(),
)


def _check_same_answers(db: Database, state, sort, limit) -> None:
    assert browse.snapshot(db) is not None  # a small store: held in memory
    mine = browse.page(db, state, sort, limit=limit)
    counts = browse.facet_counts(db, state)
    with _sql_only(db):
        assert browse.snapshot(db) is None
        sql = browse.page(db, state, sort, limit=limit)
        sql_counts = browse.facet_counts(db, state)
    assert mine.matching == sql.matching
    assert mine.result.columns == sql.result.columns
    assert mine.result.truncated == sql.result.truncated
    assert mine.result.rows == sql.result.rows  # same rows, same order
    assert counts == sql_counts


@pytest.mark.parametrize("store", ["db", "synthetic_db"])  # the seed and 3,000 rows
@settings(
    max_examples=examples(100),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_answers_alike_in_memory_and_in_sql(request, store, data):
    db = request.getfixturevalue(store)
    state = data.draw(_states(db))
    limit = data.draw(st.sampled_from([5000, 100, 1]))
    _check_same_answers(db, state, data.draw(SORTS), limit)


@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("column", [f.name for f in TABLE_COLUMNS])
def test_every_sort_orders_alike_blanks_last(db, column, descending):
    # Every column, both ways, over all rows: ties, blanks and mixed cases.
    _check_same_answers(db, FilterState(), (column, descending), 5000)


def test_a_value_the_store_lacks_matches_nothing_in_both(db):
    state = FilterState().with_values("framework", ["No such framework"])
    _check_same_answers(db, state, (None, False), 5000)
    assert browse.page(db, state, (None, False)).matching == 0


def test_selections_and_ranges_on_other_columns_filter_alike(db):
    # A saved view may name any column of the results, not only the panels'.
    state = (
        FilterState()
        .with_values("unit", ["items/s", "min", None])
        .with_values("batch_size", [4, 16])
        .with_range("value", NumRange(100, None))
    )
    _check_same_answers(db, state, ("unit", False), 5000)
    assert browse.page(db, state, (None, False)).matching > 0


@pytest.mark.parametrize("kind", ["throughput", "scaling", "mlperf"])
def test_chart_from_page_says_when_page_and_chart_needs_no_query(db, kind):
    from ipubench_gui.domain.chartspec import ChartSpec

    spec = ChartSpec(kind=kind)
    state = FilterState().with_values("framework", ["PyTorch"])
    snap = browse.snapshot(db)
    asked = []
    real_run = db.run
    db.run = lambda *a, **k: asked.append(a) or real_run(*a, **k)
    try:
        browse.page_and_chart(db, state, (None, False), spec, snap=snap)
    finally:
        del db.run
    assert browse.chart_from_page(snap, state, spec) == (not asked)
    assert browse.chart_from_page(snap, state, spec) == (kind == "throughput")


def test_inline_jobs_answer_from_the_rows_handed_to_them(db):
    # The GUI thread picks inline answers by the rows held; a write that drops
    # them before the jobs run must not make the jobs load the rows through
    # DuckDB on the GUI thread: they answer from the copy they were given.
    from ipubench_gui.domain.chartspec import ChartSpec

    assert browse.snapshot(db) is not None
    snap = browse.inline_snapshot(db)
    assert snap is not None
    state = FilterState().with_values("framework", ["PyTorch"])
    want = browse.page(db, state, (None, False))
    db.data_changed()  # a write in between: the store's copy is dropped
    opened = []
    real_cursor = db.cursor
    db.cursor = lambda: opened.append(1) or real_cursor()
    try:
        got = browse.page_and_chart(db, state, (None, False), ChartSpec(), snap=snap)
        counts = browse.facet_counts(db, state, snap=snap)
    finally:
        del db.cursor
    assert opened == []  # no query at all
    assert got["page"] == want and counts["framework"]["PyTorch"] == want.matching
    assert browse.inline_snapshot(db) is None  # still dropped, until asked anew


def test_stores_above_the_limit_are_not_held(db, monkeypatch):
    from ipubench_gui.store.query import snapshot

    db.data_changed()
    monkeypatch.setattr(browse, "SNAPSHOT_MAX_ROWS", STORE_ROWS - 1)
    assert browse.snapshot(db) is None and not browse.answers_at_once(db)
    db.data_changed()
    monkeypatch.setattr(browse, "SNAPSHOT_MAX_ROWS", snapshot.MAX_ROWS)
    assert browse.snapshot(db) is not None and browse.answers_at_once(db)


def test_only_small_stores_are_answered_on_the_calling_thread(db, monkeypatch):
    assert browse.snapshot(db) is not None and browse.answers_at_once(db)
    monkeypatch.setattr(browse, "SNAPSHOT_INLINE_MAX_ROWS", STORE_ROWS - 1)
    assert browse.snapshot(db) is not None  # still held, answered on a worker
    assert not browse.answers_at_once(db)


def test_every_filter_kind_is_compiled_from_a_filter_state():
    # A kind in the table that no part of FilterState compiles to is dead; the
    # property test above reaches each kind through the states it draws.
    from ipubench_gui.store.query import clauses

    state = (
        FilterState()
        .with_values("framework", ["PyTorch", None])
        .with_range("batch_size", NumRange(4, None))
        .with_text("bert large")
    )
    compiled = clauses.compile_filters(state)
    assert {c.kind for c in compiled} == set(clauses.KINDS)
    assert [c.dim for c in clauses.without_own(compiled, "framework")] == [
        "batch_size",
        "text",
        "text",
    ]


@pytest.mark.parametrize(
    "state",
    [FilterState(), FilterState().with_values("framework", ["PyTorch"])],
    ids=["all rows", "PyTorch"],
)
def test_a_charts_rows_from_the_held_page_are_those_of_its_own_query(db, state):
    """The bar chart picked from a page of held rows (their dicts made once,
    ``Snapshot.row_dicts``) is the chart the store's own Top-N query answers,
    row for row and field for field."""
    from ipubench_gui.domain.chartspec import ChartSpec

    spec = ChartSpec(kind="throughput")
    snap = browse.snapshot(db)
    assert snap is not None
    page = browse.page(db, state, (None, False), snap=snap)
    shared = snap.row_dicts(page.result)
    assert shared == page.result.dicts()
    again = snap.row_dicts(browse.page(db, state, (None, False), snap=snap).result)
    assert again is not None and all(a is b for a, b in zip(shared, again))
    mine = browse.chart_data(db, state, spec, page=page)
    with _sql_only(db):
        sql = browse.chart_data(db, state, spec)
        # rows that are not the held ones are not answered from them
        assert snap.row_dicts(browse.page(db, state, (None, False)).result) is None
    assert [dict(r) for r in mine.rows] == [dict(r) for r in sql.rows]
    assert (mine.total, mine.mine, mine.plotted) == (sql.total, sql.mine, sql.plotted)
