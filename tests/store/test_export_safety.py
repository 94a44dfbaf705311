"""Exports a hostile file cannot turn into live formulas, and exports to odd
places (devices, pipes, links, a full disk) that end with a clear message."""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path

import duckdb
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ipubench_gui.domain.files import ExportError
from ipubench_gui.store.db import Query
from ipubench_gui.store.export import export
from ipubench_gui.store.export.export import (
    atomic_write_binary,
    inert,
    inert_sql,
)
from ipubench_gui.store.export.export_xlsx import write_xlsx
from tests.conftest import run_cli, small_disk

# Cells as an attacker (or an honest vendor table) writes them, and what a
# spreadsheet must be given: formulas made text, numbers and "-" as they are.
EVIL = {
    "=1+1": "'=1+1",
    "\r=1+1": "'\r=1+1",
    "@SUM(A1)": "'@SUM(A1)",
    "+cmd|' /c calc'!A0": "'+cmd|' /c calc'!A0",
    "-2+3+cmd|x": "'-2+3+cmd|x",
    "\t=2": "'\t=2",
    "-": "-",
    "-5": "-5",
    "+1.5e3": "+1.5e3",
    "plain": "plain",
}


@given(
    st.one_of(
        st.text(max_size=12),
        st.sampled_from(list(EVIL)),
        st.builds(lambda a, b: a + b, st.sampled_from("=+-@\t\r"), st.text(max_size=6)),
    )
)
def test_inert_is_the_same_rule_in_python_and_sql(text):
    got = duckdb.execute(f"SELECT {inert_sql('$t')}", {"t": text}).fetchall()[0][0]
    assert got == inert(text)


@pytest.mark.parametrize(("cell", "want"), list(EVIL.items()))
def test_inert_cells(cell, want):
    assert inert(cell) == want
    assert inert(12.5) == 12.5 and inert(None) is None


def _evil_home(tmp_path: Path) -> tuple[Path, Path]:
    """A user home holding an import of every EVIL cell as a model name."""
    home = tmp_path / "home"
    src = tmp_path / "evil.csv"
    with open(src, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["model", "throughput", "unit"])
        for i, cell in enumerate(EVIL):
            w.writerow([cell, 100 + i, "images/s"])
    p = run_cli(
        "import",
        str(src),
        "--map",
        "model=model",
        "--map",
        "throughput=value",
        "--map",
        "unit=unit",
        home=home,
    )
    assert p.returncode == 0, p.stderr
    return home, src


def _models(rows: list[list[str]], col: int) -> dict[str, str]:
    return {r[col + 1]: r[col] for r in rows[1:] if r[col + 1].startswith("1")}


def test_every_csv_writer_neutralises_formulas(tmp_path):
    home, _src = _evil_home(tmp_path)
    # export-results (DuckDB's writer)
    out = tmp_path / "all.csv"
    p = run_cli("export-results", str(out), home=home)
    assert p.returncode == 0, p.stderr
    raw = out.read_bytes()
    # A CR inside a cell is quoted, so no row of the file starts "=1+1".
    assert b'"\'\r=1+1"' in raw
    with open(out, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    head = rows[0]
    mine = [r for r in rows if r[head.index("source_file")] == "evil.csv"]
    got = {r[head.index("value")]: r[head.index("model")] for r in mine}
    assert got == {str(100 + i): want for i, want in enumerate(EVIL.values())}
    # numbers stay numbers (written bare, no apostrophe, no .0)
    assert all(r[head.index("row")].isdigit() for r in mine)

    # export-table (the filtered table, display headers)
    out = tmp_path / "t.csv"
    p = run_cli("export-table", str(out), "--filter", "source_file=evil.csv", home=home)
    assert p.returncode == 0, p.stderr
    with open(out, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert sorted(r["Model"] for r in rows) == sorted(EVIL.values())

    # compare --format csv (rows held in Python, the csv module's writer)
    ids = [r[head.index("result_id")] for r in mine]
    p = run_cli("compare", *ids, "--format", "csv", home=home)
    assert p.returncode == 0, p.stderr
    table = list(csv.reader(io.StringIO(p.stdout, newline="")))
    model_row = next(r for r in table if r[0].lower() == "model")
    # (run_cli reads text: a CR arrives as a LF, still inside its quotes)
    want = sorted(v.replace("\r", "\n") for v in EVIL.values())
    assert sorted(model_row[1 : len(EVIL) + 1]) == want


def test_xlsx_text_is_text_without_an_apostrophe_and_inf_is_a_word(tmp_path, db):
    from openpyxl import load_workbook

    q = Query(
        "SELECT * FROM (VALUES ('=1+1', 1.5::DOUBLE), ('-', 'inf'::DOUBLE), "
        "('@x', '-inf'::DOUBLE), ('a' || chr(1) || 'b', 'nan'::DOUBLE)) t(m, v)",
        {},
    )
    out = tmp_path / "t.xlsx"
    n = write_xlsx(db.cursor(), q, out, ["=Model", "Value"], atomic_write_binary)
    assert n == 4
    ws = load_workbook(out).active
    cells = list(ws.iter_rows())
    assert [c.value for c in cells[0]] == ["=Model", "Value"]
    assert all(c.data_type == "s" for c in cells[0])
    assert [(r[0].value, r[0].data_type) for r in cells[1:]] == [
        ("=1+1", "s"),
        ("-", "s"),
        ("@x", "s"),
        ("a\ufffdb", "s"),  # a control character Excel refuses
    ]
    assert [r[1].value for r in cells[1:]] == [1.5, "inf", "-inf", "NaN"]


# -- where exports go --
def test_devices_and_pipes_are_refused_and_left_alone(db, tmp_path):
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    for target in (Path("/dev/full"), Path("/dev/null"), fifo):
        with pytest.raises(ExportError) as err:
            export.export_results(db, target)
        assert str(err.value) == (
            f"cannot write {target}: it is a device or a pipe, not a regular file"
        )
    assert Path("/dev/full").is_char_device() and fifo.is_fifo()


def test_a_link_is_written_through_and_stays_a_link(db, tmp_path):
    real = tmp_path / "real.csv"
    real.write_text("old\n")
    link = tmp_path / "link.csv"
    link.symlink_to(real)
    n = export.export_results(db, link)
    assert link.is_symlink() and os.readlink(link) == str(real)
    with open(real, newline="", encoding="utf-8") as f:
        assert len(list(csv.reader(f))) == n + 1


# (openpyxl's own save left its ZipFile open: "Exception ignored in __del__")
@pytest.mark.filterwarnings("error::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.parametrize("name", ["all.csv", "all.parquet", "all.xlsx"])
def test_a_full_disk_gives_a_message_and_no_file(db, tmp_path, name):
    from ipubench_gui.domain.filters import FilterState

    with small_disk(tmp_path / "disk", "64k") as disk:
        (disk / "filler").write_bytes(b"x" * 60_000)
        out = disk / name
        with pytest.raises(ExportError) as err:
            if name.endswith(".csv"):
                export.export_results(db, out)
            else:
                export.export_table(db, FilterState(), out)
        assert str(err.value) == (
            f"cannot write {out}: No space left on device: free some space on "
            "that disk, or save elsewhere"
        )
        assert sorted(p.name for p in disk.iterdir()) == ["filler"]
