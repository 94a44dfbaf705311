"""Claims audit over the store: every claim audited once, the claims CSV's
kept columns, and an evidence source plugged in at its one place. The
verdicts themselves are checked against the documents in
test_claims_seeds.py."""

from __future__ import annotations

import csv
import io

import pytest

from ipubench_gui.domain.claim_comparisons import audit_comparison
from ipubench_gui.domain.claim_evidence import Evidence, Reading
from ipubench_gui.domain.claims import Figure
from ipubench_gui.domain.entities import load
from ipubench_gui.domain.verdicts import NEAREST, NOT_CHECKABLE, VERDICTS, Difference
from ipubench_gui.store.query.claims import audit_store, gpu_rows, ipu_rows
from tests.conftest import DATA, run_cli


def _read(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def audits(db):
    return {a.claim_id: a for a in audit_store(db, DATA)}


def test_every_claim_and_comparison_is_audited(audits):
    ids = {r["comparison_id"] for r in _read(DATA / "comparisons.csv")}
    ids |= {r["claim_id"] for r in _read(DATA / "claims.csv")}
    assert set(audits) == ids
    for a in audits.values():
        assert a.verdict in VERDICTS and a.reason
        if a.verdict != NOT_CHECKABLE:
            assert a.recomputed is not None or a.kind == "claim"
    # Latest-GPU comparisons: no GPU figure stored anywhere.
    assert audits["cmp-lstm-infer"].reason.startswith(
        "GPU figure not in any stored source"
    )
    # Every verdict the real documents reach, but one: no independent figure
    # contradicts a claim like for like (see test_claims_verdict.py for it).
    assert {a.verdict for a in audits.values()} == set(VERDICTS) - {"contradicted"}


def test_an_evidence_source_plugs_in_with_a_reading(db, audits):
    """A source offering a recomputation for a comparison its own rule cannot
    recompute (ResNet-50 inference: NVIDIA's figure not retrieved) is judged
    by the one rule: independent figures of another setup give "nearest
    evidence only", with every difference listed."""
    (cmp,) = (
        db.cursor()
        .execute("SELECT * FROM comparisons WHERE comparison_id = 'cmp-rn50-infer'")
        .fetchall()
    )
    cols = [
        d[0]
        for d in db.cursor().execute("SELECT * FROM comparisons LIMIT 0").description
    ]
    cmp = dict(zip(cols, cmp))
    cat = load(DATA / "entities")
    gpu = Figure(
        "",
        "GPU",
        12000.0,
        "images/s",
        "12,000 images/s",
        "A100 (made up)",
        "a test's own source",
        whose="MLPerf",
    )
    reading = Reading(
        58112 / 12000,
        (gpu,),
        ("58,112 ÷ 12,000",),
        (
            Difference(
                "workload", "an offline-scenario throughput, not at lowest latency"
            ),
        ),
    )
    ipu = ipu_rows(db, cat, cmp)
    plain = audit_comparison(cmp, ipu, gpu_rows(db, "cmp-rn50-infer"), cat)
    assert plain.verdict == NOT_CHECKABLE
    a = audit_comparison(
        cmp,
        ipu,
        gpu_rows(db, "cmp-rn50-infer"),
        cat,
        [Evidence(("a line",), reading)],
    )
    assert a.verdict == NEAREST and a.recomputed == pytest.approx(4.8427, abs=1e-4)
    assert a.not_like_for_like[0].startswith("chips: 4 IPUs (IPU-M2000) against 1 GPU")
    assert "workload: an offline-scenario throughput, not at lowest latency" in (
        a.not_like_for_like
    )
    assert "a line" in a.evidence


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
    rows = {r["claim_id"]: r for r in got}
    row = rows["cmp-rnx101-infer-tput"]
    assert (row["recomputed"], row["verdict"]) == ("35.03x", "nearest evidence only")
    assert "podinf-2080f7" in row["evidence"] and "nvref-a925d6" in row["evidence"]
    bow = rows["clm-bow16-vs-dgx640-rn50"]
    assert bow["verdict"] == "confirmed"
    assert "31.55% → 31% truncated, 32% rounded" in bow["evidence"]
    assert {r["verdict"] for r in got} <= set(VERDICTS)
    md = run_cli("claims", "--format", "markdown", home=_isolated_home)
    assert md.returncode == 0 and "| cmp-rnx101-infer-tput | 40x" in md.stdout


def test_a_claim_with_an_unknown_check_stops_the_build(data_copy, tmp_path):
    from ipubench_gui.store.bundled.build import DataError, build_store

    path = data_copy / "claims.csv"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(",mlperf_on_par,", ",eyeballed,"), encoding="utf-8")
    with pytest.raises(DataError, match="checked_by must be one of") as err:
        build_store(data_copy, tmp_path / "s.duckdb")
    assert "eyeballed" in str(err.value)
