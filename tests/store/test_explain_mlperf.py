"""Explain on an MLPerf time: the app's own score of the logs, never "as
printed" by anyone, and what the vendor's page printed beside it; on an MLPerf
Inference figure: the line its summary log prints."""

from __future__ import annotations

from ipubench_gui.domain.explain import explain
from ipubench_gui.service import browse
from tests.store.test_claims_seeds import mlperf_minutes, said
from tests.store.test_mlperf_inference import INFERENCE, needs_shared


def test_an_mlperf_time_is_explained_as_scored_not_as_printed(db):
    # 000 prints 20.66 for 2.0-2045; the logs give 20.6539 (20.65 at two decimals)
    said("000", 1120, "2.0-2045")
    page = said("000", 1123, "20.66")
    score = mlperf_minutes("2.0", "Graphcore/results/ipu-pod16-POPART-closed/bert")
    assert f"{score:.2f}" == "20.65" != page
    rid = db.scalar("SELECT result_id FROM results_v WHERE mlperf_id = '2.0-2045'")
    (row,) = browse.rows_by_ids(db, [rid])
    text = explain(row)
    first = text.splitlines()[1]
    assert first.startswith("1. Scored here from the official logs (8 of 10 runs")
    assert "As printed: '20.65'" not in text
    assert f"As printed: '{page}' on the vendor's page" in text
    assert f"read as {score:.4f} min" in text
    # NVIDIA's result: no page prints it
    nv = db.scalar(
        "SELECT result_id FROM results_v WHERE mlperf_round = '2.0' AND "
        "submitter = 'NVIDIA' AND system_id = 'dgxa100_ngc22.04_mxnet' AND "
        "mlperf_benchmark = 'resnet'"
    )
    (row,) = browse.rows_by_ids(db, [nv])
    text = explain(row)
    assert "As printed" not in text and "Scored here from the official logs" in text


@needs_shared
def test_an_mlperf_inference_figure_is_explained_as_its_log_prints_it(db):
    # an Inference result is no score of ours: its summary log prints the
    # figure, and step 1 quotes that line (no runs, no time to train)
    rid = db.scalar(
        "SELECT result_id FROM results_v WHERE mlperf_round = '2.1' AND "
        "submitter = 'Inspur' AND system_id = 'NF5468M6J_A100-PCIe-80GBx24_TRT' "
        "AND mlperf_benchmark = 'bert-99' AND scenario = 'Server'"
    )
    log = (
        INFERENCE / "v2.1/closed/Inspur/results/NF5468M6J_A100-PCIe-80GBx24_TRT"
        "/bert-99/Server/performance/run_1/mlperf_log_summary.txt"
    ).read_text()
    line = next(
        s.strip() for s in log.splitlines() if s.startswith("Scheduled samples")
    )
    (row,) = browse.rows_by_ids(db, [rid])
    first = explain(row).splitlines()[1]
    assert first.startswith(f"1. As printed: {line!r} in MLPerf Inference v2.1")
    assert "runs" not in first and "time to train" not in first
