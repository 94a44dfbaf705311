"""The vendor's MLPerf claims checked against MLPerf results, and the nearest
independent MLPerf evidence for each IPU-versus-GPU comparison.

MLPerf rows are figures derived from the official logs (data/mlperf_training.csv);
ratios and per-chip figures made from them are not verified by MLCommons.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ipubench_gui.domain.claims import (
    CONSISTENT,
    INCONSISTENT,
    NOT_CHECKABLE,
    Audit,
    Figure,
    figure_of,
    percent_less,
    verdict,
)
from ipubench_gui.domain.entities import Catalogue

Row = Mapping[str, Any]
AVAILABLE = ("onprem", "cloud", "available", "Available on-premise")
NOT_VERIFIED = "derived from MLPerf results; not verified by MLCommons"
ON_PAR_PERCENT = 2.0  # "on par": times within 2% of each other (our reading)


def _fig(r: Row) -> Figure:
    return figure_of(
        r,
        "MLPerf",
        f"v{r['mlperf_round']} {r['division']} {r['availability']} {r['submitter']} "
        f"{r['system_name']} "
        f"({r['accelerators']}× {r['accelerator_type']}), {r['mlperf_benchmark']}",
        source=f"MLPerf Training v{r['mlperf_round']} results, {r['path']}",
        unit="min",
        as_printed=f"{float(r['value']):.2f} min",
    )


def _vendor_fig(r: Row) -> Figure:
    return figure_of(
        r, "IPU", f"{r['platform']} · {r['framework']} · MLPerf ID {r['mlperf_id']}"
    )


def _bench(rows: Sequence[Row], cat: Catalogue, model: str) -> list[Row]:
    want = cat.canonical("model", model)
    names = {
        b: cat.canonical("model", b) for b in {r["mlperf_benchmark"] for r in rows}
    }
    return [
        r
        for r in rows
        if names[r["mlperf_benchmark"]] == want
        and r["division"] == "closed"
        and r["availability"] in AVAILABLE
    ]


def _best(rows: Sequence[Row]) -> Row | None:
    return min(rows, key=lambda r: float(r["value"])) if rows else None


def _ipu(rows: Sequence[Row], rnd: str, n: int | None = None) -> list[Row]:
    return [
        r
        for r in rows
        if r["mlperf_round"] == rnd
        and "IPU" in str(r["accelerator_type"])
        and (n is None or int(r["accelerators"]) == n)
    ]


def _dgx(rows: Sequence[Row], rnd: str) -> Row | None:
    return _best(
        [
            r
            for r in rows
            if r["mlperf_round"] == rnd
            and r["accelerator_type"] == "A100"
            and int(r["accelerators"]) == 8
            and r["submitter"] == "NVIDIA"
        ]
    )


def comparison_evidence(cmp: Row, mlperf: Sequence[Row], cat: Catalogue) -> list[str]:
    """Per round: the smallest IPU system's and NVIDIA's 8×A100 time to train on
    the same MLPerf benchmark, and per chip (chip-minutes)."""
    rows = _bench(mlperf, cat, cmp["model"])
    if cmp["task"] != "training" or not rows:
        return (
            [
                "no MLPerf Training benchmark for this model"
                + (
                    " (MLPerf Training has no inference results)"
                    if cmp["task"] == "inference"
                    else ""
                )
            ]
            if mlperf
            else []
        )
    out = []
    for rnd in sorted({r["mlperf_round"] for r in rows}):
        ipus = _ipu(rows, rnd)
        gpu = _dgx(rows, rnd)
        if not ipus or gpu is None:
            continue
        n = min(int(r["accelerators"]) for r in ipus)
        ipu = _best([r for r in ipus if int(r["accelerators"]) == n])
        assert ipu is not None
        iv, gv = float(ipu["value"]), float(gpu["value"])
        out.append(
            f"MLPerf v{rnd} {ipu['mlperf_benchmark']} (closed): {ipu['system_name']} "
            f"({n}× {ipu['accelerator_type']}) {iv:.2f} min [{ipu['result_id']}] vs "
            f"{gpu['system_name']} (8× A100) {gv:.2f} min [{gpu['result_id']}]; "
            f"per chip {iv * n:,.0f} vs {gv * 8:,.0f} chip-minutes — not like for "
            f"like: time to train to a quality target, not the chart's "
            f"{cmp['metric'].replace('_', ' ')}; {n} IPUs vs 8 GPUs; {NOT_VERIFIED}"
        )
    return out


def _claim_base(c: Row) -> dict[str, Any]:
    change = c.get("stated_change")
    q = c.get("qualifier") or ""
    figure = f"{change:g}{c.get('change_unit') or ''}" if change is not None else ""
    if not figure:
        stated = q or "no figure stated"
    elif q in ("up to", "over"):
        stated = f"{q} {figure}"
    else:
        stated = f"{figure} {q}".strip()
    return dict(
        claim_id=c["claim_id"],
        kind="claim",
        subject=c["subject"],
        stated=stated,
        stated_value=change,
    )


def _less_time(c: Row, pairs: list[tuple[Row, Row]], what: str) -> Audit:
    """Percent less time, per pair (before, after); "up to" takes the largest."""
    base = _claim_base(c)
    lines, figs = [], []
    best = None
    for before, after in pairs:
        b, a = float(before["value"]), float(after["value"])
        p = percent_less(b, a)
        lines.append(
            f"({b:.4f} − {a:.4f}) ÷ {b:.4f} = {p:.2f}% less time "
            f"({before['system_name']} → {after['system_name']})"
        )
        figs += [_fig(before), _fig(after)]
        best = p if best is None else max(best, p)
    if best is None:
        return Audit(**base, reason=f"{what} not in the stored MLPerf results")
    v, why = verdict(float(c["stated_change"]), f"{c['stated_change']:g}", best)
    return Audit(
        **base,
        recomputed=best,
        recomputed_text=f"{best:.1f}% less time",
        verdict=v,
        reason=why,
        figures=tuple(figs),
        arithmetic=tuple(lines),
        not_like_for_like=(
            "the claim says “faster”; read here as less time to train",
            NOT_VERIFIED,
        ),
        derived=True,
    )


def _previous_round(c: Row, rows: Sequence[Row]) -> Audit:
    pairs = []
    for n in sorted({int(r["accelerators"]) for r in _ipu(rows, "2.0")}):
        before, after = _best(_ipu(rows, "1.1", n)), _best(_ipu(rows, "2.0", n))
        if before and after:
            pairs.append((before, after))
    return _less_time(c, pairs, "IPU results of both rounds")


def _on_par(c: Row, vendor: Sequence[Row]) -> Audit:
    base = _claim_base(c)
    ids = str(c.get("mlperf_ids") or "")
    mine = [r for r in vendor if r["mlperf_id"] and r["mlperf_id"] in ids]
    by_platform: dict[str, dict[str, Row]] = {}
    for r in mine:
        by_platform.setdefault(r["platform"], {})[r["framework"]] = r
    lines, figs, worst = [], [], 0.0
    for platform, fws in sorted(by_platform.items()):
        if {"PaddlePaddle", "PopART"} <= set(fws):
            p, q = fws["PaddlePaddle"], fws["PopART"]
            d = abs(p["value"] - q["value"]) / q["value"] * 100
            worst = max(worst, d)
            lines.append(
                f"{platform}: PaddlePaddle {p['value_as_printed']} vs PopART "
                f"{q['value_as_printed']} min: {d:.2f}% apart"
            )
            figs += [_vendor_fig(p), _vendor_fig(q)]
    if not lines:
        return Audit(**base, reason="the results named are not stored")
    ok = worst < ON_PAR_PERCENT
    return Audit(
        **base,
        recomputed=worst,
        recomputed_text=f"at most {worst:.1f}% apart",
        verdict=CONSISTENT if ok else INCONSISTENT,
        reason=f"“on par” read as within {ON_PAR_PERCENT:g}% (our reading)",
        figures=tuple(figs),
        arithmetic=tuple(lines),
    )


def audit_claim(
    c: Row, vendor: Sequence[Row], mlperf: Sequence[Row], cat: Catalogue
) -> Audit:
    """One claim of claims.csv, checked where the stored results allow."""
    cid = c["claim_id"]
    rows = _bench(mlperf, cat, c["model"]) if c.get("model") else []
    if cid == "clm-bow16-vs-dgx640-rn50":
        bow = _best(
            [r for r in _ipu(rows, "2.0", 16) if "Bow" in r["accelerator_type"]]
        )
        gpu = _dgx(rows, "2.0")
        pairs = [(gpu, bow)] if bow and gpu else []
        return _less_time(c, pairs, "Bow Pod16 or DGX-A100 640GB MLPerf v2.0 result")
    if cid in ("clm-rn50-vs-v11", "clm-bert-vs-v11"):
        return _previous_round(c, rows)
    if c.get("qualifier") == "on par":
        return _on_par(c, vendor)
    base = _claim_base(c)
    if c.get("mlperf_ids") and c.get("figures_in_text") is False:
        return Audit(
            **base,
            reason="the document lists MLPerf IDs without figures or benchmarks",
            evidence=tuple(
                f"{r['result_id']}: v1.1 {r['system_name']} {r['mlperf_benchmark']} "
                f"{float(r['value']):.2f} min ({NOT_VERIFIED})"
                for r in mlperf
                if r["mlperf_round"] == "1.1" and r["submitter"] == "Graphcore"
            ),
        )
    if c.get("mlperf_ids"):
        mine = [
            r for r in vendor if r["mlperf_id"] and r["mlperf_id"] in c["mlperf_ids"]
        ]
        return Audit(
            **base,
            reason="the claim states no figure to check",
            figures=tuple(_vendor_fig(r) for r in mine),
        )
    return Audit(
        **base, verdict=NOT_CHECKABLE, reason="no figures in any stored source"
    )
