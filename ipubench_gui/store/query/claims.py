"""Claims audit: the rows each claim and comparison is checked against.

Parameterised SQL picks the candidate rows (the vendor's table rows of the
stated system, task and model; NVIDIA's figures cited for a comparison;
MLPerf results); ``domain.claim_rules`` and ``domain.claim_checks`` choose
among them and do the arithmetic, and ``domain.verdicts`` judges.

Independent evidence plugs in at one place, :data:`SOURCES`: a name, one
query for the source's rows and a ``nearest`` function
(``domain.claim_evidence.Nearest``) that offers lines of evidence and, where
it can, a recomputation of the claim, which is judged by the same rule as
every other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ipubench_gui.domain.claim_checks import Context, audit_claim
from ipubench_gui.domain.claim_comparisons import audit_comparison
from ipubench_gui.domain.claim_evidence import Evidence, Nearest
from ipubench_gui.domain.claim_inference import (
    inference_evidence,
    later_rounds_evidence,
)
from ipubench_gui.domain.claim_mlperf import comparison_evidence
from ipubench_gui.domain.claims import Audit
from ipubench_gui.domain.entities import Catalogue, load
from ipubench_gui.store.db import Database

Rows = list[dict[str, Any]]
_IPU_COLS = (
    "result_id, model, variant, platform, framework, precision, batch_size, value, "
    'unit, value_as_printed, latency_ms, sdk_version, source_file, "table", "row", '
    "metric, mlperf_id, mlperf_round, division"
)


def _dicts(db: Database, sql: str, params: dict[str, Any]) -> Rows:
    cur = db.cursor().execute(sql, params)
    cols = [d[0] for d in cur.description or ()]
    return [dict(zip(cols, r)) for r in cur.fetchall()]


def vendor_rows(db: Database, platforms: list[str]) -> Rows:
    """The vendor's own throughput table rows of these platforms (one query)."""
    return _dicts(
        db,
        f"SELECT {_IPU_COLS}, task FROM results_v WHERE list_contains($p, platform) "
        "AND metric = 'throughput' AND source_file <> 'gpu-reference/figures.csv' "
        "ORDER BY result_id",
        {"p": platforms},
    )


def ipu_rows_of(rows: Rows, cat: Catalogue, cmp: dict[str, Any]) -> Rows:
    """Of the vendor's rows, those of the comparison's IPU system, task and
    model (any spelling of it: canonical names)."""
    want = cat.canonical("model", cmp["model"])
    return [
        r
        for r in rows
        if r["platform"] == cmp["ipu_system"]
        and r["task"] == cmp["task"]
        and cat.canonical("model", r["model"]) == want
    ]


def ipu_rows(db: Database, cat: Catalogue, cmp: dict[str, Any]) -> Rows:
    """The vendor's own table rows of one comparison's IPU system, task, model."""
    return ipu_rows_of(vendor_rows(db, [cmp["ipu_system"]]), cat, cmp)


def gpu_rows_of(gpu: Rows, cmps: Rows, comparison_id: str) -> Rows:
    """NVIDIA's published figures given for one comparison (all roles), or for
    another comparison of the same chart (the BERT chart's 2x DGX A100 bar is
    computed from the 1x figures)."""
    (c,) = [c for c in cmps if c["comparison_id"] == comparison_id]
    chart = {
        o["comparison_id"]
        for o in cmps
        if (o["source_file"], o["chart"]) == (c["source_file"], c["chart"])
    }
    return [g for g in gpu if chart & set(str(g["comparison_ids"]).split())]


def gpu_rows(db: Database, comparison_id: str) -> Rows:
    """:func:`gpu_rows_of` one comparison, read from the store."""
    return gpu_rows_of(
        _dicts(db, "SELECT * FROM gpu_reference ORDER BY result_id", {}),
        _dicts(db, "SELECT * FROM comparisons", {}),
        comparison_id,
    )


def mlperf_rows(db: Database) -> Rows:
    """The store's MLPerf Training results with a score (bundled, from the
    official logs, and any imported), under the ids the store shows them by
    (a result the vendor's page also prints keeps the page's id)."""
    return _dicts(
        db,
        "SELECT result_id, mlperf_round, submitter, system_id, system_name, "
        "mlperf_benchmark, division, availability, category, mlperf_id, "
        "accelerator_type, "
        "accelerator, accelerator_model, accelerators, framework, value, path "
        "FROM results_v WHERE mlperf_round IS NOT NULL AND value IS NOT NULL "
        "AND metric = 'time_to_train' ORDER BY result_id",
        {},
    )


def training_rows(db: Database) -> Rows:
    """The store's MLPerf Training results with a score, with their MLCommons
    category (for the rounds after the vendor's claims)."""
    return _dicts(
        db,
        "SELECT result_id, mlperf_round, submitter, system_name, mlperf_benchmark, "
        "division, category, accelerator_type, accelerators, value "
        "FROM results_v WHERE task = 'training' AND mlperf_round IS NOT NULL "
        "AND value IS NOT NULL AND metric = 'time_to_train' ORDER BY result_id",
        {},
    )


def inference_rows(db: Database) -> Rows:
    """The store's MLPerf Inference results with a figure (bundled and any
    imported)."""
    return _dicts(
        db,
        "SELECT result_id, mlperf_round, submitter, system_id, system_name, "
        "mlperf_benchmark, scenario, division, category, accelerator_type, "
        "accelerator_memory_gb, accelerators, framework_as_printed, value, path "
        "FROM results_v WHERE source = 'MLPerf Inference' AND value IS NOT NULL "
        "ORDER BY result_id",
        {},
    )


@dataclass(frozen=True)
class EvidenceSource:
    """One kind of independent evidence: its rows (one query, run once per
    audit) and what it offers each claim and comparison."""

    name: str
    rows: Callable[[Database], Rows]
    nearest: Nearest


# Every source of nearest independent evidence, in the order their lines are
# shown; the first one that recomputes a claim its own rule cannot is used.
SOURCES: tuple[EvidenceSource, ...] = (
    EvidenceSource("MLPerf Training", mlperf_rows, comparison_evidence),
    EvidenceSource("MLPerf Inference", inference_rows, inference_evidence),
    EvidenceSource(
        "MLPerf Training, later rounds", training_rows, later_rounds_evidence
    ),
)


def audit_all(db: Database, cat: Catalogue) -> list[Audit]:
    """Every comparison (comparisons.csv order), then every claim (claims.csv)."""
    source_rows = [(s, s.rows(db)) for s in SOURCES]
    mlperf = next((r for s, r in source_rows if s.rows is mlperf_rows), None)
    mlperf = mlperf_rows(db) if mlperf is None else mlperf
    cmps = _dicts(db, "SELECT * FROM comparisons ORDER BY comparison_id", {})
    # Read once, shared out per comparison: a query per comparison against
    # results_v was most of the audit's time.
    vendor = vendor_rows(db, sorted({c["ipu_system"] for c in cmps}))
    gpu = _dicts(db, "SELECT * FROM gpu_reference ORDER BY result_id", {})
    claims = _dicts(db, "SELECT * FROM claims ORDER BY claim_id", {})

    def evidence(item: dict[str, Any], kind: str, vendor: Rows) -> list[Evidence]:
        return [s.nearest(item, kind, vendor, rows, cat) for s, rows in source_rows]

    out = []
    for cmp in cmps:
        ipu = ipu_rows_of(vendor, cat, cmp)
        out.append(
            audit_comparison(
                cmp,
                ipu,
                gpu_rows_of(gpu, cmps, cmp["comparison_id"]),
                cat,
                evidence(cmp, "comparison", ipu),
                cmps,
            )
        )
    vendor_mlperf = _dicts(
        db,
        f"SELECT {_IPU_COLS} FROM results_v WHERE mlperf_id IS NOT NULL "
        "ORDER BY result_id",
        {},
    )
    stated = {
        c["comparison_id"]: (c["ratio_stated"], c["ratio_as_printed"], c["source_file"])
        for c in cmps
        if c["ratio_stated"] is not None
    } | {
        c["claim_id"]: (
            c["stated_change"],
            f"{c['qualifier'] or ''} {c['stated_change']:g}{c['change_unit'] or ''}",
            c["source_file"],
        )
        for c in claims
        if c["stated_change"] is not None
    }
    ctx = Context(vendor_mlperf, mlperf, cat, stated)
    for claim in claims:
        out.append(audit_claim(claim, ctx, evidence(claim, "claim", vendor_mlperf)))
    return out


def audit_store(db: Database, data_dir: Path) -> list[Audit]:
    """Every claim and comparison, names resolved with the entity tables
    bundled in ``data_dir``."""
    return audit_all(db, load(data_dir / "entities"))


def stored_ids(db: Database, audits: list[Audit]) -> frozenset[str]:
    """Which of the results the audits used are rows of the store (all of
    them, unless a store lacks a row a claim names)."""
    ids = sorted({i for a in audits for i in a.result_ids})
    rows = db.cursor().execute(
        "SELECT result_id FROM results_v WHERE list_contains($ids, result_id)",
        {"ids": ids},
    )
    return frozenset(r[0] for r in rows.fetchall())
