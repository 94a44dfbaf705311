"""The metric vocabulary is data/metrics.csv, read with the standard library
here; the figure per chip, written once, gives the same answer in Python and
in DuckDB for any row (hypothesis)."""

from __future__ import annotations

import csv

import duckdb
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ipubench_gui.domain import metrics
from ipubench_gui.domain.per_chip import (
    TIME_WORDS,
    derived_as,
    per_chip,
    per_chip_select,
)
from tests.conftest import DATA


def test_the_vocabulary_is_the_file():
    with open(DATA / "metrics.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert metrics.NAMES == tuple(r["metric"] for r in rows)
    assert metrics.LOWER_IS_BETTER == {
        r["metric"] for r in rows if r["higher_is_better"] == "false"
    }
    assert [metrics.label(r["metric"]) for r in rows] == [r["label"] for r in rows]
    assert metrics.CHIP_TIMES == {"time_to_train", "time_to_result"}
    assert metrics.noun("time_to_train") == "time"
    assert metrics.label("no such metric") == "no such metric"


_rows = st.fixed_dictionaries(
    {
        "metric": st.sampled_from([*metrics.NAMES, "other"]),
        "value": st.none() | st.floats(-1e6, 1e6, allow_nan=False),
        "accelerators": st.none() | st.integers(0, 4096),
        "unit": st.sampled_from([*TIME_WORDS, "images/s", "x'y"]),
    }
)


@pytest.fixture(scope="module")
def con():
    return duckdb.connect()


@given(st.lists(_rows, max_size=8))
def test_per_chip_alike_in_python_and_sql(con, rows):
    con.execute(
        "CREATE OR REPLACE TABLE r (i INTEGER, metric VARCHAR, value DOUBLE, "
        "accelerators INTEGER, unit VARCHAR)"
    )
    for i, r in enumerate(rows):
        con.execute(
            "INSERT INTO r VALUES (?, ?, ?, ?, ?)",
            [i, r["metric"], r["value"], r["accelerators"], r["unit"]],
        )
    sql = f"SELECT i, value, unit, derived FROM ({per_chip_select('SELECT * FROM r')})"
    got = {i: rest for i, *rest in con.execute(sql).fetchall()}
    want = {}
    for i, r in enumerate(rows):
        p = per_chip(r)
        if p is not None:
            want[i] = [p["value"], p["unit"], derived_as(p)]
    assert got.keys() == want.keys()
    for i, (value, *words) in want.items():
        assert got[i][0] == pytest.approx(value) and got[i][1:] == words
