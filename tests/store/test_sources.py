"""Data sources as one place (store/bundled/sources.py): a new source is one entry."""

from __future__ import annotations

import duckdb
import pytest

from ipubench_gui.domain.filters import FilterState
from ipubench_gui.service import browse
from ipubench_gui.store.bundled import sources
from ipubench_gui.store.bundled.build import DataError, build_store
from ipubench_gui.store.bundled.sources import (
    NAMED_COLUMNS,
    DataSource,
    Rule,
    shown_rows,
)
from ipubench_gui.store.db import Database

# A made-up source: another vendor's published figures, in a file of its own.
TPU_CSV = (
    "figure_id,source_file,model,platform,framework,metric,value,unit\n"
    "tpu-1,tpu-page.html,resnet50,A100 40GB,TF2,throughput,1000,images/s\n"
    "tpu-2,tpu-page.html,BERT Large,A100 40GB,TF2,throughput,400,sequences/s\n"
    "tpu-3,tpu-page.html,resnet50,A100 40GB,TF2,training_steps,9,steps\n"
)
TPU = DataSource(
    "tpu_reference",
    "figure_id",
    (Rule("value", "value > 0", "value must be a positive number"),),
    schema="""CREATE TABLE tpu_reference (
        figure_id VARCHAR PRIMARY KEY, source_file VARCHAR NOT NULL,
        model VARCHAR NOT NULL, platform VARCHAR NOT NULL, framework VARCHAR,
        metric VARCHAR NOT NULL, value DOUBLE, unit VARCHAR NOT NULL)""",
    rows="""
    SELECT figure_id AS result_id, source_file, 'TPU page' AS "table",
           CAST(rowid + 1 AS INTEGER) AS "row", 'training' AS task, model,
           platform, framework, metric, value, unit
    FROM tpu_reference WHERE metric IN (SELECT metric FROM metrics)""",
    label="Published reference (TPU)",
    names=NAMED_COLUMNS,
    shown=lambda read: sum(
        1 for r in read("tpu_reference") if r["metric"] != "training_steps"
    ),
)


@pytest.fixture
def with_tpu(data_copy, monkeypatch):
    (data_copy / "tpu_reference.csv").write_text(TPU_CSV, encoding="utf-8")
    with open(data_copy / "sources.csv", "a", encoding="utf-8") as f:
        f.write("tpu-page.html,TPU figures,published reference,,not stated,\n")
    monkeypatch.setattr(sources, "SOURCES", (*sources.SOURCES, TPU))
    return data_copy


def test_a_new_source_is_one_registry_entry(with_tpu, tmp_path):
    """One DataSource (and its CSV): loaded, checked, shown as results with
    canonical names, in the Source kind facet, counted by the self-test."""
    before = shown_rows(with_tpu)
    db = Database.open(build_store(with_tpu, tmp_path / "s.duckdb"))
    try:
        got = (
            db.cursor()
            .execute(
                "SELECT result_id, model, model_as_printed, framework, source, "
                "vendor, unit_family FROM results_v WHERE source_file = "
                "'tpu-page.html' ORDER BY result_id"
            )
            .fetchall()
        )
        assert got == [
            (
                "tpu-1",
                "ResNet-50 v1.5",
                "resnet50",
                "TensorFlow 2",
                "Published reference (TPU)",
                "NVIDIA",  # the platform's, from data/platforms.csv
                "images/s",
            ),
            (
                "tpu-2",
                "BERT-Large",
                "BERT Large",
                "TensorFlow 2",
                "Published reference (TPU)",
                "NVIDIA",
                "sequences/s",
            ),
        ]
        counts = browse.facet_counts(db, FilterState())
        assert counts["source"]["Published reference (TPU)"] == 2
        total = db.scalar("SELECT count(*) FROM results_v")
        assert total == before  # the self-test's count follows the entry
        # the other sources' rows are all still there, in the same order
        with open(with_tpu / "results.csv", encoding="utf-8") as f:
            vendor = sum(1 for _ in f) - 1
        assert (
            db.scalar("SELECT count(*) FROM results_v WHERE source = 'Vendor page'")
            + db.scalar(
                "SELECT count(*) FROM results WHERE result_id IN "
                "(SELECT vendor_result_id FROM mlperf_training)"
            )
            == vendor
        )
    finally:
        db.close()
    assert shown_rows(with_tpu) == before


def test_a_new_sources_rules_name_the_file(with_tpu, tmp_path):
    bad = TPU_CSV.replace(",1000,", ",-5,")
    (with_tpu / "tpu_reference.csv").write_text(bad, encoding="utf-8")
    with pytest.raises(DataError) as err:
        build_store(with_tpu, tmp_path / "s.duckdb")
    assert "tpu_reference.csv, line 2, column value" in str(err.value)
    assert "value must be a positive number (got -5.0)" in str(err.value)


def test_the_shipped_sources_are_the_tables_built(store_path):
    con = duckdb.connect(str(store_path), read_only=True)
    try:
        tables = {
            r[0]
            for r in con.execute(
                "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main'"
            ).fetchall()
        }
    finally:
        con.close()
    assert {s.table for s in sources.SOURCES} <= tables
