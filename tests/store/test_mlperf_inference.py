"""MLPerf Inference results (store/mlperf_inference.py, data/mlperf_inference.csv)
against the log text itself, read here with a plain search of each summary
(not the checker's regex the reader uses), and hand-made trees."""

from __future__ import annotations

import csv
import json
import random
import re
from pathlib import Path

import pytest

from ipubench_gui.store.mlperf import mlperf_build
from ipubench_gui.store.mlperf.mlperf import Names, TreeError
from ipubench_gui.store.mlperf.mlperf_inference import parse_summary, round_of, scan
from tests.mlperf_trees import INFERENCE_SYSTEM, inference_tree, summary

REPO = Path(__file__).resolve().parents[2]
INFERENCE = REPO.parent / "shared" / "mlperf" / "inference"
NAMES = Names.load(REPO / "data" / "entities")
needs_shared = pytest.mark.skipif(
    not INFERENCE.is_dir(), reason="../shared/mlperf is not present"
)
ROUNDS = ("1.0", "1.1", "2.0", "2.1", "3.0")


def _rows() -> list[dict[str, str]]:
    with open(
        REPO / "data" / "mlperf_inference.csv", newline="", encoding="utf-8"
    ) as f:
        return list(csv.DictReader(f))


def _figure_in(text: str) -> tuple[str, float]:
    """(scenario logged, the figure a reader of the log would quote): the
    number after the first line that starts with the scenario's label."""
    scenario = re.search(r"^Scenario\s*:\s*(\w+)", text, re.M)[1]
    label = {
        "Offline": "Samples per second",
        "Server": "Scheduled samples per second",
        "SingleStream": "QPS w/o loadgen overhead",
    }[scenario]
    for line in text.splitlines():
        if line.strip().startswith(label):
            return scenario, float(line.split(":")[1])
    raise AssertionError(f"no {label} in the log")


@needs_shared
@pytest.mark.parametrize("rnd", ROUNDS)
def test_figures_are_the_logs_own(rnd):
    rows = [r for r in _rows() if r["mlperf_round"] == rnd]
    summaries = list(
        (INFERENCE / f"v{rnd}").glob(
            "closed/*/results/*/*/*/performance/run_1/mlperf_log_summary.txt"
        )
    )
    assert len(rows) == len(summaries)  # every kept log is one result
    for r in random.Random(rnd).sample(rows, 25):
        path = (
            INFERENCE
            / f"v{rnd}"
            / r["path"]
            / "performance/run_1/mlperf_log_summary.txt"
        )
        text = path.read_text(encoding="latin-1")
        logged, figure = _figure_in(text)
        assert float(r["value"]) == figure, r["path"]
        assert r["scenario"] == r["path"].rsplit("/", 1)[1].capitalize()
        assert (r["inferred"] == "true") == (logged == "SingleStream")
        assert r["status"] == "valid" and "Result is : VALID" in text
        desc = json.loads(
            (
                INFERENCE
                / f"v{rnd}"
                / "closed"
                / r["submitter"]
                / "systems"
                / f"{r['system_id']}.json"
            ).read_text()
        )
        per_node = str(desc["accelerators_per_node"]).strip()
        if r["accelerators"]:
            assert int(r["accelerators"]) == int(per_node) * int(
                desc["number_of_nodes"]
            )
            assert "MIG" not in desc["accelerator_model_name"]


@needs_shared
def test_server_figures_are_scheduled_not_completed_samples():
    r = next(
        r
        for r in _rows()
        if r["path"] == "closed/NVIDIA/results/A100-PCIex8_TRT/resnet50/Server"
    )
    text = (
        INFERENCE / "v1.0" / r["path"] / "performance/run_1/mlperf_log_summary.txt"
    ).read_text()
    scheduled = float(
        re.search(r"Scheduled samples per second\s*:\s*([\d.]+)", text)[1]
    )
    completed = float(
        re.search(r"Completed samples per second\s*:\s*([\d.]+)", text)[1]
    )
    assert float(r["value"]) == scheduled != completed


@needs_shared
def test_an_edge_system_is_marked_edge():
    desc = json.loads(
        (INFERENCE / "v1.0/closed/NVIDIA/systems/AGX_Xavier_TRT.json").read_text()
    )
    assert desc["system_type"] == "edge"
    rows = [
        r
        for r in _rows()
        if r["mlperf_round"] == "1.0" and r["system_id"] == "AGX_Xavier_TRT"
    ]
    assert rows and all(r["system_type"] == "edge" for r in rows)
    assert all("edge system (edge only)" in r["note"] for r in rows)
    both = [r for r in _rows() if r["system_type"] == "datacenter, edge"]
    assert both and not any("edge only" in (r["note"] or "") for r in both)


@needs_shared
def test_an_inferred_offline_figure_says_so():
    r = next(
        r
        for r in _rows()
        if r["path"] == "closed/rebellions/results/ATOM/bert-99/Offline"
    )
    assert r["inferred"] == "true" and float(r["value"]) == 233.04
    assert "inferred from a SingleStream log" in r["note"]


@needs_shared
def test_committed_csv_is_what_the_build_makes():
    made = mlperf_build.to_csv(
        mlperf_build.build_inference_rows(INFERENCE), mlperf_build.INFERENCE_COLUMNS
    )
    assert (REPO / "data" / "mlperf_inference.csv").read_text(encoding="utf-8") == made


def test_parse_summary_reads_as_the_checker_reads():
    s = parse_summary(summary("Server", 1234.5), "Server")
    assert (s.value, s.valid, s.inferred) == (1234.5, True, False)
    s = parse_summary(summary("Offline", 12.5, logged="SingleStream"), "Offline")
    assert (s.value, s.inferred) == (12.5, True)
    assert not parse_summary(summary("Offline", 9.0, valid=False), "Offline").valid
    assert (
        "scenario 'Server'" in parse_summary(summary("Server", 1.0), "Offline").problem
    )


def test_a_tree_of_results(tmp_path):
    root = inference_tree(
        tmp_path,
        {
            ("resnet50", "Offline"): summary("Offline", 40000.0),
            ("resnet50", "server"): summary("Server", 35000.0),
            ("bert-99.9", "Offline"): summary("Offline", 3000.0),
            ("3d-unet-99", "Offline"): summary("Offline", 3.0),  # not kept
            ("resnet50", "SingleStream"): summary("SingleStream", 1.0),  # not kept
        },
    )
    assert round_of(root) == "9.9"
    got = {(r.benchmark, r.scenario): r for r in scan(root, "9.9", NAMES)}
    assert set(got) == {
        ("resnet50", "Offline"),
        ("resnet50", "Server"),
        ("bert-99.9", "Offline"),
    }
    r = got[("resnet50", "Server")]
    assert (r.value, r.accelerators, r.accelerator_type, r.system_type) == (
        35000.0,
        8,
        "A100",
        "datacenter",
    )
    assert got[("bert-99.9", "Offline")].model == "BERT-Large"
    assert not any(r.problems for r in got.values())


def test_a_broken_summary_names_itself(tmp_path):
    root = inference_tree(
        tmp_path,
        {
            ("resnet50", "Offline"): "Scenario : Offline\nResult is : VALID\n",
            ("bert-99", "Server"): summary("Server", 0.0),
        },
    )
    got = {r.benchmark: r for r in scan(root, "9.9", NAMES)}
    for bench, says in (
        ("resnet50", "no 'Samples per second' line"),
        ("bert-99", "positive"),
    ):
        (problem,) = got[bench].problems
        assert "performance/run_1/mlperf_log_summary.txt" in problem and says in problem
        assert got[bench].value is None and got[bench].status == "unreadable"


def test_mig_slices_and_cpu_only_systems_have_no_chip_count(tmp_path):
    mig = {
        **INFERENCE_SYSTEM,
        "accelerator_model_name": "NVIDIA A100-SXM-80GB (1x1g.10gb MIG)",
        "accelerators_per_node": 1,
    }
    root = inference_tree(
        tmp_path, {("resnet50", "Offline"): summary("Offline", 3000.0)}, mig
    )
    (r,) = scan(root, "9.9", NAMES)
    assert r.accelerators is None and r.accelerator_type == "A100" and "MIG" in r.note
    cpu = {
        **INFERENCE_SYSTEM,
        "accelerator_model_name": "",
        "accelerators_per_node": "",
    }
    root = inference_tree(
        tmp_path / "cpu", {("resnet50", "Offline"): summary("Offline", 30.0)}, cpu
    )
    (r,) = scan(root, "9.9", NAMES)
    assert (
        r.accelerators is None and r.accelerator_type == "CPU only" and not r.problems
    )


def test_not_an_inference_tree(tmp_path):
    with pytest.raises(TreeError, match="not an MLPerf Inference results tree"):
        scan(tmp_path, "1.0", NAMES)


@needs_shared
def test_compare_treats_the_scenario_as_part_of_the_workload(db):
    from ipubench_gui.domain.likeness import NOT_LIKE, assess
    from ipubench_gui.service import browse

    path = "closed/NVIDIA/results/A100-PCIex8_TRT/resnet50/"
    ids = {
        r["scenario"]: r["result_id"]
        for r in _rows()
        if r["mlperf_round"] == "1.0" and r["path"].startswith(path)
    }
    offline, server = browse.rows_by_ids(db, [ids["Offline"], ids["Server"]])
    a = assess(server, offline)
    assert a.verdict == NOT_LIKE
    assert any("scenario" in d for d in a.differences())
    # a vendor figure has no scenario: not known to be the same
    vendor = {**offline, "scenario": None, "division": None, "mlperf_round": None}
    assert "MLPerf scenario" in assess(vendor, offline).text()


def test_a_chart_of_inference_results_names_its_suite_in_the_footnote():
    from ipubench_gui.domain.plot_mlperf import mlperf_footnote

    row = {
        "mlperf_round": "1.0",
        "task": "inference",
        "scenario": "Offline",
        "division": "closed",
        "category": "Available on-premise",
        "repository": "mlcommons/inference_results_v1.0",
        "source_date": "2026-11-29",
    }
    note = mlperf_footnote([row])
    assert "MLPerf™ Inference v1.0; division: closed" in note
    assert "scenario: Offline" in note
    assert "Training" not in note and "Times to train" not in note
    both = mlperf_footnote([row, {**row, "task": "training", "scenario": None}])
    assert "MLPerf™ Training v1.0" in both and "MLPerf™ Inference v1.0" in both


def test_a_full_clone_reads_only_the_performance_summaries(tmp_path):
    """An untrimmed inference_results_vX.Y clone: accuracy and compliance
    runs, detail logs, measurements, other benchmarks, the open division and
    the code all sit beside the summaries; only the summaries are read."""
    root = inference_tree(
        tmp_path, {("resnet50", "Offline"): summary("Offline", 40000.0)}
    )
    res = root / "closed/Acme/results/box8/resnet50/Offline"
    for extra in ("accuracy", "TEST01/performance/run_1", "performance/run_2"):
        (res / extra).mkdir(parents=True, exist_ok=True)
        (res / extra / "mlperf_log_summary.txt").write_text(
            summary("Offline", 1.0, valid=False)
        )
    (res / "performance/run_1/mlperf_log_detail.txt").write_text(":::MLLOG {}\n" * 5)
    (res / "measurements.json").write_text("{}")
    (root / "closed/Acme/code/resnet50").mkdir(parents=True)
    (root / "closed/Acme/compliance").mkdir()
    (root / "open/Acme/results/box8/resnet50/Offline").mkdir(parents=True)
    (r,) = scan(root, "9.9", NAMES)
    assert (r.value, r.status, r.problems) == (40000.0, "valid", ())


@needs_shared
def test_each_figure_shows_the_summary_line_it_was_read_from(db):
    rows = {(r["mlperf_round"], r["path"]): r for r in _rows()}
    cur = db.cursor().execute(
        "SELECT mlperf_round, path, scenario, value_as_printed, inferred_offline "
        "FROM results_v WHERE source = 'MLPerf Inference'"
    )
    got = cur.fetchall()
    assert len(got) == len(rows)
    labels = {"Offline": "Samples per second", "Server": "Scheduled samples per second"}
    for rnd, path, scenario, printed, inferred in got:
        label = "QPS w/o loadgen overhead" if inferred else labels[scenario]
        assert printed.startswith(f"{label} : "), path
        want = float(rows[rnd, path]["value"])
        assert float(printed.split(" : ")[1].split()[0]) == want
