"""Import result files (CSV/TSV, Parquet, JSON) into the user database.

The file is read with DuckDB's own readers into a staging table of text, then
normalised in SQL (a million rows never pass through Python): numbers lose
thousands separators and trailing units ("1,260,000", "0.58 ms"), "23h 43m"
becomes minutes. Every row that cannot be read is reported with its row,
column and reason, and then nothing is stored. Rows without a figure are
skipped and counted. What lands, lands in one transaction.

``import_file``, ``rename_source`` and ``remove_source`` write rows: a caller
holding the ``Database`` gives them the cursor of ``db.writing()``, so answers
kept in memory (``store.snapshot``) are rebuilt afterwards.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb

from ipubench_gui.domain.files import io_reason
from ipubench_gui.store import names
from ipubench_gui.store.db import Params, Row, one_row
from ipubench_gui.store.import_csv import ENCODINGS, MAX_SHOWN, shorten  # noqa: F401
from ipubench_gui.store.import_read import (  # noqa: F401  (the import API)
    FIELDS,
    MAX_PROBLEMS,
    METRICS,
    SYNONYMS,
    ImportFailed,
    ImportResult,
    ImportSpec,
    Preview,
    Problem,
    column_ident,
    delimiter_hint,
    first_line,
    guess,
    guess_constants,
    preview,
    reader,
    stage,
)
from ipubench_gui.store.user_tables import (
    define_view,
    derived_sql,
    drop,
    land,
    rows_of,
)

# -- normalising --
# A number (optionally with thousands separators and exponent), then a unit.
NUM_RE = (
    r"^\s*([-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?)"
    r"\s*([A-Za-z/%µ]*)\s*$"
)
HM_RE = r"^\s*(\d+)\s*h\s*(\d+)\s*m\s*$"


def _num(expr: str) -> str:
    """SQL: a number from text with separators and an optional unit; NULL if not.

    A plain cast first: most cells are plain numbers, and the regex (for
    "1,260,000" or "0.58 ms") then runs only on the rest (CASE evaluates each
    branch only for its own rows).
    """
    x = f"CAST({expr} AS VARCHAR)"
    return (
        f"CASE WHEN TRY_CAST({x} AS DOUBLE) IS NOT NULL THEN TRY_CAST({x} AS DOUBLE) "
        f"ELSE TRY_CAST(replace(regexp_extract({x}, '{NUM_RE}', 1), ',', '') "
        "AS DOUBLE) END"
    )


def _suffix(expr: str) -> str:
    return f"regexp_extract(CAST({expr} AS VARCHAR), '{NUM_RE}', 2)"


def _blank(expr: str) -> str:
    return f"({expr} IS NULL OR trim(CAST({expr} AS VARCHAR)) = '')"


def _metric_from_unit(unit: str) -> str:
    return (
        f"CASE WHEN lower({unit}) LIKE '%latency%' OR lower({unit}) IN ('ms', 's') "
        f"THEN 'latency' WHEN {unit} LIKE '%/s%' OR lower({unit}) LIKE '%per s%' "
        "THEN 'throughput' END"
    )


def normalised_sql(
    spec: ImportSpec, names: list[str], types: dict[str, str] | None = None
) -> tuple[str, Params]:
    """SELECT over import_stage giving one normalised row per figure, with the raw
    text kept for problem reports. Identifiers are the file's own column names,
    always quoted; constants are parameters."""
    unknown = [c for c in [*spec.columns.values(), *spec.unpivot] if c not in names]
    if unknown:
        raise ImportFailed(
            f"{spec.path.name}: no column called "
            f"{', '.join(repr(shorten(c)) for c in unknown[:5])}; the file has "
            f"{_some(names)}{delimiter_hint(names)}"
        )
    bad = [f for f in [*spec.columns, *spec.constants] if f not in FIELDS]
    if bad:
        raise ImportFailed(
            f"unknown field {', '.join(shorten(b) for b in bad[:5])}; use one of "
            f"{', '.join(FIELDS)}"
        )
    _check_constants(spec.constants)
    params: Params = {}
    types = types or {}
    src = "import_stage"
    cols = dict(spec.columns)
    if spec.unpivot:
        if spec.unpivot_into not in FIELDS:
            raise ImportFailed(f"cannot unpivot into {spec.unpivot_into!r}")
        mapped = dict.fromkeys(spec.columns.values())
        keep = ", ".join(column_ident(c) for c in mapped if c not in spec.unpivot)
        on = ", ".join(
            f"CAST({column_ident(c)} AS VARCHAR) AS {column_ident(c)}"
            for c in spec.unpivot
        )
        src = (
            f"(UNPIVOT (SELECT __row, {keep + ', ' if keep else ''}{on} "
            f"FROM import_stage) ON {', '.join(column_ident(c) for c in spec.unpivot)} "
            f"INTO NAME __name VALUE __value)"
        )
        cols["value"] = "__value"
        cols[spec.unpivot_into] = "__name"

    def raw(f: str) -> str:
        if f in cols:
            c = cols[f]
            if types.get(c) == "JSON":
                # JSON columns mixing numbers and strings arrive as JSON text
                # ('"x"'); only those need unquoting.
                return (
                    f"regexp_replace(CAST({column_ident(c)} AS VARCHAR), "
                    "'^\"(.*)\"$', '\\1')"
                )
            return f"CAST({column_ident(c)} AS VARCHAR)"
        if f in spec.constants:
            params[f"c_{f}"] = spec.constants[f]
            return f"CAST($c_{f} AS VARCHAR)"
        return "CAST(NULL AS VARCHAR)"

    # A unit read from the cells ("0.58 ms") or a metric inferred from the unit
    # only when the user gave neither: these regexes cost ~0.2 s per 1M rows.
    unit = f"nullif(trim({raw('unit')}), '')"
    if "unit" not in cols and "unit" not in spec.constants:
        unit = f"coalesce({unit}, nullif({_suffix(raw('value'))}, ''))"
    metric = f"nullif(lower(trim({raw('metric')})), '')"
    if "metric" not in cols and "metric" not in spec.constants:
        metric = f"coalesce({metric}, {_metric_from_unit(unit)})"
    v = raw("value")
    value = (
        f"CASE WHEN TRY_CAST({v} AS DOUBLE) IS NOT NULL THEN TRY_CAST({v} AS DOUBLE) "
        f"WHEN regexp_full_match(coalesce({v}, ''), '{HM_RE}') "
        f"THEN CAST(regexp_extract({v}, '{HM_RE}', 1) AS DOUBLE) * 60 + "
        f"CAST(regexp_extract({v}, '{HM_RE}', 2) AS DOUBLE) "
        f"ELSE {_num(v)} END"
    )
    accel = _num(raw("accelerators"))
    if "nodes" in cols:  # MLPerf: accelerators are per node
        accel = f"({accel}) * coalesce({_num(raw('nodes'))}, 1)"
    sel = {
        "__row": "__row",
        "model": f"trim({raw('model')})",
        "variant": f"nullif(trim({raw('variant')}), '')",
        "platform": f"nullif(trim({raw('platform')}), '')",
        "sdk_version": f"nullif(trim({raw('sdk_version')}), '')",
        "framework": f"nullif(trim({raw('framework')}), '')",
        "dataset": f"nullif(trim({raw('dataset')}), '')",
        "precision": f"nullif(trim({raw('precision')}), '')",
        "mlperf_id": f"nullif(trim({raw('mlperf_id')}), '')",
        "division": f"nullif(trim({raw('division')}), '')",
        "task": f"nullif(lower(trim({raw('task')})), '')",
        "metric": metric,
        "unit": unit,
        "value": value,
        "value_raw": raw("value"),
        "latency_ms": _num(raw("latency_ms")),
        "latency_raw": raw("latency_ms"),
        "batch_size": _num(raw("batch_size")),
        "batch_raw": raw("batch_size"),
        "accelerators": accel,
        "accel_raw": raw("accelerators"),
    }
    body = ", ".join(f"{expr} AS {column_ident(k)}" for k, expr in sel.items())
    return f"SELECT {body} FROM {src}", params


# Whole numbers are stored as INTEGER (32 bits).
INT_MAX = 2**31 - 1
_WHOLE = (
    "{x} IS NULL OR NOT isfinite({x}) OR {x} < 1 OR {x} > " + str(INT_MAX) + " "
    "OR {x} <> floor({x})"
)
_POSITIVE = "{x} IS NULL OR NOT isfinite({x}) OR {x} <= 0"
PROBLEM_CHECKS: tuple[tuple[str, str, str], ...] = (
    # (column shown, condition that is a problem, reason)
    (
        "value",
        "NOT {blank_value} AND value IS NULL",
        "not a number: ' || quote(value_raw) || '",
    ),
    (
        "value",
        "value IS NOT NULL AND (NOT isfinite(value) OR value <= 0)",
        "must be a positive finite number, got ' || quote(value_raw) || '",
    ),
    (
        "latency_ms",
        "NOT {blank_lat} AND (" + _POSITIVE.format(x="latency_ms") + ")",
        "not a positive latency: ' || quote(latency_raw) || '",
    ),
    (
        "batch_size",
        "NOT {blank_bs} AND (" + _WHOLE.format(x="batch_size") + ")",
        "not a batch size (a whole number from 1 to "
        f"{INT_MAX:,}): ' || quote(batch_raw) || '",
    ),
    (
        "accelerators",
        "NOT {blank_acc} AND (" + _WHOLE.format(x="accelerators") + ")",
        "not a number of accelerators (a whole number from 1 to "
        f"{INT_MAX:,}): ' || quote(accel_raw) || '",
    ),
    ("model", "NOT {blank_value} AND (model IS NULL OR model = '')", "no model named"),
    (
        "metric",
        "NOT {blank_value} AND metric IS NULL",
        "no metric: map a metric or unit column, or set the metric",
    ),
    (
        "metric",
        "metric IS NOT NULL AND metric NOT IN ('throughput', 'latency', "
        "'time_to_train', 'time_to_result')",
        "unknown metric ' || quote(metric) || ' (use throughput, latency, "
        "time_to_train or time_to_result)",
    ),
    (
        "unit",
        "NOT {blank_value} AND unit IS NULL",
        "no unit: map a unit column, or set the unit",
    ),
)
# Fields whose value given for every row must be a number, and its rule.
_CONSTANT_RULES = {
    "batch_size": _WHOLE,
    "accelerators": _WHOLE,
    "nodes": _WHOLE,
    "latency_ms": _POSITIVE,
    "value": _POSITIVE,
}


def _check_constants(constants: dict[str, str]) -> None:
    """A number given for every row is checked once, by the rule its column's
    cells meet (the same SQL), not reported again for each row."""
    bad = []
    x = f"({_num('$v')})"
    con = duckdb.connect()
    try:
        for f, rule in _CONSTANT_RULES.items():
            if (
                f in constants
                and one_row(
                    con.execute(f"SELECT {rule.format(x=x)}", {"v": constants[f]})
                )[0]
            ):
                bad.append(f"{f} = {shorten(constants[f])!r}")
    finally:
        con.close()
    if bad:
        raise ImportFailed(
            f"not a valid value for every row: {', '.join(bad)} (batch_size, "
            f"accelerators and nodes: whole numbers from 1 to {INT_MAX:,}; "
            "latency_ms and value: positive numbers)"
        )


def _some(names: list[str], most: int = 12) -> str:
    """Up to ``most`` column names, for a message."""
    shown = ", ".join(repr(shorten(n, 40)) for n in names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most else "")


# What makes two imported rows the same figure.
FIGURE_COLUMNS = (
    "model, variant, platform, sdk_version, framework, dataset, precision, metric, "
    "unit, value, latency_ms, batch_size, accelerators, mlperf_id, task"
)


def _problems(
    con: duckdb.DuckDBPyConnection, column_of: dict[str, str]
) -> tuple[list[Problem], int]:
    # Cell text inside quotes in messages; a temp macro is per connection.
    con.execute(
        "CREATE OR REPLACE TEMP MACRO quote(x) AS '''' || CASE WHEN "
        f"length(CAST(x AS VARCHAR)) > {MAX_SHOWN} "
        f"THEN left(CAST(x AS VARCHAR), {MAX_SHOWN - 1}) || '…' "
        "ELSE coalesce(CAST(x AS VARCHAR), '') END || ''''"
    )
    subs = {
        "blank_value": _blank("value_raw"),
        "blank_lat": _blank("latency_raw"),
        "blank_bs": _blank("batch_raw"),
        "blank_acc": _blank("accel_raw"),
    }
    # Usually there is no problem at all: one scan says so (13 ms per 1M rows,
    # against 50 ms for the nine checks that name each problem), and equal
    # hashes of the figure columns say whether any row may repeat another
    # (110 ms, against 150 ms grouping by all fifteen). Only then the details.
    conds = " OR ".join(f"({c.format(**subs)})" for _, c, _ in PROBLEM_CHECKS)
    flagged, maybe_repeated = one_row(
        con.execute(
            f"SELECT (SELECT count(*) FROM import_norm WHERE {conds}), "
            "(SELECT count(*) FROM (SELECT 1 FROM import_norm WHERE value IS NOT "
            f"NULL GROUP BY hash({FIGURE_COLUMNS}) HAVING count(*) > 1))"
        )
    )
    if not flagged and not maybe_repeated:
        return [], 0
    parts = []
    for col, cond, reason in PROBLEM_CHECKS:
        parts.append(
            f"SELECT __row, '{col}' AS col, '{reason}' AS reason "
            f"FROM import_norm WHERE {cond.format(**subs)}"
        )
    sql = " UNION ALL ".join(parts)
    # Exact duplicates by hash aggregation (a window over 15 columns of a
    # million rows costs several times more).
    dup_sql = (
        "SELECT unnest(rows[2:]) AS __row, 'row', 'repeats row ' || rows[1] || "
        "' exactly' FROM (SELECT list(__row ORDER BY __row) AS rows FROM import_norm "
        f"WHERE value IS NOT NULL GROUP BY {FIGURE_COLUMNS} HAVING count(*) > 1)"
    )
    # Once into a table, then the first few and the count from it.
    con.execute(
        f"CREATE OR REPLACE TEMP TABLE import_problems AS {sql} UNION ALL {dup_sql}"
    )
    rows = con.execute(
        f"SELECT * FROM import_problems ORDER BY 1, 2 LIMIT {MAX_PROBLEMS + 1}"
    ).fetchall()
    total = one_row(con.execute("SELECT count(*) FROM import_problems"))[0]
    probs = [
        Problem(int(r), column_of.get(c, c) if c != "row" else None, reason)
        for r, c, reason in rows[:MAX_PROBLEMS]
    ]
    return probs, max(0, total - MAX_PROBLEMS)


# -- importing --
def validate(con: duckdb.DuckDBPyConnection, spec: ImportSpec) -> tuple[int, int]:
    """Stage and check ``spec``; return (rows to land, rows skipped for having no
    figure); raise ImportFailed listing problems. Stores nothing."""
    names, types = stage(
        con, spec.path, [*spec.columns.values(), *spec.unpivot], spec.encoding
    )
    if "value" not in spec.columns and not spec.unpivot:
        raise ImportFailed(_no_value_message(spec, names))
    sql, params = normalised_sql(spec, names, dict(zip(names, types)))
    try:
        con.execute(f"CREATE OR REPLACE TEMP TABLE import_norm AS {sql}", params)
    except duckdb.Error as exc:
        raise ImportFailed(f"{spec.path.name}: {first_line(exc)}") from None
    column_of = {f: c for f, c in spec.columns.items()}
    probs, more = _problems(con, column_of)
    if probs:
        raise ImportFailed(
            f"{spec.path.name}: {len(probs) + more} problem(s); nothing was imported.",
            probs,
            more,
        )
    landed, skipped = one_row(
        con.execute(
            f"SELECT count(*) FILTER (WHERE value IS NOT NULL), count(*) FILTER "
            f"(WHERE {_blank('value_raw')}) FROM import_norm"
        )
    )
    if landed == 0:
        raise ImportFailed(
            f"{spec.path.name}: no row has a figure in column "
            f"{spec.columns.get('value', 'value')!r}"
        )
    return landed, skipped


def _no_value_message(spec: ImportSpec, names: list[str]) -> str:
    msg = (
        f"{spec.path.name}: which column holds the figures? Map one to 'value' "
        f"(the file has {_some(names)})"
    )
    return msg + delimiter_hint(names)


# Each stored column of an imported figure (user_tables.USER_COLUMNS but
# source_id), as SQL over import_norm.
LANDED: dict[str, str] = {
    "n": "n.rowid + 1",
    "row": "CAST(n.__row AS INTEGER)",
    "task": "coalesce(n.task, CASE WHEN n.latency_ms IS NOT NULL OR n.metric = "
    "'latency' THEN 'inference' WHEN n.metric IN ('time_to_train', "
    "'time_to_result') THEN 'training' END)",
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


def import_file(con: duckdb.DuckDBPyConnection, spec: ImportSpec) -> ImportResult:
    """Validate, then land every row of ``spec`` in one transaction (or none)."""
    landed, skipped = validate(con, spec)
    label = spec.label or spec.path.name
    folder = _check_space(con, spec, landed)
    con.execute("BEGIN TRANSACTION")
    try:
        sid = one_row(con.execute("SELECT nextval('u.import_ids')"))[0]
        con.execute(
            "INSERT INTO u.imports VALUES ($id, $f, $l, current_timestamp, $n, $s)",
            {"id": sid, "f": spec.path.name, "l": label, "n": landed, "s": skipped},
        )
        # Only what the file says; user_tables.derived_sql derives the rest.
        mapped = {"n", "row", "value", *spec.columns}
        if spec.unpivot:
            mapped.add(spec.unpivot_into)
        land(con, sid, LANDED, "import_norm n WHERE n.value IS NOT NULL", mapped)
        # Canonical names of what the file said (derived_sql joins them).
        names.refresh_user_names(con, names.user_catalogue(con), rows_of(sid))
        con.execute(
            f"""
            INSERT INTO u.user_cube BY NAME
            SELECT {names.CUBE_COLUMNS}, count(*) AS n, source_id
            FROM ({derived_sql(rows_of(sid))}) GROUP BY ALL"""
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
            "DROP TABLE IF EXISTS import_norm",
            "DROP VIEW IF EXISTS import_stage",
            "DROP TABLE IF EXISTS import_stage_raw",
            "DROP TABLE IF EXISTS import_problems",
        ):
            _quietly(con, sql)
    define_view(con)
    return ImportResult(sid, landed, skipped, label)


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
    for t in ("user_mlperf", "user_cube", "imports"):
        con.execute(f"DELETE FROM u.{t} WHERE source_id = $i", {"i": sid})
    con.execute("COMMIT")
    define_view(con)
