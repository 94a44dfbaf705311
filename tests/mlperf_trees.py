"""Small MLPerf Training results trees with known answers, for tests."""

from __future__ import annotations

import json
from pathlib import Path


def line(key, t, value=None, **meta):
    rec = {
        "namespace": "",
        "time_ms": t,
        "event_type": "POINT_IN_TIME",
        "key": key,
        "value": value,
        "metadata": meta,
    }
    return ":::MLLOG " + json.dumps(rec)


def log(minutes: float, status="success", prefix="") -> str:
    start = 1_000_000
    return "\n".join(
        [
            prefix + line("submission_division", 1, "closed"),
            "some shell output",
            prefix + line("run_start", start),
            prefix + line("run_stop", start + round(minutes * 60000), status=status),
            "",
        ]
    )


SYSTEM = {
    "submitter": "Acme",
    "division": "closed",
    "status": "onprem",
    "system_name": "Box8",
    "number_of_nodes": "2",
    "accelerators_per_node": "4",
    "accelerator_model_name": "NVIDIA H100-SXM5-80GB",
    "host_processors_per_node": "2",
    "host_processor_model_name": "CPU X",
    "framework": "PyTorch",
}


def tree(
    tmp_path: Path, times, bench="resnet", system=SYSTEM, system_id="box8", **logs
) -> Path:
    """``tmp_path/training_results_v9.9/Acme/results/SYSTEM/BENCH``, one log per
    time (minutes); ``r<N>=text`` replaces log N. Call again to add results."""
    org = tmp_path / "training_results_v9.9" / "Acme"
    (org / "systems").mkdir(parents=True, exist_ok=True)
    (org / "systems" / f"{system_id}.json").write_text(
        system if isinstance(system, str) else json.dumps(system)
    )
    res = org / "results" / system_id / bench
    res.mkdir(parents=True)
    for i, t in enumerate(times):
        (res / f"result_{i}.txt").write_text(logs.get(f"r{i}", log(t)))
    return org.parent


INFERENCE_SYSTEM = {
    "submitter": "Acme",
    "division": "closed",
    "system_type": "datacenter",
    "status": "available",
    "system_name": "Box8 (8x A100)",
    "number_of_nodes": "1",
    "accelerators_per_node": "8",
    "accelerator_model_name": "NVIDIA A100-SXM-80GB",
    "host_processors_per_node": "2",
    "host_processor_model_name": "CPU X",
    "framework": "TensorRT 8",
}


def summary(scenario: str, value: float, logged: str | None = None, valid=True) -> str:
    """An mlperf_log_summary.txt as LoadGen writes it (the lines that matter)."""
    logged = logged or scenario
    field = {
        "Offline": "Samples per second",
        "Server": "Scheduled samples per second",
        "SingleStream": "90th percentile latency (ns)",
    }[logged]
    lines = [
        "================================================",
        "MLPerf Results Summary",
        "================================================",
        "SUT name : Box",
        f"Scenario : {logged}",
        "Mode     : PerformanceOnly",
        f"{field} : {value}",
        f"Result is : {'VALID' if valid else 'INVALID'}",
    ]
    if logged == "Server":
        lines.insert(6, f"Completed samples per second : {value * 0.99:.2f}")
    if logged == "SingleStream":
        lines += [
            "",
            "QPS w/ loadgen overhead : 99.0",
            f"QPS w/o loadgen overhead : {value}",
        ]
    return "\n".join(lines) + "\n"


def inference_tree(
    tmp_path: Path,
    results: dict[tuple[str, str], str],
    system=INFERENCE_SYSTEM,
    system_id="box8",
    org_name="Acme",
) -> Path:
    """``tmp_path/inference_results_v9.9/closed/ORG``: one summary per
    (benchmark, scenario folder) of ``results``. Returns the repository folder."""
    org = tmp_path / "inference_results_v9.9" / "closed" / org_name
    (org / "systems").mkdir(parents=True, exist_ok=True)
    (org / "systems" / f"{system_id}.json").write_text(
        system if isinstance(system, str) else json.dumps(system)
    )
    for (bench, scenario), text in results.items():
        d = org / "results" / system_id / bench / scenario / "performance" / "run_1"
        d.mkdir(parents=True)
        (d / "mlperf_log_summary.txt").write_text(text)
    return org.parent.parent
