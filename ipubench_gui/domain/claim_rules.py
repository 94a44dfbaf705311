"""How each IPU-versus-GPU comparison is recomputed from stored figures.

The rows come from ``store.query.claims`` (the vendor's table rows of the stated
system and model, and NVIDIA's published figures cited for the comparison);
here they are chosen by the comparison's stated conditions (framework,
precision, batch size, latency point), the arithmetic is done, and every way
the figures used differ from the chart's is listed. The verdict is drawn by
``domain.verdicts.judge`` (through ``domain.claims.audit``), never here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ipubench_gui.domain.claims import Figure, figure_of, fmt, ratio_text
from ipubench_gui.domain.verdicts import Difference

Row = Mapping[str, Any]
Fields = dict[str, Any]  # what a rule gathered: figures, arithmetic, differences…
CHART_DATE = "2020-12-09"  # the IPU-M2000 charts (SDK 1.4.0), December 2020
NO_GPU = "GPU figure not in any stored source"


def frameworks(text: str | None) -> list[str]:
    """ "TensorFlow; PyTorch" -> ["TensorFlow", "PyTorch"]."""
    return [f.strip() for f in (text or "").split(";") if f.strip()]


def batches(text: str | None, framework: str | None = None) -> tuple[int, int] | None:
    """The batch sizes a chart note states, as an inclusive range: "768",
    "4 through 64", "4, 8, 12", "1, 2, 8+" (open above), or per framework
    ("TensorFlow 1024; PyTorch 1036")."""
    if not text:
        return None
    for part in text.split(";"):
        name, _, num = part.strip().rpartition(" ")
        if framework and name and framework.lower() == name.lower():
            return int(num), int(num)
    nums = [int(n) for n in re.findall(r"\d+", text)]
    if not nums or ";" in text:
        return None
    hi = 1 << 30 if text.rstrip().endswith("+") else max(nums)
    return min(nums), hi


def ipu_precision(text: str | None) -> str | None:
    """ "FP16.16" -> "16.16" (the tables' notation)."""
    m = re.search(r"(\d+)\.(\d+)", text or "")
    return f"{m[1]}.{m[2]}" if m else None


def ipu_figure(r: Row) -> Figure:
    return figure_of(
        r,
        "IPU",
        f"{r['platform']} · {r['framework']} · batch {r['batch_size']} · "
        f"{r['precision']} · {r['sdk_version']}",
    )


def _gpu_fig(r: Row) -> Figure:
    return figure_of(
        r,
        "GPU",
        f"{r['gpu']} · {r['framework']} · batch {r['batch_as_printed']} · "
        f"{r['precision']} ({r['role']})",
        whose="NVIDIA",
        source=f"NVIDIA: {r['source_repo']}"
        + (f" @{r['commit'][:7]} {r['path']}" if r.get("commit") else "")
        + f", “{r['table_caption']}”, {r['source_date'] or 'undated'}",
        as_printed=f"{r['value_as_printed']} {r['unit_as_printed']}",
    )


def _ipu_rows(cmp: Row, rows: Sequence[Row], fw: str) -> list[Row]:
    prec = ipu_precision(cmp.get("ipu_precision"))
    return [
        r
        for r in rows
        if str(r["framework"]).lower().startswith(fw.lower())
        and (prec is None or r["precision"] == prec)
    ]


def _sdk(picked: Sequence[Row], cmp: Row) -> list[Difference]:
    sdks = sorted({str(r["sdk_version"]) for r in picked})
    if sdks and cmp.get("ipu_sdk") not in sdks:
        return [
            Difference(
                "SDK",
                f"IPU figures from the {', '.join(sdks)} table of the results page "
                f"(000); the chart used {cmp.get('ipu_sdk')}",
            )
        ]
    return []


def _gpu_mismatches(cmp: Row, g: Row) -> list[Difference]:
    """How a published GPU figure differs from the chart's GPU side."""
    out = []
    if g["role"] != "most likely":
        out.append(
            Difference(
                "stand-in",
                "GPU figure is a stand-in: the closest NVIDIA published, not the "
                "one the chart cites ("
                + (
                    "no dated copy of the cited page"
                    if "developer.nvidia.com" in str(cmp.get("gpu_source_url"))
                    else "cited figure not found"
                )
                + ")",
            )
        )
    want_gpu = str(cmp.get("gpu_system") or "")
    if want_gpu.startswith("A100") and g["platform"] != want_gpu:
        out.append(
            Difference(
                "system", f"GPU: {g['platform']} where the chart names {want_gpu}"
            )
        )
    want_fw = str(cmp.get("gpu_framework") or "")
    if want_fw and not str(g["framework"]).startswith(want_fw.split()[0]):
        out.append(
            Difference(
                "framework",
                f"GPU framework {g['framework']} where the chart says {want_fw}",
            )
        )
    b = batches(cmp.get("gpu_batch"))
    if b and g.get("batch_size") and not b[0] <= g["batch_size"] <= b[1]:
        out.append(
            Difference(
                "batch",
                f"GPU batch {g['batch_size']} where the chart says "
                f"{cmp.get('gpu_batch')}",
            )
        )
    if "XLA" in str(g["precision"]):
        out.append(
            Difference(
                "precision", "GPU figure with XLA; the chart says mixed precision"
            )
        )
    if g.get("source_date") and str(g["source_date"]) > CHART_DATE:
        out.append(
            Difference(
                "date", f"GPU figure published {g['source_date']}, after the chart"
            )
        )
    if g.get("gpu_count") == 1 and "DGX" in str(g.get("gpu")):
        out.append(
            Difference(
                "system",
                f"GPU figure is for one GPU of a DGX A100 (8 GPUs): its table is "
                f"“{g['table_caption']}”",
                setup=False,
            )
        )
    return out


def _blocking(diffs: Sequence[Difference]) -> int:
    return sum(d.setup for d in diffs)


def best_gpu(cmp: Row, rows: Sequence[Row]) -> tuple[Row | None, list[Difference]]:
    """The GPU figure closest to the chart's stated GPU side: the cited one
    when it was retrieved, else the stand-in with the fewest differences."""
    usable = [g for g in rows if g["value"] is not None and g["role"] != "context"]
    if not usable:
        return None, []
    scored = sorted(
        usable,
        key=lambda g: (_blocking(_gpu_mismatches(cmp, g)), g["role"] != "most likely"),
    )
    return scored[0], _gpu_mismatches(cmp, scored[0])


def _closest_batch(rows: Sequence[Row], want: tuple[int, int] | None) -> Row:
    if want is None:
        return max(rows, key=lambda r: r["value"])
    return min(rows, key=lambda r: (abs((r["batch_size"] or 0) - want[0]), -r["value"]))


def _batch_sides(ipu: Row, gpu: Row) -> list[Difference]:
    gb = gpu.get("batch_size")
    if gb and ipu.get("batch_size") and ipu["batch_size"] != gb:
        return [
            Difference(
                "batch", f"IPU batch {ipu['batch_size']} against GPU batch {gb}", False
            )
        ]
    return []


def training_throughput(cmp: Row, ipu: Sequence[Row], gpu: Sequence[Row]) -> Fields:
    """IPU ÷ GPU throughput, per stated IPU framework at its stated batch (or
    the closest stored); the headline is the framework with the higher ratio."""
    g, notes = best_gpu(cmp, gpu)
    if g is None:
        return dict(why_not=NO_GPU)
    tried = []
    for fw in frameworks(cmp.get("ipu_framework")):
        rows = _ipu_rows(cmp, ipu, fw)
        if rows:
            tried.append((fw, _closest_batch(rows, batches(cmp.get("ipu_batch"), fw))))
    if not tried:
        return dict(why_not="IPU figure not in any stored source")
    lines, extra = [], []
    for fw, r in tried:
        want = batches(cmp.get("ipu_batch"), fw)
        if want and not want[0] <= r["batch_size"] <= want[1]:
            extra.append(
                Difference(
                    "batch",
                    f"IPU {fw} batch {r['batch_size']} where the chart says "
                    f"{want[0]} (that batch is not in the stored table)",
                )
            )
        lines.append(
            f"{fw}: {fmt(r['value'])} ÷ {fmt(g['value'])} = "
            f"{ratio_text(r['value'] / g['value'])}"
        )
    fw, top = max(tried, key=lambda t: t[1]["value"])
    return dict(
        recomputed=top["value"] / g["value"],
        figures=[ipu_figure(r) for _, r in tried] + [_gpu_fig(g)],
        arithmetic=lines,
        differences=_sdk([r for _, r in tried], cmp)
        + extra
        + notes
        + _batch_sides(top, g),
    )


def _lowest_latency_gpu(
    cmp: Row, gpu: Sequence[Row], variant: str | None
) -> Row | None:
    """GPU rows with a latency (published, or the figure itself), lowest first;
    BERT's TensorRT rows give latency only, so throughput is derived."""
    rows = [
        g
        for g in gpu
        if g["value"] is not None
        and (g["latency_ms"] is not None or g["metric"] == "latency")
        and (variant is None or g["variant"] in (None, variant))
    ]
    want = batches(cmp.get("gpu_batch"))
    inside = [
        g
        for g in rows
        if want and g["batch_size"] and want[0] <= g["batch_size"] <= want[1]
    ] or rows
    if not inside:
        return None
    ranked = sorted(
        inside,
        key=lambda g: (
            _blocking(_gpu_mismatches(cmp, g)),
            g["latency_ms"] or g["value"],
        ),
    )
    return ranked[0]


def lowest_latency(cmp: Row, ipu: Sequence[Row], gpu: Sequence[Row]) -> Fields:
    """Throughput (IPU ÷ GPU) or latency (GPU ÷ IPU) at each side's lowest
    latency, within the stated batch sizes, framework and precision."""
    fws = frameworks(cmp.get("ipu_framework"))
    want = batches(cmp.get("ipu_batch"))
    rows = [
        r
        for fw in fws
        for r in _ipu_rows(cmp, ipu, fw)
        if r["latency_ms"] is not None
        and (want is None or want[0] <= r["batch_size"] <= want[1])
    ]
    if not rows:
        return dict(why_not="IPU figure not in any stored source")
    r = min(rows, key=lambda x: (x["latency_ms"], -x["value"]))
    g = _lowest_latency_gpu(cmp, gpu, r.get("variant"))
    if g is None:
        return dict(why_not=NO_GPU, figures=[ipu_figure(r)])
    notes = _sdk([r], cmp) + _gpu_mismatches(cmp, g) + _batch_sides(r, g)
    g_lat = g["latency_ms"] if g["latency_ms"] is not None else g["value"]
    lines, derived = [], False
    if g["metric"] == "latency":
        g_tput = g["batch_size"] * 1000 / g_lat
        derived = True
        lines.append(
            f"GPU throughput derived from its latency: {g['batch_size']} × 1000 ÷ "
            f"{fmt(g_lat)} ms = {fmt(g_tput)} items/s (not a published figure)"
        )
        notes.append(
            Difference("derived", "GPU throughput derived from a published latency")
        )
    else:
        g_tput = g["value"]
    if cmp["metric"] == "latency":
        ratio = g_lat / r["latency_ms"]
        lines.append(
            f"latency: GPU {fmt(g_lat)} ms ÷ IPU {fmt(r['latency_ms'])} ms = "
            f"{ratio_text(ratio)} lower on the IPU"
        )
    else:
        ratio = r["value"] / g_tput
        lines.append(
            f"throughput: IPU {fmt(r['value'])} ÷ GPU {fmt(g_tput)} = "
            f"{ratio_text(ratio)} (at {fmt(r['latency_ms'])} ms and {fmt(g_lat)} ms)"
        )
    return dict(
        recomputed=ratio,
        figures=[ipu_figure(r), _gpu_fig(g)],
        arithmetic=lines,
        differences=notes,
        derived=derived,
    )


def _scheme(gpu: Sequence[Row], phase: str) -> tuple[Row, Row, int] | None:
    """NVIDIA's throughput, step count and global batch for one BERT phase."""
    tput = [g for g in gpu if g["metric"] == "throughput" and phase in g["variant"]]
    steps = [
        g for g in gpu if g["metric"] == "training_steps" and phase in g["variant"]
    ]
    if not tput or not steps:
        return None
    m = re.search(r"(\d+) global", str(steps[0]["batch_as_printed"]))
    return (tput[0], steps[0], int(m[1])) if m else None


def bert_time_to_train(cmp: Row, ipu: Sequence[Row], gpu: Sequence[Row]) -> Fields:
    """Time to train from throughput and NVIDIA's training scheme (derived):
    each phase's sequences (steps × global batch) ÷ throughput, for the GPU
    (as the chart note says) and, with the same sequences, for the IPU."""
    phases = [("phase 1", "Ph1"), ("phase 2", "Ph2")]
    gpu_parts = [_scheme(gpu, p) for p, _ in phases]
    ipu_parts = []
    for _, short in phases:
        rows = [r for r in _ipu_rows(cmp, ipu, "PopART") if short in str(r["variant"])]
        ipu_parts.append(max(rows, key=lambda r: r["value"]) if rows else None)
    gparts = [g for g in gpu_parts if g is not None]
    iparts = [r for r in ipu_parts if r is not None]
    if len(gparts) < 2 or len(iparts) < 2:
        return dict(why_not="throughput or training scheme not stored")
    lines, g_s, i_s = [], 0.0, 0.0
    batch_diffs = []
    for (name, _), (gt, st, gb), it in zip(phases, gparts, iparts):
        if it.get("batch_size") and it["batch_size"] != gb:
            batch_diffs.append(
                Difference(
                    "batch",
                    f"{name}: IPU batch {it['batch_size']:,} against NVIDIA's "
                    f"global batch {gb:,}",
                    False,
                )
            )
        seqs = st["value"] * gb
        g_s += seqs / gt["value"]
        i_s += seqs / it["value"]
        lines.append(
            f"{name}: {fmt(st['value'])} steps × {gb:,} = {fmt(seqs, 6)} sequences; "
            f"GPU {fmt(seqs, 6)} ÷ {fmt(gt['value'])}/s = "
            f"{fmt(seqs / gt['value'], 6)} s; IPU {fmt(seqs, 6)} ÷ "
            f"{fmt(it['value'])}/s = {fmt(seqs / it['value'], 6)} s"
        )
    gpus = 2 if cmp["gpu_system"].startswith("2x") else 1
    g_h, i_h = g_s / 3600 / gpus, i_s / 3600
    two = f", ÷ 2 = {g_h:.2f} h on two (linear scaling, as the chart assumes)"
    lines.append(
        f"GPU {g_s / 3600:.2f} h on one DGX A100{two if gpus == 2 else ''}; "
        f"IPU {i_h:.2f} h; ratio {g_h:.2f} ÷ {i_h:.2f} = {ratio_text(g_h / i_h)}"
        " (“faster” as a ratio of times, GPU ÷ IPU: the same number as a ratio "
        "of speeds)"
    )
    figs = [ipu_figure(r) for r in iparts] + [
        _gpu_fig(g) for part in gparts for g in part[:2]
    ]
    notes = (
        _sdk(iparts, cmp)
        + batch_diffs
        + [
            Difference(
                "derived",
                "both times derived from throughput (not measured end to end); the "
                "IPU time uses NVIDIA's number of sequences per phase (the IPU's own "
                "scheme is not in any stored source)",
            ),
            Difference(
                "workload", "IPU phase 2 at sequence length 384, NVIDIA's at 512", False
            ),
        ]
    )
    return dict(
        recomputed=g_h / i_h,
        figures=figs,
        arithmetic=lines,
        differences=notes,
        derived=True,
    )
