"""Median points beyond the row cap (queries.kind_aggregate): each is the true
median of its configuration's filtered rows, checked in Python on a made-up
store where most points stand for several rows of different figures."""

from __future__ import annotations

import statistics

import duckdb
import pytest

from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.kinds import KINDS
from ipubench_gui.domain.series_rule import CONFIGURATION
from ipubench_gui.store.db import Database
from ipubench_gui.store.query import queries as q

# Each kind's rows and what only travels with a point's x (a line's points
# differ in it), written out here rather than read from the kinds.
RULE = {
    "scaling": (
        "metric = 'throughput' AND task = 'training' AND accelerators IS NOT NULL",
        {"platform", "batch_size"},
    ),
    "latency-throughput": (
        "metric = 'throughput' AND task = 'inference' AND latency_ms IS NOT NULL",
        set(),
    ),
}


@pytest.fixture(scope="module")
def grouped_db(tmp_path_factory):
    """3,000 rows resampled from the seed's ~1,050 with one SDK: about three
    rows of each configuration, their figures varied."""
    from ipubench_gui.store.bundled.build import build_store
    from tests.bench.synthetic import make_data

    tmp = tmp_path_factory.mktemp("grouped")
    data = make_data(tmp / "data", 3000)
    csv = data / "results.csv"
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE r AS SELECT * REPLACE ('SDK 3.3' AS sdk_version) "
        "FROM read_csv($p, all_varchar = true)",
        {"p": str(csv)},
    )
    con.execute(f"COPY r TO '{csv}' (HEADER, DELIMITER ',')")
    con.close()
    d = Database.open(build_store(data, tmp / "s.duckdb"))
    yield d
    d.close()


def _expected(db: Database, kind: str) -> dict[tuple, tuple]:
    """Per configuration: median value, median latency (None if none), rows."""
    cond, along = RULE[kind]
    keys = [c for c in CONFIGURATION if c not in along]
    cur = db.cursor().execute(
        f"SELECT * FROM results_v WHERE {cond} AND framework = 'PyTorch'"
    )
    cols = [d[0] for d in cur.description]
    groups: dict[tuple, list[dict]] = {}
    for r in (dict(zip(cols, t)) for t in cur.fetchall()):
        groups.setdefault(tuple(r[k] for k in keys), []).append(r)
    out = {}
    for key, rows in groups.items():
        lat = [r["latency_ms"] for r in rows if r["latency_ms"] is not None]
        out[key] = (
            statistics.median(r["value"] for r in rows),
            statistics.median(lat) if lat else None,
            len(rows),
        )
    return out


@pytest.mark.parametrize("exact", [False, True], ids=["hashed", "exact"])
@pytest.mark.parametrize("kind", sorted(RULE))
def test_each_point_is_the_median_of_its_configurations_rows(grouped_db, kind, exact):
    want = _expected(grouped_db, kind)
    state = FilterState().with_values("framework", ["PyTorch"])
    got_rows = grouped_db.run(q.kind_aggregate(state, KINDS[kind], exact)).dicts()
    keys = [c for c in CONFIGURATION if c not in RULE[kind][1]]
    got = {tuple(r[k] for k in keys): r for r in got_rows}
    assert len(got) == len(got_rows) == len(want)
    for key, (value, latency, n) in want.items():
        r = got[key]
        assert (r["value"], r["n"]) == (pytest.approx(value), n), key
        assert r["latency_ms"] == (None if latency is None else pytest.approx(latency))
        assert not r["mixed"]
    # The representative row is one of the point's own rows.
    ids = [r["result_id"] for r in got_rows]
    cur = grouped_db.cursor().execute(
        f"SELECT {', '.join(q.quote_ident(k) for k in keys)} FROM results_v "
        "WHERE list_contains($ids, result_id) ORDER BY list_position($ids, result_id)",
        {"ids": ids},
    )
    assert [tuple(t) for t in cur.fetchall()] == [
        tuple(r[k] for k in keys) for r in got_rows
    ]
    # The store tells a median from a wrong answer: a lower median (or any
    # one row's figure) and a mean each differ from it for some points.
    figures = _figures(grouped_db, kind)
    assert any(statistics.median_low(v) != statistics.median(v) for v in figures)
    assert any(
        statistics.mean(v) != pytest.approx(statistics.median(v)) for v in figures
    )


def _figures(db: Database, kind: str) -> list[list[float]]:
    cond, along = RULE[kind]
    keys = ", ".join(q.quote_ident(c) for c in CONFIGURATION if c not in along)
    cur = db.cursor().execute(
        f"SELECT list(value) FROM results_v WHERE {cond} AND framework = 'PyTorch' "
        f"GROUP BY {keys}"
    )
    return [v for (v,) in cur.fetchall()]
