"""Query builders: parameterised SQL, and results equal to independent counts."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ipubench_gui.domain.fields import FACETS, field
from ipubench_gui.domain.filters import FilterState, NumRange
from ipubench_gui.domain.view_schema import parse_filters
from ipubench_gui.store.query import queries as q
from ipubench_gui.store.schema import quote_ident
from tests.conftest import GPU_STORED, examples


def _matches(row, state: FilterState, exclude=None) -> bool:
    """Independent Python reading of the documented filter semantics."""
    for dim, vals in state.selected:
        if dim == exclude:
            continue
        if row[dim] not in vals:
            return False
    for dim, r in state.ranges:
        v = row[dim]
        if (
            v is None
            or (r.lo is not None and v < r.lo)
            or (r.hi is not None and v > r.hi)
        ):
            return False
    hay = " ".join((row[c] or "").lower() for c in ("model", "variant", "dataset"))
    return all(t.lower() in hay for t in state.terms())


@pytest.fixture(scope="module")
def rows(db):
    cols = [f.name for f in FACETS] + [
        "batch_size",
        "throughput",
        "latency_ms",
        "result_id",
    ]
    res = db.run(q.Query(f"SELECT {', '.join(cols)} FROM results_v", {}))
    return res.dicts()


STATES = [
    FilterState(),
    FilterState().with_values("framework", ["PyTorch"]),
    FilterState()
    .with_values("framework", ["PyTorch", "PopART"])
    .with_values("accelerators", [16]),
    FilterState().with_values("variant", [None]).with_values("task", ["inference"]),
    FilterState().with_range("latency_ms", NumRange(None, 2.0)),
    FilterState().with_range("batch_size", NumRange(8, 1024)).with_text("resnet"),
    FilterState().with_text("BERT squad"),
    FilterState()
    .with_values("generation", ["Bow"])
    .with_range("throughput", NumRange(10000, None)),
]


@pytest.mark.parametrize("state", STATES, ids=lambda s: s.describe())
def test_results_and_counts_equal_an_independent_filter(db, rows, state):
    want = sorted(r["result_id"] for r in rows if _matches(r, state))
    got = db.run(q.results(state)).column("result_id")
    assert sorted(got) == want
    assert db.run(q.count(state)).rows[0][0] == len(want)


@pytest.mark.parametrize("state", STATES, ids=lambda s: s.describe())
def test_in_memory_results_and_counts_equal_an_independent_filter(db, rows, state):
    from ipubench_gui.store.query.snapshot import Snapshot

    want = sorted(r["result_id"] for r in rows if _matches(r, state))
    res, matching = Snapshot.load(db).page(state, ["result_id"], None, False, 5000)
    assert sorted(res.column("result_id")) == want
    assert matching == len(want)


@pytest.mark.parametrize("state", STATES, ids=lambda s: s.describe())
@pytest.mark.parametrize("form", ["per-facet", "cube", "in-memory"])
def test_facet_counts_apply_every_filter_but_their_own(db, rows, state, form):
    got: dict[str, Counter] = {f.name: Counter() for f in FACETS}
    if form == "in-memory":
        from ipubench_gui.store.query.snapshot import Snapshot

        for facet, counts in Snapshot.load(db).facet_counts(state).items():
            got[facet].update(counts)
    else:
        query = {
            "per-facet": q.facet_counts(state, cube_pays=False),
            "cube": q.facet_counts(state, cube_pays=True),
        }[form]
        for facet, value, n in db.run(query).rows:
            got[facet][field(facet).parse(value)] += n
    for f in FACETS:
        want = Counter(r[f.name] for r in rows if _matches(r, state, exclude=f.name))
        assert got[f.name] == want, f.name


def test_a_selection_the_cube_lacks_is_counted_on_the_rows(db):
    # A saved view may select on any column; "unit" is not kept by the cube,
    # so counting on the cube would fail: such a filter counts the rows.
    state = FilterState().with_values("unit", ["items/s"])
    assert not q.cube_answers(state) and q.cube_answers(FilterState())
    want = db.scalar("SELECT count(*) FROM results WHERE unit = 'items/s'") + sum(
        r["unit"] == "items/s" for r in GPU_STORED
    )
    assert want > 0
    assert db.run(q.count(state, cube_pays=True)).rows[0][0] == want
    counts = db.run(q.facet_counts(state, cube_pays=True)).rows
    assert sum(n for facet, _, n in counts if facet == "task") == want


def test_values_are_parameters_never_sql_text():
    state = (
        FilterState()
        .with_values("model", ["x'); DROP TABLE results; --"])
        .with_text("'; DELETE FROM results; --")
        .with_range("batch_size", NumRange(1, 2))
    )
    for query in (q.results(state), q.count(state), q.facet_counts(state)):
        assert "DROP" not in query.sql and "DELETE" not in query.sql
        assert "x');" in str(query.params.values())


def test_hostile_text_finds_nothing_and_harms_nothing(db):
    state = FilterState().with_text("'; DROP TABLE results; --")
    assert db.run(q.results(state)).rows == ()
    assert db.scalar("SELECT count(*) FROM results") == 250


def test_identifiers_come_only_from_the_whitelist():
    with pytest.raises(ValueError, match="not allowed"):
        quote_ident("value; DROP TABLE results")
    with pytest.raises(ValueError):
        q.results(FilterState(), order_by="nonexistent")
    assert quote_ident("table") == '"table"'


def test_sorting_is_numeric_and_puts_blanks_last(db, csv_rows):
    res = db.run(
        q.results(
            FilterState().with_values("task", ["inference"]),
            order_by="latency_ms",
            descending=True,
        )
    )
    lat = res.column("latency_ms")
    non_null = [v for v in lat if v is not None]
    assert non_null == sorted(non_null, reverse=True)
    # The longest latency of any inference row, from the CSV files: the vendor's
    # (30.68 ms) or NVIDIA's (a latency figure, or one printed beside a throughput).
    printed = [r["latency_ms"] for r in csv_rows if r["task"] == "inference"] + [
        r["latency_ms"] or (r["value"] if r["metric"] == "latency" else "")
        for r in GPU_STORED
    ]
    assert lat[-1] is None and lat[0] == max(float(v) for v in printed if v)


def test_bounds_and_distinct_values(db, rows):
    n, lo, hi = db.run(q.bounds(["batch_size"])).rows[0]
    sizes = [r["batch_size"] for r in rows if r["batch_size"] is not None]
    assert (n, lo, hi) == (len(rows), min(sizes), max(sizes))
    res = db.run(q.distinct_values(["framework", "dataset", "batch_size"]))
    for dim in ("framework", "dataset", "batch_size"):
        got = [v for f, v, _n in res.rows if f == dim]
        want = {None if r[dim] is None else str(r[dim]) for r in rows}
        assert sorted(got, key=str) == sorted(want, key=str)  # each once, NULL too
        # with how many rows hold each value
        held = Counter(None if r[dim] is None else str(r[dim]) for r in rows)
        assert {v: n for f, v, n in res.rows if f == dim} == held
    assert None in {r["dataset"] for r in rows}  # the seed has a blank dataset


def test_describe_and_chips():
    st = (
        FilterState()
        .with_values("framework", ["PyTorch", "PopART"])
        .with_range("latency_ms", NumRange(None, 2))
        .with_text(" bert ")
    )
    assert st.describe() == (
        "Framework: PopART, PyTorch; Latency: ≤ 2 ms; Text: “bert”"
    )
    assert parse_filters(st.to_json()) == (st, [])


@pytest.mark.parametrize(
    ("order_by", "desc"),
    [(None, False), ("latency_ms", True), ("model", False), ("value", True)],
)
def test_limited_page_equals_the_head_of_the_full_ordering(db, order_by, desc):
    state = FilterState().with_values("task", ["inference"])
    full = db.run(q.results(state, order_by=order_by, descending=desc)).column(
        "result_id"
    )
    page = db.run(
        q.results(state, order_by=order_by, descending=desc, limit=20), limit=20
    )
    assert page.column("result_id") == full[:20] and page.truncated


def _distinct(db, dim):
    return [
        r[0]
        for r in db.run(
            q.Query(f"SELECT DISTINCT {quote_ident(dim)} FROM results_v", {})
        ).rows
    ]


@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_bar_rows_picked_in_python_equal_the_store_top_n(db, data):
    """``best_rows`` (from the fetched page) must pick what the SQL ranking
    picks, and so must the rows held in memory (``Snapshot.best_rows``)."""
    from ipubench_gui.domain.chartrows import best_rows
    from ipubench_gui.service import browse

    state = FilterState()
    for dim in data.draw(
        st.lists(
            st.sampled_from(["framework", "generation", "task", "model"]),
            max_size=2,
            unique=True,
        )
    ):
        vals = data.draw(
            st.lists(st.sampled_from(_distinct(db, dim)), min_size=1, max_size=3)
        )
        state = state.with_values(dim, vals)
    metric = data.draw(st.sampled_from(["throughput", "latency", "time_to_train"]))
    limit = data.draw(st.sampled_from([1, 5, 60]))
    wanted = data.draw(st.sampled_from([None, "images/s", "sequences/s", "time"]))
    per_chip = data.draw(st.booleans())
    page = browse.page(db, state, (None, False))
    assert not page.result.truncated
    mine = best_rows(page.result.dicts(), metric, limit, wanted, per_chip)
    sql = browse.chart_rows(db, state, metric, limit, wanted, per_chip)
    # and from the rows held in memory, ranked over arrays
    held = browse.snapshot(db)
    assert held is not None
    arrays = held.best_rows(state, metric, limit, q.result_columns(), wanted, per_chip)
    for other in (sql, arrays):
        assert [r["result_id"] for r in mine.rows] == [
            r["result_id"] for r in other.rows
        ]
        assert (mine.total, mine.mine, mine.plotted, mine.others) == (
            other.total,
            other.mine,
            other.plotted,
            other.others,
        )
        assert mine.tasks == other.tasks  # each task's best apart, room shared alike
    assert [dict(r) for r in arrays.rows] == [dict(r) for r in sql.rows]


@pytest.mark.parametrize("state", STATES, ids=lambda s: s.describe())
@pytest.mark.parametrize("cube_pays", [False, True])
def test_the_scaling_charts_rows_are_counted_alike_on_cube_and_rows(
    db, rows, state, cube_pays
):
    """The scaling chart's rule (training throughput with an accelerator
    count) tests cube columns only: with the cube paying it is counted there."""
    from ipubench_gui.domain.kinds import kind

    scaling = kind("scaling")
    query = q.kind_count(state, scaling, cube_pays=cube_pays)
    assert ("facet_cube" in query.sql) == (cube_pays and q.cube_answers(state))
    want = db.scalar(
        "SELECT count(*) FROM results_v WHERE metric = 'throughput' "
        "AND task = 'training' AND accelerators IS NOT NULL AND result_id IN "
        "(SELECT unnest($ids))",
        {"ids": [r["result_id"] for r in rows if _matches(r, state)]},
    )
    assert want > 0 or not state.is_empty()
    assert db.run(query).rows[0][0] == want
    # The latency chart's rule needs a latency, which the cube does not hold.
    lt = q.kind_count(state, kind("latency-throughput"), cube_pays=cube_pays)
    assert "facet_cube" not in lt.sql


@pytest.mark.parametrize("per_chip", [False, True])
def test_the_best_rows_are_cut_where_the_figures_tie(db, per_chip):
    """The chart's ranking takes only rows at least as good as the last best
    one (the cut ``queries.chart_stats`` finds): where that figure is shared
    by rows inside and outside the best, the tie-break still decides, as one
    ORDER BY over every row does."""
    from ipubench_gui.service import browse

    fig = "value / accelerators" if per_chip else "value"
    cut_at_a_tie = 0
    # one task's rows: a chart of both ranks each task's apart (test_tasks_apart)
    for metric, family, task in db.run(
        q.Query(
            "SELECT DISTINCT metric, coalesce(unit_family, unit), task "
            "FROM results_v WHERE metric = 'throughput'",
            {},
        )
    ).rows:
        every = db.run(
            q.Query(
                f"SELECT result_id, {fig} FROM results_v WHERE metric = $m AND "
                f"coalesce(unit_family, unit) = $u AND task = $t "
                f"ORDER BY {fig} DESC NULLS LAST, result_id",
                {"m": metric, "u": family, "t": task},
            )
        ).rows
        # One cut inside each run of equal figures (where the figure is shared
        # by rows inside and outside the best): every cut inside one run is
        # the same case, and asking at each made this the slowest store test.
        one = FilterState().with_values("task", [task])
        for limit in range(1, len(every)):
            if every[limit - 1][1] != every[limit][1]:
                continue
            if limit > 1 and every[limit - 2][1] == every[limit - 1][1]:
                continue  # this run of equal figures was cut inside already
            cut_at_a_tie += 1
            got = browse.chart_rows(db, one, metric, limit, family, per_chip)
            assert [r["result_id"] for r in got.rows] == [r[0] for r in every[:limit]]
    assert cut_at_a_tie > 0  # the seed has such ties
