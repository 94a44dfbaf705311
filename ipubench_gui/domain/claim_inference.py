"""MLPerf Inference results as the nearest independent evidence for the
vendor's inference comparisons (and MLPerf Training's later rounds for the
claims that speak of "today's" or the latest GPUs).

An MLPerf figure is never the vendor's setup: Offline is every query at once
with no latency bound, Server a query stream under a latency bound, neither the
vendor's throughput "at the lowest latency"; MLPerf's BERT is SQuAD v1.1 at
sequence length 384 with an accuracy target; a figure per GPU is a system's
figure divided by its GPUs. Every such difference is listed, so the audit's one
rule (``domain.verdicts.judge``) can only call the result "nearest evidence
only". Figures derived from MLPerf results are not verified by MLCommons.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ipubench_gui.domain.claim_evidence import Evidence, Reading
from ipubench_gui.domain.claim_rules import ipu_figure
from ipubench_gui.domain.claims import Figure, chart_figure, fmt, ratio_text
from ipubench_gui.domain.entities import Catalogue
from ipubench_gui.domain.mlperf_names import AVAILABLE
from ipubench_gui.domain.verdicts import Difference

Row = Mapping[str, Any]
NOT_VERIFIED = "derived from MLPerf results; not verified by MLCommons"
# canonical model -> the MLPerf Inference benchmark that runs it (closed)
BENCHMARKS = {"ResNet-50 v1.5": "resnet50", "BERT-Large": "bert-99"}
# what each benchmark is, beyond the model's name
WORKLOADS = {
    "resnet50": "ImageNet 2012 validation images, accuracy target 99% of FP32 top-1",
    "bert-99": "SQuAD v1.1 at sequence length 384, accuracy target 99% of FP32 F1",
}
_GB = re.compile(r"(\d+)\s*GB", re.IGNORECASE)
_SL = re.compile(r"SL\s*(\d+)", re.IGNORECASE)


def _per_chip(r: Row) -> float:
    return float(r["value"]) / int(r["accelerators"])


def _gpu_rows(rows: Sequence[Row], bench: str, gpu: str, cat: Catalogue) -> list[Row]:
    """Closed, available results of ``bench`` on the comparison's GPU (its
    chip, and its memory where both say), each with a chip count."""
    ent = cat.entity("accelerator", gpu) or cat.entity("system", gpu)
    gen = (ent.get("generation") if ent else None) or gpu.split()[0]
    m = _GB.search(gpu)
    mem = int(m[1]) if m else None
    return [
        r
        for r in rows
        if r["mlperf_benchmark"] == bench
        and r["division"] == "closed"
        and r["category"] in AVAILABLE
        and r["accelerator_type"] == gen
        and r["accelerators"]
        and (mem is None or r.get("accelerator_memory_gb") in (None, mem))
    ]


def _line(r: Row) -> str:
    n = int(r["accelerators"])
    return (
        f"MLPerf Inference v{r['mlperf_round']} {r['mlperf_benchmark']} "
        f"{r['scenario']} (closed): {r['submitter']} {r['system_name']} "
        f"({n}× {r['accelerator_type']}) {fmt(float(r['value']))} samples/s "
        f"[{r['result_id']}]; per GPU {fmt(_per_chip(r))} samples/s ({NOT_VERIFIED})"
    )


def _differences(item: Row, r: Row, bench: str, ipu: Row | None) -> list[Difference]:
    """How the MLPerf figure differs from what the comparison states: every
    way, so no verdict is drawn from it."""
    n = int(r["accelerators"])
    out = [
        Difference(
            "derived",
            f"the GPU figure is the {r['scenario']} throughput of a system of {n} "
            f"GPUs ÷ {n}, not one GPU measured alone",
        ),
        Difference(
            "workload",
            "MLPerf Offline: every query at once, with no latency bound — not the "
            "chart's throughput at the lowest latency"
            + (
                f"; nor is the IPU's {fmt(float(item['ipu_value']))} "
                f"{item.get('value_unit') or ''} (its absolute throughput, not "
                "stated at that latency)"
                if item.get("ipu_value") is not None
                else ""
            ),
        ),
        Difference(
            "dataset",
            f"MLPerf {bench}: {WORKLOADS[bench]}"
            + (
                "; the chart's figures are on synthetic data"
                if item.get("data") == "synthetic"
                else ""
            ),
        ),
        Difference(
            "date",
            f"a later measurement with other software (MLPerf Inference "
            f"v{r['mlperf_round']}), not the GPU figure the chart used ("
            f"{item.get('gpu_source') or 'not named'})",
        ),
    ]
    sl = _SL.search(str(ipu.get("variant") or "")) if ipu else None
    if bench == "bert-99" and sl and int(sl[1]) != 384:
        out.append(
            Difference(
                "workload",
                f"sequence length: MLPerf 384 against the IPU's {sl[1]}",
            )
        )
    fw, gfw = r.get("framework_as_printed"), item.get("gpu_framework")
    if fw and gfw and str(gfw).split()[0].lower() not in str(fw).lower():
        out.append(
            Difference("framework", f"GPU software: MLPerf run {fw}, chart {gfw}")
        )
    return out


def inference_evidence(
    item: Row, kind: str, vendor: Sequence[Row], rows: Sequence[Row], cat: Catalogue
) -> Evidence:
    """For an inference comparison whose model MLPerf Inference runs: the
    earliest round's best closed, available Offline result per GPU of the
    chart's GPU (and the same system's Server figure), as lines, and a reading
    of the stated ratio from it (the chart's IPU figure ÷ the MLPerf figure
    per GPU) with every difference. Other inference comparisons get a line
    saying MLPerf has no such benchmark."""
    if kind != "comparison" or item.get("task") != "inference" or not rows:
        return Evidence()
    model = cat.canonical("model", item["model"])
    bench = BENCHMARKS.get(model or "")
    if bench is None:
        return Evidence(
            (
                f"no MLPerf Inference benchmark for {item['model']} (the stored "
                "closed-division rounds 1.0–3.0 run ResNet-50 and BERT-Large)",
            )
        )
    cands = _gpu_rows(rows, bench, str(item["gpu_system"]), cat)
    offline = [r for r in cands if r["scenario"] == "Offline"]
    if not offline:
        return Evidence(
            (f"no MLPerf Inference {bench} result on {item['gpu_system']}",)
        )
    first = min(tuple(int(x) for x in r["mlperf_round"].split(".")) for r in offline)
    rnd = ".".join(map(str, first))
    pick = max(
        (r for r in offline if r["mlperf_round"] == rnd),
        key=lambda r: (_per_chip(r), r["result_id"]),
    )
    server = [
        r
        for r in cands
        if r["scenario"] == "Server"
        and (r["mlperf_round"], r["submitter"], r["system_id"])
        == (pick["mlperf_round"], pick["submitter"], pick["system_id"])
    ]
    lines = [_line(pick), *(_line(r) for r in server)]
    lines.append(
        "Graphcore submitted to no MLPerf Inference round: these are the GPU side only"
    )
    ipu_value = item.get("ipu_value")
    ipu_row = min(vendor, key=lambda r: r.get("latency_ms") or 1e9, default=None)
    if ipu_value is None:  # the vendor's own table row at its lowest latency
        if ipu_row is None or ipu_row.get("value") is None:
            return Evidence(tuple(lines))
        ipu_value = float(ipu_row["value"])
    per = _per_chip(pick)
    n = int(pick["accelerators"])
    # the chart's own figure where it prints one (in the document that
    # prints it), else the vendor's table row with its own source
    ipu_fig = (
        chart_figure(item, "IPU", float(ipu_value))
        if item.get("ipu_value") is not None or ipu_row is None
        else ipu_figure(ipu_row)
    )
    gpu_fig = Figure(
        str(pick["result_id"]),
        "GPU",
        per,
        "samples/s per GPU",
        f"{fmt(float(pick['value']))} samples/s on {n} GPUs",
        f"{pick['submitter']} {pick['system_name']} ({n}× {pick['accelerator_type']}), "
        f"{bench} {pick['scenario']}, closed",
        f"MLPerf Inference v{pick['mlperf_round']} results, {pick['path']}",
        whose="MLPerf",
    )
    ratio = float(ipu_value) / per
    lines.append(
        f"against it per GPU: IPU {fmt(float(ipu_value))} ÷ {fmt(per)} = "
        f"{ratio_text(ratio)} (derived; not like for like: MLPerf Offline against "
        f"the chart's lowest latency, {WORKLOADS[bench]})"
    )
    reading = Reading(
        ratio,
        (ipu_fig, gpu_fig),
        (
            f"GPU per chip: {fmt(float(pick['value']))} ÷ {n} = {fmt(per)} "
            f"samples/s ({NOT_VERIFIED})",
            f"throughput: IPU {fmt(float(ipu_value))} ÷ GPU {fmt(per)} = "
            f"{ratio_text(ratio)}",
            *(
                [
                    f"the stated {item.get('ratio_as_printed')} is at the lowest "
                    f"latency; the IPU's {fmt(float(ipu_value))} is its absolute "
                    "throughput, not stated at that latency: both figures here "
                    "are without a latency bound"
                ]
                if item.get("ipu_value") is not None
                else []
            ),
        ),
        tuple(_differences(item, pick, bench, ipu_row)),
        f"{ratio_text(ratio)} (MLPerf {pick['scenario']}, per GPU)",
    )
    return Evidence(tuple(lines), reading)


# -- MLPerf Training's later rounds, for "today's" and generation claims --
TRAINING_BENCHMARKS = {"ResNet-50 v1.5": "resnet", "BERT-Large": "bert"}
# claims that set the IPU against "today's" GPU or against its own earlier
# generation (claims.csv checked_by): later rounds show what came after
LATER_CHECKS = ("mlperf_speedup", "mlperf_versus", "mlperf_previous_round")


def _round_key(r: str) -> tuple[int, ...]:
    return tuple(int(x) for x in str(r).split("."))


def _benchmarks_of(item: Row, cat: Catalogue) -> list[str]:
    models = [m.strip() for m in str(item.get("model") or "").split(";") if m.strip()]
    if not models:  # "across the board": the two benchmarks IPUs ran
        return ["resnet", "bert"]
    out = []
    for m in models:
        b = TRAINING_BENCHMARKS.get(cat.canonical("model", m) or "")
        if b and b not in out:
            out.append(b)
    return out


def later_rounds_evidence(
    item: Row, kind: str, vendor: Sequence[Row], rows: Sequence[Row], cat: Catalogue
) -> Evidence:
    """For a training comparison, and a claim that speaks of "today's" GPU or
    compares IPU generations: per MLPerf Training round after the last one
    with an IPU result, the fastest closed, available result on 8 chips of
    the benchmark, and that no IPU took part. Lines only: other chips, other
    years, a time to train to a quality target."""
    if kind == "comparison" and item.get("task") != "training":
        return Evidence()
    if kind == "claim" and item.get("checked_by") not in LATER_CHECKS:
        return Evidence()
    benches = (
        _benchmarks_of(item, cat)
        if kind == "claim"
        else [
            b
            for b in [
                TRAINING_BENCHMARKS.get(cat.canonical("model", item["model"]) or "")
            ]
            if b
        ]
    )
    ipu_rounds = [
        r["mlperf_round"] for r in rows if "IPU" in str(r["accelerator_type"])
    ]
    if not benches or not ipu_rounds:
        return Evidence()
    last = max(ipu_rounds, key=_round_key)
    lines = []
    for bench in benches:
        later = [
            r
            for r in rows
            if r["mlperf_benchmark"] == bench
            and _round_key(r["mlperf_round"]) > _round_key(last)
            and r["division"] == "closed"
            and r["category"] in AVAILABLE
            and int(r["accelerators"] or 0) == 8
        ]
        for rnd in sorted({r["mlperf_round"] for r in later}, key=_round_key):
            top = min(
                (r for r in later if r["mlperf_round"] == rnd),
                key=lambda r: (float(r["value"]), r["result_id"]),
            )
            lines.append(
                f"MLPerf Training v{rnd} {bench} (closed, available), fastest on 8 "
                f"chips: {top['submitter']} {top['system_name']} (8× "
                f"{top['accelerator_type']}) {float(top['value']):.2f} min "
                f"[{top['result_id']}]; per chip {float(top['value']) * 8:,.0f} "
                f"chip-minutes (time × accelerators, derived); no IPU result in "
                f"this round"
            )
    if lines:
        lines.insert(
            0,
            f"later MLPerf Training rounds: the last with an IPU result is v{last}; "
            "what came after, for a claim about “today's” GPU or a generation:",
        )
    return Evidence(tuple(lines))
