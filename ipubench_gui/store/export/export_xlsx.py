"""The filtered table as an .xlsx workbook, streamed: DuckDB writes each row's
sheet XML (so the per-cell work runs in the engine, not in Python) and
:mod:`zipfile` deflates it into the workbook as it comes. Text is written as
inline text (never a formula, and with no apostrophe shown); a number that is
not finite is written as the word for it, which Excel has no number for; a
table longer than a sheet goes on in further sheets, the header on each."""

from __future__ import annotations

import math
import os
import re
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import date, datetime
from pathlib import Path
from typing import BinaryIO
from zipfile import ZIP_DEFLATED, ZipFile

import duckdb
import numpy as np

from ipubench_gui.store.db import Params, Query

SHEET_ROWS = 1_048_576  # rows of an Excel worksheet, the header's included
XLSX_MAX_ROWS = SHEET_ROWS - 1  # rows of results one sheet holds
SHEET_NAME = "results"
# Deflate's fastest level: the sheet XML is large and compressing it is a
# large share of an export; a somewhat larger file is the better trade.
_LEVEL = 1

_EXCEL_EPOCH = date(1899, 12, 30)  # serial day 0 of Excel's 1900 date system
_NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
_RNS = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
_PNS = "http://schemas.openxmlformats.org/package/2006"
_ONS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_CT = "application/vnd.openxmlformats-officedocument.spreadsheetml"
# Style indexes of styles.xml's cellXfs: 1 a date, 2 the bold header.
_DATE_STYLE, _HEAD_STYLE = 1, 2
_STYLES = (
    f'<styleSheet {_NS}><numFmts count="1"><numFmt numFmtId="164" '
    'formatCode="yyyy-mm-dd"/></numFmts><fonts count="2"><font><sz val="11"/>'
    '<name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/>'
    '</font></fonts><fills count="2"><fill><patternFill patternType="none"/>'
    '</fill><fill><patternFill patternType="gray125"/></fill></fills>'
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/>'
    '</border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" '
    'fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="3"><xf numFmtId="0" '
    'fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="164" fontId="0" '
    'fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="0" '
    'fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>'
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/>'
    "</cellStyles></styleSheet>"
)
_XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
# The header row stays in view as the sheet scrolls.
_SHEET_HEAD = (
    f'{_XML}<worksheet {_NS} {_RNS}><sheetViews><sheetView workbookViewId="0">'
    '<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>'
    "</sheetView></sheetViews><sheetData>"
)
_SHEET_TAIL = "</sheetData></worksheet>"


# -- a cell's XML. Each cell is written with &, < and a space at either end
# of its text dealt with (in SQL for stored rows, in Python for headers and
# small tables); the escapes rarely needed are made by :meth:`_Scan.finish` on the
# few rows that need them, found in whole blocks of rows by passes in C.
# Cells carry no reference: each row's cells are all written, in order, a
# blank one as <c/> (the reference is optional in SpreadsheetML, and writing
# it in SQL cost more than the rest of a cell).
_TEXT = '<c t="inlineStr"><is><t>'
_TEXT_KEPT = '<c t="inlineStr"><is><t xml:space="preserve">'
_TEXT_END = "</t></is></c>"
_BLANK = "<c/>"
_ROW_END = b"</row>"
_FFFD = "\ufffd".encode()
# The CSV writer's delimiter and quote: characters a row holds only where a
# value does (and _Scan.finish makes them U+FFFD). A row holding one of them
# or a line break comes quoted, that quote doubled inside.
_DELIMITER, _QUOTE = b"\x01", b"\x02"
# Control characters XML 1.0 cannot hold (tab, LF and CR it can), and the two
# non-characters U+FFFE and U+FFFF: each shown as U+FFFD, as openpyxl did.
_BAD_RE = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f]|\xef\xbf[\xbe\xbf]")
# Excel reads "_x0041_" in a cell's text as "A" (ECMA-376's escape for
# characters XML cannot hold), so a literal one has its underscore escaped.
_ESCAPE_RE = re.compile(rb"_(x[0-9A-Fa-f]{4}_)")
# Whitespace an XML reader may drop at either end of a text unless told not
# to: a space is dealt with per cell, a tab, LF or CR by _finish_row (each is
# a control byte, which sends its row there).
_EDGE_RE = re.compile(rb"<t>([ \t\n\r][^<]*|[^<]*[ \t\n\r])</t>")
# Starts the first row of each sheet after the first (no value holds a <).
_NEXT_SHEET = b"<!--next sheet-->"


class _Scan:
    """Buffers for :func:`_Scan.plain`'s passes, kept from block to block
    (a fresh block's worth for each pass cost more than the pass)."""

    def __init__(self) -> None:
        self.u8 = np.empty(0, np.uint8)
        self.b1 = np.empty(0, np.bool_)
        self.b2 = np.empty(0, np.bool_)

    def plain(self, rows: bytes) -> bool:
        """Whether whole rows (each after a line feed, but the first) need no
        escape of :meth:`_Scan.finish`: no control byte but the line feeds, and
        none of the rare sequences. Passes in C over the bytes (numpy's, or
        a search for a byte): a rare byte not found spares dearer searches."""
        a = np.frombuffer(rows, np.uint8)
        n = len(a)
        if n > len(self.u8):
            self.u8 = np.empty(n, np.uint8)
            self.b1, self.b2 = np.empty(n, np.bool_), np.empty(n, np.bool_)
        u8, b1, b2 = self.u8[:n], self.b1[:n], self.b2[:n]
        # x ^ 10 - 1 wraps a line feed to 255 and any other control byte below 31
        np.subtract(np.bitwise_xor(a, 10, out=u8), 1, out=u8)
        if np.less(u8, 31, out=b1).any():
            return False
        if b"_" in rows and n > 1:  # "_x", then the whole escape
            pair = np.equal(a[:-1], 95, out=b1[: n - 1])
            pair &= np.equal(a[1:], 120, out=b2[: n - 1])
            if pair.any() and _ESCAPE_RE.search(rows):
                return False
        if b"\xef" in rows and (b"\xef\xbf\xbe" in rows or b"\xef\xbf\xbf" in rows):
            return False
        return not (b"]" in rows and b"]]>" in rows)

    def finish(self, xml: bytes) -> bytes:
        """Whole rows' XML (each but the first after a line feed, perhaps
        quoted by the CSV writer) with every escape beyond &, < and a space
        at a text's end made: the quotes taken off, the escape of a literal
        ``_xHHHH_``, U+FFFD for what XML cannot hold, other whitespace at a
        text's ends kept, CR as a reference (a bare one would be read as a
        line feed) and ``]]>`` broken. Rows that need none (most) are left
        as they are."""
        if self.plain(xml):
            return xml
        return _ROW_END.join(
            part if self.plain(part) else _finish_row(part)
            for part in xml.split(_ROW_END)
        )


def _finish_row(row: bytes) -> bytes:
    """One row's XML (or the line feed after the last), as :meth:`_Scan.finish`."""
    start = row.find(b"<")
    lead, row = (row, b"") if start < 0 else (row[:start], row[start:])
    if lead.endswith(_QUOTE):  # this row was quoted: the quote doubled inside
        row = row.replace(_QUOTE * 2, _QUOTE)
    lead = lead.replace(_QUOTE, b"")  # its opening quote, and the last one's end
    if b"_x" in row:
        row = _ESCAPE_RE.sub(rb"_x005F_\1", row)
    row = _BAD_RE.sub(_FFFD, row)
    row = _EDGE_RE.sub(rb'<t xml:space="preserve">\1</t>', row)
    return lead + row.replace(b"\r", b"&#13;").replace(b"]]>", b"]]&gt;")


def _text_cell(s: str, style: str = "") -> str:
    head = _TEXT_KEPT if s[:1] == " " or s[-1:] == " " else _TEXT
    s = s.replace("&", "&amp;").replace("<", "&lt;")
    return f"{head.replace('<c ', f'<c{style} ', 1)}{s}{_TEXT_END}"


def _word(v: float) -> str:
    return "NaN" if math.isnan(v) else ("inf" if v > 0 else "-inf")


def cell_xml(v: object) -> str:
    """One cell holding the Python value ``v``, as :func:`_cell_sql` writes
    it, before :meth:`_Scan.finish`."""
    if v is None:
        return _BLANK
    if isinstance(v, bool):
        return f'<c t="b"><v>{int(v)}</v></c>'
    if isinstance(v, int):
        return f"<c><v>{v}</v></c>"
    if isinstance(v, float):
        return f"<c><v>{v!r}</v></c>" if math.isfinite(v) else _text_cell(_word(v))
    if isinstance(v, date) and not isinstance(v, datetime):
        return f'<c s="{_DATE_STYLE}"><v>{(v - _EXCEL_EPOCH).days}</v></c>'
    return _text_cell(str(v))


def _cell_sql(x: str, typ: str) -> list[str]:
    """SQL of :func:`cell_xml` for column ``x`` of DuckDB type ``typ``: three
    pieces (opening, value, closing) for the row's one ``concat``, which
    skips a NULL (cheaper than joining each cell's pieces first)."""
    null = f"WHEN {x} IS NULL THEN '{_BLANK}'"
    end = f"CASE WHEN {x} IS NOT NULL THEN '</v></c>' END"
    if typ in ("DOUBLE", "FLOAT", "REAL"):
        word = (
            f"CASE WHEN isnan({x}) THEN 'NaN' WHEN {x} > 0 THEN 'inf' ELSE '-inf' END"
        )
        return [
            f"CASE {null} WHEN isfinite({x}) THEN '<c><v>' ELSE '{_TEXT}' END",
            f"CASE WHEN isfinite({x}) THEN CAST({x} AS VARCHAR) "
            f"WHEN {x} IS NOT NULL THEN {word} END",
            f"CASE WHEN isfinite({x}) THEN '</v></c>' WHEN {x} IS NOT NULL "
            f"THEN '{_TEXT_END}' END",
        ]
    if typ.startswith("DECIMAL") or ("INT" in typ and "INTERVAL" not in typ):
        return [f"CASE {null} ELSE '<c><v>' END", f"CAST({x} AS VARCHAR)", end]
    if typ == "BOOLEAN":
        return [f"CASE {null} ELSE '<c t=\"b\"><v>' END", f"CAST({x} AS INTEGER)", end]
    if typ == "DATE":
        return [
            f"CASE {null} ELSE '<c s=\"{_DATE_STYLE}\"><v>' END",
            f"date_diff('day', DATE '{_EXCEL_EPOCH}', {x})",
            end,
        ]
    text = x if typ == "VARCHAR" else f"CAST({x} AS VARCHAR)"
    return [
        f"CASE {null} WHEN starts_with({text}, ' ') OR ends_with({text}, ' ') "
        f"THEN '{_TEXT_KEPT}' ELSE '{_TEXT}' END",
        f"replace(replace({text}, '&', '&amp;'), '<', '&lt;')",
        f"CASE WHEN {x} IS NOT NULL THEN '{_TEXT_END}' END",
    ]


def rows_sql(query: Query, types: Sequence[str]) -> str:
    """SQL turning each row of ``query`` (columns of ``types``) into one text
    column, its ``<row>`` element before :meth:`_Scan.finish`; rows numbered from
    2 on each sheet (the header is row 1), a sheet every
    :data:`XLSX_MAX_ROWS` rows, its first row after :data:`_NEXT_SHEET`."""
    names = [f"c{i}" for i in range(len(types))]
    cells = ", ".join(p for x, t in zip(names, types) for p in _cell_sql(x, t))
    return (
        f"SELECT concat(CASE WHEN k > 0 AND k % {XLSX_MAX_ROWS} = 0 THEN "
        f"'{_NEXT_SHEET.decode()}' END, '<row r=\"', k % {XLSX_MAX_ROWS} + 2, "
        f"'\">', {cells}, '</row>') FROM (SELECT row_number() OVER () - 1 AS k, "
        f"* FROM ({query.sql}) AS q({', '.join(names)}))"
    )


def _line(row: str) -> str:
    """A row's XML as DuckDB's CSV writer (:func:`_copy_options`) writes it,
    for rows held in Python: quoted if it holds a line break, the delimiter
    or the quote, so that :meth:`_Scan.finish` finds it either way."""
    q = _QUOTE.decode()
    if any(c in row for c in ("\n", "\r", _DELIMITER.decode(), q)):
        return f"{q}{row.replace(q, q + q)}{q}\n"
    return f"{row}\n"


def _header_xml(headers: Sequence[str]) -> bytes:
    cells = "".join(_text_cell(h, f' s="{_HEAD_STYLE}"') for h in headers)
    xml = _Scan().finish(_line(f'<row r="1">{cells}</row>').encode())
    return xml[: xml.rindex(_ROW_END) + len(_ROW_END)]


# -- the workbook around the sheets --
def _sheet_names(count: int) -> list[str]:
    return [SHEET_NAME if k == 0 else f"{SHEET_NAME} ({k + 1})" for k in range(count)]


def _package(archive: ZipFile, sheets: int) -> None:
    """The workbook's fixed parts, for ``sheets`` sheets."""
    names = _sheet_names(sheets)
    overrides = "".join(
        f'<Override PartName="/xl/worksheets/sheet{k + 1}.xml" '
        f'ContentType="{_CT}.worksheet+xml"/>'
        for k in range(sheets)
    )
    parts = {
        "[Content_Types].xml": (
            f'{_XML}<Types xmlns="{_PNS}/content-types">'
            '<Default Extension="rels" '
            'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            '<Override PartName="/xl/workbook.xml" '
            f'ContentType="{_CT}.sheet.main+xml"/>'
            f'<Override PartName="/xl/styles.xml" ContentType="{_CT}.styles+xml"/>'
            f"{overrides}</Types>"
        ),
        "_rels/.rels": (
            f'{_XML}<Relationships xmlns="{_PNS}/relationships">'
            f'<Relationship Id="rId1" Type="{_ONS}/officeDocument" '
            'Target="xl/workbook.xml"/></Relationships>'
        ),
        "xl/workbook.xml": (
            f"{_XML}<workbook {_NS} {_RNS}><sheets>"
            + "".join(
                f'<sheet name="{n}" sheetId="{k + 1}" r:id="rId{k + 1}"/>'
                for k, n in enumerate(names)
            )
            + "</sheets></workbook>"
        ),
        "xl/_rels/workbook.xml.rels": (
            f'{_XML}<Relationships xmlns="{_PNS}/relationships">'
            + "".join(
                f'<Relationship Id="rId{k + 1}" Type="{_ONS}/worksheet" '
                f'Target="worksheets/sheet{k + 1}.xml"/>'
                for k in range(sheets)
            )
            + f'<Relationship Id="rId{sheets + 1}" Type="{_ONS}/styles" '
            'Target="styles.xml"/></Relationships>'
        ),
        "xl/styles.xml": _XML + _STYLES,
    }
    for name, text in parts.items():
        archive.writestr(name, text)


_BLOCK = 1 << 20


def _rows(stream: BinaryIO) -> Iterator[bytes]:
    """Blocks of whole rows, each ending with a row's end, from the stream
    DuckDB's CSV writer wrote (what follows a row's end, its line feed and
    perhaps its closing quote, starts the next block)."""
    rest = b""
    while block := stream.read(_BLOCK):
        block = rest + block
        cut = block.rfind(_ROW_END) + len(_ROW_END)
        if cut < len(_ROW_END):
            rest = block
            continue
        rest = block[cut:]
        yield block[:cut]
    if rest:
        yield rest


def _write_workbook(tmp: str, header: bytes, rows: Iterable[bytes]) -> int:
    """Write a workbook to ``tmp``: ``header`` then ``rows`` (blocks of whole
    rows' XML, before :meth:`_Scan.finish`), a new sheet (the header on each) at
    each :data:`_NEXT_SHEET`. Returns the rows written."""
    head = _SHEET_HEAD.encode() + header
    tail = _SHEET_TAIL.encode()
    count = 0
    scan = _Scan()
    with ZipFile(tmp, "w", ZIP_DEFLATED, allowZip64=True, compresslevel=_LEVEL) as z:
        sheets = 1
        sheet = z.open("xl/worksheets/sheet1.xml", "w", force_zip64=True)
        try:
            sheet.write(head)
            for block in rows:
                block = scan.finish(block)
                count += block.count(_ROW_END)
                *full, block = block.split(_NEXT_SHEET)
                for part in full:
                    sheet.write(part + tail)
                    sheet.close()
                    sheets += 1
                    name = f"xl/worksheets/sheet{sheets}.xml"
                    sheet = z.open(name, "w", force_zip64=True)
                    sheet.write(head)
                sheet.write(block)
            sheet.write(tail)
        finally:
            sheet.close()
        _package(z, sheets)
    return count


def _copy_options() -> str:
    """COPY options writing each row's text as it is, a line a row (quoted
    only where :func:`_rows` unquotes it)."""
    return "(FORMAT csv, HEADER false, DELIMITER chr(1), QUOTE chr(2), ESCAPE chr(2))"


@contextmanager
def _rows_stream(
    cur: duckdb.DuckDBPyConnection, sql: str, params: Params
) -> Iterator[BinaryIO]:
    """The rows of ``sql`` as DuckDB's own writer writes them, read as they
    come: through a pipe, DuckDB writing on a thread of its own while the
    caller compresses (the two take about as long), or through a temporary
    file where there are no named pipes. Raises what DuckDB raised."""
    with tempfile.TemporaryDirectory(prefix="ipubench-xlsx-") as folder:
        target = os.path.join(folder, "rows.xml")
        copy = f"COPY ({sql}) TO $target {_copy_options()}"
        args = {**params, "target": target}
        if not hasattr(os, "mkfifo"):
            cur.execute(copy, args)
            with open(target, "rb") as f:
                yield f
            return
        os.mkfifo(target, 0o600)
        failed: list[BaseException] = []
        # Both ends opened here, before DuckDB runs: the pipe's end of file
        # then comes exactly when this write end is closed after the COPY,
        # whether DuckDB wrote every row, failed midway or never opened it.
        rfd = os.open(target, os.O_RDONLY | os.O_NONBLOCK)
        keep = os.open(target, os.O_WRONLY)
        os.set_blocking(rfd, True)

        def write() -> None:
            try:
                cur.execute(copy, args)
            except BaseException as exc:  # handed to the reader below
                failed.append(exc)
            finally:
                os.close(keep)

        writer = threading.Thread(target=write, name="xlsx-rows", daemon=True)
        writer.start()
        f = os.fdopen(rfd, "rb")
        _widen(f)
        try:
            yield f
        finally:
            f.close()  # a writer still writing gets EPIPE and stops
            writer.join()
        if failed:
            raise failed[0]


def _widen(pipe: BinaryIO) -> None:
    """A pipe of 1 MB where the system allows it (Linux; 64 kB otherwise):
    fewer turns between the two threads for the same bytes."""
    try:
        import fcntl

        fcntl.fcntl(pipe.fileno(), getattr(fcntl, "F_SETPIPE_SZ", 1031), _BLOCK)
    except (ImportError, OSError):
        pass


def write_xlsx(
    cur: duckdb.DuckDBPyConnection,
    query: Query,
    path: Path,
    headers: list[str],
    atomic: Callable[[Path, Callable[[str], object]], Path],
) -> int:
    """Write ``query``'s rows under ``headers`` to ``path`` through ``atomic``
    (the store's atomic writer); return the number of rows."""
    types = [str(t) for t in cur.sql(query.sql, params=query.params).types]
    written = 0

    def save(tmp: str) -> None:
        nonlocal written
        with _rows_stream(cur, rows_sql(query, types), query.params) as stream:
            written = _write_workbook(tmp, _header_xml(headers), _rows(stream))

    atomic(path, save)
    return written


def write_rows_xlsx(
    rows: Iterable[Sequence[object]],
    path: Path,
    headers: Sequence[str],
    atomic: Callable[[Path, Callable[[str], object]], Path],
    notes: Sequence[str] = (),
) -> int:
    """Write ``rows`` held in Python (a small table) under ``headers`` (then
    ``notes``, a line each, after a blank row) to ``path`` through
    ``atomic``; return the number of rows."""
    body: list[str] = []
    n = 0
    for n, r in enumerate(rows, start=1):
        body.append(_line(f'<row r="{n + 1}">{"".join(cell_xml(v) for v in r)}</row>'))
    for k, line in enumerate(notes):
        body.append(_line(f'<row r="{n + 3 + k}">{_text_cell(line)}</row>'))
    data = "".join(body).encode()
    atomic(path, lambda tmp: _write_workbook(tmp, _header_xml(headers), [data]))
    return n
