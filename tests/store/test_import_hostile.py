"""Imports a hostile user would try: out-of-range numbers, huge cells, files
DuckDB's sniffer cannot read, odd column names. Each gets a message whose
first line says what is wrong (naming the file, row and column), and the
store is unchanged."""

from __future__ import annotations

import json
import os
import re
from dataclasses import replace
from pathlib import Path

import duckdb
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from ipubench_gui.domain.import_spec import ImportSpec
from ipubench_gui.store.user import import_read, importer
from ipubench_gui.store.user.import_read import ImportFailed
from tests.conftest import examples
from tests.store.conftest import open_test_combined

COLUMNS = {
    "model": "model",
    "value": "value",
    "batch_size": "batch_size",
    "accelerators": "accelerators",
    "latency_ms": "latency_ms",
}
CONSTANTS = {"metric": "throughput", "unit": "items/s"}


@pytest.fixture(scope="module")
def combined(tmp_path_factory, store_path):
    db = open_test_combined(tmp_path_factory.mktemp("hostile"), store_path)
    yield db
    db.close()


def _store(db) -> tuple[int, int]:
    return (
        db.cursor()
        .execute(
            "SELECT (SELECT count(*) FROM user_results_v), "
            "(SELECT count(*) FROM u.imports)"
        )
        .fetchone()
    )


def _refused(db, spec: ImportSpec) -> str:
    """Import ``spec``, expecting a refusal; the message, with the store checked
    unchanged."""
    before = _store(db)
    with pytest.raises(ImportFailed) as err:
        importer.import_file(db.cursor(), spec)
    assert _store(db) == before
    return str(err.value)


def _one_row(tmp_path: Path, field: str, cell: str) -> ImportSpec:
    row = {"model": "m", "value": "100", "batch_size": "", "accelerators": ""}
    row[field] = cell
    p = tmp_path / "b.csv"
    p.write_text(",".join(row) + "\n" + ",".join(row.values()) + "\n")
    cols = {k: v for k, v in COLUMNS.items() if k in row}
    return ImportSpec(p, cols, CONSTANTS)


@pytest.mark.parametrize(
    ("field", "cell", "reason"),
    [
        *[
            (
                "batch_size",
                c,
                "not a batch size (a whole number from 1 to 2,147,483,647)",
            )
            for c in ("NaN", "inf", "1e309", "2147483648", "3e9", "1.5", "-inf", "0")
        ],
        *[
            (
                "accelerators",
                c,
                "not a number of accelerators (a whole number from 1 to 2,147,483,647)",
            )
            for c in ("NaN", "inf", "1e300", "1.5", "-2")
        ],
        *[
            ("value", c, "must be a positive finite number below 1e15")
            for c in ("NaN", "inf", "1e309", "-inf", "1e16")
        ],
    ],
)
def test_out_of_range_numbers_are_refused_by_row_and_column(
    combined, tmp_path, field, cell, reason
):
    msg = _refused(combined, _one_row(tmp_path, field, cell))
    assert msg.splitlines()[0] == "b.csv: 1 problem(s); nothing was imported."
    assert msg.splitlines()[1] == f"  row 1, column '{field}': {reason}: '{cell}'" or (
        msg.splitlines()[1] == f"  row 1, column '{field}': {reason}, got '{cell}'"
    )


def test_largest_whole_numbers_land(combined, tmp_path):
    spec = _one_row(tmp_path, "batch_size", "2147483647")
    assert importer.import_file(combined.cursor(), spec).landed == 1
    got = combined.scalar(
        "SELECT batch_size FROM user_results_v ORDER BY source_id DESC LIMIT 1"
    )
    assert got == 2**31 - 1


@pytest.mark.parametrize(
    ("constants", "shown"),
    [
        ({"accelerators": "inf"}, "accelerators = 'inf'"),
        ({"batch_size": "3e9"}, "batch_size = '3e9'"),
        ({"nodes": "NaN"}, "nodes = 'NaN'"),
    ],
)
def test_a_bad_value_for_every_row_is_named_once(combined, tmp_path, constants, shown):
    spec = _one_row(tmp_path, "model", "m")
    msg = _refused(combined, replace(spec, constants={**CONSTANTS, **constants}))
    assert msg.startswith(f"not a valid value for every row: {shown} ")
    assert len(msg.splitlines()) == 1


def test_json_out_of_range_batch_is_refused(combined, tmp_path):
    p = tmp_path / "j.json"
    p.write_text(json.dumps([{"model": "m", "value": 100, "batch_size": 3e9}]))
    msg = _refused(
        combined,
        ImportSpec(
            p,
            {"model": "model", "value": "value", "batch_size": "batch_size"},
            CONSTANTS,
        ),
    )
    assert "row 1, column 'batch_size': not a batch size" in msg


def test_a_megabyte_of_digits_is_refused_quickly_and_quoted_short(combined, tmp_path):
    # DuckDB's sniffer took > 180 s on this cell; the message echoed all of it.
    msg = _refused(combined, _one_row(tmp_path, "value", "9" * 1_000_000))
    line = msg.splitlines()[1]
    quoted = re.search(r"got '([^']*)'", line)[1]
    assert quoted == "9" * 79 + "…"
    assert len(msg) < 300


@pytest.mark.parametrize(
    ("data", "first_line"),
    [
        (
            b"model,value,unit\nM\xfcller,1,x/s\n",
            "b.csv: not utf-8 text (line 2) — choose an encoding",
        ),
        (
            "model,value\nm,1\n".encode("utf-16"),
            "b.csv: the file is UTF-16 text, not UTF-8 — choose the encoding utf-16",
        ),
        (
            b"model,value,unit,a,b\nm,1,x\n",
            "b.csv: cannot be read: 3 columns on line 2, 5 in the header",
        ),
        (
            b"model,value\nm,1\nm,2,3,4\n",
            "b.csv: cannot be read: more columns on line 3 than the 2 in the header",
        ),
        (
            b'model,value\n"m,1\nm,2\n',
            "b.csv: cannot be read: a quoted value opened on line 2 is never closed",
        ),
        (
            b"model,value\r\nm,1\nm,2\r",
            "b.csv: cannot be read: not readable as CSV: mixed line endings",
        ),
        (bytes(range(256)) * 4, "b.csv: the file holds binary data (NUL bytes)"),
        (b"\n\nmodel,value\n", "b.csv: the first line is blank"),
        (b"model,value\n", "b.csv: has a header but no data rows"),
    ],
)
def test_unreadable_csvs_say_what_is_wrong_first(combined, tmp_path, data, first_line):
    p = tmp_path / "b.csv"
    p.write_bytes(data)
    msg = _refused(
        combined, ImportSpec(p, {"model": "model", "value": "value"}, CONSTANTS)
    )
    assert msg.splitlines()[0].startswith(first_line), msg


def test_utf16_reads_when_chosen(combined, tmp_path):
    p = tmp_path / "u.csv"
    p.write_bytes("model,value\nÉcole,7\n".encode("utf-16"))
    spec = ImportSpec(
        p, {"model": "model", "value": "value"}, CONSTANTS, encoding="utf-16"
    )
    assert importer.import_file(combined.cursor(), spec).landed == 1
    assert (
        combined.scalar("SELECT model FROM user_results_v WHERE source_file = 'u.csv'")
        == "École"
    )


def test_a_column_named_rowid_keeps_the_file_row_numbers(combined, tmp_path):
    p = tmp_path / "r.csv"
    p.write_text("rowid,model,value\nx,a,1\ny,b,2\nz,c,3\n")
    spec = ImportSpec(p, {"model": "model", "value": "value"}, CONSTANTS)
    importer.import_file(combined.cursor(), spec)
    rows = (
        combined.cursor()
        .execute(
            'SELECT "row", model FROM user_results_v WHERE source_file = $f ORDER BY 1',
            {"f": p.name},
        )
        .fetchall()
    )
    assert rows == [(1, "a"), (2, "b"), (3, "c")]
    p.write_text("model,value,batch\nq,1,1\nq,2,x\n")
    spec = ImportSpec(
        p, {"model": "model", "value": "value", "batch_size": "batch"}, CONSTANTS
    )
    p2 = tmp_path / "r2.csv"
    p2.write_text("rowid,model,value,batch\n7,q,1,1\n8,q,2,x\n")
    msg = _refused(combined, replace(spec, path=p2))
    assert "row 2, column 'batch'" in msg


def test_a_column_named_like_our_own_is_refused(combined, tmp_path):
    p = tmp_path / "w.csv"
    p.write_text("__row,model,value\n1,a,1\n")
    msg = _refused(
        combined, ImportSpec(p, {"model": "model", "value": "value"}, CONSTANTS)
    )
    assert msg == (
        "w.csv: column '__row' has a name this app uses itself; rename it in the file"
    )


def test_ten_thousand_columns_preview_and_import(combined, tmp_path):
    p = tmp_path / "wide.csv"
    header = ",".join(f"c{i}" for i in range(10_000))
    rows = (",".join(["7"] * 9_999 + [str(i + 1)]) for i in range(5))
    p.write_text(header + "\n" + "\n".join(rows) + "\n")
    prev = import_read.preview(combined.cursor(), p)
    assert len(prev.columns) == 500 and prev.columns[-1] == "c499"
    spec = ImportSpec(p, {"model": "c0", "value": "c9999"}, CONSTANTS)
    assert importer.import_file(combined.cursor(), spec).landed == 5
    missing = _refused(
        combined, ImportSpec(p, {"model": "c0", "value": "nope"}, CONSTANTS)
    )
    assert missing.startswith("wide.csv: no column called 'nope'; the file has 'c0'")
    assert "and 9988 more" in missing and len(missing) < 400


def test_pipes_and_devices_are_refused(combined, tmp_path):
    fifo = tmp_path / "f.csv"
    os.mkfifo(fifo)
    msg = _refused(combined, ImportSpec(fifo, {"value": "v"}, CONSTANTS))
    assert msg.endswith("is not a regular file (a device or a pipe?)")


def test_cli_refuses_one_field_from_two_columns(capsys):
    from ipubench_gui.cli import main

    code = main(["import", "x.csv", "--map", "X=value", "--map", "Y=value"])
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith(
        "error: --map 'Y=value': field 'value' is already read from column 'X'"
    )


# -- property: any malformed file gets a message, never a traceback --
NASTY = st.sampled_from(
    [
        "",
        "1",
        "7",
        "2500",
        "1,260,000",
        "0.58 ms",
        "-3",
        "0",
        "NaN",
        "inf",
        "-inf",
        "1e309",
        "3e9",
        "2147483648",
        "1.5",
        "abc",
        '"',
        "'",
        "\r",
        "\n",
        "\r\n",
        "=1+1",
        "@SUM(A1)",
        "+cmd",
        "\t",
        "23h 43m",
        "😀",
        "\x00",
        "é",
        "9" * 500,
        ",",
        ";",
        "||",
        "NULL",
        "true",
        " 7 ",
        "0x10",
        "1_000",
    ]
)
CELL = st.one_of(NASTY, st.text(max_size=8))
HEADER = list(COLUMNS)


def _csv_bytes(draw_rows, delim: str, newline: str, extra: bool) -> bytes:
    lines = [delim.join(HEADER)]
    for r in draw_rows:
        cells = [
            '"' + c.replace('"', '""') + '"'
            if any(ch in c for ch in (delim, '"', "\n", "\r"))
            else c
            for c in r
        ]
        lines.append(delim.join(cells))
    text = newline.join(lines) + ("\n" if extra else "")
    return text.encode("utf-8", "surrogatepass")


@st.composite
def malformed_file(draw):
    kind = draw(st.sampled_from(["csv", "csv", "json", "parquet", "raw"]))
    row = st.one_of(
        st.lists(CELL, min_size=5, max_size=5), st.lists(CELL, min_size=1, max_size=7)
    )
    rows = draw(st.lists(row, max_size=5))
    if kind == "csv":
        data = _csv_bytes(
            rows,
            draw(st.sampled_from([",", ";", "\t"])),
            draw(st.sampled_from(["\n", "\r\n", "\r"])),
            draw(st.booleans()),
        )
        if draw(st.booleans()) and data:  # cut anywhere, or a stray byte
            cut = draw(st.integers(0, len(data)))
            data = data[:cut] + draw(st.sampled_from([b"", b"\xff", b'"', b"\x00"]))
        return "csv", data
    if kind == "json":
        objs = [dict(zip(HEADER, r)) for r in rows]
        if draw(st.booleans()):  # numbers, as JSON writes them
            for o in objs:
                for k in ("value", "batch_size", "accelerators"):
                    try:
                        o[k] = float(o.get(k, ""))
                    except ValueError:
                        pass
        text = json.dumps(objs, allow_nan=True)
        if draw(st.booleans()) and text:
            text = text[: draw(st.integers(0, len(text)))]
        return "json", text.encode("utf-8", "surrogatepass")
    if kind == "parquet":
        return "parquet", rows  # written by DuckDB below
    return draw(st.sampled_from(["csv", "json", "parquet"])), draw(
        st.binary(max_size=64)
    )


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    return tmp_path_factory.mktemp("gen")


@pytest.mark.slow  # 1,000 files in CI: a few minutes
@settings(
    max_examples=examples(1000),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(case=malformed_file())
def test_any_malformed_file_gets_a_message_and_changes_nothing(combined, scratch, case):
    kind, data = case
    path = scratch / f"gen.{kind}"
    path.unlink(missing_ok=True)
    if isinstance(data, list):  # a Parquet file of the rows, as text columns
        con = duckdb.connect()
        width = min(max((len(r) for r in data), default=1), len(HEADER))
        cols = HEADER[:width] or ["model"]
        vals = [tuple((r + [None] * width)[:width]) for r in data] or [(None,)]
        con.execute(f"CREATE TABLE t ({', '.join(f'{c} VARCHAR' for c in cols)})")
        con.executemany(f"INSERT INTO t VALUES ({', '.join('?' * len(cols))})", vals)
        con.execute("COPY t TO $p (FORMAT parquet)", {"p": str(path)})
        con.close()
    else:
        path.write_bytes(data)
    before = _store(combined)
    try:
        res = importer.import_file(
            combined.cursor(), ImportSpec(path, COLUMNS, CONSTANTS)
        )
    except ImportFailed as exc:
        msg = str(exc)
        first = msg.splitlines()[0]
        event(f"{kind}: " + re.sub(r"\d+|'.*", "N", first.split(": ", 1)[-1])[:50])
        assert first.startswith(path.name + ":"), msg
        assert "Error:" not in first and "Traceback" not in msg
        for p in exc.problems:
            assert p.row is not None and p.row >= 1
        assert all(len(line) < 400 for line in msg.splitlines()), msg
        assert _store(combined) == before
    else:
        event(f"{kind}: landed")
        assert _store(combined)[0] == before[0] + res.landed
