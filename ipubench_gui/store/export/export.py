"""Write stored results to files: streamed, atomic, never partial, and with no
cell a spreadsheet would run as a formula (every CSV writer goes through
:func:`inert` or :func:`inert_sql`, the same rule twice)."""

from __future__ import annotations

import csv
import math
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

import duckdb

from ipubench_gui.domain.fields import AS_PRINTED, MLPERF_COLUMNS, RESULT_FIELDS
from ipubench_gui.domain.files import atomic_write as atomic_write_file
from ipubench_gui.domain.files import io_reason
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.store.db import Database, Query
from ipubench_gui.store.health import is_damage
from ipubench_gui.store.schema import quote_ident
from ipubench_gui.store.user.import_read import column_ident

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


class ExportError(Exception):
    """An export could not be written; the message names the path and why."""


def all_results_query() -> Query:
    cols = ", ".join(quote_ident(c) for c in EXPORT_COLUMNS)
    return Query(
        f'SELECT {cols} FROM results_v ORDER BY source_file, "table", "row", metric', {}
    )


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


@contextmanager
def _cursor(db: Database) -> Iterator[duckdb.DuckDBPyConnection]:
    """A cursor of its own for one export: DuckDB 2 refuses a relation's write
    on a connection with an unfinished result (another query's fetchone)."""
    cur = db.cursor().cursor()
    try:
        yield cur
    finally:
        cur.close()


def _count(cur: duckdb.DuckDBPyConnection, query: Query) -> int:
    rows = cur.execute(f"SELECT count(*) FROM ({query.sql})", query.params).fetchall()
    return int(rows[0][0])


def copy_csv(
    db: Database, query: Query, path: Path, headers: list[str] | None = None
) -> int:
    """Stream ``query``'s rows to ``path`` as CSV with DuckDB's own writer
    (no row passes through Python), cells as :func:`_cell` writes them."""
    with _cursor(db) as cur:
        rel = _relation(cur, query, headers, text=True)
        # The path is an argument, never SQL text.
        atomic_write_binary(path, lambda tmp: rel.write_csv(tmp, header=True))
        return _count(cur, query)


# An export process sorts a million wide rows: DuckDB's own COPY of them peaked
# at 946 MB under the app's 1 GB limit; at 256 MB it spills to the cache
# folder and the process peaks at ~314 MB (1.2x the time; 128 MB runs out).
EXPORT_MEMORY = "256MB"


def limit_memory(db: Database) -> None:
    """For a process that only exports (the command line): DuckDB's memory
    limit lowered to :data:`EXPORT_MEMORY`; its sorts spill to disk."""
    db.cursor().execute(f"SET memory_limit = '{EXPORT_MEMORY}'")


def export_results(db: Database, path: Path) -> int:
    """Write every stored result to ``path`` as CSV; return the row count."""
    return copy_csv(db, all_results_query(), path)


# -- the filtered table, for spreadsheets and notebooks --
TABLE_FORMATS = ("csv", "parquet", "xlsx")


def table_query(state: FilterState, columns: tuple[str, ...] | None = None) -> Query:
    """The filtered rows with display columns and provenance (no row limit)."""
    from ipubench_gui.store.query import queries as q

    return q.results(state, columns=columns)


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
    from ipubench_gui.store.export.export_xlsx import XLSX_MAX_ROWS, write_xlsx

    path = Path(path)
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in TABLE_FORMATS:
        raise ExportError(f"cannot export to {path.name}: use .csv, .parquet or .xlsx")
    query = table_query(state)
    if per_accelerator:
        query = per_chip_query(query)

    def header(c: str) -> str:
        try:
            return field(c).header
        except KeyError:
            return c

    with _cursor(db) as cur:
        headers = [header(c) for c in cur.sql(query.sql, params=query.params).columns]
        if fmt == "csv":
            return copy_csv(db, query, path, headers)
        n = _count(cur, query)
        if fmt == "xlsx":
            if n > XLSX_MAX_ROWS:
                raise ExportError(
                    f"cannot write {path}: more than {XLSX_MAX_ROWS:,} rows do not "
                    "fit an Excel sheet; filter further, or use .csv or .parquet"
                )
            return write_xlsx(cur, query, path, headers, atomic_write_binary)
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
