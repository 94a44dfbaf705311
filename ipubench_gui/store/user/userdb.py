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
import os
import time
from pathlib import Path

import duckdb

from ipubench_gui.domain.entities import EntityError
from ipubench_gui.domain.files import io_reason
from ipubench_gui.store.bundled import names
from ipubench_gui.store.bundled.build import (
    INFERENCE_ROWS_SQL,
    MLPERF_ROWS_SQL,
    attach_bundled,
)
from ipubench_gui.store.db import Database, UserStatus, one_row
from ipubench_gui.store.health import (
    cut_short,
    is_permission,
    layout_problem,
    lock_holder,
    reason,
)
from ipubench_gui.store.user import aliases
from ipubench_gui.store.user.user_names import upgrade_user_names
from ipubench_gui.store.user.user_tables import (
    BASE_TABLE,
    NAME_SETS,
    USER_COLUMNS,
    define_view,
    key_names,
    ord_sql,
)

log = logging.getLogger(__name__)

USER_SCHEMA = (
    f"""
CREATE SEQUENCE IF NOT EXISTS u.import_ids START 1;
CREATE TABLE IF NOT EXISTS u.imports (
    source_id   INTEGER PRIMARY KEY,
    file_name   VARCHAR NOT NULL,
    label       VARCHAR NOT NULL,
    imported_at TIMESTAMP NOT NULL,
    rows        BIGINT NOT NULL,
    skipped     BIGINT NOT NULL
);
{BASE_TABLE}
{NAME_SETS}
CREATE TABLE IF NOT EXISTS u.user_cube AS
    SELECT *, CAST(NULL AS INTEGER) AS source_id FROM b.facet_cube LIMIT 0;
CREATE TABLE IF NOT EXISTS u.user_mlperf AS
    SELECT *, CAST(NULL AS INTEGER) AS source_id FROM b.mlperf_training LIMIT 0;
CREATE TABLE IF NOT EXISTS u.user_mlperf_inference AS
    SELECT *, CAST(NULL AS INTEGER) AS source_id FROM b.mlperf_inference LIMIT 0;
"""
    + aliases.USER_NAMES
)


# Imported MLPerf results (store/mlperf/mlperf_import.py): kept as the bundled ones
# are (data/mlperf_training.csv's columns), shown through the same SQL, and
# named as every row is (canonical names, *_as_printed, unit_family,
# other_names: store/bundled/names.py, resolved in u.user_names).
def _official_view(
    view: str, src: str, bundled: str, user: str, rows_sql: str, extra: str = ""
) -> str:
    """A view of imported official results: ``user``'s rows (columns a table of
    an older version lacks: NULL) as the bundled ``bundled`` rows are shown,
    through the same ``rows_sql`` (which reads them as ``src``)."""
    return f"""
CREATE OR REPLACE VIEW {view} AS
WITH {src} AS (
    SELECT * FROM b.{bundled} WHERE false
    UNION ALL BY NAME SELECT * FROM u.{user}
),
vendor_src AS (SELECT * FROM b.results WHERE false),
official AS (
    SELECT
        1000000000 + CAST(m.source_id AS BIGINT) * 10000000000
            + row_number() OVER (PARTITION BY m.source_id ORDER BY m.path) AS ord,
        o.*,
        m.source_id
    FROM ({rows_sql}) o
    JOIN u.{user} m USING (result_id)
)
SELECT r.* {names.official_names()},
    {names.unit_family_and_other_names(names.OFFICIAL_WORDS)}{extra}
FROM official r
{names.name_joins("r.model", "r.framework", "r.dataset", "r.platform", "r.unit")}
"""


USER_MLPERF_V = _official_view(
    "user_mlperf_v",
    "mlperf_src",
    "mlperf_training",
    "user_mlperf",
    MLPERF_ROWS_SQL.read_text(encoding="utf-8"),
)
# Imported MLPerf Inference results: the same, with the throughput columns
# views.sql derives for every row.
USER_INFERENCE_V = _official_view(
    "user_inference_v",
    "inference_src",
    "mlperf_inference",
    "user_mlperf_inference",
    INFERENCE_ROWS_SQL.read_text(encoding="utf-8"),
    ",\n    r.value AS throughput,"
    "\n    r.value / r.accelerators AS throughput_per_accelerator",
)

SHARED = (
    "comparisons",
    "claims",
    "gpu_reference",
    "platforms",
    "metrics",
    "meta",
    "mlperf_rounds",
    *names.ENTITY_TABLES,
)

# DuckDB's default memory limit is 80% of RAM, and a 1 GB import took 2.3 GB.
# A desktop app shares the laptop: past 1 GB, work spills to disk (measured:
# the same 1 GB import at the same speed, 1.0 GB peak). It spills into our cache
# folder, not DuckDB's default ".tmp" beside whatever the working directory is
# (for an app started from a desktop menu, often a folder it cannot write).
# Extensions are never fetched nor loaded behind the user's back (a SQLite file
# in place of the user database made DuckDB try to download one).
CONFIG: dict[str, str | bool | int | float | list[str]] = {
    "memory_limit": "1GB",
    "autoinstall_known_extensions": False,
    "autoload_known_extensions": False,
}


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
    if status.path is not None and status.writable:
        try:
            if key_names(con):
                log.info("imported figures given the keyed layout of their names")
        except duckdb.Error as exc:
            # Readable as they are (the view resolves their names per figure).
            log.error("could not key the names of imported results: %s", exc)
    _define_views(con, status.path is not None)
    if status.path is not None and status.writable:
        try:
            upgrade_user_names(con)
        except (duckdb.Error, EntityError) as exc:
            # Readable, only not upgraded: imported rows keep names as printed.
            log.error("could not give imported results canonical names: %s", exc)
    db = Database(con, bundled)
    db.user_status = status
    return db, status


LOCKED = (
    "Your imported results are in use by another ipubench-gui ({holder}: a "
    "window, or an import from the command line), so this one shows the "
    "bundled results only and cannot import. Close that window, or let the "
    "import finish, to use them here."
)
# What each table of the user database must have (the file's layout).
USER_TABLES = {
    "imports": ("source_id", "file_name", "label", "imported_at", "rows", "skipped"),
    "user_results": tuple(USER_COLUMNS),
    "user_cube": ("source_id", "n"),
}


def _attach_user(con: duckdb.DuckDBPyConnection, user: Path) -> UserStatus:
    if _is_sqlite(user):  # DuckDB would reach for its SQLite extension
        return _set_aside(con, user, "it is a SQLite database, not this app's")
    try:
        user.parent.mkdir(parents=True, exist_ok=True)
        con.execute("ATTACH $p AS u", {"p": str(user)})
    except (OSError, duckdb.Error) as exc:
        holder = lock_holder(exc)
        if holder:
            return UserStatus(None, False, LOCKED.format(holder=holder))
        if isinstance(exc, OSError) or is_permission(exc):
            return _attach_read_only(con, user, exc)
        return _set_aside(con, user, exc)
    try:
        problem = cut_short(con, "u", user)
        if problem is None:
            _migrate_wide_table(con)
            problem = layout_problem(con, "u", USER_TABLES)
        if problem is None:
            con.execute(USER_SCHEMA)
            con.execute("SELECT count(*) FROM u.user_results").fetchall()
    except duckdb.Error as exc:
        con.execute("DETACH u")
        if is_permission(exc) or "No space left" in str(exc):
            return _attach_read_only(con, user, exc)
        return _set_aside(con, user, exc)
    if problem:
        con.execute("DETACH u")
        return _set_aside(con, user, problem)
    return UserStatus(user, True)


def _detach(con: duckdb.DuckDBPyConnection) -> None:
    """DETACH u, if it is attached at all."""
    try:
        con.execute("DETACH u")
    except duckdb.Error:
        pass


def _is_sqlite(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(16) == b"SQLite format 3\0"
    except OSError:
        return False


def _attach_read_only(
    con: duckdb.DuckDBPyConnection, user: Path, exc: BaseException
) -> UserStatus:
    """The user database when it may not be written: read-only if it is whole
    (a permission problem is not damage: nothing is set aside)."""
    why = (
        exc.strerror
        if isinstance(exc, OSError) and exc.strerror
        else io_reason(reason(exc))
    )
    if not user.exists():
        return UserStatus(
            None,
            False,
            f"Importing is off: your user data folder {user.parent} cannot be "
            f"written ({why}).",
        )
    try:
        con.execute("ATTACH $p AS u (READ_ONLY)", {"p": str(user)})
        problem = cut_short(con, "u", user) or layout_problem(con, "u", USER_TABLES)
        if problem is None:
            for t in USER_TABLES:
                con.execute(f"SELECT count(*) FROM u.{t}").fetchall()
    except duckdb.Error as exc2:
        problem = reason(exc2)
    if problem:
        _detach(con)
        return UserStatus(
            None,
            False,
            f"Your imported results ({user}) cannot be read ({problem}), and "
            f"their folder cannot be written ({why}); showing the bundled "
            "results only. Nothing was changed.",
        )
    return UserStatus(
        user,
        False,
        f"Your imported results are shown read-only: {user.parent} cannot be "
        f"written ({why}). Importing, renaming and removing imports are off "
        "until it can be.",
    )


def _migrate_wide_table(con: duckdb.DuckDBPyConnection) -> None:
    """A user database written before the narrow layout kept every column of
    results_v per figure: keep its figures, in the narrow table (ids and order
    unchanged)."""
    wide = one_row(
        con.execute(
            "SELECT count(*) FROM duckdb_columns() WHERE database_name = 'u' "
            "AND table_name = 'user_results' AND column_name = 'result_id'"
        )
    )[0]
    if not wide:
        _add_stored_ord(con)
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


def _add_stored_ord(con: duckdb.DuckDBPyConnection) -> None:
    """A narrow table written before the order was stored: add it."""
    has_ord = one_row(
        con.execute(
            "SELECT count(*) FROM duckdb_columns() WHERE database_name = 'u' "
            "AND table_name = 'user_results' AND column_name IN ('n', 'ord')"
        )
    )[0]
    if has_ord == 1:  # a narrow table (n) without ord
        con.execute(
            "ALTER TABLE u.user_results ADD COLUMN ord BIGINT; "
            f"UPDATE u.user_results SET ord = {ord_sql('source_id', 'n')}"
        )


def _set_aside(
    con: duckdb.DuckDBPyConnection, user: Path, exc: BaseException | str
) -> UserStatus:
    why = exc if isinstance(exc, str) else reason(exc)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    aside = user.with_name(f"{user.stem}.damaged-{stamp}{user.suffix}")
    try:
        # A rename in the same folder: never a copy left behind when the
        # file cannot be removed (an immutable file).
        os.rename(user, aside)
        wal = user.with_name(user.name + ".wal")
        if wal.exists():
            os.rename(wal, aside.with_name(aside.name + ".wal"))
    except OSError as move_exc:
        log.error("cannot move damaged user database aside: %s", move_exc)
        return UserStatus(
            None,
            False,
            f"Your imported results ({user}) could not be read ({why}) "
            f"nor moved aside ({move_exc.strerror or move_exc}); showing the "
            "bundled results only.",
        )
    try:
        con.execute("ATTACH $p AS u", {"p": str(user)})
        con.execute(USER_SCHEMA)
    except duckdb.Error as new_exc:
        _detach(con)
        return UserStatus(
            None,
            False,
            f"Your imported results could not be read ({why}); the file was "
            f"kept as {aside}, but a new one cannot be started "
            f"({reason(new_exc)}). Showing the bundled results only.",
        )
    log.warning("user database %s was unreadable (%s); moved to %s", user, why, aside)
    return UserStatus(
        user,
        True,
        f"Your imported results could not be read ({why}). The damaged "
        f"file was kept as {aside}; a new, empty one was started. The "
        "bundled results are all here.",
    )


def _define_views(con: duckdb.DuckDBPyConnection, with_user: bool) -> None:
    con.execute(names.UNIT_FAMILY_MACRO.format(temp=""))
    for name in SHARED:
        con.execute(f"CREATE OR REPLACE VIEW {name} AS SELECT * FROM b.{name}")
    if with_user:
        con.execute(USER_MLPERF_V)
        con.execute(USER_INFERENCE_V)
        define_view(con)  # and the combined views: aliases find bundled rows
        con.execute(
            "CREATE OR REPLACE VIEW sources AS SELECT * FROM b.sources "
            "UNION ALL SELECT file_name, label, 'imported', "
            "CAST(imported_at AS DATE), 'imported', NULL FROM u.imports"
        )
    else:
        for name in ("results_v", "facet_cube", "sources"):
            con.execute(f"CREATE OR REPLACE VIEW {name} AS SELECT * FROM b.{name}")


def check_user(user: Path) -> tuple[bool, str]:
    """(fine, what was found) for the user database at ``user``, read-only and
    changing nothing (``--self-test``): whole, laid out as expected, readable;
    one held by a running window cannot be checked and says so."""
    if not user.exists():
        return True, "none yet"
    if _is_sqlite(user):
        return False, "it is a SQLite database, not this app's"
    con = duckdb.connect(config=CONFIG)
    try:
        try:
            con.execute("ATTACH $p AS u (READ_ONLY)", {"p": str(user)})
        except duckdb.Error as exc:
            holder = lock_holder(exc)
            if holder:
                return True, f"in use by {holder}, not checked"
            return False, reason(exc)
        tables = dict(USER_TABLES, user_results=("source_id", "model", "value"))
        problem = cut_short(con, "u", user) or layout_problem(con, "u", tables)
        if problem:
            return False, problem
        for t in USER_TABLES:  # each table read whole
            con.execute(f"SELECT count(*) FROM u.{t}").fetchall()
        n = con.execute("SELECT count(*) FROM u.imports").fetchall()[0][0]
        return True, f"{n} import(s)"
    except duckdb.Error as exc:
        return False, reason(exc)
    finally:
        con.close()
