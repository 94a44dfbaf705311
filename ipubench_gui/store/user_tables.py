"""How imported figures are stored in the user database, and the view over them.

Each import lands in two tables of its own: ``u.figures_<id>``, one row per
figure with only the columns that differ between its rows, and
``u.consts_<id>``, one row with the columns every figure of that import shares
(the metric and unit given for the whole file, a blank variant, ...). Nothing
derived is stored: ids, order, the source, vendor, generation and
per-accelerator throughput come from the view ``user_results_v``.

Why: DuckDB's cost of landing rows in a database file grows with the number
of columns written, constant and blank ones too (measured on 1M rows: 6
columns 2.3 s; the same plus 8 blank columns 4.5 s; plus 3 constant text
columns 4.1 s). A typical file maps five or six columns; writing those is
what the floor (``read_csv`` into an on-disk table) costs too.

``u.user_results`` (every column, one table) holds figures of user databases
written before this layout and is also the view's typed base.
"""

from __future__ import annotations

import re
from collections.abc import Collection

import duckdb

from ipubench_gui.domain.chartrows import LOWER_IS_BETTER
from ipubench_gui.store import names
from ipubench_gui.store.db import Params

# Every stored column of an imported figure, and its type.
USER_COLUMNS: dict[str, str] = {
    "source_id": "INTEGER NOT NULL",
    "n": "BIGINT NOT NULL",  # the figure's number within its import, from 1
    # Table order (ord_sql); stored, not derived: queries find a page's rows
    # by it, and DuckDB skips row groups by a stored column's min and max
    # (a page over 1M imported rows 600 -> 40 ms).
    "ord": "BIGINT",
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

BASE_TABLE = f"""
CREATE TABLE IF NOT EXISTS u.user_results (
    {", ".join(f'"{c}" {t}' for c, t in USER_COLUMNS.items())}
);
"""

_LOWER = "(" + ", ".join(f"'{m}'" for m in LOWER_IS_BETTER) + ")"
_TABLE = re.compile(r"figures_(\d+)")


def result_id_sql(source: str, n: str) -> str:
    """SQL for an imported figure's id, ``usr<source>-<n, 7+ digits>``: the same
    text as printf('usr%d-%07d') at half its cost (50 against 100 ms per 1M
    figures, measured), and still one id per figure past 9,999,999."""
    digits = f"CAST({n} AS VARCHAR)"
    return (
        f"'usr' || {source} || '-' || "
        f"lpad({digits}, CAST(greatest(7, length({digits})) AS INTEGER), '0')"
    )


def ord_sql(source: str, n: str) -> str:
    """SQL for an imported figure's place in table order: after every bundled
    row, by import, then as in the file."""
    return f"1000000000 + CAST({source} AS BIGINT) * 10000000000 + {n}"


def derived_sql(rows: str) -> str:
    """Imported figures with every column of results_v that applies to them,
    from ``rows`` (SQL giving USER_COLUMNS)."""
    return f"""
SELECT
    r.ord,
    {result_id_sql("r.source_id", "r.n")} AS result_id,
    i.file_name AS source_file, i.label AS "table",
    r.* EXCLUDE (ord, source_id, n, accelerators) {names.CANONICAL_NAMES},
    es.vendor, ea.generation, es.accelerator,
    coalesce(r.accelerators, es.chips) AS accelerators,
    r.metric NOT IN {_LOWER} AS higher_is_better,
    CAST(i.imported_at AS DATE) AS source_date,
    'imported' AS source_date_kind,
    i.label AS source_title,
    CASE WHEN r.metric = 'throughput' THEN r.value END AS throughput,
    CASE WHEN r.metric = 'throughput'
         THEN r.value / coalesce(r.accelerators, es.chips) END
        AS throughput_per_accelerator,
    TRY_CAST(split_part(r.precision, '.', 1) AS INTEGER) AS activation_bits,
    TRY_CAST(split_part(r.precision, '.', 2) AS INTEGER) AS weight_bits,
    {names.UNIT_FAMILY_AND_OTHER_NAMES},
    r.source_id
FROM ({rows}) r
JOIN u.imports i USING (source_id)
{names.name_joins("r.model", "r.framework", "r.dataset", "r.platform", "r.unit")}
"""


def rows_of(sid: int) -> str:
    """SQL giving import ``sid``'s figures with every column of USER_COLUMNS."""
    return f"SELECT * FROM u.figures_{sid} CROSS JOIN u.consts_{sid}"


def all_rows(con: duckdb.DuckDBPyConnection) -> str:
    """SQL giving every imported figure with every column of USER_COLUMNS."""
    ids = sorted(
        int(m[1])
        for (name,) in con.execute(
            "SELECT table_name FROM duckdb_tables() WHERE database_name = 'u'"
        ).fetchall()
        if (m := _TABLE.fullmatch(name))
    )
    return " UNION ALL BY NAME ".join(
        ["SELECT * FROM u.user_results", *(rows_of(i) for i in ids)]
    )


def define_view(con: duckdb.DuckDBPyConnection) -> None:
    """(Re)define ``user_results_v`` over every import's tables. Not inside a
    transaction that wrote the user database (DuckDB writes one database per
    transaction; this view lives in the connection's own catalog)."""
    rows = all_rows(con)
    con.execute(f"CREATE OR REPLACE VIEW user_results_v AS {derived_sql(rows)}")


def constant_checks(
    columns: dict[str, str], varying: Collection[str] = (), where: str = ""
) -> dict[str, str]:
    """Aggregates saying, per column of ``columns`` (as ``land`` takes them),
    whether it is the same on every row (NULL on all counts as the same): a
    min = max costs far less than writing such a column a million times.
    ``varying`` names those not worth checking (the file's own columns); the
    figure's number always varies (and keeps the count). ``where`` limits the
    rows counted (SQL)."""
    f = f" FILTER (WHERE {where})" if where else ""
    return {
        c: f"min({e}){f} IS NOT DISTINCT FROM max({e}){f} AND count({e}){f} "
        f"IN (0, count(*){f})"
        for c, e in columns.items()
        if c not in {"n", "ord", *varying}
    }


def land(
    con: duckdb.DuckDBPyConnection,
    sid: int,
    columns: dict[str, str],
    source: str,
    same: Collection[str],
) -> None:
    """Store import ``sid``'s figures: ``columns`` maps each of USER_COLUMNS
    but source_id to SQL over ``source`` (a FROM clause, one row per figure);
    those in ``same`` (found by ``constant_checks``) are stored once.
    Call inside the import's transaction; then ``define_view`` after it."""
    columns = {"ord": ord_sql(str(int(sid)), f"({columns['n']})"), **columns}
    varying = [f'{e} AS "{c}"' for c, e in columns.items() if c not in same]
    shared = [f'{e} AS "{c}"' for c, e in columns.items() if c in same]
    con.execute(
        f"CREATE TABLE u.figures_{int(sid)} AS SELECT {', '.join(varying)} "
        f"FROM {source}"
    )
    params: Params = {"id": sid}
    con.execute(
        f"CREATE TABLE u.consts_{int(sid)} AS SELECT CAST($id AS INTEGER) "
        f"AS source_id{''.join(', ' + s for s in shared)} FROM {source} LIMIT 1",
        params,
    )


def cube_rows(rows: str) -> str:
    """``rows`` (SQL giving USER_COLUMNS) grouped by what the facet counts can
    tell apart, with their number in __rows: the names are then resolved once
    per group, not once per figure (derived_sql over 1M figures: 15k groups)."""
    per_figure = ("n", "ord", "row", "value", "latency_ms", "value_as_printed")
    blanks = ", ".join(
        f'CAST(NULL AS {USER_COLUMNS[c].split()[0]}) AS "{c}"' for c in per_figure
    )
    return f"SELECT * REPLACE ({blanks}), count(*) AS __rows FROM ({rows}) GROUP BY ALL"


def drop(con: duckdb.DuckDBPyConnection, sid: int) -> None:
    """Remove import ``sid``'s figures (inside the caller's transaction)."""
    con.execute(f"DROP TABLE IF EXISTS u.figures_{int(sid)}")
    con.execute(f"DROP TABLE IF EXISTS u.consts_{int(sid)}")
    con.execute("DELETE FROM u.user_results WHERE source_id = $i", {"i": sid})
