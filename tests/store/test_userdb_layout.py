"""The user database's layout: imported figures keep what the file said, the
view derives the rest; a database in the older wide layout keeps every figure."""

from __future__ import annotations

import os

import duckdb

from ipubench_gui.domain import import_spec
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.store.bundled.build import fingerprint
from ipubench_gui.store.query import queries as q
from ipubench_gui.store.user import importer
from ipubench_gui.store.user.userdb import open_combined
from tests.conftest import DATA


def _cache(tmp_path, store_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    os.link(store_path, cache / f"results-{fingerprint(DATA)[:16]}.duckdb")
    return cache


# The imports table every layout so far has had, with import 1 taken.
IMPORTS = """
CREATE SEQUENCE import_ids START 2;
CREATE TABLE imports (source_id INTEGER PRIMARY KEY, file_name VARCHAR NOT NULL,
    label VARCHAR NOT NULL, imported_at TIMESTAMP NOT NULL, rows BIGINT NOT NULL,
    skipped BIGINT NOT NULL);
"""


def _user_results(*without: str) -> str:
    """The narrow table of imported figures, but the columns ``without``."""
    from ipubench_gui.store.user.user_tables import USER_COLUMNS

    cols = ", ".join(f'"{c}" {t}' for c, t in USER_COLUMNS.items() if c not in without)
    return f"CREATE TABLE user_results ({cols});"


def _old_wide_database(user, store_path, platform):
    """A user database as versions before the narrow table wrote it: every
    column of results_v per figure, ids and table order stored."""
    con = duckdb.connect(str(user))
    con.execute(f"ATTACH '{store_path}' AS b (READ_ONLY)")
    con.execute(
        IMPORTS
        + """
        INSERT INTO imports VALUES
            (1, 'old.csv', 'my old runs', TIMESTAMP '2026-01-02 03:04:05', 2, 0);
        CREATE TABLE user_results AS
            SELECT *, CAST(NULL AS INTEGER) AS source_id FROM b.results_v LIMIT 0;
        CREATE TABLE user_cube AS
            SELECT *, CAST(NULL AS INTEGER) AS source_id FROM b.facet_cube LIMIT 0;
        """
    )
    con.execute(
        """
        INSERT INTO user_results BY NAME
        SELECT 1000000000 + 10000000000 + k AS ord,
               'usr1-000000' || k AS result_id, 'old.csv' AS source_file,
               'my old runs' AS "table", k + 1 AS "row", 'training' AS task,
               'Old model' AS model, $p AS platform, 'throughput' AS metric,
               100.0 * k AS value, 'items/s' AS unit, 8 AS accelerators,
               'imported' AS source_date_kind, 'my old runs' AS source_title,
               1 AS source_id
        FROM range(1, 3) t(k)""",
        {"p": platform},
    )
    con.close()


def test_old_wide_user_database_keeps_its_figures_and_ids(tmp_path, store_path):
    with duckdb.connect(str(store_path), read_only=True) as s:
        platform, vendor = s.execute(
            "SELECT platform, vendor FROM platforms ORDER BY platform LIMIT 1"
        ).fetchone()
    user = tmp_path / "user.duckdb"
    _old_wide_database(user, store_path, platform)
    cache = _cache(tmp_path, store_path)
    db, status = open_combined(DATA, cache, user)
    assert status.writable and not status.message
    got = (
        db.cursor()
        .execute(
            "SELECT result_id, ord, model, value, accelerators, vendor, "
            '"table", source_date_kind FROM results_v WHERE source_file = '
            "'old.csv' ORDER BY ord"
        )
        .fetchall()
    )
    base = 1000000000 + 10000000000
    assert got == [
        (
            "usr1-0000001",
            base + 1,
            "Old model",
            100.0,
            8,
            vendor,
            "my old runs",
            "imported",
        ),
        (
            "usr1-0000002",
            base + 2,
            "Old model",
            200.0,
            8,
            vendor,
            "my old runs",
            "imported",
        ),
    ]
    cols = {
        r[0]
        for r in db.cursor()
        .execute(
            "SELECT column_name FROM duckdb_columns() WHERE database_name = 'u' "
            "AND table_name = 'user_results'"
        )
        .fetchall()
    }
    assert "result_id" not in cols and {"source_id", "n", "value"} <= cols
    # A new import lands beside them, with the next id.
    p = tmp_path / "new.csv"
    p.write_text("model,platform,throughput\nNew model,X,5\n")
    spec = import_spec.ImportSpec(
        p,
        {"model": "model", "platform": "platform", "value": "throughput"},
        {"metric": "throughput", "unit": "items/s"},
    )
    res = importer.import_file(db.cursor(), spec)
    assert res.source_id == 2
    assert (
        db.scalar("SELECT count(*) FROM results_v WHERE source_date_kind = 'imported'")
        == 3
    )
    db.close()
    # And it stays converted: opened again, the same three figures.
    db, _ = open_combined(DATA, cache, user)
    assert db.scalar("SELECT count(*) FROM user_results_v") == 3
    db.close()


def test_narrow_table_without_stored_order_gets_it(tmp_path, store_path):
    user = tmp_path / "user.duckdb"
    with duckdb.connect(str(user)) as con:
        con.execute(
            IMPORTS
            + f"""
            INSERT INTO imports VALUES
                (1, 'n.csv', 'n', TIMESTAMP '2026-11-23 10:00:00', 1, 0);
            {_user_results("ord")}
            INSERT INTO user_results BY NAME SELECT 1 AS source_id, 5 AS n,
                'M' AS model, 'throughput' AS metric, 2.5 AS value;
            """
        )
    db, status = open_combined(DATA, _cache(tmp_path, store_path), user)
    assert status.writable
    got = db.cursor().execute(
        "SELECT ord, result_id, value FROM results_v WHERE source_file = 'n.csv'"
    )
    assert got.fetchall() == [(1000000000 + 10000000000 + 5, "usr1-0000005", 2.5)]
    db.close()


# A file whose names are printed in several spellings (the store's catalogue
# knows them: ResNet50 and resnet are ResNet-50 v1.5, Pytorch is PyTorch, TF2
# is TensorFlow 2, Bow-Pod16 is the Bow Pod16) and one it does not know.
SPELLINGS = [
    ("ResNet50", "Bow-Pod16", "Pytorch", 1000.0),
    ("resnet", "Bow-Pod16", "TF2", 2000.0),
    ("My Net", "A100 80GB", "PyTorch", 50.0),
    ("ResNet50", "Bow-Pod16", "Pytorch", 1100.0),
    ("My Net", "Bow-Pod16", "TF2", 60.0),
]
CANONICAL = {
    "ResNet50": "ResNet-50 v1.5",
    "resnet": "ResNet-50 v1.5",
    "My Net": "My Net",
    "Bow-Pod16": "Bow Pod16",
    "A100 80GB": "A100 80GB",
    "Pytorch": "PyTorch",
    "PyTorch": "PyTorch",
    "TF2": "TensorFlow 2",
}
# What the view gives every imported figure (but its import date).
SHOWN = (
    "SELECT result_id, ord, model, model_as_printed, platform, platform_as_printed, "
    "framework, framework_as_printed, vendor, accelerators, unit, unit_family, "
    "value, throughput_per_accelerator, other_names, search_text "
    "FROM results_v WHERE source_date_kind = 'imported' ORDER BY ord"
)


def _keyed_layout_before(user, store_path):
    """A user database as versions before the keyed names wrote it: import 1
    in figures_1 (the names as printed per figure) and consts_1, its facet
    counts not yet made (opening makes them, as for any older database)."""
    con = duckdb.connect(str(user))
    con.execute(f"ATTACH '{store_path}' AS b (READ_ONLY)")
    con.execute(
        IMPORTS
        + f"""
        INSERT INTO imports VALUES
            (1, 'gpu.csv', 'gpu.csv', TIMESTAMP '2026-11-20 10:00:00', 5, 0);
        {_user_results()}
        CREATE TABLE user_cube AS
            SELECT *, CAST(NULL AS INTEGER) AS source_id FROM b.facet_cube LIMIT 0;
        CREATE TABLE consts_1 AS SELECT CAST(1 AS INTEGER) AS source_id,
            'inference' AS task, CAST(NULL AS VARCHAR) AS variant,
            CAST(NULL AS VARCHAR) AS sdk_version, CAST(NULL AS VARCHAR) AS dataset,
            CAST(NULL AS INTEGER) AS batch_size, CAST(NULL AS VARCHAR) AS precision,
            'throughput' AS metric, 'items/s' AS unit,
            CAST(NULL AS VARCHAR) AS value_as_printed,
            CAST(NULL AS DOUBLE) AS latency_ms, CAST(NULL AS VARCHAR) AS mlperf_id,
            CAST(NULL AS VARCHAR) AS division, CAST(NULL AS INTEGER) AS accelerators;
        CREATE TABLE figures_1 (n BIGINT, ord BIGINT, "row" INTEGER,
            model VARCHAR, platform VARCHAR, framework VARCHAR, value DOUBLE);
        """
    )
    for k, (model, platform, fw, v) in enumerate(SPELLINGS, start=1):
        con.execute(
            "INSERT INTO figures_1 VALUES ($k, 1000000000 + 10000000000 + $k, $k, "
            "$m, $p, $f, $v)",
            {"k": k, "m": model, "p": platform, "f": fw, "v": v},
        )
    con.close()


def _shown(db):
    return db.cursor().execute(SHOWN).fetchall()


def test_older_imports_are_keyed_on_opening_and_named_alike(tmp_path, store_path):
    """An import stored before the keyed names (its names per figure) opens
    keyed: its figures carry a key, its names are kept once per combination,
    and its canonical names, facets and search results are those of the same
    file imported now, and those the file's own spellings stand for."""
    old = tmp_path / "old" / "user.duckdb"
    old.parent.mkdir()
    _keyed_layout_before(old, store_path)
    db, status = open_combined(DATA, _cache(tmp_path / "old", store_path), old)
    assert status.writable, status.message
    cur = db.cursor()
    figure_cols = {
        r[0]
        for r in cur.execute(
            "SELECT column_name FROM duckdb_columns() WHERE database_name = 'u' "
            "AND table_name IN ('figures_1', 'consts_1')"
        ).fetchall()
    }
    assert "name_key" in figure_cols
    assert not figure_cols & {"model", "platform", "framework", "unit", "variant"}
    sets = cur.execute(
        "SELECT model, platform, framework FROM u.user_name_sets ORDER BY ALL"
    ).fetchall()
    assert sets == sorted({r[:3] for r in SPELLINGS})  # 4 combinations of 5 rows

    # The same file imported now, into a new user database.
    p = tmp_path / "gpu.csv"
    p.write_text(
        "model,system,fw,v\n"
        + "".join(f"{m},{s},{f},{v}\n" for m, s, f, v in SPELLINGS)
    )
    (tmp_path / "new").mkdir()
    new, new_status = open_combined(
        DATA, _cache(tmp_path / "new", store_path), tmp_path / "new" / "user.duckdb"
    )
    assert new_status.writable
    spec = import_spec.ImportSpec(
        p,
        {"model": "model", "platform": "system", "framework": "fw", "value": "v"},
        {"metric": "throughput", "unit": "items/s"},
    )
    with new.writing() as c:
        importer.import_file(c, spec)
    try:
        got = _shown(db)
        assert got == _shown(new)
        # Each figure under the names its spellings stand for, in file order.
        assert [(r[2], r[3], r[4], r[5], r[6], r[7], r[12]) for r in got] == [
            (CANONICAL[m], m, CANONICAL[s], s, CANONICAL[f], f, v)
            for m, s, f, v in SPELLINGS
        ]
        # Facet counts: those of the file's rows, by canonical name.
        for dim, col in (("model", 0), ("platform", 1), ("framework", 2)):
            counts = {
                v: n
                for _f, v, n in db.run(
                    q.facet_counts(
                        FilterState().with_values("source_file", ["gpu.csv"]), [dim]
                    )
                ).rows
            }
            want: dict[str, int] = {}
            for row in SPELLINGS:
                want[CANONICAL[row[col]]] = want.get(CANONICAL[row[col]], 0) + 1
            assert counts == want, dim
            assert counts == {
                v: n
                for _f, v, n in new.run(
                    q.facet_counts(
                        FilterState().with_values("source_file", ["gpu.csv"]), [dim]
                    )
                ).rows
            }
        # A search finds the imported ResNet-50 rows by any spelling of it.
        for found in (db, new):
            hits = found.run(
                q.results(
                    FilterState(text="rn50").with_values("source_file", ["gpu.csv"])
                )
            ).rows
            assert len(hits) == sum(
                CANONICAL[r[0]] == "ResNet-50 v1.5" for r in SPELLINGS
            )
    finally:
        db.close()
        new.close()
    # Keyed for good: opened again, nothing left to key, the same figures.
    db, _ = open_combined(DATA, tmp_path / "old" / "cache", old)
    try:
        assert _shown(db) == got
        from ipubench_gui.store.user.user_tables import key_names

        assert key_names(db.cursor()) is False
    finally:
        db.close()
