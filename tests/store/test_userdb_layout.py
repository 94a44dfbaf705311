"""The user database's layout: imported figures keep what the file said, the
view derives the rest; a database in the older wide layout keeps every figure."""

from __future__ import annotations

import os

import duckdb

from ipubench_gui.store import importer
from ipubench_gui.store.build import fingerprint
from ipubench_gui.store.userdb import open_combined
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
    spec = importer.ImportSpec(
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
    from ipubench_gui.store.user_tables import USER_COLUMNS

    user = tmp_path / "user.duckdb"
    cols = ", ".join(f'"{c}" {t}' for c, t in USER_COLUMNS.items() if c != "ord")
    with duckdb.connect(str(user)) as con:
        con.execute(
            IMPORTS
            + f"""
            INSERT INTO imports VALUES
                (1, 'n.csv', 'n', TIMESTAMP '2026-11-23 10:00:00', 1, 0);
            CREATE TABLE user_results ({cols});
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
