"""MLPerf Training rounds 3.0 - 4.0 in data/mlperf_training.csv, against figures
computed here from the logs with the rule written out independently (olympic
mean: dropped runs count as the slowest, one run dropped from each end; gpt3's
3 runs give the median), and against the tables submitters published
(v3.0 GIGABYTE and H3C, v3.1 Google: summarizer output, minutes)."""

from __future__ import annotations

import csv
import json
import statistics
from pathlib import Path

import pytest

from ipubench_gui.store.mlperf.mlperf_log import read_log
from tests.mlperf_trees import line as _line

REPO = Path(__file__).resolve().parents[2]
TRAINING = REPO.parent / "shared" / "mlperf" / "training"
needs_shared = pytest.mark.skipif(
    not TRAINING.is_dir(), reason="../shared/mlperf is not present"
)
NEW = ("dlrm_dcnv2", "gpt3", "stable_diffusion", "gnn", "llama2_70b_lora")


def _rows() -> list[dict[str, str]]:
    with open(REPO / "data" / "mlperf_training.csv", newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _run_minutes(path: Path) -> float | None:
    """A run's minutes, or None when it does not count: the first run_start and
    run_stop pair, status success; stable diffusion: some evaluation with
    FID <= 90 and CLIP >= 0.15 together."""
    start = stop = status = None
    evals: dict[str, dict[str, float]] = {}
    for text in path.read_text(encoding="latin-1").splitlines():
        if ":::MLLOG " not in text:
            continue
        rec = json.loads(text.split(":::MLLOG ")[-1])
        if rec["key"] == "run_start" and start is None:
            start = rec["time_ms"]
        elif rec["key"] == "run_stop" and stop is None:
            stop, status = rec["time_ms"], rec["metadata"].get("status")
        elif rec["key"] == "eval_accuracy" and "metric" in rec["metadata"]:
            m = rec["metadata"]
            at = str(m.get("samples_count", m.get("step_num")))
            evals.setdefault(at, {})[m["metric"]] = rec["value"]
    if start is None or stop is None or status != "success":
        return None
    if "stable_diffusion" in path.parts and not any(
        e.get("FID", 999) <= 90 and e.get("CLIP", 0) >= 0.15 for e in evals.values()
    ):
        return None
    return (stop - start) / 60000


def _olympic(times: list[float | None]) -> float:
    good = sorted(t for t in times if t is not None)
    ranked = good + [float("inf")] * (len(times) - len(good))  # dropped: slowest
    kept = ranked[1:-1]
    assert all(t != float("inf") for t in kept)
    return sum(kept) / len(kept)


@needs_shared
@pytest.mark.parametrize("benchmark", NEW)
def test_new_benchmarks_are_scored_as_the_olympic_mean_of_their_logs(benchmark):
    rows = [
        r
        for r in _rows()
        if r["mlperf_benchmark"] == benchmark and r["status"] == "scored"
    ]
    assert rows, benchmark
    # a sample of each round's results of the benchmark: first, middle, last
    by_round: dict[str, list[dict[str, str]]] = {}
    for r in rows:
        by_round.setdefault(r["mlperf_round"], []).append(r)
    for rnd, these in by_round.items():
        for r in {
            id(x): x for x in (these[0], these[len(these) // 2], these[-1])
        }.values():
            folder = TRAINING / f"v{rnd}" / r["path"]
            times = [_run_minutes(p) for p in sorted(folder.glob("result_*.txt"))]
            factor = 1.0
            if (folder / "scaling.json").is_file():
                factor = json.loads((folder / "scaling.json").read_text())[
                    "scaling_factor"
                ]
            want = _olympic(times) * factor
            assert float(r["value"]) == pytest.approx(want, abs=1e-6), r["path"]
            if benchmark == "gpt3" and len(times) == 3 and None not in times:
                assert float(r["value"]) == pytest.approx(
                    statistics.median(times) * factor, abs=1e-6
                )
                assert "median of 3 runs" in r["note"]
            assert int(r["runs_found"]) == len(times)


SUMMARIES = (("3.0", "GIGABYTE"), ("3.0", "H3C"), ("3.1", "Google"))


@needs_shared
@pytest.mark.parametrize(("rnd", "submitter"), SUMMARIES)
def test_the_submitters_published_tables_are_reproduced(rnd, submitter):
    rows = [r for r in _rows() if r["mlperf_round"] == rnd]
    with open(TRAINING / f"v{rnd}" / submitter / "summary.csv", encoding="utf-8") as f:
        table = list(csv.DictReader(f))
    benchmarks = [c for c in table[0] if c in {r["mlperf_benchmark"] for r in rows}]
    checked = 0
    for t in table:
        if t["division"] == "division":  # Google's file holds two tables
            continue
        sysfile = t["details_url"].rsplit("/", 1)[1].removesuffix(".json")
        for b in benchmarks:
            if not t[b]:
                continue
            hits = [
                r
                for r in rows
                if r["submitter"] == submitter
                and r["system_id"] == sysfile
                and r["mlperf_benchmark"] == b
            ]
            assert len(hits) == 1, (sysfile, b)
            assert float(hits[0]["value"]) == pytest.approx(float(t[b]), abs=1e-5)
            assert int(hits[0]["accelerators"]) == int(t["accelerators_count"]) or (
                submitter == "H3C"  # one row prints 10 for an 8-GPU system file
            )
            checked += 1
    assert checked >= {"GIGABYTE": 7, "H3C": 12, "Google": 1}[submitter]


@needs_shared
def test_tpu_v5p_chips_come_from_the_system_file_not_the_name():
    rows = [r for r in _rows() if r["system_name"] == "tpu-v5p-1024"]
    assert rows and all(r["accelerators"] == "512" for r in rows)
    assert "counts TensorCores" in rows[0]["note"]


@needs_shared
def test_raw_copies_of_runs_are_counted_as_the_summarizer_counts_them():
    rows = [
        r
        for r in _rows()
        if r["path"] == "smc-ac-power/results/1xSMC-H100-SXM-80GB/dlrm_dcnv2"
    ]
    assert len(rows) == 1
    folder = TRAINING / "v4.0" / rows[0]["path"]
    assert int(rows[0]["runs_found"]) == len(list(folder.glob("result_*.txt"))) == 10
    assert "raw" in rows[0]["note"]


@needs_shared
def test_v40_results_without_logs_are_listed_never_scored():
    listed = {
        p.rsplit("/", 1)[0]
        for p in (TRAINING / "v4.0" / "MISSING.txt").read_text().split()
    }
    rows = {r["path"]: r for r in _rows() if r["mlperf_round"] == "4.0"}
    for path in listed:
        assert rows[path]["status"] == "logs missing" and rows[path]["value"] == ""


def _sd_log(tmp_path: Path, evals, division="closed") -> Path:
    lines = [
        _line("submission_benchmark", 1, "stable_diffusion"),
        _line("submission_division", 1, division),
        _line("run_start", 1000),
    ]
    for n, (fid, clip) in enumerate(evals):
        lines.append(_line("eval_accuracy", 2000, fid, samples_count=n, metric="FID"))
        lines.append(_line("eval_accuracy", 2000, clip, samples_count=n, metric="CLIP"))
    lines.append(_line("run_stop", 61000, status="success"))
    path = tmp_path / "result_0.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_stable_diffusion_needs_fid_and_clip_from_one_evaluation(tmp_path):
    # FID reached at evaluation 0, CLIP only at evaluation 1: never together
    run = read_log(_sd_log(tmp_path, [(80.0, 0.10), (95.0, 0.16)]))
    assert run.minutes is None and run.not_converged
    assert "FID" in run.problem and "CLIP" in run.problem
    run = read_log(_sd_log(tmp_path, [(120.0, 0.10), (85.0, 0.16)]))
    assert run.minutes == pytest.approx(1.0)
    # one evaluation only: the closed division needs two
    run = read_log(_sd_log(tmp_path, [(85.0, 0.16)]))
    assert run.minutes is None and "at least 2" in run.problem
    # the open division has no such target
    assert read_log(_sd_log(tmp_path, [(120.0, 0.10)], "open")).minutes == 1.0


def test_a_malformed_mllog_line_drops_the_run(tmp_path):
    path = tmp_path / "result_0.txt"
    path.write_text(
        "\n".join(
            [
                _line("run_start", 1000),
                ':::MLLOG {"key": "eval_accuracy", "time_ms": 5, "value": 0.7,',
                _line("run_stop", 61000, status="success"),
            ]
        )
    )
    run = read_log(path)
    assert run.minutes is None and run.malformed and "line 2" in run.problem
    assert not run.not_converged  # a broken log, not a run that did not converge


def test_a_full_log_reads_as_its_trimmed_copy(tmp_path):
    """An untrimmed log: shell output (braces too), a rank prefix, every key
    of every epoch; the run is the same run."""
    lines = ["+ python train.py --config {a: 1}", "[0] NCCL INFO Ring 00 : 0 1 2 3"]
    lines.append(
        "[1,0]<stdout>::::MLLOG " + _line("submission_benchmark", 1, "gpt3")[9:]
    )
    lines.append(_line("run_start", 1_000))
    for epoch in range(50):
        lines.append(_line("epoch_start", 1_000 + epoch, epoch_num=epoch))
        lines.append(_line("eval_accuracy", 1_001 + epoch, 2.7, epoch_num=epoch))
        lines.append("loss: 2.71 {not json}")
    lines.append("0: " + _line("run_stop", 181_000, status="success"))
    path = tmp_path / "result_0.txt"
    path.write_text("\n".join(lines) + "\n")
    run = read_log(path)
    assert run.problem is None and run.minutes == pytest.approx(3.0)
    assert run.field("submission_benchmark") == "gpt3"
