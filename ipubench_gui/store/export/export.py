"""Write stored results to files: streamed, atomic, never partial, and with no
cell a spreadsheet would run as a formula (every CSV writer goes through
:func:`inert` or :func:`inert_sql`, the same rule twice)."""

from __future__ import annotations

import csv
import math
import os
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

import duckdb

from ipubench_gui.domain.fields import AS_PRINTED, MLPERF_COLUMNS, RESULT_FIELDS
from ipubench_gui.domain.files import ExportError, io_reason
from ipubench_gui.domain.files import atomic_write as atomic_write_file
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.store.db import Database, Params, Query
from ipubench_gui.store.health import is_damage
from ipubench_gui.store.query import queries
from ipubench_gui.store.schema import quote_ident
from ipubench_gui.store.user.import_read import column_ident
from ipubench_gui.store.user.user_tables import ord_start

# The documented export columns first (names fixed by contract), then extras.
EXPORT_COLUMNS: tuple[str, ...] = (
    "result_id",
    "source_file",
    "table",
    *RESULT_FIELDS,
    # the source's spelling of the canonical names above (a contract too)
    *(f"{c}_as_printed" for c in AS_PRINTED),
    "unit_family",
    # normalised and provenance extras
    "task",
    "vendor",
    "generation",
    "accelerator",
    "accelerators",
    "throughput_per_accelerator",
    "higher_is_better",
    "activation_bits",
    "weight_bits",
    "sdk_sort",
    "value_as_printed",
    "division",
    "quality_target",
    "evaluation_metric",
    "ranking",
    "row",
    "source_date",
    "source_date_kind",
    "link",
    "note",
    *(c for c in MLPERF_COLUMNS if c != "division"),
)


def all_results_query() -> Query:
    """Every stored result in table order (bundled rows by source, table and
    row, then each import as its file had them): the query an export writes
    (streamed by :func:`in_table_order`, not sorted)."""
    cols = ", ".join(quote_ident(c) for c in EXPORT_COLUMNS)
    return Query(f"SELECT {cols} FROM results_v ORDER BY ord", {})


def in_table_order(
    cur: duckdb.DuckDBPyConnection, select: str, cond: str, params: Params
) -> Query:
    """``SELECT select FROM results_v WHERE cond`` in table order (``ord``),
    with no sort: sorting a million wide rows ran out of memory within any
    limit a laptop can spare, spill or not, while results_v's
    parts come in ``ord`` order as stored when read by one thread (the
    bundled rows are stored by it, an import's rows as its file had them).
    Only an MLPerf import whose id falls between two file imports' would
    come out of place (MLPerf imports are one part after the files'): the
    rows are read in runs of ``ord`` that keep each part in its place."""
    runs = _ord_runs(cur)
    base = f"SELECT {select} FROM {queries.VIEW} WHERE ({cond})"
    if len(runs) == 1:
        return Query(base, params)
    parts, bounds = [], {}
    for k, (lo, hi) in enumerate(runs):
        part = base
        if lo is not None:
            part += f" AND ord >= $ord_lo_{k}"
            bounds[f"ord_lo_{k}"] = lo
        if hi is not None:
            part += f" AND ord < $ord_hi_{k}"
            bounds[f"ord_hi_{k}"] = hi
        parts.append(part)
    return Query(" UNION ALL ".join(parts), {**params, **bounds})


def _ord_runs(cur: duckdb.DuckDBPyConnection) -> list[tuple[int | None, int | None]]:
    """Ranges of ``ord`` each read in one run (see :func:`in_table_order`):
    one, unless MLPerf imports and file imports take turns by id."""
    attached = cur.execute(
        "SELECT count(*) FROM duckdb_tables() WHERE database_name = 'u' "
        "AND table_name IN ('imports', 'user_mlperf')"
    ).fetchall()[0][0]
    if attached < 2:
        return [(None, None)]
    kinds = cur.execute(
        "SELECT i.source_id, EXISTS (SELECT 1 FROM u.user_mlperf m "
        "WHERE m.source_id = i.source_id) FROM u.imports i ORDER BY 1"
    ).fetchall()
    # each run: ids in a row of one kind (the first: bundled rows, then
    # file imports), which come in ord order within it
    runs: list[tuple[int | None, int | None]] = []
    start: int | None = None
    mlperf_run = False
    for sid, mlperf in kinds:
        if bool(mlperf) != mlperf_run:
            runs.append((start, ord_start(int(sid))))
            start, mlperf_run = ord_start(int(sid)), bool(mlperf)
    runs.append((start, None))
    return runs


# -- cells a spreadsheet would run, made plain text (one rule, two evaluators) --
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# Text that is only a signed number ("-5", "+1.5e3") or a lone sign ("-", a
# blank in the vendor's tables) runs nothing, and stays as it is.
PLAIN_NUMBER = re.compile(r"[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?|[-+]")
CSV_LINE_END = "\r\n"  # RFC 4180; the csv module quotes a CR only if it ends lines


def inert(v: object) -> object:
    """Text that a spreadsheet would run as a formula, made plain text.

    Imported files are untrusted: a cell like ``=HYPERLINK(...)`` or
    ``+cmd|' /c calc'!A0`` gets a leading apostrophe (the OWASP advice for CSV
    injection), so it shows as typed and never runs. Numbers are left alone.
    :func:`inert_sql` is the same rule in SQL (tested to agree).
    """
    if (
        isinstance(v, str)
        and v.startswith(FORMULA_START)
        and not PLAIN_NUMBER.fullmatch(v)
    ):
        return "'" + v
    return v


def inert_sql(expr: str) -> str:
    """SQL of :func:`inert` for a text expression."""
    starts = ", ".join(
        f"chr({ord(c)})" if c in "\t\r" else f"'{c}'" for c in FORMULA_START
    )
    return (
        f"CASE WHEN left({expr}, 1) IN ({starts}) AND NOT regexp_full_match("
        f"{expr}, '{PLAIN_NUMBER.pattern}') THEN '''' || {expr} ELSE {expr} END"
    )


def _cell(v: object) -> object:
    """CSV text of a value: blank for NULL, 1361 not 1361.0, true/false, and
    no formula (:func:`inert`)."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and math.isfinite(v) and v.is_integer() and abs(v) < 1e15:
        return int(v)
    return inert(v)


def _cell_sql(ident: str, typ: str) -> str:
    """SQL giving :func:`_cell`'s text for a column of DuckDB type ``typ``."""
    if typ in ("DOUBLE", "FLOAT", "REAL") or typ.startswith("DECIMAL"):
        return (
            f"CASE WHEN isfinite({ident}) AND {ident} = trunc({ident}) AND "
            f"abs({ident}) < 1e15 THEN CAST(CAST({ident} AS BIGINT) AS VARCHAR) "
            f"ELSE CAST({ident} AS VARCHAR) END"
        )
    if typ == "VARCHAR":
        return inert_sql(ident)
    if typ in ("BOOLEAN", "DATE", "TIMESTAMP") or "INT" in typ:
        return ident
    return inert_sql(f"CAST({ident} AS VARCHAR)")


def csv_writer(f: TextIO) -> Callable[[Iterable[object]], object]:
    """``writerow`` for a CSV text file: every cell through :func:`_cell`."""
    w = csv.writer(f, lineterminator=CSV_LINE_END)
    return lambda row: w.writerow([_cell(v) for v in row])


def write_csv(
    path: Path, columns: Iterable[str], rows: Iterable[Iterable[object]]
) -> Path:
    """Write rows held in Python to ``path`` as CSV, atomically (small outputs:
    a comparison, claims; stored rows stream through :func:`copy_csv`)."""

    def write(f: TextIO) -> None:
        row = csv_writer(f)
        row(columns)
        for r in rows:
            row(r)

    return atomic_write(path, write)


def write_text(path: Path, text: str) -> Path:
    return atomic_write(path, lambda f: f.write(text))


def atomic_write(path: Path, write: Callable[[TextIO], object]) -> Path:
    """Text flavour of :func:`atomic_write_binary`: ``write(file)`` gets an open
    UTF-8 text file."""

    def save(tmp: str) -> None:
        with open(tmp, "w", newline="", encoding="utf-8") as f:
            write(f)

    return atomic_write_binary(path, save)


def _relation(
    cur: duckdb.DuckDBPyConnection,
    query: Query,
    headers: list[str] | None = None,
    text: bool = False,
) -> duckdb.DuckDBPyRelation:
    """``query`` as a relation whose columns are named ``headers``; with
    ``text``, every cell as :func:`_cell` would write it."""
    rel = cur.sql(query.sql, params=query.params)
    names = headers or list(rel.columns)
    cols = ", ".join(
        f"{_cell_sql(column_ident(c), str(t)) if text else column_ident(c)} "
        f"AS {column_ident(h)}"
        for c, t, h in zip(rel.columns, rel.types, names)
    )
    return cur.sql(f"SELECT {cols} FROM ({query.sql})", params=query.params)


def _count(cur: duckdb.DuckDBPyConnection, query: Query) -> int:
    rows = cur.execute(f"SELECT count(*) FROM ({query.sql})", query.params).fetchall()
    return int(rows[0][0])


def copy_csv(
    db: Database, query: Query, path: Path, headers: list[str] | None = None
) -> int:
    """Stream ``query``'s rows to ``path`` as CSV with DuckDB's own writer
    (no row passes through Python), cells as :func:`_cell` writes them."""
    with _export_cursor(db) as cur:
        return _copy_csv(cur, query, path, headers)


def _copy_csv(
    cur: duckdb.DuckDBPyConnection,
    query: Query,
    path: Path,
    headers: list[str] | None = None,
) -> int:
    rel = _relation(cur, query, headers, text=True)
    # The path is an argument, never SQL text.
    atomic_write_binary(path, lambda tmp: rel.write_csv(tmp, header=True))
    return _count(cur, query)


def export_memory() -> str:
    """DuckDB's memory limit for an export: a sixteenth of the machine's
    memory, from 256 MB to 512 MB. A streamed export of any size stays well
    below it (README: exports); the limit is what a filter's joins and a
    spill may use, and a small laptop keeps the rest."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # no sysconf (Windows)
        total = 8 << 30
    return f"{min(max(total // 16 >> 20, 256), 512)}MB"


@contextmanager
def _export_cursor(db: Database) -> Iterator[duckdb.DuckDBPyConnection]:
    """A cursor for one export, on one thread and within
    :func:`export_memory`: DuckDB's writer keeps rows in order across
    threads in buffers of 128 MB each, so two threads ran out of memory within
    the limit even with no sort, and one stays inside it. A window's
    store exports from a copy of its own (``reopen``), so its other queries
    keep their threads; any other store's settings are put back after."""
    own = db.reopen("read") if db.reopen is not None else None
    cur = (own or db).cursor().cursor()
    before = cur.execute(
        "SELECT current_setting('threads'), current_setting('memory_limit')"
    ).fetchall()[0]
    try:
        cur.execute("SET threads = 1")
        cur.execute(f"SET memory_limit = '{export_memory()}'")
        yield cur
    finally:
        if own is not None:
            cur.close()
            own.close()
        else:
            try:
                cur.execute(f"SET threads = {int(before[0])}")
                cur.execute("SET memory_limit = $m", {"m": str(before[1])})
            except duckdb.Error:
                pass
            cur.close()


def export_results(db: Database, path: Path) -> int:
    """Write every stored result to ``path`` as CSV in table order (streamed
    in bounded memory at any size); return the row count."""
    cols = ", ".join(quote_ident(c) for c in EXPORT_COLUMNS)
    with _export_cursor(db) as cur:
        return _copy_csv(cur, in_table_order(cur, cols, "true", {}), path)


# -- the filtered table, for spreadsheets and notebooks --
TABLE_FORMATS = ("csv", "parquet", "xlsx")


def table_query(state: FilterState, columns: tuple[str, ...] | None = None) -> Query:
    """The filtered rows with display columns and provenance (no row limit),
    in table order."""
    return queries.results(state, columns=columns)


def streamed_table_query(
    cur: duckdb.DuckDBPyConnection,
    state: FilterState,
    columns: tuple[str, ...] | None = None,
) -> Query:
    """:func:`table_query`'s rows in the same order, with no sort
    (:func:`in_table_order`): what an export writes."""
    cond, params = queries.where(state)
    select = ", ".join(quote_ident(c) for c in queries.result_columns(columns))
    return in_table_order(cur, select, cond, params)


def per_chip_query(query: Query) -> Query:
    """``query``'s rows per accelerator chip (domain/per_chip, in SQL)."""
    from ipubench_gui.domain.per_chip import per_chip_select

    return Query(per_chip_select(query.sql), query.params)


def export_table(
    db: Database, state: FilterState, path: Path, per_accelerator: bool = False
) -> int:
    """Write the rows matching ``state`` to ``path`` (.csv, .parquet or .xlsx),
    headers with units, provenance columns included; atomically. Returns rows.
    ``per_accelerator``: figures per accelerator chip, in a column saying they
    are derived (rows without a chip count left out)."""
    from ipubench_gui.domain.fields import field
    from ipubench_gui.store.export.export_xlsx import write_xlsx

    path = Path(path)
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in TABLE_FORMATS:
        what = "it is a folder; give" if path.is_dir() else "use"
        raise ExportError(
            f"cannot export to {path}: {what} a file name ending .csv, .parquet "
            "or .xlsx"
        )

    def header(c: str) -> str:
        try:
            return field(c).header
        except KeyError:
            return c

    with _export_cursor(db) as cur:
        query = streamed_table_query(cur, state)
        if per_accelerator:
            query = per_chip_query(query)
        headers = [header(c) for c in cur.sql(query.sql, params=query.params).columns]
        if fmt == "csv":
            return _copy_csv(cur, query, path, headers)
        if fmt == "xlsx":  # a sheet each export_xlsx.XLSX_MAX_ROWS rows
            return write_xlsx(cur, query, path, headers, atomic_write_binary)
        n = _count(cur, query)
        rel = _relation(cur, query, headers)
        atomic_write_binary(path, lambda tmp: rel.write_parquet(tmp))
        return n


def atomic_write_binary(path: Path, save: Callable[[str], object]) -> Path:
    """``save(tmp_name)`` writes the file; see :func:`domain.files.atomic_write`.
    A DuckDB error while writing (a full disk) is an OSError here, so it gets
    the same message, naming ``path`` and not the temporary file."""

    def guarded(tmp: str) -> None:
        try:
            save(tmp)
        except duckdb.Error as exc:
            if is_damage(exc):  # a store file, not the export: said as such
                raise
            raise OSError(io_reason(str(exc))) from None

    return atomic_write_file(path, guarded, ExportError)
