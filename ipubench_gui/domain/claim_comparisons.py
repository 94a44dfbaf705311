"""IPU-versus-GPU comparisons audited: the rule of each kind recomputes
(``domain.claim_rules``), the chart's own two sides are compared (chips
first), the vendor's other figures for the same chart are set beside, and
``domain.claims.audit`` judges.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ipubench_gui.domain.claim_evidence import Evidence
from ipubench_gui.domain.claim_rules import (
    NO_GPU,
    Fields,
    bert_time_to_train,
    frameworks,
    lowest_latency,
    training_throughput,
)
from ipubench_gui.domain.claims import (
    Audit,
    audit,
    chart_figure,
    fmt,
    ratio_text,
)
from ipubench_gui.domain.entities import Catalogue
from ipubench_gui.domain.verdicts import Agreement, Difference, agreement

Row = Mapping[str, Any]


def chart_figures(cmp: Row) -> Fields:
    """Ratios from the figures the vendor prints for the chart (no stored GPU
    row): IPU ÷ GPU for throughput, GPU ÷ IPU for times; an IPU time printed
    as an upper bound gives a lower bound on the ratio."""
    gv, iv = cmp.get("gpu_value"), cmp.get("ipu_value")
    if gv is None:
        d: Fields = dict(why_not=NO_GPU + f" (cited: {cmp.get('gpu_source')})")
        if iv is not None and cmp.get("ratio_stated"):
            unit = cmp.get("value_unit") or ""
            if cmp["task"] == "inference":
                # The inference charts compare at lowest latency; an IPU figure
                # printed without its latency is another point of the curve.
                line = (
                    f"no GPU figure follows from the vendor's numbers: the "
                    f"{cmp['ratio_stated']:g}x is stated at lowest latency, the "
                    f"IPU's {fmt(iv)} {unit} is not stated at that latency "
                    f"({cmp.get('values_note') or 'no latency printed'})"
                )
            else:
                line = (
                    f"GPU figure implied by the vendor's own numbers: {fmt(iv)} ÷ "
                    f"{cmp['ratio_stated']:g} = {fmt(iv / cmp['ratio_stated'])} "
                    f"{unit} (derived)"
                )
            d |= dict(figures=[chart_figure(cmp, "IPU", iv)], arithmetic=[line])
        return d
    unit = cmp.get("value_unit") or ""
    ipus = [x for x in (iv, cmp.get("ipu_value_alt")) if x is not None]
    if cmp["metric"] == "throughput":
        ratios = [x / gv for x in ipus]
        lines = [f"{fmt(x)} ÷ {fmt(gv)} {unit} = {ratio_text(x / gv)}" for x in ipus]
    else:
        ratios = [gv / x for x in ipus]
        lines = [
            f"{fmt(gv)} ÷ {fmt(x)} {unit} = {ratio_text(gv / x)} (GPU time ÷ IPU "
            "time: “faster” as a ratio of times, the same as a ratio of speeds)"
            for x in ipus
        ]
    notes = []
    if cmp.get("values_uncertain"):
        notes.append(
            Difference(
                "attribution",
                "which chart these figures belong to is uncertain: the document "
                "prints them between two charts, so they cannot check this one",
            )
        )
    if cmp.get("values_note"):
        lines.insert(0, f"the figures: {cmp['values_note']}")
    bound = "less than" in str(cmp.get("values_note"))
    if bound:
        lines.append(
            "the IPU time is printed as an upper bound: the ratio is at least this"
        )
    return dict(
        recomputed=max(ratios),
        recomputed_text=" and ".join(ratio_text(r) for r in sorted(ratios))
        + (" or more" if bound else ""),
        lower_bound=bound,
        figures=[chart_figure(cmp, "IPU", x) for x in ipus]
        + [chart_figure(cmp, "GPU", gv)],
        arithmetic=lines,
        differences=notes,
    )


RULES = {
    ("training", "throughput"): training_throughput,
    ("inference", "throughput"): lowest_latency,
    ("inference", "latency"): lowest_latency,
    ("training", "time_to_train"): bert_time_to_train,
}


def _sides(cmp: Row, cat: Catalogue, ratio: float | None) -> list[Difference]:
    """How the chart's own two sides differ: chips first (with the ratio per
    chip), then precision and framework, as the chart notes print them."""
    out = []
    ni, ng = cat.chips(cmp["ipu_system"]), cat.chips(cmp["gpu_system"])
    if ni is None or ng is None:
        unknown = cmp["ipu_system"] if ni is None else cmp["gpu_system"]
        out.append(Difference("chips", f"chips in {unknown} unknown", False))
    elif ni != ng:
        text = (
            f"{ni} IPUs ({cmp['ipu_system']}) against {ng} GPU"
            f"{'s' if ng > 1 else ''} ({cmp['gpu_system']})"
        )
        if ratio is not None and cmp["metric"] != "latency":
            text += (
                f"; per chip {ratio_text(ratio)} × {ng}/{ni} = "
                f"{ratio_text(ratio * ng / ni)} ("
                + (
                    "throughput per chip, IPU ÷ GPU"
                    if cmp["metric"] == "throughput"
                    else "GPU chip-time ÷ IPU chip-time: time × accelerators"
                )
                + ", derived)"
            )
        out.append(Difference("chips", text, False))
    ip, gp = cmp.get("ipu_precision"), cmp.get("gpu_precision")
    if ip and gp and ip.replace(" ", "").lower() != gp.replace(" ", "").lower():
        out.append(Difference("precision", f"IPU {ip} against GPU {gp}", False))
    ifw = {cat.canonical("framework", f) for f in frameworks(cmp.get("ipu_framework"))}
    gfw = cmp.get("gpu_framework")
    if gfw and ifw and cat.canonical("framework", gfw) not in ifw:
        out.append(
            Difference(
                "framework", f"IPU {cmp['ipu_framework']} against GPU {gfw}", False
            )
        )
    if cmp.get("gpu_system") == "Latest GPU":
        out.append(Difference("system", "the GPU is not named (“Latest GPU”)", False))
    return out


def _chart_batches(cmp: Row) -> list[Difference]:
    """The batch sizes the chart notes print for its two sides, when they
    differ: listed where no figures of either side were used to recompute."""
    ib, gb = str(cmp.get("ipu_batch") or ""), str(cmp.get("gpu_batch") or "")
    if ib and gb and ib.strip() != gb.strip():
        return [
            Difference(
                "batch", f"IPU batch {ib} against GPU batch {gb} (chart notes)", False
            )
        ]
    return []


def _agree(cmp: Row, d: Fields) -> Agreement | None:
    if d.get("recomputed") is None or cmp.get("ratio_stated") is None:
        return None
    return agreement(
        cmp["ratio_stated"],
        cmp.get("ratio_as_printed") or f"{cmp['ratio_stated']:g}",
        d["recomputed"],
        unit="x",
        more_than=cmp.get("ratio_qualifier") == ">",
        lower_bound=bool(d.get("lower_bound")),
    )


_SAME_COMPARISON = ("source_file", "chart", "variant", "gpu_system", "metric")


def conflicts(cmp: Row, charted: Sequence[Row]) -> list[str]:
    """Other ratios the vendor states for the same comparison (same document
    and chart, same GPU side and metric): the vendor disagreeing with itself."""
    return [
        f"the vendor states {o.get('ratio_as_printed')} for the same comparison "
        f"({o['comparison_id']}); its figures for one chart disagree"
        for o in charted
        if o["comparison_id"] != cmp["comparison_id"]
        and [o.get(k) for k in _SAME_COMPARISON]
        == [cmp.get(k) for k in _SAME_COMPARISON]
        and o.get("ratio_stated") is not None
        and cmp.get("ratio_stated") is not None
        and o["ratio_stated"] != cmp["ratio_stated"]
    ]


def audit_comparison(
    cmp: Row,
    ipu: Sequence[Row],
    gpu: Sequence[Row],
    cat: Catalogue,
    evidence: Sequence[Evidence] = (),
    charted: Sequence[Row] = (),
) -> Audit:
    """Recompute one comparison from the rows given; when its own rule has
    nothing, the first evidence source that recomputes it is used (see
    ``domain.claim_evidence``)."""
    rule = RULES.get((cmp["task"], cmp["metric"]))
    usable = any(
        g["value"] is not None and g["metric"] != "training_steps" for g in gpu
    )
    d = rule(cmp, ipu, gpu) if rule is not None and usable else chart_figures(cmp)
    if d.get("recomputed") is None:
        if gpu and not usable and d.get("why_not", "").startswith(NO_GPU):
            d["why_not"] = (
                NO_GPU + ": the cited NVIDIA page has no dated copy and NVIDIA "
                "published no stand-in for it in any stored source"
            )
        reading = next((e.reading for e in evidence if e.reading), None)
        if reading is not None:
            d = reading.fields() | dict(why_not=d.get("why_not", ""))
    ratio = d.get("recomputed")
    stated = cmp.get("ratio_stated")
    diffs = list(d.get("differences", ()))
    if not any(x.aspect == "batch" for x in diffs):
        diffs += _chart_batches(cmp)
    return audit(
        claim_id=cmp["comparison_id"],
        kind="comparison",
        subject=f"{cmp['chart']} — {cmp['ipu_system']} vs {cmp['gpu_system']}",
        stated=cmp.get("ratio_as_printed") or "no ratio stated",
        stated_value=stated,
        recomputed=ratio,
        recomputed_text=d.get("recomputed_text")
        or ("" if ratio is None else ratio_text(ratio)),
        agreed=_agree(cmp, d),
        why_not=d.get("why_not")
        or ("the chart states no ratio" if stated is None else ""),
        figures=tuple(d.get("figures", ())),
        arithmetic=tuple(d.get("arithmetic", ())) + tuple(conflicts(cmp, charted)),
        differences=_sides(cmp, cat, ratio) + diffs,
        derived=bool(d.get("derived")),
        evidence=tuple(line for e in evidence for line in e.lines),
    )
