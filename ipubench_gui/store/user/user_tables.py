"""How imported figures are stored in the user database, and the view over them.

Each import lands in two tables of its own: ``u.figures_<id>``, one row per
figure with only the columns that differ between its rows, and
``u.consts_<id>``, one row with the columns every figure of that import shares
(the metric and unit given for the whole file, a blank variant, ...). Nothing
derived is stored: ids, order, the source, vendor, generation and
per-accelerator throughput come from the view ``user_results_v``.

Why: DuckDB's cost of landing rows in a database file grows with the number
of columns written, constant and blank ones too (a few blank columns nearly
doubled it; tests/bench: import). A typical file maps five or six columns;
writing those is what the floor (``read_csv`` into an on-disk table) costs
too.

The names as printed (NAME_COLUMNS) are not stored per figure either: each
import's distinct combinations of them are rows of ``u.user_name_sets``, keyed
by a hash of the combination (``name_key``), and a figure carries that key.
Canonical names, vendor, unit family and search text are resolved once per
combination (far fewer than figures) into aliases.NAME_ROWS, a table of the
connection's own in-memory catalog made again whenever names may have
changed; each import's figures join their own combinations on the key (with
per-figure joins on five text names, a filter change over imported rows cost
several times the same over as many bundled rows). A user alias changes
``u.user_names`` only: no figure is rewritten.

``u.user_results`` (every column, one table) holds figures of user databases
written before this layout and is also the view's typed base; imports from
before the keys are keyed on opening (``key_names``).
"""

from __future__ import annotations

import re
from collections.abc import Collection

import duckdb

from ipubench_gui.domain.metrics import LOWER_IS_BETTER, sql_list
from ipubench_gui.store.bundled import names
from ipubench_gui.store.db import Params, one_row
from ipubench_gui.store.user import aliases

# Every stored column of an imported figure, and its type.
USER_COLUMNS: dict[str, str] = {
    "source_id": "INTEGER NOT NULL",
    "n": "BIGINT NOT NULL",  # the figure's number within its import, from 1
    # Table order (ord_sql); stored, not derived: queries find a page's rows
    # by it, and DuckDB skips row groups by a stored column's min and max
    # (a page over many imported rows: a fraction of a full scan).
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

# The names as printed that give a figure its canonical names and search text
# (names.name_joins, names.SEARCH_TEXT): kept once per combination.
NAME_COLUMNS = ("model", "variant", "platform", "framework", "dataset", "unit")
KEY = "name_key"
NAME_SETS = f"""
CREATE TABLE IF NOT EXISTS u.user_name_sets (
    source_id INTEGER NOT NULL,
    {KEY} UBIGINT NOT NULL,
    {", ".join(f'"{c}" VARCHAR' for c in NAME_COLUMNS)}
);
"""

_LOWER = sql_list(sorted(LOWER_IS_BETTER))
_TABLE = re.compile(r"(figures|consts)_(\d+)")


def name_key_sql(alias: str) -> str:
    """SQL: the key of a figure's names as printed (``alias``: its row). A
    hash, not a number given by a join: no second pass over the figures. Two
    combinations of one import with the same hash are refused on landing
    (``check_keys``)."""
    return f"hash({', '.join(f'{alias}.{c}' for c in NAME_COLUMNS)})"


def result_id_sql(source: str, n: str) -> str:
    """SQL for an imported figure's id, ``usr<source>-<n, 7+ digits>``: the same
    text as printf('usr%d-%07d') at about half its cost, and still one id
    per figure past 9,999,999."""
    digits = f"CAST({n} AS VARCHAR)"
    return (
        f"'usr' || {source} || '-' || "
        f"lpad({digits}, CAST(greatest(7, length({digits})) AS INTEGER), '0')"
    )


ORD_FIRST = 1_000_000_000  # after every bundled row
ORD_PER_IMPORT = 10_000_000_000  # room for each import's figures


def ord_sql(source: str, n: str) -> str:
    """SQL for an imported figure's place in table order: after every bundled
    row, by import, then as in the file."""
    return f"{ORD_FIRST} + CAST({source} AS BIGINT) * {ORD_PER_IMPORT} + {n}"


def ord_start(source_id: int) -> int:
    """Where import ``source_id``'s figures start in table order (ord_sql)."""
    return ORD_FIRST + source_id * ORD_PER_IMPORT


def named_sql(rows: str, name_sets: str | None = None) -> str:
    """``rows`` (SQL giving stored columns and source_id) with their canonical
    names and their import's file_name, label and imported_at. Names by the
    figures' ``name_key`` from ``name_sets`` (SQL giving resolved name sets,
    as names.resolved_sql does), or with no ``name_sets`` resolved per figure
    from its names as printed (older layouts, read-only)."""
    if name_sets is None:
        named = names.resolved_sql(rows)
    else:
        named = f"""
SELECT f.* EXCLUDE ({KEY}), s.* EXCLUDE (source_id, {KEY})
FROM ({rows}) f
JOIN ({name_sets}) s ON s.source_id = f.source_id AND s.{KEY} = f.{KEY}
"""
    return (
        f'SELECT r.*, i.file_name, i."label", i.imported_at FROM ({named}) r '
        "JOIN u.imports i USING (source_id)"
    )


def keyed_sql(sid: int) -> str:
    """Import ``sid``'s figures (keyed layout) as ``named_sql`` gives them,
    named from aliases.NAME_ROWS: joined on one key to the import's own name
    sets, its row of u.imports crossed in. Joining every import's figures on
    (source_id, name_key) and then on u.imports made every filter change
    over imported figures slower."""
    i = int(sid)
    return (
        f"SELECT f.* EXCLUDE ({KEY}), s.* EXCLUDE (source_id, {KEY}), "
        f'i.file_name, i."label", i.imported_at FROM ({_stored(i)}) f '
        f"JOIN (SELECT * FROM {aliases.NAME_ROWS} WHERE source_id = {i}) s "
        f"USING ({KEY}) CROSS JOIN (SELECT file_name, "
        f'"label", imported_at FROM u.imports WHERE source_id = {i}) i'
    )


def derived_sql(named: str) -> str:
    """Imported figures with every column of results_v that applies to them,
    from ``named`` (SQL: ``named_sql`` or ``keyed_sql``)."""
    return f"""
SELECT
    r.ord,
    {result_id_sql("r.source_id", "r.n")} AS result_id,
    r.file_name AS source_file, r."label" AS "table",
    r.* EXCLUDE (ord, source_id, n, accelerators, platform_chips, file_name,
                 "label", imported_at),
    coalesce(r.accelerators, r.platform_chips) AS accelerators,
    r.metric NOT IN {_LOWER} AS higher_is_better,
    CAST(r.imported_at AS DATE) AS source_date,
    'imported' AS source_date_kind,
    r."label" AS source_title,
    CASE WHEN r.metric = 'throughput' THEN r.value END AS throughput,
    CASE WHEN r.metric = 'throughput'
         THEN r.value / coalesce(r.accelerators, r.platform_chips) END
        AS throughput_per_accelerator,
    TRY_CAST(split_part(r.precision, '.', 1) AS INTEGER) AS activation_bits,
    TRY_CAST(split_part(r.precision, '.', 2) AS INTEGER) AS weight_bits,
    r.source_id
FROM ({named}) r
"""


def _stored(sid: int) -> str:
    """SQL giving import ``sid``'s two tables as one (its stored columns)."""
    return f"SELECT * FROM u.figures_{int(sid)} CROSS JOIN u.consts_{int(sid)}"


def held(con: duckdb.DuckDBPyConnection) -> dict[int, set[str]]:
    """Import id -> the columns its two tables hold, by id."""
    out: dict[int, set[str]] = {}
    for table, column in con.execute(
        "SELECT table_name, column_name FROM duckdb_columns() WHERE database_name = 'u'"
    ).fetchall():
        if m := _TABLE.fullmatch(table):
            out.setdefault(int(m[2]), set()).add(column)
    return dict(sorted(out.items()))


def rows_of(sid: int, keyed: bool = True) -> str:
    """SQL giving import ``sid``'s figures with every column of USER_COLUMNS
    (names as printed from its name sets when ``keyed``)."""
    if not keyed:
        return _stored(sid)
    return (
        f"SELECT r.* EXCLUDE ({KEY}), s.* EXCLUDE (source_id, {KEY}) "
        f"FROM ({_stored(sid)}) r JOIN u.user_name_sets s "
        f"ON s.source_id = r.source_id AND s.{KEY} = r.{KEY}"
    )


def all_rows(con: duckdb.DuckDBPyConnection) -> str:
    """SQL giving every imported figure with every column of USER_COLUMNS."""
    return " UNION ALL BY NAME ".join(
        [
            "SELECT * FROM u.user_results",
            *(rows_of(i, KEY in cols) for i, cols in held(con).items()),
        ]
    )


def define_view(con: duckdb.DuckDBPyConnection) -> None:
    """(Re)define ``user_results_v`` over every import's tables, and the
    combined views over it (aliases.define_combined_views). Not inside a
    transaction that wrote the user database (DuckDB writes one database per
    transaction; these live in the connection's own catalog)."""
    tables = held(con)
    keyed = [i for i, cols in tables.items() if KEY in cols]
    older = [_stored(i) for i, cols in tables.items() if KEY not in cols]
    aliases.refresh_name_rows(con)
    parts = []
    if (
        older
        or not keyed
        or one_row(con.execute("SELECT count(*) > 0 FROM u.user_results"))[0]
    ):
        base = ["SELECT * FROM u.user_results", *older]
        parts.append(derived_sql(named_sql(" UNION ALL BY NAME ".join(base))))
    parts += [derived_sql(keyed_sql(i)) for i in keyed]
    con.execute(
        f"CREATE OR REPLACE VIEW user_results_v AS {' UNION ALL BY NAME '.join(parts)}"
    )
    aliases.define_combined_views(con)


def add_name_sets(con: duckdb.DuckDBPyConnection, sid: int, select: str) -> None:
    """Store import ``sid``'s combinations of names (``select``: SQL giving
    source_id, key and NAME_COLUMNS, distinct) and check their keys."""
    con.execute(f"INSERT INTO u.user_name_sets {select}")
    check_keys(con, sid)


def check_keys(con: duckdb.DuckDBPyConnection, sid: int) -> None:
    """Refuse (duckdb.Error: the caller's transaction is rolled back) import
    ``sid`` if two of its combinations of names share a key (a 64-bit hash:
    about one chance in 10^10 for a million distinct combinations)."""
    con.execute(
        f"SELECT CASE WHEN count(*) = count(DISTINCT {KEY}) THEN 0 ELSE "
        "error('two combinations of names share a key') END "
        "FROM u.user_name_sets WHERE source_id = $i",
        {"i": sid},
    ).fetchall()


def key_names(con: duckdb.DuckDBPyConnection) -> bool:
    """Give the figures of older layouts (``u.user_results``, imports without
    ``name_key``) the keyed layout, in one transaction; ids, order and values
    unchanged. Returns whether there was any. Cheap when there is none."""
    tables = {i: cols for i, cols in held(con).items() if KEY not in cols}
    wide = [
        int(i)
        for (i,) in con.execute(
            "SELECT DISTINCT source_id FROM u.user_results ORDER BY 1"
        ).fetchall()
    ]
    if not tables and not wide:
        return False
    consts = {
        i: [
            c
            for (c,) in con.execute(
                "SELECT column_name FROM duckdb_columns() WHERE database_name = 'u' "
                "AND table_name = $t",
                {"t": f"consts_{i}"},
            ).fetchall()
        ]
        for i in tables
    }
    con.execute("BEGIN TRANSACTION")
    try:
        for i in tables:
            _key_import(con, i, _stored(i), consts[i])
        for i in wide:
            if i in tables or i in held(con):
                continue  # never two homes for one import's figures
            _key_import(
                con, i, f"SELECT * FROM u.user_results WHERE source_id = {i}", []
            )
            con.execute("DELETE FROM u.user_results WHERE source_id = $i", {"i": i})
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    return True


def _key_import(
    con: duckdb.DuckDBPyConnection, sid: int, rows: str, shared: list[str]
) -> None:
    """Import ``sid``'s figures (``rows``: SQL giving USER_COLUMNS) into the
    keyed layout: its name sets, then its figures' table with their key in
    place of the names; ``shared``: the columns its one-row table holds."""
    name_cols = ", ".join(f'o."{c}"' for c in NAME_COLUMNS)
    add_name_sets(
        con,
        sid,
        f"SELECT DISTINCT CAST({int(sid)} AS INTEGER), {name_key_sql('o')}, "
        f"{name_cols} FROM ({rows}) o",
    )
    keep = [c for c in shared if c not in {"source_id", *NAME_COLUMNS}]
    drop_cols = ", ".join(f'"{c}"' for c in ["source_id", *NAME_COLUMNS, *keep])
    con.execute(
        f"CREATE TABLE u.figures_{int(sid)}_keyed AS SELECT o.* EXCLUDE "
        f"({drop_cols}), {name_key_sql('o')} AS {KEY} FROM ({rows}) o"
    )
    kept = "".join(f', o."{c}"' for c in keep)
    con.execute(
        f"CREATE TABLE u.consts_{int(sid)}_keyed AS SELECT CAST({int(sid)} AS "
        f"INTEGER) AS source_id{kept} FROM ({rows}) o LIMIT 1"
    )
    con.execute(f"DROP TABLE IF EXISTS u.figures_{int(sid)}")
    con.execute(f"DROP TABLE IF EXISTS u.consts_{int(sid)}")
    for t in ("figures", "consts"):
        con.execute(f"ALTER TABLE u.{t}_{int(sid)}_keyed RENAME TO {t}_{int(sid)}")


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
    per group, not once per figure (far fewer groups than figures)."""
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
    con.execute("DELETE FROM u.user_name_sets WHERE source_id = $i", {"i": sid})
