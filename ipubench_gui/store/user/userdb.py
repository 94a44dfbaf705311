"""The user's own results: a DuckDB file beside the bundled store, combined with it.

The app's connection is an in-memory database that ATTACHes the bundled store
READ_ONLY (as ``b``) and the user database (as ``u``), and defines views in its
own catalog (shared by every cursor; temp views would not be) with the names
every query uses (``results_v``, ``facet_cube``, ...), each the union of both.
So facets, charts, the comparator and exports see imported rows without
knowing about them.
"""

from __future__ import annotations

import itertools
import logging
import os
import re
import shutil
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path

import duckdb

from ipubench_gui.domain.entities import EntityError
from ipubench_gui.domain.files import check_regular, io_reason
from ipubench_gui.store.bundled import names
from ipubench_gui.store.bundled.build import (
    INFERENCE_ROWS_SQL,
    MLPERF_ROWS_SQL,
    attach_bundled,
    attach_in_memory,
)
from ipubench_gui.store.db import (
    Database,
    StoreError,
    UserLocked,
    UserStatus,
    one_row,
)
from ipubench_gui.store.health import (
    cut_short,
    damage_mark,
    file_stamp,
    is_damage,
    is_permission,
    layout_problem,
    lock_holder,
    lock_pid,
    mark_damaged,
    marked_damaged,
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
    through the same ``rows_sql`` (which reads them as ``src``), dated by
    their import."""
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
        -- the user's own import, dated and marked as file imports are
        -- (user_tables): charts mark it "your results"
        o.* REPLACE (
            CAST(i.imported_at AS DATE) AS source_date,
            'imported' AS source_date_kind
        ),
        m.source_id
    FROM ({rows_sql}) o
    JOIN u.{user} m USING (result_id)
    JOIN u.imports i ON i.source_id = m.source_id
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

# DuckDB's default memory limit is 80% of RAM, and a large import took more
# than twice its file's size. A desktop app shares the laptop: past 1 GB, work
# spills to disk (a 1 GB import ran as fast within it). It spills into our cache
# folder, not DuckDB's default ".tmp" beside whatever the working directory is
# (for an app started from a desktop menu, often a folder it cannot write).
# Extensions are never fetched nor loaded behind the user's back (a SQLite file
# in place of the user database made DuckDB try to download one).
CONFIG: dict[str, str | bool | int | float | list[str]] = {
    "memory_limit": "1GB",
    "autoinstall_known_extensions": False,
    "autoload_known_extensions": False,
}


# How long an opening waits for another process that writes the user's
# database (DuckDB lets one process write a file, or several read it) before
# it says who holds it: an import waits out a short import; a command that
# only reads waits out a long one too (a window's import of a big file: a
# read should not fail because a window is open); a window's copy waits
# less at start; "peek" (a window reading a change) not at all.
WAIT_S = {"write": 10.0, "read": 120.0, "snapshot": 5.0, "copy": 10.0, "peek": 0.0}
# Said after why the results store could not be built in the cache folder.
IN_MEMORY = "Until then, the results are read from memory (built at each start)."
# Said when a window's copy of the imported results cannot be made on disk.
IN_MEMORY_COPY = (
    "Your imported results are read into memory: the cache folder ({folder}) "
    "cannot hold a copy of them."
)
# Said once when an opening starts waiting for a writer (on stderr, for a command).
WAITING = (
    "Waiting for {holder}, which is writing your imported results (up to {wait:.0f} s)…"
)


def open_combined(
    data_dir: Path,
    cache_dir: Path,
    user: Path | None,
    mode: str = "write",
    wait_s: float | None = None,
) -> tuple[Database, UserStatus]:
    """An in-memory connection over the bundled store and the user database.

    ``mode`` says how the user database is held: "write" (read-write: an
    import), "read" (read-only: a command that reads; several at once),
    "snapshot" (a private copy, read-only, holding nothing: a window, so
    commands import and export while it is open; ``db.reopen`` opens a
    writer or a fresh copy), "copy" (a fresh copy, the file not checked
    again), "peek" (the same, or UserLocked at once).

    A damaged user database is moved aside (never deleted) and a new one made;
    one held by another process that writes it is waited for, then left
    alone, and this one runs with the bundled results only. Either way the
    message says what happened.
    """
    wait = WAIT_S[mode] if wait_s is None else wait_s
    con = duckdb.connect(config=CONFIG | {"temp_directory": str(cache_dir / "tmp")})
    notice = ""
    try:
        bundled: Path | None = None
        try:
            bundled = attach_bundled(con, data_dir, cache_dir)
        except StoreError as exc:  # the cache cannot hold it: read from memory
            attach_in_memory(con, data_dir)
            notice = f"{exc} {IN_MEMORY}"
        status = UserStatus(None, False, "")
        # (the copy read, the file's stamp then): None, None before any copy
        snapshot: tuple[Path | None, tuple[int, ...] | None] | None = None
        held: list[Callable[[], None]] = []
        if user is not None and mode == "write":
            status = _attach_user(con, user, wait, held)
        elif user is not None and mode == "read":
            status = _attach_for_reading(con, user, wait, held)
        elif user is not None:
            status, snapshot = _attach_snapshot(
                con, data_dir, cache_dir, user, wait, first=mode == "snapshot"
            )
    except BaseException:
        con.close()
        raise
    if status.path is not None and status.writable and mode == "write":
        try:
            if key_names(con):
                log.info("imported figures given the keyed layout of their names")
        except duckdb.Error as exc:
            # Readable as they are (the view resolves their names per figure).
            log.error("could not key the names of imported results: %s", exc)
    _define_views(con, status.path is not None)
    if status.path is not None and status.writable and mode == "write":
        try:
            upgrade_user_names(con)
        except (duckdb.Error, EntityError) as exc:
            # Readable, only not upgraded: imported rows keep names as printed.
            log.error("could not give imported results canonical names: %s", exc)
    if snapshot is not None and snapshot[0] is None and snapshot[1] is not None:
        # copied into memory (a stamp, no copy): said unless the store is too
        notice = notice or IN_MEMORY_COPY.format(folder=cache_dir)
    if notice:  # once (a window's first opening said it already)
        rest = status.message.replace(notice, "").strip()
        status = replace(status, message=f"{notice} {rest}".strip())
    db = Database(con, bundled)
    db.user_status = status
    db.on_close = held
    if snapshot is not None and user is not None:
        copy, db.user_stamp = snapshot
        db.user_file = user
        if copy is not None:
            db.on_close.append(partial(_remove_copy, copy))
        db.reopen = partial(_reopen, data_dir, cache_dir, user)
    return db, status


def _reopen(data_dir: Path, cache_dir: Path, user: Path, mode: str) -> Database:
    """``Database.reopen`` of a window's store: "write" holds the user's
    database to write it; "read" and "peek" read a fresh copy of it."""
    db, status = open_combined(
        data_dir, cache_dir, user, {"read": "copy"}.get(mode, mode)
    )
    if mode == "write" and not status.writable:
        db.close()
        if LOCK_WORDS in status.message:
            raise UserLocked(status.message)
        raise StoreError(status.message or f"{user} cannot be written")
    return db


# -- waiting for another process that writes the user's database --
_PROCESS_LOCKS: dict[str, threading.Lock] = {}
_PROCESS_LOCKS_LOCK = threading.Lock()


def _process_lock(user: Path) -> threading.Lock:
    """This process's own lock on ``user``: DuckDB's file lock keeps other
    processes out, not another connection of this one (a window's writer
    and its copy of the file)."""
    key = os.path.realpath(user)
    with _PROCESS_LOCKS_LOCK:
        return _PROCESS_LOCKS.setdefault(key, threading.Lock())


def _attach_waiting(
    con: duckdb.DuckDBPyConnection, user: Path, read_only: bool, wait_s: float
) -> None:
    """ATTACH ``user`` as ``u``, waiting up to ``wait_s`` seconds while
    another process holds it; raises DuckDB's error as the last try did."""
    sql = "ATTACH $p AS u (READ_ONLY)" if read_only else "ATTACH $p AS u"
    deadline = time.monotonic() + wait_s
    said = wait_s < 1.0  # a short wait goes unsaid
    while True:
        try:
            con.execute(sql, {"p": str(user)})
            return
        except duckdb.Error as exc:
            if lock_pid(exc) is None or time.monotonic() >= deadline:
                raise
            if not said:
                said = True
                log.warning(WAITING.format(holder=lock_holder(exc), wait=wait_s))
        time.sleep(0.1)


# What is said when another process holds the user's database, by case.
LOCK_WORDS = "is writing your imported results"
LOCKED = (
    "Another ipubench-gui ({holder}) is writing your imported results, so "
    "nothing can be imported here until it has finished; try again then."
)
BUSY = (
    "Another ipubench-gui ({holder}) is writing your imported results; they "
    "can be read when it has finished. Try again then."
)
BUSY_AT_START = (
    "Another ipubench-gui ({holder}) is writing your imported results: "
    "this window shows the bundled results now and yours as soon as it has "
    "finished."
)
THIS_PROCESS = "this window, for an import of its own"
# What each table of the user database must have (the file's layout).
USER_TABLES = {
    "imports": ("source_id", "file_name", "label", "imported_at", "rows", "skipped"),
    "user_results": tuple(USER_COLUMNS),
    "user_cube": ("source_id", "n"),
}


def _attach_user(
    con: duckdb.DuckDBPyConnection,
    user: Path,
    wait_s: float = 0.0,
    held: list[Callable[[], None]] | None = None,
) -> UserStatus:
    """``user`` attached read-write as ``u`` (made, checked, laid out as
    expected, a damaged one set aside); ``held`` gets what releases this
    process's own hold on the file once the connection closes."""
    odd = _not_a_file(user)
    if odd:  # a pipe would block the attach; nothing else is a database
        return _set_aside(con, user, odd)
    if _is_sqlite(user):  # DuckDB would reach for its SQLite extension
        return _set_aside(con, user, "it is a SQLite database, not this app's")
    mine = _process_lock(user)
    if not mine.acquire(timeout=max(wait_s, 0.001)):
        return UserStatus(None, False, LOCKED.format(holder=THIS_PROCESS))
    release = mine.release
    try:
        user.parent.mkdir(parents=True, exist_ok=True)
        _attach_waiting(con, user, False, wait_s)
    except (OSError, duckdb.Error) as exc:
        release()
        holder = lock_holder(exc)
        if holder:
            return UserStatus(None, False, LOCKED.format(holder=holder))
        if isinstance(exc, OSError) or is_permission(exc):
            return _attach_read_only(con, user, exc)
        return _set_aside(con, user, exc)
    if held is not None:
        held.append(release)
    else:  # a caller that keeps no hold (the check of a window's start)
        release()
    marked = marked_damaged(user)
    if marked:  # a block failed its checksum while read, last time
        con.execute("DETACH u")
        damage_mark(user).unlink(missing_ok=True)
        return _set_aside(con, user, duckdb.Error(f"{marked} (found while read)"))
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


def _attach_for_reading(
    con: duckdb.DuckDBPyConnection,
    user: Path,
    wait_s: float,
    held: list[Callable[[], None]],
) -> UserStatus:
    """``user`` attached read-only, for a command that only reads: several
    may at once, and an import elsewhere is waited for. What needs a write
    (a file to set aside or to lay out anew) is done read-write."""
    if (
        not user.exists()
        or _not_a_file(user)
        or _is_sqlite(user)
        or marked_damaged(user)
    ):
        if not user.exists() and not _writable_folder(user.parent):
            return UserStatus(None, False, "")
        return _attach_user(con, user, wait_s, held)
    try:
        _attach_waiting(con, user, True, wait_s)
    except duckdb.Error as exc:
        holder = lock_holder(exc)
        if holder:
            return UserStatus(None, False, BUSY.format(holder=holder))
        return _attach_user(con, user, wait_s, held)  # damaged: set aside
    try:
        problem = cut_short(con, "u", user) or layout_problem(con, "u", USER_TABLES)
        if problem is None and not _laid_out(con):
            problem = "an older layout"
        if problem is None:
            con.execute("SELECT count(*) FROM u.user_results").fetchall()
    except duckdb.Error as exc:
        problem = reason(exc)
    if problem is None:
        return UserStatus(user, False, "")
    _detach(con)
    return _attach_user(con, user, wait_s, held)


def _laid_out(con: duckdb.DuckDBPyConnection) -> bool:
    """Every table USER_SCHEMA makes is there (a read-only reader cannot make
    one an older version did not)."""
    have = {
        r[0]
        for r in con.execute(
            "SELECT table_name FROM duckdb_tables() WHERE database_name = 'u'"
        ).fetchall()
    }
    return set(re.findall(r"CREATE TABLE IF NOT EXISTS u\.(\w+)", USER_SCHEMA)) <= have


def _writable_folder(folder: Path) -> bool:
    return folder.is_dir() and os.access(folder, os.W_OK)


def _attach_snapshot(
    con: duckdb.DuckDBPyConnection,
    data_dir: Path,
    cache_dir: Path,
    user: Path,
    wait_s: float,
    first: bool,
) -> tuple[UserStatus, tuple[Path | None, tuple[int, ...] | None] | None]:
    """A private copy of ``user`` attached read-only as ``u``: a window holds
    no lock on the file. ``first`` (a window's start): the file is first
    opened read-write, as an import would (made, laid out, set aside if
    damaged), and what that said is the status; a file another process is
    writing is not attached at all (a window starts on the bundled results
    and reads the file when the writer is done)."""
    status = UserStatus(user, _writable_folder(user.parent), "")
    if first:
        probe, status = open_combined(data_dir, cache_dir, user, "write", wait_s)
        probe.close()
        if status.path is None and not status.writable and not user.exists():
            return status, None  # no file, and none can be made
        if LOCK_WORDS in status.message:
            # An import elsewhere, waited for already: read the file if it
            # has finished by now, else start without it (see below).
            status = UserStatus(user, _writable_folder(user.parent), "")
            wait_s = 0.0
    if not user.exists() or _not_a_file(user):
        return status, None
    mine = _process_lock(user)
    if not mine.acquire(blocking=wait_s > 0, timeout=wait_s if wait_s > 0 else -1):
        raise UserLocked(LOCKED.format(holder=THIS_PROCESS))
    try:
        reader = duckdb.connect(config=CONFIG)
        try:
            _attach_waiting(reader, user, True, wait_s)
            try:
                copy: Path | None = _copy_of(user, cache_dir)
            except OSError:  # a full cache: a copy in memory (said by the caller)
                copy = None
                _copy_into_memory(con, user)
            stamp = file_stamp(user)
        except duckdb.Error as exc:
            holder = lock_holder(exc)
            if holder and first:
                # A window starts anyway, with the bundled results; it reads
                # the user's once the import is done (no copy yet: the
                # file's stamp differs from none, so the window's watch
                # reads it as soon as the writer lets go).
                why = BUSY_AT_START.format(holder=holder)
                return UserStatus(None, status.writable, why), (None, None)
            if holder:
                raise UserLocked(BUSY.format(holder=holder)) from None
            raise StoreError(
                f"Your imported results ({user}) cannot be read: {reason(exc)}"
            ) from None
        finally:
            reader.close()
    finally:
        mine.release()
    if copy is None:
        return status, (None, stamp)
    try:
        con.execute("ATTACH $p AS u (READ_ONLY)", {"p": str(copy)})
    except duckdb.Error as exc:
        _remove_copy(copy)
        return UserStatus(None, False, f"{user}: {reason(exc)}"), None
    return status, (copy, stamp)


def _copy_into_memory(con: duckdb.DuckDBPyConnection, user: Path) -> None:
    """``user`` copied into an in-memory database attached as ``u`` (for
    when the cache folder cannot hold a copy): the file is read while
    attached and let go after, so nothing holds it."""
    con.execute("ATTACH $p AS user_file (READ_ONLY)", {"p": str(user)})
    try:
        con.execute("ATTACH ':memory:' AS u")
        con.execute("COPY FROM DATABASE user_file TO u")
    finally:
        con.execute("DETACH user_file")


_COPIES = itertools.count(1)


def _copy_of(user: Path, cache_dir: Path) -> Path:
    """A copy of ``user`` (and its WAL) in the cache folder, this process's
    own; copies of processes that ended are removed first."""
    folder = cache_dir / "views"
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("user-*.duckdb"):
        pid = old.name.split("-")[1]
        if pid.isdigit() and not _alive(int(pid)):
            _remove_copy(old)
    copy = folder / f"user-{os.getpid()}-{next(_COPIES)}.duckdb"
    try:
        shutil.copyfile(user, copy)
        wal = user.with_name(user.name + ".wal")
        if wal.exists():
            shutil.copyfile(wal, copy.with_name(copy.name + ".wal"))
    except OSError:
        _remove_copy(copy)  # a part written before the disk filled
        raise
    return copy


def _remove_copy(copy: Path) -> None:
    for p in (copy, copy.with_name(copy.name + ".wal")):
        try:
            p.unlink(missing_ok=True)
        except OSError:  # still open elsewhere (Windows): next start's job
            pass


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def _detach(con: duckdb.DuckDBPyConnection) -> None:
    """DETACH u, if it is attached at all."""
    try:
        con.execute("DETACH u")
    except duckdb.Error:
        pass


def _not_a_file(path: Path) -> str | None:
    """Why ``path`` (which exists) is no database file: a folder, a pipe, a
    device; None for a regular file, or none at all."""
    try:
        check_regular(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return str(exc).replace(f"{path} is ", "it is ")
    return None


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
    """Move a damaged ``user`` aside (kept) and start a new one; what was done
    said in one sentence (``exc``: our own words why, or the engine's error,
    whose text then follows the sentence once, for a bug report)."""
    what = "is damaged" if not isinstance(exc, str) else f"cannot be used ({exc})"
    engine = "" if isinstance(exc, str) else f" (DuckDB said: {reason(exc)})"
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
            f"Your imported results file {user} {what} and cannot be moved aside "
            f"({move_exc.strerror or move_exc}), so only the bundled results are "
            "shown: move or remove that file yourself, then import your files "
            f"again.{engine}",
        )
    try:
        con.execute("ATTACH $p AS u", {"p": str(user)})
        con.execute(USER_SCHEMA)
    except duckdb.Error as new_exc:
        _detach(con)
        return UserStatus(
            None,
            False,
            f"Your imported results file {user} {what}, so it was set aside as "
            f"{aside}, but a new one cannot be started there ({reason(new_exc)}): "
            "only the bundled results are shown until that folder can be "
            f"written.{engine}",
        )
    log.info("user database %s set aside as %s", user, aside)
    return UserStatus(
        user,
        True,
        f"Your imported results file {user} {what}, so it was set aside as "
        f"{aside} and a new, empty one was started (the bundled results are all "
        f"here): import your files again to have yours back.{engine}",
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
    odd = _not_a_file(user)
    if odd:
        return False, odd
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


# What is said when a store file is found damaged while a command ran.
USER_DAMAGED = (
    "Your imported results file {path} is damaged, so it will be set aside "
    "(kept, not deleted) at the next start and a new one started; nothing else "
    "was changed: run the command again, then import your files again. "
    "(DuckDB said: {why})"
)
STORE_DAMAGED = (
    "The results store {path} is damaged, so it was removed, to be built again "
    "from the bundled data at the next start: run the command again. "
    "(DuckDB said: {why})"
)
STORE_DAMAGED_KEPT = (
    "The results store {path} is damaged and could not be removed ({err}): "
    "remove it (or reinstall the app, if it came with it), then run the "
    "command again. (DuckDB said: {why})"
)
DAMAGED_UNKNOWN = (
    "A store file is damaged, and reading each again did not show which: run "
    "the command again (a damaged cache is then rebuilt). (DuckDB said: {why})"
)


def damage_found(exc: BaseException, user: Path | None, stores: list[Path]) -> str:
    """What to say, and do, about damage ``exc`` (a block that failed its
    checksum) met while a command ran: each file is read whole to find the
    damaged one; the user's database is marked to be set aside at the next
    start, a store built from the bundled data is removed to be built again."""
    for path in [p for p in (user, *stores) if p is not None and p.exists()]:
        why = _read_whole(path)
        if why is None:
            continue
        if path == user:
            mark_damaged(path, why)
            return USER_DAMAGED.format(path=path, why=reason(why))
        try:
            path.unlink()
        except OSError as err:  # a read-only install: say so, never "removed"
            return STORE_DAMAGED_KEPT.format(
                path=path, err=err.strerror or err, why=reason(why)
            )
        return STORE_DAMAGED.format(path=path, why=reason(why))
    return DAMAGED_UNKNOWN.format(why=reason(exc))


def _read_whole(path: Path) -> duckdb.Error | None:
    """The damage reading every table of ``path`` whole meets, or None."""
    con = duckdb.connect(config=CONFIG)
    try:
        con.execute("ATTACH $p AS d (READ_ONLY)", {"p": str(path)})
        tables = con.execute(
            "SELECT schema_name, table_name FROM duckdb_tables() "
            "WHERE database_name = 'd'"
        ).fetchall()
        for schema, table in tables:
            cur = con.execute(f'SELECT * FROM d."{schema}"."{table}"')
            while cur.fetchmany(10_000):
                pass
    except duckdb.Error as exc:
        return exc if is_damage(exc) else None
    finally:
        con.close()
    return None
