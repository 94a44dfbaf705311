"""MLPerf rows in the store: every official result next to the vendor's rows,
one row per result, exported with the columns scripts rely on."""

from __future__ import annotations

import csv

from tests.conftest import DATA, run_cli

KEPT = (
    "mlperf_round",
    "submitter",
    "system_id",
    "mlperf_benchmark",
    "division",
    "availability",
)


def _read(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_export_results_has_every_mlperf_row(tmp_path, _isolated_home):
    out = tmp_path / "all.csv"
    p = run_cli("export-results", str(out), home=_isolated_home)
    assert p.returncode == 0, p.stderr
    got = {
        tuple(r[k] for k in KEPT): r
        for r in _read(out)
        if r["mlperf_round"] and r["task"] == "training"
    }
    official = _read(DATA / "mlperf_training.csv")
    assert len(got) == len(official)
    for row in official:
        exported = got[tuple(row[k] for k in KEPT)]
        assert exported["unit"] == "min"
        if row["value"]:
            assert float(exported["value"]) == float(row["value"])
        else:  # missing logs or no score: listed, never invented
            assert (
                exported["value"] == "" and exported["mlperf_status"] == row["status"]
            )
        assert exported["path"] == row["path"] and exported["commit"] == row["commit"]


def test_a_vendor_figure_citing_mlperf_shares_the_official_row(db):
    seeds = [
        r
        for r in _read(DATA / "results.csv")
        if r["mlperf_id"] and r["metric"] == "time_to_train"
    ]
    assert len(seeds) == 11
    official = {r["path"]: r for r in _read(DATA / "mlperf_training.csv")}
    cur = db.cursor()
    for seed in seeds:
        rows = cur.execute(
            "SELECT result_id, value, path, source, vendor_value_as_printed, "
            "sources_agree, submitter FROM results_v WHERE mlperf_id = $id",
            {"id": seed["mlperf_id"]},
        ).fetchall()
        assert len(rows) == 1, seed["mlperf_id"]  # one result, one row
        rid, value, path, source, printed, agree, submitter = rows[0]
        assert rid == seed["result_id"] and submitter == "Graphcore"
        assert source == "MLPerf (official logs) + vendor page"
        assert printed == seed["value_as_printed"]
        assert value == float(official[path]["value"])
        logs = f"{float(official[path]['value']):.2f}"
        if logs == f"{float(seed['value']):.2f}":
            assert agree == "agrees"
        else:  # e.g. 2.0-2045: the page prints 20.66, the logs give 20.65
            assert agree == (
                f"differs: the vendor page prints {seed['value_as_printed']}, "
                f"the logs give {logs}"
            )
    flagged = cur.execute(
        "SELECT mlperf_id FROM results_v WHERE sources_agree LIKE 'differs%' ORDER BY 1"
    ).fetchall()
    assert flagged == [("2.0-2045",), ("2.0-2053",)]


def test_ipu_results_under_another_submitter_are_found_by_accelerator(db):
    rows = (
        db.cursor()
        .execute(
            "SELECT DISTINCT submitter FROM results_v "
            "WHERE mlperf_round = '2.0' AND generation = 'Bow'"
        )
        .fetchall()
    )
    assert sorted(rows) == [("Baidu",), ("Graphcore",)]


def test_source_facet_counts(db):
    official = _read(DATA / "mlperf_training.csv")
    got = dict(
        db.cursor()
        .execute("SELECT source, sum(n) FROM facet_cube GROUP BY 1")
        .fetchall()
    )
    assert got["MLPerf (official logs)"] + got[
        "MLPerf (official logs) + vendor page"
    ] == len(official)
    assert got["Vendor page"] == len(_read(DATA / "results.csv")) - 11
