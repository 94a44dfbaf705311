"""The user's own results: a DuckDB file beside the bundled store, combined with it.

The app's connection is an in-memory database that ATTACHes the bundled store
READ_ONLY (as ``b``) and the user database (as ``u``), and defines views in its
own catalog (shared by every cursor; temp views would not be) with the names
every query uses (``results_v``, ``facet_cube``, ...), each the union of both.
So facets, charts, the comparator and exports see imported rows without
knowing about them.
"""

from __future__ import annotations

import logging
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

import duckdb

from ipubench_gui.domain.chartrows import LOWER_IS_BETTER
from ipubench_gui.store.build import attach_bundled
from ipubench_gui.store.db import Database, one_row
from ipubench_gui.store.importer import result_id_sql

log = logging.getLogger(__name__)

# One row per imported figure, holding only what the file said (normalised);
# everything derived from it, its import or its platform (ids, order, source,
# vendor, generation, throughput per accelerator, ...) is computed by the view
# user_results_v. Landing a million rows writes a third of the columns the
# store's results_v has (the insert measured 6.2 -> 0.9 s; tests/bench).
USER_COLUMNS: dict[str, str] = {
    "source_id": "INTEGER NOT NULL",
    "n": "BIGINT NOT NULL",  # the figure's number within its import, from 1
    "row": "INTEGER",  # the file's data row it came from
    "task": "VARCHAR",
    "model": "VARCHAR",
    "variant": "VARCHAR",
    "platform": "VARCHAR",
    "sdk_version": "VARCHAR",
    "framework": "VARCHAR",
    "dataset": "VARCHAR",
    "batch_size": "INTEGER",
    "precision": "VARCHAR",
    "metric": "VARCHAR",
    "value": "DOUBLE",
    "unit": "VARCHAR",
    "value_as_printed": "VARCHAR",
    "latency_ms": "DOUBLE",
    "mlperf_id": "VARCHAR",
    "division": "VARCHAR",
    "accelerators": "INTEGER",  # the file's own count; else the platform's
}

USER_SCHEMA = f"""
CREATE SEQUENCE IF NOT EXISTS u.import_ids START 1;
CREATE TABLE IF NOT EXISTS u.imports (
    source_id   INTEGER PRIMARY KEY,
    file_name   VARCHAR NOT NULL,
    label       VARCHAR NOT NULL,
    imported_at TIMESTAMP NOT NULL,
    rows        BIGINT NOT NULL,
    skipped     BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS u.user_results (
    {", ".join(f'"{c}" {t}' for c, t in USER_COLUMNS.items())}
);
CREATE TABLE IF NOT EXISTS u.user_cube AS
    SELECT *, CAST(NULL AS INTEGER) AS source_id FROM b.facet_cube LIMIT 0;
"""

_LOWER = "(" + ", ".join(f"'{m}'" for m in LOWER_IS_BETTER) + ")"
# Imported figures with every column of results_v that applies to them.
USER_RESULTS_V = f"""
CREATE OR REPLACE VIEW user_results_v AS
SELECT
    1000000000 + CAST(r.source_id AS BIGINT) * 10000000000 + r.n AS ord,
    {result_id_sql("r.source_id", "r.n")} AS result_id,
    i.file_name AS source_file, i.label AS "table",
    r.* EXCLUDE (source_id, n, accelerators),
    p.vendor, p.generation, p.accelerator,
    coalesce(r.accelerators, p.accelerators) AS accelerators,
    r.metric NOT IN {_LOWER} AS higher_is_better,
    CAST(i.imported_at AS DATE) AS source_date,
    'imported' AS source_date_kind,
    i.label AS source_title,
    CASE WHEN r.metric = 'throughput' THEN r.value END AS throughput,
    CASE WHEN r.metric = 'throughput'
         THEN r.value / coalesce(r.accelerators, p.accelerators) END
        AS throughput_per_accelerator,
    TRY_CAST(split_part(r.precision, '.', 1) AS INTEGER) AS activation_bits,
    TRY_CAST(split_part(r.precision, '.', 2) AS INTEGER) AS weight_bits,
    r.source_id
FROM u.user_results r
JOIN u.imports i USING (source_id)
LEFT JOIN b.platforms p USING (platform)
"""

SHARED = ("comparisons", "claims", "gpu_reference", "platforms", "metrics", "meta")

# DuckDB's default memory limit is 80% of RAM, and a 1 GB import took 2.3 GB.
# A desktop app shares the laptop: past 1 GB, work spills to disk (measured:
# the same 1 GB import at the same speed, 1.0 GB peak). It spills into our cache
# folder, not DuckDB's default ".tmp" beside whatever the working directory is
# (for an app started from a desktop menu, often a folder it cannot write).
CONFIG: dict[str, str | bool | int | float | list[str]] = {"memory_limit": "1GB"}


@dataclass(frozen=True)
class UserStatus:
    """What happened to the user database at start-up, in words for users."""

    path: Path | None
    writable: bool
    message: str = ""


def open_combined(
    data_dir: Path, cache_dir: Path, user: Path | None
) -> tuple[Database, UserStatus]:
    """An in-memory connection over the bundled store and the user database.

    A damaged user database is moved aside (never deleted) and a new one made;
    one held by another running instance is left alone and this one runs with
    the bundled results only. Either way the message says what happened.
    """
    con = duckdb.connect(config=CONFIG | {"temp_directory": str(cache_dir / "tmp")})
    bundled = attach_bundled(con, data_dir, cache_dir)
    status = UserStatus(None, False, "")
    if user is not None:
        status = _attach_user(con, user)
    _define_views(con, status.path is not None)
    db = Database(con, bundled)
    db.user_status = status
    return db, status


def _attach_user(con: duckdb.DuckDBPyConnection, user: Path) -> UserStatus:
    user.parent.mkdir(parents=True, exist_ok=True)
    try:
        con.execute("ATTACH $p AS u", {"p": str(user)})
    except duckdb.IOException as exc:
        if "lock" in str(exc).lower():
            return UserStatus(
                None,
                False,
                "Another ipubench-gui window is using your imported "
                "results, so this window shows the bundled results only "
                "and cannot import. Close the other window to use them "
                "here.",
            )
        return _set_aside(con, user, exc)
    except duckdb.Error as exc:
        return _set_aside(con, user, exc)
    try:
        _migrate_wide_table(con)
        con.execute(USER_SCHEMA)
        con.execute("SELECT count(*) FROM u.user_results").fetchone()
    except duckdb.Error as exc:
        con.execute("DETACH u")
        return _set_aside(con, user, exc)
    return UserStatus(user, True)


def _migrate_wide_table(con: duckdb.DuckDBPyConnection) -> None:
    """A user database from before 0.2 kept every column of results_v per
    figure: keep its figures, in the narrow table (ids and order unchanged)."""
    wide = one_row(
        con.execute(
            "SELECT count(*) FROM duckdb_columns() WHERE database_name = 'u' "
            "AND table_name = 'user_results' AND column_name = 'result_id'"
        )
    )[0]
    if not wide:
        return
    cols = ", ".join(f'"{c}"' for c in USER_COLUMNS if c != "n")
    con.execute("BEGIN TRANSACTION")
    try:
        con.execute(
            "ALTER TABLE u.user_results RENAME TO user_results_wide;"
            + USER_SCHEMA
            + f"""INSERT INTO u.user_results BY NAME
            SELECT {cols}, ord - 1000000000 - CAST(source_id AS BIGINT)
                * 10000000000 AS n
            FROM u.user_results_wide;
            DROP TABLE u.user_results_wide;"""
        )
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    log.info("user database converted to the narrow table of imported figures")


def _set_aside(
    con: duckdb.DuckDBPyConnection, user: Path, exc: Exception
) -> UserStatus:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    aside = user.with_name(f"{user.stem}.damaged-{stamp}{user.suffix}")
    try:
        shutil.move(str(user), aside)
        wal = user.with_name(user.name + ".wal")
        if wal.exists():
            shutil.move(str(wal), aside.with_name(aside.name + ".wal"))
    except OSError as move_exc:
        log.error("cannot move damaged user database aside: %s", move_exc)
        return UserStatus(
            None,
            False,
            f"Your imported results ({user}) could not be read ({exc}) "
            f"nor moved aside ({move_exc}); showing bundled results only.",
        )
    con.execute("ATTACH $p AS u", {"p": str(user)})
    con.execute(USER_SCHEMA)
    log.warning("user database %s was unreadable (%s); moved to %s", user, exc, aside)
    return UserStatus(
        user,
        True,
        f"Your imported results could not be read ({exc}). The damaged "
        f"file was kept as {aside}; a new, empty one was started. The "
        "bundled results are all here.",
    )


def _define_views(con: duckdb.DuckDBPyConnection, with_user: bool) -> None:
    for name in SHARED:
        con.execute(f"CREATE OR REPLACE VIEW {name} AS SELECT * FROM b.{name}")
    if with_user:
        con.execute(USER_RESULTS_V)
        con.execute(
            "CREATE OR REPLACE VIEW results_v AS SELECT * FROM b.results_v "
            "UNION ALL BY NAME "
            "SELECT * EXCLUDE (source_id) FROM user_results_v"
        )
        con.execute(
            "CREATE OR REPLACE VIEW facet_cube AS SELECT * FROM "
            "b.facet_cube UNION ALL BY NAME "
            "SELECT * EXCLUDE (source_id) FROM u.user_cube"
        )
        con.execute(
            "CREATE OR REPLACE VIEW sources AS SELECT * FROM b.sources "
            "UNION ALL SELECT file_name, label, 'imported', "
            "CAST(imported_at AS DATE), 'imported', NULL FROM u.imports"
        )
    else:
        for name in ("results_v", "facet_cube", "sources"):
            con.execute(f"CREATE OR REPLACE VIEW {name} AS SELECT * FROM b.{name}")
