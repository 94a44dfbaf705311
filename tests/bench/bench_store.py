"""Store benchmarks: build, open, facet counts, filtered fetch."""

from __future__ import annotations

from pathlib import Path

import duckdb

from ipubench_gui.domain.filters import FilterState, NumRange
from ipubench_gui.service import browse
from ipubench_gui.store.bundled.build import build_store
from ipubench_gui.store.db import Database
from ipubench_gui.store.query import queries as q
from tests.bench.harness import REPO_DATA, Row, case, median_ms
from tests.bench.synthetic import largest_held_store, make_data

FILTER = (
    FilterState()
    .with_values("framework", ["PyTorch", "TensorFlow 1"])
    .with_values("generation", ["IPU Mk2 Classic"])
    .with_range("batch_size", NumRange(4, 4096))
)


def _store_rows(
    label: str, data: Path, tmp: Path, build_runs: int, runs: int
) -> list[Row]:
    out = tmp / f"{label}.duckdb"
    csv = str(data / "results.csv")

    def raw_read():
        c = duckdb.connect()
        c.execute("CREATE TABLE t AS SELECT * FROM read_csv($p)", {"p": csv})
        c.close()

    rows = [
        Row(
            "build store from data/",
            label,
            median_ms(lambda: build_store(data, out), build_runs, warmup=0),
            "raw read_csv of results.csv",
            median_ms(raw_read, build_runs, 0),
        )
    ]

    def open_close():
        Database.open(out).close()

    rows.append(
        Row(
            "open store (read-only)",
            label,
            median_ms(open_close, runs),
            "connect :memory:",
            median_ms(lambda: duckdb.connect().close(), runs),
            "<= 50 ms",
        )
    )
    db = Database.open(out)
    scan = q.count(FILTER)
    base = median_ms(lambda: db.run(scan), runs)
    target = "<= 5 ms" if label == "seed" else "<= 100 ms"
    rows.append(
        Row(
            "all 12 facet counts, 3 filters",
            label,
            median_ms(lambda: browse.facet_counts(db, FILTER), runs),
            "one filtered count(*)",
            base,
            target,
        )
    )
    rows.append(
        Row(
            "all 12 facet counts, no filter",
            label,
            median_ms(lambda: browse.facet_counts(db, FilterState()), runs),
            "one filtered count(*)",
            base,
        )
    )
    rows.append(
        Row(
            "filtered table, first 1000 rows",
            label,
            median_ms(
                lambda: db.run(
                    q.results(FILTER, order_by="value", descending=True), limit=1000
                ),
                runs,
            ),
            "one filtered count(*)",
            base,
        )
    )
    db.close()
    return rows


def _in_memory_rows(label: str, store: Path, runs: int) -> list[Row]:
    """What a filter change asks of the store (page and facet counts), answered
    from memory (store.query.snapshot) against the SQL path on the same database."""
    from ipubench_gui.store.query.snapshot import Snapshot

    db = Database.open(store)

    def ask():
        browse.page(db, FILTER, ("value", True))
        browse.facet_counts(db, FILTER)

    assert browse.snapshot(db) is not None
    mine = median_ms(ask, runs)
    from ipubench_gui.store.query.cache import cache_of

    cache_of(db).snapshot = False  # as for a store too large to hold
    sql = median_ms(ask, runs)
    load = median_ms(lambda: Snapshot.load(db), 5)
    db.close()
    return [
        Row("page + facet counts, in memory", label, mine, "the same in SQL", sql),
        Row("load the in-memory copy (once)", label, load),
    ]


@case("store")
def bench_store(args, tmp: Path) -> list[Row]:
    from ipubench_gui.store.query.snapshot import MAX_ROWS

    rows = _store_rows("seed", REPO_DATA, tmp, build_runs=5, runs=30)
    rows += _in_memory_rows("seed", tmp / "seed.duckdb", runs=30)
    held = largest_held_store(tmp)
    rows += _in_memory_rows(f"{MAX_ROWS:,} rows (largest held)", held, runs=10)
    n = 100_000 if args.quick else 1_000_000
    data = make_data(tmp / "synthetic", n)
    rows += _store_rows(f"{n:,} rows", data, tmp, build_runs=3, runs=10)
    return rows
