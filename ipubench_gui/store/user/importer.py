"""Import result files (CSV/TSV, Parquet, JSON) into the user database.

The file is read once, with DuckDB's own readers, straight into normalised
rows (store/user/import_sql.py: a million rows never pass through Python); one
aggregate scan then says whether any row has a problem and what landing
needs (store/user/import_checks.py). Every row that cannot be read is reported
with its row, column and reason, and then nothing is stored. Rows without a
figure are skipped and counted. What lands, lands in one transaction.

``import_file``, ``rename_source`` and ``remove_source`` write rows: a caller
holding the ``Database`` gives them the cursor of ``db.writing()``, so answers
kept in memory (``store.query.snapshot``) are rebuilt afterwards.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import duckdb

from ipubench_gui.domain.files import io_reason
from ipubench_gui.domain.import_spec import Counts, ImportResult, ImportSpec
from ipubench_gui.domain.metrics import TASKS, sql_list, sql_literal, with_task
from ipubench_gui.store.bundled import names
from ipubench_gui.store.db import Params, Row, one_row
from ipubench_gui.store.user import aliases, stored_rows
from ipubench_gui.store.user.import_checks import (
    FIGURE_COLUMNS,
    check_constants,
    problems,
    summary,
)
from ipubench_gui.store.user.import_csv import (
    read_error,
)
from ipubench_gui.store.user.import_read import (
    MAX_PROBLEMS,
    ImportFailed,
    Problem,
    delimiter_hint,
    describe,
    is_csv,
    reader,
    stage,
)
from ipubench_gui.store.user.import_sql import (
    NUMBER_FIELDS,
    check_mapping,
    normalised_sql,
    some,
)
from ipubench_gui.store.user.user_tables import (
    KEY,
    NAME_COLUMNS,
    add_name_sets,
    constant_checks,
    cube_rows,
    define_view,
    derived_sql,
    drop,
    land,
    name_key_sql,
    named_sql,
    ord_sql,
)


# -- checking --
def validate(con: duckdb.DuckDBPyConnection, spec: ImportSpec) -> Counts:
    """Read and check ``spec``; return the rows to land and those skipped (no
    figure; already stored, with ``spec.skip_existing``); raise ImportFailed
    listing problems. Stores nothing."""
    counts, _ = _checked(con, spec)
    return counts


def _checked(
    con: duckdb.DuckDBPyConnection, spec: ImportSpec
) -> tuple[Counts, set[str]]:
    """``validate``, leaving import_norm for ``import_file`` with the names of
    the stored columns whose value is the same for every figure."""
    normalise = _normalise(con, spec)
    varies = normalise(False)
    # Rows already stored: left out, or each a problem (stored_rows).
    existing = stored_rows.skip(con, LANDED) if spec.skip_existing else 0
    # A stored column is the same for every figure when it reads no column
    # that varies; one that does (but the file's own) is checked.
    read = {c: set(re.findall(r"\bn\.(\w+)", e)) for c, e in STORED.items()}
    steady = {c for c, r in read.items() if not r & {*varies, "__rid", "__row"}}
    checks = constant_checks(
        {c: e for c, e in STORED.items() if c not in steady},
        _mapped(spec),
        "n.value IS NOT NULL",
    )
    got = summary(con, checks, [c for c in FIGURE_COLUMNS if c in varies])
    if got.landed == 0 and existing:
        raise ImportFailed(
            f"{spec.path.name}: every row with a figure ({existing}) is already "
            "stored; nothing new to import"
        )
    if got.rows == 0:
        raise ImportFailed(
            f"{spec.path.name}: has a header but no data rows", kind="no_rows"
        )
    probs: list[Problem] = []
    more = 0
    if got.flagged or got.repeats:
        normalise(True)  # the cells' whole text, for the messages
        if spec.skip_existing:
            stored_rows.skip(con, LANDED)  # read again: left out again
        probs, more = problems(con, dict(spec.columns))
    if not spec.skip_existing:
        stored, more_stored = stored_rows.already_stored(con, LANDED, MAX_PROBLEMS)
        both = sorted([*probs, *stored], key=lambda p: p.row or 0)
        probs, more = both[:MAX_PROBLEMS], more + more_stored + len(both[MAX_PROBLEMS:])
    if probs:
        repeats = any(p.reason.startswith(("repeats", "already")) for p in probs)
        raise ImportFailed(
            f"{spec.path.name}: {len(probs) + more} problem(s); "
            "nothing was imported." + (f" {stored_rows.HINT}" if repeats else ""),
            probs,
            more,
        )
    if got.landed == 0:
        raise ImportFailed(
            f"{spec.path.name}: no row has a figure in column "
            f"{spec.columns.get('value', 'value')!r}"
        )
    same = steady | {c for c, s in zip(checks, got.extra) if s}
    return Counts(got.landed, got.skipped, existing), same


def _normalise(
    con: duckdb.DuckDBPyConnection, spec: ImportSpec
) -> Callable[[bool], frozenset[str]]:
    """How to read ``spec``'s file into TEMP VIEW import_norm (normalised rows,
    their file row in __row), with the cells' whole text or not (``full``);
    it returns the columns read from the file's cells.

    The file is read once, straight into normalised rows, except to unpivot
    it (staged first, for its row numbers). A CSV file's number columns are
    first read as numbers by DuckDB's reader (far cheaper than text, then
    cast); where one is not ("1,260,000", "23h 43m", a blank in quotes), the
    file is read again as text."""
    path = spec.path
    if spec.unpivot:
        names, types = stage(
            con, path, [*spec.columns.values(), *spec.unpivot], spec.encoding
        )
        src, cannot = None, ""
        p: Params = {}
    else:
        src, p, names, types = describe(con, path, spec.encoding)
        cannot = "cannot be read: "
    if "value" not in spec.columns and not spec.unpivot:
        raise ImportFailed(_no_value_message(spec, names))
    check_mapping(spec, names)
    check_constants(spec.constants)
    typed = {spec.columns[f] for f in NUMBER_FIELDS if f in spec.columns}
    if src is not None and is_csv(path) and typed:
        as_numbers = dict.fromkeys(typed, "DOUBLE")
        src_n, p_n = reader(path, spec.encoding, as_numbers)
        types_n = {n: as_numbers.get(n, t) for n, t in zip(names, types)}
    else:
        src_n = None

    def into(sql: str, params: Params) -> None:
        con.execute(f"CREATE OR REPLACE TEMP TABLE import_norm_t AS {sql}", params)

    def run(full: bool) -> frozenset[str]:
        norm = normalised_sql(spec, names, dict(zip(names, types)), src, full)
        try:
            if src_n is None or full:
                into(norm.rows, {**p, **norm.bound(norm.rows)})
            else:
                try:
                    fast = normalised_sql(spec, names, types_n, src_n, full)
                    into(fast.rows, {**p_n, "path": str(path), **fast.bound(fast.rows)})
                    norm = fast
                except duckdb.Error:
                    into(norm.rows, {**p, **norm.bound(norm.rows)})
            con.execute(
                f"CREATE OR REPLACE TEMP TABLE import_norm_c AS {norm.shared}",
                norm.bound(norm.shared),
            )
        except duckdb.Error as exc:
            raise ImportFailed(
                f"{path.name}: {cannot}{read_error(exc, spec.encoding)}"
            ) from None
        # Rows keep file order (insertion order is preserved), so rowid + 1
        # is the data row number: no window function over the whole file.
        # What every row shares is stored once, and joined.
        number = "" if src is None else "t.rowid + 1 AS __row, "
        con.execute(
            "CREATE OR REPLACE TEMP VIEW import_norm AS SELECT "
            f"{number}t.rowid AS __rid, * FROM import_norm_t t, import_norm_c"
        )
        return norm.varies

    return run


def _mapped(spec: ImportSpec) -> set[str]:
    """The stored columns the file gives (not worth checking for one value)."""
    mapped = {"row", "value", *spec.columns}
    if spec.unpivot:
        mapped.add(spec.unpivot_into)
    return mapped


def _no_value_message(spec: ImportSpec, names: list[str]) -> str:
    msg = (
        f"{spec.path.name}: which column holds the figures? Map one to 'value' "
        f"(the file has {some(names)})"
    )
    return msg + delimiter_hint(names)


# Each stored column of an imported figure (user_tables.USER_COLUMNS but
# source_id), as SQL over import_norm.
LANDED: dict[str, str] = {
    "n": "n.__rid + 1",
    "row": "CAST(n.__row AS INTEGER)",
    "task": "coalesce(n.task, CASE WHEN n.latency_ms IS NOT NULL THEN 'inference' "
    + " ".join(
        f"WHEN n.metric IN {sql_list(with_task(t))} THEN {sql_literal(t)}"
        for t in TASKS
    )
    + " END)",
    "model": "n.model",
    "variant": "n.variant",
    "platform": "n.platform",
    "sdk_version": "n.sdk_version",
    "framework": "n.framework",
    "dataset": "n.dataset",
    "batch_size": "CAST(n.batch_size AS INTEGER)",
    "precision": "n.precision",
    "metric": "n.metric",
    "value": "n.value",
    "unit": "n.unit",
    "value_as_printed": "CASE WHEN TRY_CAST(n.value_raw AS DOUBLE) IS NULL "
    "THEN n.value_raw END",
    "latency_ms": "coalesce(n.latency_ms, CASE WHEN n.metric = 'latency' AND "
    "lower(n.unit) LIKE '%ms%' THEN n.value END)",
    "mlperf_id": "n.mlperf_id",
    "division": "n.division",
    "accelerators": "CAST(n.accelerators AS INTEGER)",
}


# What is stored per figure: LANDED but the names as printed, which are kept
# once per combination (user_tables.NAME_COLUMNS), and the figure's key to them.
STORED = {c: e for c, e in LANDED.items() if c not in NAME_COLUMNS} | {
    KEY: name_key_sql("n")
}


def import_file(con: duckdb.DuckDBPyConnection, spec: ImportSpec) -> ImportResult:
    """Validate, then land every row of ``spec`` in one transaction (or none)."""
    (landed, skipped, existing), same = _checked(con, spec)
    label = spec.label or spec.path.name
    folder = _check_space(con, spec, landed)
    con.execute("BEGIN TRANSACTION")
    saved: list[tuple[str, str, str]] = []
    try:
        if spec.aliases:  # before the import's names are resolved
            saved = aliases.save_aliases(con, spec.aliases)
        sid = one_row(con.execute("SELECT nextval('u.import_ids')"))[0]
        con.execute(
            "INSERT INTO u.imports VALUES ($id, $f, $l, current_timestamp, $n, $s)",
            {"id": sid, "f": spec.path.name, "l": label, "n": landed, "s": skipped},
        )
        # Only what the file says; user_tables.derived_sql derives the rest.
        figures = "import_norm n WHERE n.value IS NOT NULL"
        land(con, sid, STORED, figures, same)
        # The figures grouped by what names and facets tell apart, once
        # (one scan; far fewer groups than figures): the import's name sets,
        # canonical names of what the file said (derived_sql joins them),
        # then the facet counts.
        every = {"ord": ord_sql(str(int(sid)), "(n.__rid + 1)"), **LANDED}
        cols = ", ".join(
            f'{e} AS "{c}"' for c, e in (every | {KEY: STORED[KEY]}).items()
        )
        con.execute(
            "CREATE OR REPLACE TEMP TABLE import_groups AS "
            + cube_rows(
                f"SELECT CAST({int(sid)} AS INTEGER) AS source_id, {cols} "
                f"FROM {figures}"
            )
        )
        name_cols = ", ".join(NAME_COLUMNS)
        add_name_sets(
            con,
            sid,
            f"SELECT DISTINCT source_id, {KEY}, {name_cols} FROM import_groups",
        )
        groups = "SELECT * FROM import_groups"
        aliases.refresh_user_names(con, aliases.user_catalogue(con), groups)
        keyed = f"SELECT * EXCLUDE ({name_cols}) FROM import_groups"
        sets = names.resolved_sql(
            f"SELECT * FROM u.user_name_sets WHERE source_id = {int(sid)}"
        )
        con.execute(
            f"""
            INSERT INTO u.user_cube BY NAME
            SELECT {aliases.CUBE_COLUMNS}, sum(__rows) AS n, source_id
            FROM ({derived_sql(named_sql(keyed, sets))}) GROUP BY ALL"""
        )
        con.execute("COMMIT")
    except BaseException as exc:
        _quietly(con, "ROLLBACK")  # a failed COMMIT has ended it already
        if isinstance(exc, duckdb.Error):
            raise ImportFailed(
                f"{spec.path.name}: nothing was imported: your imported results "
                f"could not be written ({io_reason(str(exc))}) in {folder}"
            ) from None
        raise
    finally:
        for sql in (
            "DROP VIEW IF EXISTS import_norm",
            "DROP TABLE IF EXISTS import_norm_t",
            "DROP TABLE IF EXISTS import_norm_c",
            "DROP VIEW IF EXISTS import_stage",
            "DROP TABLE IF EXISTS import_stage_raw",
            "DROP TABLE IF EXISTS import_problems",
            "DROP TABLE IF EXISTS import_groups",
        ):
            _quietly(con, sql)
    if saved:  # every import's names may read otherwise now
        aliases.renamed_after_commit(con)
    define_view(con)
    return ImportResult(sid, landed, skipped, label, existing, tuple(saved))


def _quietly(con: duckdb.DuckDBPyConnection, sql: str) -> None:
    try:
        con.execute(sql)
    except duckdb.Error:
        pass


# Room an import needs on the user database's disk: DuckDB's blocks and WAL
# (a floor) plus a generous bound per figure (the narrow table compresses to
# ~20 bytes a figure; its WAL holds them uncompressed until a checkpoint).
SPACE_FLOOR = 1 << 20
SPACE_PER_FIGURE = 200


def _check_space(con: duckdb.DuckDBPyConnection, spec: ImportSpec, n: int) -> Path:
    """The user database's folder; refuses, before anything is written, an
    import the free space there cannot hold (a full disk is no place to grow
    a database and leave it full)."""
    rows = con.execute(
        "SELECT path FROM duckdb_databases() WHERE database_name = 'u'"
    ).fetchall()
    folder = Path(rows[0][0]).parent if rows and rows[0][0] else Path(".")
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        return folder
    need = SPACE_FLOOR + n * SPACE_PER_FIGURE
    if free < need:
        raise ImportFailed(
            f"{spec.path.name}: nothing was imported: {n:,} figures need about "
            f"{need / 1e6:,.1f} MB free in {folder}, which has "
            f"{free / 1e6:,.1f} MB; free some space and import again"
        )
    return folder


def list_sources(con: duckdb.DuckDBPyConnection) -> list[Row]:
    return con.execute(
        "SELECT source_id, label, file_name, imported_at, rows, skipped "
        "FROM u.imports ORDER BY source_id"
    ).fetchall()


def rename_source(con: duckdb.DuckDBPyConnection, sid: int, label: str) -> None:
    # One place holds the label: user_results_v reads it from u.imports.
    con.execute(
        "UPDATE u.imports SET label = $l WHERE source_id = $i", {"l": label, "i": sid}
    )


def remove_source(con: duckdb.DuckDBPyConnection, sid: int) -> None:
    con.execute("BEGIN TRANSACTION")
    drop(con, sid)
    for t in ("user_mlperf", "user_mlperf_inference", "user_cube", "imports"):
        con.execute(f"DELETE FROM u.{t} WHERE source_id = $i", {"i": sid})
    con.execute("COMMIT")
    define_view(con)
