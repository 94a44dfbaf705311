"""The .xlsx writer: DuckDB writes the sheet XML of stored rows, Python that
of headers and small tables, and both give the same bytes; what openpyxl reads
back is each value as stored (text as text, blanks in their place), a table
longer than a sheet goes on in further sheets, and a failing query ends with a
message and no file."""

from __future__ import annotations

import re
from datetime import date, datetime
from pathlib import Path
from zipfile import ZipFile

import duckdb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ipubench_gui.domain.files import ExportError
from ipubench_gui.store.db import Query
from ipubench_gui.store.export import export_xlsx
from ipubench_gui.store.export.export import atomic_write_binary
from ipubench_gui.store.export.export_xlsx import write_rows_xlsx, write_xlsx
from tests.conftest import examples

# What XML cannot hold (C0 controls but tab, LF, CR; U+FFFE, U+FFFF) reads
# back as U+FFFD; a literal "_x0041_" keeps its underscore escaped (Excel
# reads the escape back as "_"; openpyxl leaves it as written).
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def read_back(text: str) -> str:
    return re.sub("_(x[0-9A-Fa-f]{4}_)", r"_x005F_\1", NOT_XML.sub("\ufffd", text))


HOSTILE = [
    "=1+1",
    " lead",
    "trail ",
    "\tboth\n",
    "a\r\nb",
    "x\x01y\x02z\x03",
    "\x02\x02",
    "_x0041_",
    "a]]>b",
    "<b>&amp;</b>",
    "\ufffe\uffff",
    "<!--next sheet-->",
    "",
    "é漢😀",
]
texts = st.one_of(
    st.sampled_from(HOSTILE),
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=12),
    st.text(st.sampled_from(" \t\r\n\x00\x01\x02_x0A]>&<"), max_size=8),
)


def _table(con: duckdb.DuckDBPyConnection, values: list[str | None]) -> Query:
    con.execute("CREATE OR REPLACE TABLE t (k INTEGER, s VARCHAR)")
    con.executemany("INSERT INTO t VALUES (?, ?)", list(enumerate(values)))
    return Query("SELECT k, s FROM t ORDER BY k", {})


def _sheets(path: Path) -> dict[str, bytes]:
    with ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist() if n.startswith("xl/worksheets/")}


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.one_of(st.none(), texts), min_size=1, max_size=12))
def test_duckdb_and_python_write_the_same_sheet(tmp_path_factory, values):
    from openpyxl import load_workbook

    tmp = tmp_path_factory.mktemp("x")
    con = duckdb.connect()
    q = _table(con, values)
    heads = ["=k", " s "]
    n = write_xlsx(con.cursor(), q, tmp / "sql.xlsx", heads, atomic_write_binary)
    rows = con.execute(q.sql).fetchall()
    write_rows_xlsx(rows, tmp / "py.xlsx", heads, atomic_write_binary)
    assert n == len(values)
    assert _sheets(tmp / "sql.xlsx") == _sheets(tmp / "py.xlsx")

    ws = load_workbook(tmp / "sql.xlsx", read_only=True)["results"]
    got = list(ws.iter_rows(values_only=True))
    assert got[0] == ("=k", " s ")
    assert [r[1] for r in got[1:]] == [
        None if v is None else read_back(v) for v in values
    ]


def test_each_type_reads_back_as_stored_and_blanks_keep_their_place(tmp_path):
    from openpyxl import load_workbook

    con = duckdb.connect()
    q = Query(
        "SELECT * FROM (VALUES "
        "(1, 2.5::DOUBLE, 'a', true, DATE '2024-02-29', 7::BIGINT, 1.25::DECIMAL(9,2)),"
        "(2, NULL, NULL, NULL, NULL, NULL, NULL),"
        "(3, 'inf'::DOUBLE, '=SUM(A1)', false, DATE '1999-12-31', -1, 0),"
        "(4, '-inf'::DOUBLE, NULL, NULL, NULL, NULL, NULL),"
        "(5, 'nan'::DOUBLE, 'z', NULL, NULL, NULL, NULL),"
        "(6, 1e300, NULL, NULL, NULL, NULL, NULL)) t(a, b, c, d, e, f, g) ORDER BY a",
        {},
    )
    out = tmp_path / "t.xlsx"
    heads = ["A", "B", "C", "D", "E", "F", "G"]
    assert write_xlsx(con.cursor(), q, out, heads, atomic_write_binary) == 6
    ws = load_workbook(out).active
    rows = [[c.value for c in r] for r in ws.iter_rows()]
    assert rows[0] == heads
    assert rows[1] == [1, 2.5, "a", True, datetime(2024, 2, 29), 7, 1.25]
    assert rows[2] == [2, None, None, None, None, None, None]
    assert rows[3] == [3, "inf", "=SUM(A1)", False, datetime(1999, 12, 31), -1, 0]
    assert rows[4][:3] == [4, "-inf", None]
    assert rows[5][:3] == [5, "NaN", "z"]
    assert rows[6][1] == 1e300
    cells = list(ws.iter_rows())
    assert cells[3][2].data_type == "s"  # text, never a formula
    assert cells[1][4].number_format == "yyyy-mm-dd"
    assert (datetime(2024, 2, 29).date() - date(1899, 12, 30)).days == 45351
    assert b"<v>45351</v>" in _sheets(out)["xl/worksheets/sheet1.xml"]


def test_a_table_longer_than_a_sheet_goes_on_in_further_sheets(tmp_path, monkeypatch):
    from openpyxl import load_workbook

    # a sheet of 3 rows stands for Excel's 1,048,575 (the same code path)
    monkeypatch.setattr(export_xlsx, "XLSX_MAX_ROWS", 3)
    con = duckdb.connect()
    q = _table(con, [f"v{i}" for i in range(7)])
    out = tmp_path / "t.xlsx"
    assert write_xlsx(con.cursor(), q, out, ["k", "s"], atomic_write_binary) == 7
    wb = load_workbook(out)
    assert wb.sheetnames == ["results", "results (2)", "results (3)"]
    got = {
        name: [list(r) for r in wb[name].iter_rows(values_only=True)]
        for name in wb.sheetnames
    }
    assert got["results"] == [["k", "s"], [0, "v0"], [1, "v1"], [2, "v2"]]
    assert got["results (2)"] == [["k", "s"], [3, "v3"], [4, "v4"], [5, "v5"]]
    assert got["results (3)"] == [["k", "s"], [6, "v6"]]


def test_a_query_failing_midway_leaves_no_file_and_no_thread(tmp_path):
    import threading

    con = duckdb.connect()
    q = Query(
        "SELECT CAST(CASE WHEN i < 50000 THEN '1' ELSE 'x' END AS INTEGER) AS n "
        "FROM range(100000) t(i)",
        {},
    )
    out = tmp_path / "t.xlsx"
    with pytest.raises(ExportError) as err:
        write_xlsx(con.cursor(), q, out, ["n"], atomic_write_binary)
    assert str(err.value).startswith(f"cannot write {out}: ")
    assert "Could not convert string 'x'" in str(err.value)
    assert list(tmp_path.iterdir()) == []
    assert not [t for t in threading.enumerate() if t.name == "xlsx-rows"]
    # the connection is still usable
    assert con.execute("SELECT 42").fetchall() == [(42,)]


def test_a_copy_failing_before_it_opens_the_pipe_ends_the_read(monkeypatch):
    """DuckDB giving up before it opens the pipe (a missing table, an
    interrupt), even before the reading side has opened it, never leaves the
    reader waiting on the pipe: the read ends and DuckDB's error is raised."""
    import threading

    class WriterFirst(threading.Thread):
        def start(self) -> None:  # the race made certain: the COPY ends first
            super().start()
            self.join(5)

    monkeypatch.setattr(export_xlsx.threading, "Thread", WriterFirst)
    con = duckdb.connect()
    raised: list[BaseException] = []

    def read() -> None:
        try:
            with export_xlsx._rows_stream(con.cursor(), "SELECT * FROM gone", {}) as f:
                f.read()
        except BaseException as exc:
            raised.append(exc)

    t = threading.Thread(target=read, daemon=True)
    t.start()
    t.join(60)  # a bound on a hang, not a measure of speed
    assert not t.is_alive(), "the read is still waiting on its pipe"
    assert len(raised) == 1 and isinstance(raised[0], duckdb.CatalogException)
