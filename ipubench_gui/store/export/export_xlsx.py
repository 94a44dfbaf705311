"""The filtered table as an .xlsx workbook, streamed: openpyxl's write-only
mode over rows fetched from DuckDB in chunks. Text is written as text (never a
formula, and with no apostrophe shown); a number that is not finite is written
as the word for it, which Excel has no number for."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from zipfile import ZIP_DEFLATED, ZipFile

import duckdb

from ipubench_gui.store.db import FETCH_CHUNK, Query

XLSX_MAX_ROWS = 1_048_576 - 1  # a worksheet's rows, less the header


def write_xlsx(
    cur: duckdb.DuckDBPyConnection,
    query: Query,
    path: Path,
    headers: list[str],
    atomic: Callable[[Path, Callable[[str], object]], Path],
) -> int:
    """Write ``query``'s rows under ``headers`` to ``path`` through ``atomic``
    (the store's atomic writer); return the number of rows."""

    def rows() -> Iterator[Sequence[object]]:
        res = cur.execute(query.sql, query.params)
        while chunk := res.fetchmany(FETCH_CHUNK):
            yield from chunk

    return write_rows_xlsx(rows(), path, headers, atomic)


def write_rows_xlsx(
    rows: Iterable[Sequence[object]],
    path: Path,
    headers: Sequence[str],
    atomic: Callable[[Path, Callable[[str], object]], Path],
    notes: Sequence[str] = (),
) -> int:
    """Write ``rows`` under ``headers`` (then ``notes``, a line each, after a
    blank row) to ``path`` through ``atomic``; return the number of rows."""
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
    from openpyxl.writer.excel import ExcelWriter

    wb = Workbook(write_only=True)
    ws = wb.create_sheet("results")

    def cell(v: object) -> object:
        if isinstance(v, float) and not math.isfinite(v):
            v = "NaN" if math.isnan(v) else ("inf" if v > 0 else "-inf")
        if not isinstance(v, str):
            return v
        c = WriteOnlyCell(ws, value=ILLEGAL_CHARACTERS_RE.sub("\ufffd", v))
        c.data_type = "s"  # openpyxl would make "=..." a formula
        return c

    written = 0

    def save(tmp: str) -> None:
        nonlocal written
        ws.append([cell(h) for h in headers])
        for r in rows:
            written += 1
            ws.append([cell(v) for v in r])
        if notes:
            ws.append([])
            for line in notes:
                ws.append([cell(line)])
        # Our own ZipFile, closed on failure too: openpyxl's save() leaves it
        # open when the disk fills ("Exception ignored in ZipFile.__del__").
        with ZipFile(tmp, "w", ZIP_DEFLATED, allowZip64=True) as archive:
            ExcelWriter(wb, archive).write_data()

    atomic(path, save)
    return written
