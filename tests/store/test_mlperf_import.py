"""import-mlperf: a results folder lands whole or not at all, scored by the same
code as the bundled rows; results already stored are reported, never doubled."""

from __future__ import annotations

import csv

from tests.conftest import DATA, run_cli
from tests.mlperf_trees import log, tree


def _exported(tmp_path, home) -> list[dict]:
    out = tmp_path / "all.csv"
    p = run_cli("export-results", str(out), home=home)
    assert p.returncode == 0, p.stderr
    with open(out, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_a_new_round_lands_once(tmp_path, _isolated_home):
    root = tree(tmp_path, [10, 20, 30, 40, 100])
    # a later round's benchmark this version does not know
    tree(tmp_path, [5] * 3, bench="llama31_8b", system_id="box16")
    p = run_cli("import-mlperf", str(root), home=_isolated_home)
    assert p.returncode == 0, p.stderr
    assert "imported 2 MLPerf results" in p.stdout
    rows = [
        r
        for r in _exported(tmp_path, _isolated_home)
        if r["mlperf_round"] and r["task"] == "training"
    ]
    new = {r["mlperf_benchmark"]: r for r in rows if r["mlperf_round"] == "9.9"}
    with open(DATA / "mlperf_training.csv", newline="", encoding="utf-8") as f:
        bundled = sum(1 for _ in csv.DictReader(f))
    assert len(rows) == bundled + 2  # every bundled MLPerf row, and ours
    assert float(new["resnet"]["value"]) == 30.0  # olympic mean of 20, 30, 40
    assert new["resnet"]["model"] == "ResNet-50 v1.5"
    assert new["resnet"]["accelerator_type"] == "H100"
    assert new["llama31_8b"]["model"] == "llama31_8b"  # kept under its own name
    assert new["resnet"]["system_id"] == "box8" and new["resnet"]["submitter"] == "Acme"
    again = run_cli("import-mlperf", str(root), home=_isolated_home)
    assert again.returncode == 0, again.stderr
    assert "0 new result(s), 2 already stored" in again.stdout
    assert "MLPerf results (source" not in again.stdout
    assert len(
        [
            r
            for r in _exported(tmp_path, _isolated_home)
            if r["mlperf_round"] and r["task"] == "training"
        ]
    ) == len(rows)


def test_problems_stop_the_import_unless_the_good_ones_are_asked_for(
    tmp_path, _isolated_home
):
    root = tree(tmp_path, [10, 20, 30, 40, 50])
    broken = log(10) + ':::MLLOG {"key": "eval_accuracy", "time_ms": \n'
    tree(tmp_path, [10] * 5, system_id="box16", r3=broken)
    p = run_cli("import-mlperf", str(root), home=_isolated_home)
    assert p.returncode == 1
    assert "box16/resnet/result_3.txt: line 5: not a valid MLLOG record" in p.stderr
    assert "Nothing was imported" in p.stderr
    assert not [
        r for r in _exported(tmp_path, _isolated_home) if r["mlperf_round"] == "9.9"
    ]
    p = run_cli("import-mlperf", str(root), "--skip-bad", home=_isolated_home)
    assert p.returncode == 0, p.stderr
    got = [r for r in _exported(tmp_path, _isolated_home) if r["mlperf_round"] == "9.9"]
    assert [r["system_id"] for r in got] == ["box8"]


def test_round_is_needed_and_a_tree_is_needed(tmp_path, _isolated_home):
    plain = tmp_path / "somewhere"
    plain.mkdir()
    p = run_cli("import-mlperf", str(plain), home=_isolated_home)
    assert p.returncode == 2 and "--round X.Y" in p.stderr
    p = run_cli("import-mlperf", str(plain), "--round", "3.1", home=_isolated_home)
    assert p.returncode == 1 and "not an MLPerf Training results tree" in p.stderr


def test_an_inference_folder_lands_once_with_the_training_rules(
    tmp_path, _isolated_home
):
    from tests.mlperf_trees import inference_tree, summary

    root = inference_tree(
        tmp_path,
        {
            ("resnet50", "Offline"): summary("Offline", 40000.0),
            ("resnet50", "Server"): summary("Server", 35000.0),
        },
    )
    # a broken summary stops the whole folder, naming itself
    inference_tree(
        tmp_path,
        {("bert-99", "Offline"): "Scenario : Offline\nResult is : VALID\n"},
        org_name="Broken",
    )
    closed = root / "closed"
    p = run_cli("import-mlperf", str(closed), home=_isolated_home)
    assert p.returncode == 1
    assert (
        "closed/Broken/results/box8/bert-99/Offline/performance/run_1/"
        "mlperf_log_summary.txt: no 'Samples per second' line" in p.stderr
    )
    assert "Nothing was imported" in p.stderr
    assert not [
        r for r in _exported(tmp_path, _isolated_home) if r["mlperf_round"] == "9.9"
    ]
    p = run_cli("import-mlperf", str(closed / "Acme"), home=_isolated_home)
    assert p.returncode == 0, p.stderr
    assert "MLPerf Inference v9.9, Acme: 2 new result(s)" in p.stdout
    got = {
        r["scenario"]: r
        for r in _exported(tmp_path, _isolated_home)
        if r["mlperf_round"] == "9.9"
    }
    assert set(got) == {"Offline", "Server"}
    assert float(got["Server"]["value"]) == 35000.0
    assert got["Server"]["mlperf_benchmark"] == "resnet50"
    assert got["Server"]["unit"] == "samples/s" and got["Server"]["task"] == "inference"
    assert got["Offline"]["system_type"] == "datacenter"
    assert float(got["Offline"]["throughput_per_accelerator"]) == 5000.0
    again = run_cli("import-mlperf", str(closed / "Acme"), home=_isolated_home)
    assert "0 new result(s), 2 already stored" in again.stdout
