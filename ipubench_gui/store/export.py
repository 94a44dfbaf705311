"""Write stored results to files: atomic, never partial."""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TextIO

from ipubench_gui.domain.fields import RESULT_FIELDS
from ipubench_gui.domain.files import atomic_write as atomic_write_file
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.store.db import Database, Query
from ipubench_gui.store.schema import quote_ident

# The documented export columns first (names fixed by contract), then extras.
EXPORT_COLUMNS: tuple[str, ...] = (
    "result_id",
    "source_file",
    "table",
    *RESULT_FIELDS,
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
)


class ExportError(Exception):
    """An export could not be written; the message names the path and why."""


def all_results_query() -> Query:
    cols = ", ".join(quote_ident(c) for c in EXPORT_COLUMNS)
    return Query(
        f'SELECT {cols} FROM results_v ORDER BY source_file, "table", "row", metric', {}
    )


def write_csv(
    path: Path, columns: Iterable[str], rows: Iterable[Iterable[object]]
) -> Path:
    """Write rows to ``path`` as CSV, atomically (see :func:`atomic_write`)."""

    def write(f: TextIO) -> None:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(columns)
        for r in rows:
            w.writerow([_cell(v) for v in r])

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


def export_results(db: Database, path: Path) -> int:
    """Write every stored result to ``path`` as CSV; return the row count."""
    res = db.run(all_results_query())
    write_csv(path, res.columns, res.rows)
    return len(res.rows)


def _cell(v: object) -> object:
    """CSV text of a value: blank for NULL, 1361 not 1361.0, true/false."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v


# -- the filtered table, for spreadsheets and notebooks --
TABLE_FORMATS = ("csv", "parquet", "xlsx")
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def inert(v: object) -> object:
    """Text that a spreadsheet would run as a formula, made plain text.

    Imported files are untrusted: a cell like ``=HYPERLINK(...)`` or
    ``+cmd|' /c calc'!A0`` gets a leading apostrophe (the OWASP advice for CSV
    injection), so it shows as typed and never runs. Numbers are left alone.
    """
    if isinstance(v, str) and v.startswith(FORMULA_START):
        return "'" + v
    return v


def table_query(state: FilterState, columns: tuple[str, ...] | None = None) -> Query:
    """The filtered rows with display columns and provenance (no row limit)."""
    from ipubench_gui.store import queries as q

    return q.results(state, columns=columns)


def export_table(db: Database, state: FilterState, path: Path) -> int:
    """Write the rows matching ``state`` to ``path`` (.csv, .parquet or .xlsx),
    headers with units, provenance columns included; atomically. Returns rows."""
    from ipubench_gui.domain.fields import field

    path = Path(path)
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in TABLE_FORMATS:
        raise ExportError(f"cannot export to {path.name}: use .csv, .parquet or .xlsx")
    query = table_query(state)
    res = db.run(query)

    def header(c: str) -> str:
        try:
            return field(c).header
        except KeyError:
            return c

    headers = [header(c) for c in res.columns]
    if fmt == "csv":
        write_csv(path, headers, ([inert(v) for v in r] for r in res.rows))
    elif fmt == "xlsx":
        _write_xlsx(path, headers, res.rows)
    else:
        _write_parquet(db, query, path, headers, list(res.columns))
    return len(res.rows)


def _write_xlsx(
    path: Path, headers: list[str], rows: Iterable[Iterable[object]]
) -> None:
    from openpyxl import Workbook

    wb = Workbook(write_only=True)
    ws = wb.create_sheet("results")
    ws.append(headers)
    for r in rows:
        # openpyxl stores any str starting with "=" as a formula; inert() first.
        ws.append([inert(v) for v in r])

    atomic_write_binary(path, wb.save)


def _write_parquet(
    db: Database, query: Query, path: Path, headers: list[str], columns: list[str]
) -> None:
    renames = ", ".join(
        f'"{c}" AS "{h.replace(chr(34), "")}"' for c, h in zip(columns, headers)
    )
    rel = db.cursor().sql(f"SELECT {renames} FROM ({query.sql})", params=query.params)
    # The path is an argument, never SQL text.
    atomic_write_binary(path, lambda tmp: rel.write_parquet(tmp))


def atomic_write_binary(path: Path, save: Callable[[str], object]) -> Path:
    """``save(tmp_name)`` writes the file; see :func:`domain.files.atomic_write`."""
    return atomic_write_file(path, save, ExportError)
