"""Claims audit: comparisons recomputed from stored rows, checked against hand
arithmetic on figures read independently (the seed table via data/results.csv,
NVIDIA's figures from ../shared/gpu-reference/figures.csv, MLPerf from
data/mlperf_training.csv); the claims CSV's columns."""

from __future__ import annotations

import csv
import io

import pytest

from ipubench_gui.domain.claims import CONSISTENT, INCONSISTENT, NOT_CHECKABLE
from ipubench_gui.store.query.claims import audit_store
from tests.conftest import DATA, REPO, run_cli

FIGURES = REPO.parent / "shared" / "gpu-reference" / "figures.csv"


def _read(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def audits(db):
    return {a.claim_id: a for a in audit_store(db, DATA)}


@pytest.fixture(scope="module")
def nv():
    """NVIDIA's figure as transcribed, picked by the columns given (one row)."""
    if not FIGURES.exists():
        pytest.skip(f"{FIGURES} not found")
    rows = _read(FIGURES)

    def pick(**want):
        (r,) = [r for r in rows if all(r[k] == v for k, v in want.items())]
        return float(r["value"])

    return pick


def _ipu(csv_rows, table, row):
    (r,) = [x for x in csv_rows if x["table"] == table and x["row"] == str(row)]
    return float(r["value"]), float(r["latency_ms"] or "nan"), r["result_id"]


INF = "IPU-POD Classic - Inference"
TR = "IPU-POD Classic - Training"


def test_bert_large_inference_at_lowest_latency(audits, nv, csv_rows):
    # IPU-M2000 PopART batch 4 (the lowest latency of batch 4, 8, 12): row 1.
    ipu, _lat, rid = _ipu(csv_rows, INF, 1)
    gpu_ms = nv(comparison_id="cmp-bertl-infer", task="inference SL128", batch_size="1")
    want = ipu / (1 * 1000 / gpu_ms)  # GPU throughput derived: batch x 1000 / ms
    a = audits["cmp-bertl-infer"]
    assert a.recomputed == pytest.approx(want) == pytest.approx(2071 / 625)
    assert rid in a.result_ids and a.derived
    assert a.verdict == INCONSISTENT  # 3.31x against the stated 3.4x
    assert any("derived" in n for n in a.not_like_for_like)


def test_resnext_inference_throughput_and_latency(audits, nv, csv_rows):
    ipu, ipu_ms, rid = _ipu(csv_rows, INF, 27)  # TensorFlow batch 4, 2.66 ms
    m = "mixed precision"
    gpu = nv(comparison_id="cmp-rnx101-infer-tput", batch_size="1", precision=m)
    gpu_ms = nv(comparison_id="cmp-rnx101-infer-lat", batch_size="1", precision=m)
    t, lat = audits["cmp-rnx101-infer-tput"], audits["cmp-rnx101-infer-lat"]
    assert t.recomputed == pytest.approx(ipu / gpu) == pytest.approx(35.03, abs=0.01)
    assert (
        lat.recomputed
        == pytest.approx(gpu_ms / ipu_ms)
        == pytest.approx(2.947, abs=0.001)
    )
    assert rid in t.result_ids and rid in lat.result_ids
    assert t.verdict == lat.verdict == INCONSISTENT  # stated 40x and 10x


def test_training_throughput_with_the_closest_gpu_figures(audits, nv, csv_rows):
    # ResNet-50: IPU-M2000 TensorFlow1 (batch 1920, the only one stored) against
    # NVIDIA's A100 40GB TensorFlow figure (the cited 80GB one was not found).
    tf, _, tf_id = _ipu(csv_rows, TR, 34)
    gpu = nv(comparison_id="cmp-rn50-train", gpu="A100-SXM4-40GB (DGX A100)")
    a = audits["cmp-rn50-train"]
    assert a.recomputed == pytest.approx(tf / gpu) == pytest.approx(3.311, abs=0.001)
    assert tf_id in a.result_ids
    assert any("40GB where the chart names A100 80GB" in n for n in a.not_like_for_like)
    # ResNeXt-101: IPU-M2000 TensorFlow1 batch 768 against PyTorch 40GB batch 128
    # (framework and card as charted; the batch differs).
    ipu, _, rid = _ipu(csv_rows, TR, 41)
    gpu = nv(
        comparison_id="cmp-rnx101-train", batch_size="128", gpu="A100 40GB (DGX A100)"
    )
    x = audits["cmp-rnx101-train"]
    assert x.recomputed == pytest.approx(ipu / gpu) == pytest.approx(2.768, abs=0.001)
    assert rid in x.result_ids and x.verdict == INCONSISTENT  # stated 3.7x
    assert any("batch 128 where the chart says 256" in n for n in x.not_like_for_like)


def test_bert_time_to_train_is_derived_with_its_arithmetic(audits, nv, csv_rows):
    k = "cmp-bertl-train-dgx"
    p1 = nv(comparison_id=k, metric="throughput", task="pre-training phase 1 (SL128)")
    p2 = nv(comparison_id=k, metric="throughput", task="pre-training phase 2 (SL512)")
    s1 = nv(
        comparison_id=k, metric="training steps", task="pre-training phase 1 (SL128)"
    )
    s2 = nv(
        comparison_id=k, metric="training steps", task="pre-training phase 2 (SL512)"
    )
    gpu_h = (s1 * 65536 / p1 + s2 * 32768 / p2) / 3600
    assert gpu_h == pytest.approx(69.50, abs=0.01)  # figures.csv README's sum
    ipu1, _, _ = _ipu(csv_rows, TR, 4)  # IPU-POD64 PopART Ph1
    ipu2, _, _ = _ipu(csv_rows, TR, 13)  # IPU-POD64 PopART Ph2
    ipu_h = (s1 * 65536 / ipu1 + s2 * 32768 / ipu2) / 3600
    a, two = audits[k], audits["cmp-bertl-train-2dgx"]
    assert a.derived and a.recomputed == pytest.approx(gpu_h / ipu_h)
    assert two.recomputed == pytest.approx(gpu_h / 2 / ipu_h)
    assert two.verdict == NOT_CHECKABLE and "no ratio" in two.reason
    assert any("69.50 h" in line for line in a.arithmetic)


def test_mlperf_claims_worked_out_from_the_logs(audits):
    rows = _read(DATA / "mlperf_training.csv")

    def t(rnd, submitter, system_id, bench):
        (r,) = [
            x
            for x in rows
            if (
                x["mlperf_round"],
                x["submitter"],
                x["system_id"],
                x["mlperf_benchmark"],
            )
            == (rnd, submitter, system_id, bench)
        ]
        return float(r["value"])

    bow = t("2.0", "Graphcore", "ipu-pod16-TF1-closed", "resnet")
    dgx = t("2.0", "NVIDIA", "dgxa100_ngc22.04_mxnet", "resnet")
    a = audits["clm-bow16-vs-dgx640-rn50"]
    assert a.recomputed == pytest.approx((dgx - bow) / dgx * 100)
    assert a.verdict == CONSISTENT  # 31.5% less time, printed as 31%
    before = t("1.1", "Graphcore", "ipu-pod16-POPART-closed", "bert")
    after = t("2.0", "Graphcore", "ipu-pod16-POPART-closed", "bert")
    b = audits["clm-bert-vs-v11"]
    assert b.recomputed == pytest.approx((before - after) / before * 100)
    assert b.verdict == CONSISTENT  # up to 37%
    assert audits["clm-tgn-vs-gpu"].verdict == NOT_CHECKABLE


def test_every_claim_and_comparison_is_audited(audits):
    ids = {r["comparison_id"] for r in _read(DATA / "comparisons.csv")}
    ids |= {r["claim_id"] for r in _read(DATA / "claims.csv")}
    assert set(audits) == ids
    for a in audits.values():
        assert a.verdict in (CONSISTENT, INCONSISTENT, NOT_CHECKABLE)
        assert a.verdict != NOT_CHECKABLE or a.reason
        if a.verdict != NOT_CHECKABLE:
            assert a.recomputed is not None
    # Latest-GPU comparisons: no GPU figure stored anywhere.
    assert audits["cmp-lstm-infer"].reason.startswith(
        "GPU figure not in any stored source"
    )


def test_claims_csv_columns(tmp_path, _isolated_home):
    p = run_cli("claims", "--format", "csv", home=_isolated_home)
    assert p.returncode == 0, p.stderr
    got = list(csv.DictReader(io.StringIO(p.stdout)))
    assert list(got[0])[:5] == [
        "claim_id",
        "stated",
        "recomputed",
        "verdict",
        "evidence",
    ]
    ids = {r["comparison_id"] for r in _read(DATA / "comparisons.csv")}
    ids |= {r["claim_id"] for r in _read(DATA / "claims.csv")}
    assert {r["claim_id"] for r in got} == ids
    row = {r["claim_id"]: r for r in got}["cmp-rnx101-infer-tput"]
    assert (row["recomputed"], row["verdict"]) == ("35.03x", "inconsistent")
    assert "podinf-2080f7" in row["evidence"] and "nvref-a925d6" in row["evidence"]
    md = run_cli("claims", "--format", "markdown", home=_isolated_home)
    assert md.returncode == 0 and "| cmp-rnx101-infer-tput | 40x" in md.stdout
