"""Refusals in the user's words: what is wrong and what to do, with the
engine's own text kept after it (for a bug report), never the engine's text
alone ("TProtocolException: Invalid data") nor a traceback."""

from __future__ import annotations

import os

import duckdb

from tests.conftest import run_cli


def _parquet(tmp_path):
    ok = tmp_path / "ok.parquet"
    with duckdb.connect() as c:
        c.execute(
            "COPY (SELECT 'm' AS model, 1.5 AS throughput, 'images/s' AS unit "
            f"FROM range(1000)) TO '{ok}'"
        )
    return ok.read_bytes()


def test_a_damaged_parquet_file_is_said_as_such(tmp_path, _isolated_home):
    data = _parquet(tmp_path)
    flipped = bytearray(data)
    for i in range(100, 400):
        flipped[i] ^= 0x55
    cases = {
        "cut.parquet": data[: len(data) // 2] + data[-8:],
        "flipped.parquet": bytes(flipped),
    }
    for name, content in cases.items():
        (tmp_path / name).write_bytes(content)
        p = run_cli("import", str(tmp_path / name), home=_isolated_home)
        assert p.returncode == 1 and "Traceback" not in p.stderr
        assert p.stderr.startswith(
            f"error: {name}: cannot be read: a damaged or cut-short Parquet file "
            "— export it again from where it came (DuckDB: "
        ), p.stderr


def test_a_name_that_is_not_text_is_named_with_the_fix(tmp_path, _isolated_home):
    odd = tmp_path / os.fsdecode(b"caf\xe9.csv")
    odd.write_text("model,throughput,unit\nm,1,x/s\n")
    p = run_cli("import", str(odd), home=_isolated_home)
    assert p.returncode == 1 and "Traceback" not in p.stderr
    assert "its name is not UTF-8 text — rename the file" in p.stderr
    assert "surrogate" not in p.stderr


def test_utf16_without_a_byte_order_mark_is_read(tmp_path, _isolated_home):
    f = tmp_path / "u16.csv"
    f.write_bytes("model,throughput,unit\nm,1,images/s\n".encode("utf-16-le"))
    p = run_cli(
        "import",
        str(f),
        "--encoding",
        "utf-16",
        "--map",
        "model=model",
        "--map",
        "throughput=value",
        "--map",
        "unit=unit",
        "--metric",
        "throughput",
        home=_isolated_home,
    )
    assert p.returncode == 0, p.stderr
    assert "imported 1 row as " in p.stdout
