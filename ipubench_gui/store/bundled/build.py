"""Build the results store from the CSV files in data/, validating every row."""

from __future__ import annotations

import csv
import hashlib
import logging
import os
import re
import stat
import tempfile
import time
from pathlib import Path

import duckdb

from ipubench_gui import __version__
from ipubench_gui.domain.entities import EntityError
from ipubench_gui.domain.files import io_reason
from ipubench_gui.store.bundled import entity_tables, sources
from ipubench_gui.store.db import StoreError
from ipubench_gui.store.health import cut_short

log = logging.getLogger(__name__)

SCHEMA_SQL = Path(__file__).with_name("schema.sql")
VIEWS_SQL = Path(__file__).with_name("views.sql")
# An official MLPerf result as a results_v row (views.sql and imports use it).
MLPERF_ROWS_SQL = Path(__file__).with_name("mlperf_rows.sql")
INFERENCE_ROWS_SQL = Path(__file__).with_name("mlperf_inference_rows.sql")
STORE_NAME = "results.duckdb"


class DataError(Exception):
    """A data file holds a bad row; names the file, line, column and reason."""

    def __init__(self, file: Path, line: int | None, column: str | None, reason: str):
        self.file, self.line, self.column, self.reason = file, line, column, reason
        where = ", ".join(
            p
            for p in (str(file), line and f"line {line}", column and f"column {column}")
            if p
        )
        super().__init__(f"{where}: {reason}")


def fingerprint(data_dir: Path) -> str:
    """A hash of the schema and every data file: a store built from them matches it.
    The views' SQL is hashed as it is run, its parts made in Python (the
    canonical names, the search text) filled in: a change to those rebuilds."""
    h = hashlib.sha256(SCHEMA_SQL.read_bytes() + views_sql().encode())
    for src in sources.SOURCES:
        h.update(repr((src.table, src.schema, src.rows, src.label)).encode())
        h.update(repr(sorted(src.names.items())).encode())
        h.update((data_dir / f"{src.table}.csv").read_bytes())
    for path in entity_tables.entity_paths(data_dir):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def build_store(data_dir: Path, out: Path) -> Path:
    """Build ``out`` from ``data_dir``; atomically replaces it only on success."""
    out.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=".build-", suffix=".duckdb", dir=out.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    tmp.unlink()  # DuckDB wants to create the file itself
    try:
        con = duckdb.connect(str(tmp))
        try:
            _load_stamped(con, data_dir)
            con.execute("CHECKPOINT")
        finally:
            con.close()
        os.replace(tmp, out)
    finally:
        for p in (tmp, tmp.with_name(tmp.name + ".wal")):
            p.unlink(missing_ok=True)
    return out


def _load_stamped(con: duckdb.DuckDBPyConnection, data_dir: Path) -> None:
    """:func:`load_into`, and the store's meta rows: what it was built from,
    by which version of the app, and when."""
    load_into(con, data_dir)
    con.execute(
        "INSERT INTO meta VALUES ('fingerprint', $f), ('app_version', $v), "
        "('built_at', $t)",
        {
            "f": fingerprint(data_dir),
            "v": __version__,
            "t": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        },
    )


def attach_in_memory(con: duckdb.DuckDBPyConnection, data_dir: Path) -> None:
    """ATTACH, as ``b``, a store built from ``data_dir`` in memory: for when
    none can be built on disk (a full disk, a folder that cannot be
    written), so the results can still be read; built again each time."""
    con.execute("ATTACH ':memory:' AS b")
    home = con.execute("SELECT current_database()").fetchall()[0][0]
    try:
        con.execute("USE b")
        _load_stamped(con, data_dir)
    finally:
        quoted = '"' + home.replace('"', '""') + '"'
        con.execute(f"USE {quoted}")


def load_into(con: duckdb.DuckDBPyConnection, data_dir: Path) -> None:
    """Create the schema in ``con`` and load every data table, validating rows."""
    con.execute(SCHEMA_SQL.read_text(encoding="utf-8"))
    for src in sources.SOURCES:
        if src.schema:
            con.execute(src.schema)
        _load_table(con, src, data_dir / f"{src.table}.csv")
    try:
        entity_tables.create_tables(con, entity_tables.texts(data_dir))
    except EntityError as exc:
        raise DataError(
            entity_tables.entity_dir(data_dir), None, None, str(exc)
        ) from None
    con.execute(views_sql())


def views_sql() -> str:
    """views.sql with mlperf_rows.sql in place of its include line, every data
    source's rows (store/bundled/sources.py) and the canonical names' shared parts
    filled in (store/bundled/entity_tables.py)."""
    return entity_tables.views_sql(
        VIEWS_SQL.read_text(encoding="utf-8")
        .replace(
            "-- @include mlperf_rows.sql", MLPERF_ROWS_SQL.read_text(encoding="utf-8")
        )
        .replace(
            "-- @include mlperf_inference_rows.sql",
            INFERENCE_ROWS_SQL.read_text(encoding="utf-8"),
        )
        .replace("{SOURCE_ROWS}", sources.rows_sql())
    )


def _load_table(
    con: duckdb.DuckDBPyConnection, src: sources.DataSource, path: Path
) -> None:
    table = src.table
    if not path.exists():
        raise DataError(path, None, None, "file is missing")
    cols = con.execute(f"DESCRIBE {table}").fetchall()  # table names are ours
    types = {name: typ for name, typ, *_ in cols}
    not_null = [name for name, _typ, null, *_ in cols if null == "NO"]
    header = _header(path)
    if header != list(types):
        missing = [c for c in types if c not in header]
        extra = [c for c in header if c not in types]
        raise DataError(
            path,
            1,
            None,
            f"header does not match the schema (missing {missing}, "
            f"unexpected {extra}, or out of order)",
        )
    try:
        con.execute(
            "CREATE OR REPLACE TEMP TABLE stage AS "
            "SELECT row_number() OVER () + 1 AS __line, * FROM read_csv($path, "
            "header = true, auto_detect = false, delim = ',', quote = '\"', "
            "escape = '\"', nullstr = '', strict_mode = true, columns = $cols)",
            {"path": str(path), "cols": types},
        )
    except duckdb.Error as exc:
        raise _csv_error(path, str(exc)) from None
    checks = [
        (col, f'"{col}" IS NOT NULL', "required value is blank") for col in not_null
    ]
    checks += [
        (
            col,
            f'"{col}" IS NULL OR trim("{col}") = "{col}"',
            "value has leading or trailing spaces",
        )
        for col, typ in types.items()
        if typ == "VARCHAR"
    ]
    checks += [(rule.column, rule.holds, rule.reason) for rule in src.rules]
    _first_violation(con, path, checks)
    pk = src.key
    dup = con.execute(
        f'SELECT "{pk}", list(__line ORDER BY __line) FROM stage GROUP BY 1 '
        "HAVING count(*) > 1 ORDER BY 2 LIMIT 1"
    ).fetchone()
    if dup:
        raise DataError(
            path,
            dup[1][1],
            pk,
            f"duplicate {pk} {dup[0]!r} (first on line {dup[1][0]})",
        )
    con.execute(f"INSERT INTO {table} SELECT * EXCLUDE (__line) FROM stage")
    con.execute("DROP TABLE stage")


def _header(path: Path) -> list[str]:
    """The file's first record, read by the standard library: DuckDB's reader
    sniffs a sample of the file first, a cost paid for every file at every
    first start."""
    try:
        with open(path, newline="", encoding="utf-8-sig") as f:
            return next(csv.reader(f), [])
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise DataError(path, 1, None, f"cannot read header: {exc}") from None


def _first_violation(
    con: duckdb.DuckDBPyConnection,
    path: Path,
    checks: list[tuple[str, str, str]],
) -> None:
    """Raise for the first of ``checks`` (column, SQL that holds, reason) that
    some staged row breaks, naming its first such line. One scan answers them
    all: a query per check added up to a visible part of a first start for a
    wide file."""
    if not checks:
        return
    firsts = con.execute(
        "SELECT "
        + ", ".join(
            f"min(__line) FILTER (WHERE NOT coalesce(({holds}), false))"
            for _col, holds, _why in checks
        )
        + " FROM stage"
    ).fetchone()
    assert firsts is not None
    for (col, _holds, reason), line in zip(checks, firsts, strict=True):
        if line is not None:
            (value,) = con.execute(
                f'SELECT "{col}" FROM stage WHERE __line = $l', {"l": line}
            ).fetchone() or (None,)
            shown = "" if value is None else f" (got {value!r})"
            raise DataError(path, line, col, reason + shown)


def _csv_error(path: Path, msg: str) -> DataError:
    line = re.search(r"[Ll]ine:? (\d+)", msg)
    col = re.search(r'column "?([A-Za-z_]+)"?', msg)
    conv = re.search(r"Could not convert string \"?'?([^\"']*)\"?'? to '?(\w+)'?", msg)
    reason = (
        f"cannot read {conv[1]!r} as {conv[2]}" if conv else msg.splitlines()[0][:200]
    )
    return DataError(
        path, int(line[1]) if line else None, col[1] if col else None, reason
    )


def attach_bundled(
    con: duckdb.DuckDBPyConnection, data_dir: Path, cache_dir: Path
) -> Path:
    """ATTACH, as ``b`` (read-only), a store built from ``data_dir``: the bundled
    one if its fingerprint matches, else a cached one, building it if needed."""
    fp = fingerprint(data_dir)
    *_, cached = places = _store_places(data_dir, cache_dir, fp)
    _not_a_store_aside(cached)
    for path in places:
        if not path.is_file():  # none, or a pipe that would block ATTACH
            continue
        try:
            con.execute("ATTACH $p AS b (READ_ONLY)", {"p": str(path)})
        except duckdb.Error:
            continue
        try:
            row = con.execute(
                "SELECT value FROM b.meta WHERE key = 'fingerprint'"
            ).fetchone()
        except duckdb.Error:
            row = None
        # A store cut short (a crash, a full disk) attaches, then fails query
        # by query: a cache is rebuilt, never trusted.
        if row and row[0] == fp and not cut_short(con, "b", path):
            return path
        con.execute("DETACH b")
    try:
        build_store(data_dir, cached)
        con.execute("ATTACH $p AS b (READ_ONLY)", {"p": str(cached)})
    except (OSError, duckdb.Error) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        why = io_reason(str(why))
        raise StoreError(
            f"cannot build the results store in {cache_dir}: {why}. "
            + BUILD_FIX.get(
                why, "Check that folder, or set IPUBENCH_GUI_HOME to another."
            )
        ) from None
    return cached


# What to do when the store cannot be built, by the reason the system gave.
BUILD_FIX = {
    "No space left on device": "Free some space there.",
    "Disk quota exceeded": "Free some space there.",
    "Permission denied": "Make it writable, or set IPUBENCH_GUI_HOME elsewhere.",
    "Read-only file system": "Set IPUBENCH_GUI_HOME to a folder that can be written.",
}


def _not_a_store_aside(path: Path) -> None:
    """Something other than a regular file where the cached store goes (a
    folder, a pipe: it cannot be replaced by the build, and a pipe would
    block the attach) is moved aside, kept, so the store can be built."""
    try:
        st = os.lstat(path)
    except OSError:
        return
    if stat.S_ISREG(st.st_mode):
        return
    aside = path.with_name(f"{path.name}.not-a-store-{time.strftime('%Y%m%d-%H%M%S')}")
    try:
        os.rename(path, aside)
        log.warning("%s was not a store file; moved to %s", path, aside)
    except OSError as exc:
        log.warning("%s is not a store file and cannot be moved: %s", path, exc)


def store_places(data_dir: Path, cache_dir: Path) -> tuple[Path, Path]:
    """Where a store built from ``data_dir`` may be (see ``_store_places``)."""
    return _store_places(data_dir, cache_dir, fingerprint(data_dir))


def _store_places(data_dir: Path, cache_dir: Path, fp: str) -> tuple[Path, Path]:
    """Where a store built from ``data_dir`` may be: bundled beside the data
    (the standalone app), else in the user's cache folder."""
    return data_dir / STORE_NAME, cache_dir / f"results-{fp[:16]}.duckdb"


def built_at(data_dir: Path, cache_dir: Path) -> str | None:
    """When the store matching ``data_dir`` was built ("2026-11-23 16:40 UTC"),
    or None when none is built yet; builds nothing (``--version``)."""
    fp = fingerprint(data_dir)
    for path in _store_places(data_dir, cache_dir, fp):
        if not path.is_file():  # none, or a pipe that would block the open
            continue
        try:
            with duckdb.connect(str(path), read_only=True) as con:
                meta = dict(con.execute("SELECT key, value FROM meta").fetchall())
        except duckdb.Error:  # damaged, or being built: not this one
            continue
        if meta.get("fingerprint") == fp:
            return str(meta.get("built_at", "at an unrecorded time"))
    return None
