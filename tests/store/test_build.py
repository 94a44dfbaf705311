"""Building the store from data/: counts, types, units, NULLs, and bad rows."""

from __future__ import annotations

import hashlib

import duckdb
import pytest

from ipubench_gui.store.bundled.build import (
    DataError,
    attach_bundled,
    build_store,
    fingerprint,
)
from ipubench_gui.store.db import Database
from tests.conftest import DATA, STORE_ROWS


def test_counts_match_the_csv_files(db, csv_rows):
    assert db.scalar("SELECT count(*) FROM results") == len(csv_rows) == 250
    # 248 printed rows; the two OGB rows each give throughput and time to train.
    assert db.scalar('SELECT count(DISTINCT ("table", "row")) FROM results') == 248
    assert db.scalar("SELECT count(*) FROM comparisons") == 16
    # No row lost in joins: vendor, NVIDIA reference and MLPerf rows all there.
    assert db.scalar("SELECT count(*) FROM results_v") == STORE_ROWS


def test_spot_values_from_the_seed_text(db):
    rows = dict(
        db.cursor()
        .execute("SELECT metric, value FROM results WHERE model = 'GPS++'")
        .fetchall()
    )
    assert rows == {"throughput": 17800.0, "time_to_train": 23 * 60 + 43}
    v = db.scalar(
        "SELECT value FROM results WHERE model = 'TransE (256)' "
        "AND metric = 'throughput'"
    )
    assert v == 1_260_000
    lat = db.scalar(
        "SELECT latency_ms FROM results WHERE model = 'ResNet-50v1.5' "
        "AND variant = 'lowest latency config' AND platform = 'Bow-2000'"
    )
    assert lat == 0.58
    mins = db.scalar("SELECT value FROM results WHERE mlperf_id = '2.0-2054'")
    assert mins == 2.67


def test_blank_cells_are_null(db):
    row = (
        db.cursor()
        .execute(
            "SELECT variant, dataset, batch_size, precision FROM results "
            "WHERE model = 'TGN' AND platform = '1x Bow IPU'"
        )
        .fetchone()
    )
    assert row == ("Temporal Graph Network", None, None, None)
    assert db.scalar("SELECT count(*) FROM results WHERE variant = ''") == 0
    assert db.scalar("SELECT count(*) FROM results WHERE latency_ms = 0") == 0
    # Unet inference rows print no latency: two per platform family.
    assert (
        db.scalar(
            "SELECT count(*) FROM results WHERE task = 'inference' "
            "AND latency_ms IS NULL"
        )
        == 4
    )


def test_units_and_directions(db):
    units = dict(
        db.cursor()
        .execute(
            "SELECT metric, list(DISTINCT unit ORDER BY unit) FROM results GROUP BY 1"
        )
        .fetchall()
    )
    assert units["time_to_train"] == ["min"]
    assert units["time_to_result"] == ["s"]
    assert set(units["throughput"]) == {"items/s", "graphs/s", "triples/s", "frames/s"}
    hib = dict(
        db.cursor().execute("SELECT metric, higher_is_better FROM metrics").fetchall()
    )
    assert hib == {
        "throughput": True,
        "latency": False,
        "time_to_train": False,
        "time_to_result": False,
    }


def test_types_of_normalised_columns(db):
    types = {r[0]: r[1] for r in db.cursor().execute("DESCRIBE results_v").fetchall()}
    assert types["batch_size"] == "INTEGER"
    assert types["value"] == "DOUBLE"
    assert types["accelerators"] == "INTEGER"
    assert types["source_date"] == "DATE"


def test_derived_fields(db):
    r = (
        db.cursor()
        .execute(
            "SELECT activation_bits, weight_bits, sdk_sort, accelerators, "
            "throughput_per_accelerator FROM results_v WHERE model = 'EfficientNet-B4' "
            "AND platform = 'IPU-POD16' AND framework = 'PyTorch'"
        )
        .fetchone()
    )
    assert r == (16, 32, 20400, 16, 4311 / 16)
    order = [
        x[0]
        for x in db.cursor()
        .execute(
            "SELECT DISTINCT sdk_version, sdk_sort FROM results_v ORDER BY sdk_sort"
        )
        .fetchall()
    ]
    assert order == [
        "SDK 2.3.0",
        "SDK 2.4.0",
        "SDK 2.5.1",
        "SDK 3.0",
        "SDK 3.1",
        "SDK 3.2",
        "SDK 3.3",
        None,  # NVIDIA's published figures, MLPerf results: no IPU SDK
    ]


def test_scaling_efficiency_view(db):
    # ResNet-50 TF1 on Classic: M2000 (4 IPUs) 7,864 -> POD256 365,040.
    eff = db.scalar(
        "SELECT scaling_efficiency FROM scaling_v WHERE model = "
        "'ResNet-50 v1.5' AND platform = 'IPU-POD256'"
    )
    assert eff == pytest.approx((365040 / 256) / (7864 / 4))


def test_opening_never_modifies_the_store_or_data(store_path):
    before = hashlib.sha256(store_path.read_bytes()).hexdigest()
    data_before = fingerprint(DATA)
    d = Database.open(store_path)
    d.run(
        __import__("ipubench_gui.store.query.queries", fromlist=["x"]).count(
            __import__("ipubench_gui.domain.filters", fromlist=["x"]).FilterState()
        )
    )
    with pytest.raises(duckdb.Error):
        d.cursor().execute("DELETE FROM results")
    d.close()
    assert hashlib.sha256(store_path.read_bytes()).hexdigest() == before
    assert fingerprint(DATA) == data_before


def test_attach_bundled_reuses_then_rebuilds_on_change(data_copy, tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir()

    def attach():
        con = duckdb.connect()
        path = attach_bundled(con, data_copy, cache)
        n = con.execute("SELECT count(*) FROM b.results").fetchone()[0]
        extra = con.execute(
            "SELECT count(*) FROM b.platforms WHERE platform = 'Test Pod2'"
        ).fetchone()[0]
        con.close()
        return path, n, extra

    first, n, _ = attach()
    built = first.stat().st_mtime_ns
    again, _, _ = attach()
    assert again == first and first.stat().st_mtime_ns == built  # reused
    assert n == 250
    with open(data_copy / "platforms.csv", "a") as f:
        f.write("Test Pod2,Graphcore,Bow,Bow IPU,2,pod,\n")
    second, _, extra = attach()
    assert second != first and second.exists() and extra == 1  # rebuilt


def _replace_line(path, lineno, old, new):
    lines = path.read_text().splitlines(keepends=True)
    assert old in lines[lineno - 1], lines[lineno - 1]
    lines[lineno - 1] = lines[lineno - 1].replace(old, new, 1)
    path.write_text("".join(lines))


@pytest.mark.parametrize(
    ("old", "new", "column", "reason"),
    [
        (",54784,16.16,", ",54x84,16.16,", "batch_size", "cannot read '54x84'"),
        (",6044,items/s,", ",-6044,items/s,", "value", "positive"),
        (",Bow Pod16,SDK 3.1,", ",Bow Pod17,SDK 3.1,", "platform", "platforms.csv"),
        (",PopART,Wikipedia,", ",PopART, Wikipedia,", "dataset", "spaces"),
        (",training,BERT Large,", ",training,,", "model", "blank"),
        (",54784,16.16,", ",54784,16-16,", "precision", "16.16"),
    ],
)
def test_bad_row_names_file_line_column_reason(
    data_copy, tmp_path, old, new, column, reason
):
    path = data_copy / "results.csv"
    lineno = next(
        i
        for i, ln in enumerate(path.read_text().splitlines(), 1)
        if ",6044,items/s," in ln
    )
    _replace_line(path, lineno, old, new)
    out = tmp_path / "s.duckdb"
    with pytest.raises(DataError) as err:
        build_store(data_copy, out)
    e = err.value
    assert (e.file.name, e.line, e.column) == ("results.csv", lineno, column), str(e)
    assert reason in e.reason
    assert "results.csv" in str(e) and f"line {lineno}" in str(e)
    assert not out.exists() and list(tmp_path.glob(".build-*")) == []


def test_duplicate_id_is_reported_with_both_lines(data_copy, tmp_path):
    path = data_copy / "results.csv"
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines + [lines[5]]))
    with pytest.raises(
        DataError, match=r"duplicate result_id .*first on line 6"
    ) as err:
        build_store(data_copy, tmp_path / "s.duckdb")
    assert err.value.line == len(lines) + 1


def test_header_mismatch_and_missing_file(data_copy, tmp_path):
    p = data_copy / "metrics.csv"
    p.write_text(p.read_text().replace("higher_is_better", "better", 1))
    with pytest.raises(DataError, match="header does not match"):
        build_store(data_copy, tmp_path / "a.duckdb")
    p.unlink()
    with pytest.raises(DataError, match="missing"):
        build_store(data_copy, tmp_path / "b.duckdb")
