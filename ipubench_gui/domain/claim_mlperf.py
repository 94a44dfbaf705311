"""The vendor's MLPerf claims recomputed from MLPerf results, and the nearest
independent MLPerf Training evidence for each IPU-versus-GPU comparison.

MLPerf rows are figures derived from the official logs (data/mlperf_training.csv);
ratios and per-chip figures made from them are not verified by MLCommons.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ipubench_gui.domain.claim_evidence import Evidence
from ipubench_gui.domain.claims import Figure, figure_of, percent_less
from ipubench_gui.domain.entities import Catalogue
from ipubench_gui.domain.mlperf_names import AVAILABLE
from ipubench_gui.domain.verdicts import Agreement, Difference, agreement

Row = Mapping[str, Any]
Fields = dict[str, Any]
NOT_VERIFIED = "derived from MLPerf results; not verified by MLCommons"
ON_PAR_PERCENT = 2.0  # "on par": times within 2% of each other (our reading)


def mlperf_fig(r: Row) -> Figure:
    return figure_of(
        r,
        "MLPerf",
        f"v{r['mlperf_round']} {r['division']} "
        f"{r.get('category') or r['availability']} {r['submitter']} "
        f"{r['system_name']} "
        f"({r['accelerators']}× {r['accelerator_type']}), {r['mlperf_benchmark']}"
        + (f", MLPerf ID {r['mlperf_id']}" if r.get("mlperf_id") else ""),
        whose="MLPerf",
        source=f"MLPerf Training v{r['mlperf_round']} results, {r['path']}",
        unit="min",
        as_printed=f"{float(r['value']):.2f} min",
    )


def vendor_fig(r: Row) -> Figure:
    """A row of the vendor's MLPerf table; an official MLPerf result when the
    store shares it with the result's own row (its figure is the log's)."""
    return figure_of(
        r,
        "IPU",
        f"{r['platform']} · {r['framework']} · MLPerf ID {r['mlperf_id']}",
        whose="MLPerf" if r.get("mlperf_round") else "vendor",
    )


def bench(
    rows: Sequence[Row], cat: Catalogue, model: str, division: str = "closed"
) -> list[Row]:
    """MLPerf results of ``model``'s benchmark, one division, available systems."""
    want = cat.canonical("model", model)
    names = {
        b: cat.canonical("model", b) for b in {r["mlperf_benchmark"] for r in rows}
    }
    return [
        r
        for r in rows
        if names[r["mlperf_benchmark"]] == want
        and r["division"] == division
        and r["category"] in AVAILABLE
    ]


def chips(r: Row) -> int:
    """Accelerators of a result (0 when its system file gives none)."""
    return int(r["accelerators"] or 0)


def best(rows: Sequence[Row]) -> Row | None:
    return min(rows, key=lambda r: float(r["value"])) if rows else None


def ipus(rows: Sequence[Row], rnd: str, n: int | None = None) -> list[Row]:
    return [
        r
        for r in rows
        if r["mlperf_round"] == rnd
        and "IPU" in str(r["accelerator_type"])
        and (n is None or chips(r) == n)
    ]


def of_system(
    rows: Sequence[Row], rnd: str, system: str, cat: Catalogue, own: bool = True
) -> list[Row]:
    """Results of round ``rnd`` on ``system`` by the entity tables: its
    accelerator and chip count ("DGX-A100 640GB" = 8× A100-SXM4-80GB) and,
    with ``own``, submitted by the system's maker (a named product is the
    maker's own submission, not another's machine with the same chips)."""
    ent = cat.entity("system", system)
    if ent is None:
        return []
    acc, count = ent.get("accelerator"), cat.chips(system)
    return [
        r
        for r in rows
        if r["mlperf_round"] == rnd
        and chips(r) == count
        and (not own or r["submitter"] == ent.get("vendor"))
        and acc is not None
        and acc in _accelerator_names(r, cat)
    ]


def _accelerator_names(r: Row, cat: Catalogue) -> set[str | None]:
    """A result's accelerator, and its generation: a system named with a
    generic chip ("DGX A100": A100, memory not stated) matches any A100."""
    names = {
        cat.canonical("accelerator", r.get("accelerator")),
        cat.canonical("accelerator", r.get("accelerator_model")),
    }
    for n in list(names):
        e = cat.entity("accelerator", n)
        if e is not None:
            names.add(e.get("generation"))
    return names


def _of_or_nearest(
    rows: Sequence[Row], rnd: str, system: str, cat: Catalogue
) -> tuple[Row | None, list[Difference]]:
    """The maker's own result on ``system``; else its smallest system of the
    same accelerator, with the difference (a setup one: not the claim's)."""
    mine = best(of_system(rows, rnd, system, cat))
    if mine is not None:
        return mine, []
    ent = cat.entity("system", system)
    acc = ent.get("accelerator") if ent else None
    same = [
        r
        for r in rows
        if r["mlperf_round"] == rnd
        and ent is not None
        and r["submitter"] == ent.get("vendor")
        and cat.canonical("accelerator", r.get("accelerator")) == acc
    ]
    if not same:
        return None, []
    n = min(chips(r) for r in same)
    near = best([r for r in same if chips(r) == n])
    assert near is not None
    return near, [
        Difference(
            "chips",
            f"no MLPerf result of the {system} ({cat.chips(system)} chips): the "
            f"smallest {acc} system submitted, {near['system_name']} ({n} chips), "
            "is used",
        )
    ]


def _dgx(rows: Sequence[Row], rnd: str) -> Row | None:
    return best(
        [
            r
            for r in rows
            if r["mlperf_round"] == rnd
            and r["accelerator_type"] == "A100"
            and chips(r) == 8
            and r["submitter"] == "NVIDIA"
        ]
    )


def comparison_evidence(
    item: Row, kind: str, vendor: Sequence[Row], mlperf: Sequence[Row], cat: Catalogue
) -> Evidence:
    """Per round: the smallest IPU system's and NVIDIA's 8×A100 time to train on
    the comparison's MLPerf benchmark, with per-chip chip-minutes. Lines only:
    a time to train to a quality target cannot recompute a throughput ratio."""
    if kind != "comparison":
        return Evidence()
    rows = bench(mlperf, cat, item["model"])
    if item["task"] != "training" or not rows:
        return Evidence(
            (
                "no MLPerf Training benchmark for this model"
                + (
                    " (MLPerf Training has no inference results)"
                    if item["task"] == "inference"
                    else ""
                ),
            )
            if mlperf
            else ()
        )
    out = []
    for rnd in sorted({r["mlperf_round"] for r in rows}):
        found, gpu = ipus(rows, rnd), _dgx(rows, rnd)
        if not found or gpu is None:
            continue
        n = min(chips(r) for r in found)
        ipu = best([r for r in found if chips(r) == n])
        assert ipu is not None
        iv, gv = float(ipu["value"]), float(gpu["value"])
        out.append(
            f"MLPerf v{rnd} {ipu['mlperf_benchmark']} (closed): {ipu['system_name']} "
            f"({n}× {ipu['accelerator_type']}) {iv:.2f} min [{ipu['result_id']}] vs "
            f"{gpu['system_name']} (8× A100) {gv:.2f} min [{gpu['result_id']}]; "
            f"per chip {iv * n:,.0f} vs {gv * 8:,.0f} chip-minutes (time × "
            f"accelerators, derived) — not like for like: {n} IPUs vs 8 GPUs; "
            f"time to train to a quality target, not the chart's "
            f"{item['metric'].replace('_', ' ')}; {NOT_VERIFIED}"
        )
    return Evidence(tuple(out))


def _percent(c: Row, best_value: float) -> Agreement:
    return agreement(
        float(c["stated_change"]),
        f"{c['stated_change']:g}",
        best_value,
        unit=str(c.get("change_unit") or ""),
    )


def less_time(c: Row, pairs: list[tuple[Row, Row]], what: str) -> Fields:
    """Percent less time, per pair (before, after); "up to" takes the best
    case. "Faster" is read as time, the claim naming time to train; the
    throughput reading is shown beside it."""
    lines: list[str] = []
    figs: list[Figure] = []
    top = None
    for before, after in pairs:
        b, a = float(before["value"]), float(after["value"])
        p = percent_less(b, a)
        lines.append(
            f"({b:.4f} − {a:.4f}) ÷ {b:.4f} = {p:.2f}% less time "
            f"({before['system_name']} → {after['system_name']}); as throughput "
            f"{b:.4f} ÷ {a:.4f} − 1 = {(b / a - 1) * 100:.2f}% more"
        )
        figs += [mlperf_fig(before), mlperf_fig(after)]
        top = p if top is None else max(top, p)
    if top is None:
        return dict(why_not=f"{what} not in the stored MLPerf results")
    q = c.get("qualifier") or ""
    lines.append(
        f"“{q}” read as less time to train (the claim names time to train)"
        + ("; the best case is checked" if q == "up to" else "")
        + f"; {NOT_VERIFIED}"
    )
    return dict(
        recomputed=top,
        recomputed_text=f"{top:.2f}% less time",
        agreed=_percent(c, top),
        figures=figs,
        arithmetic=lines,
        derived=True,
    )


def versus(
    c: Row, vendor: Sequence[Row], mlperf: Sequence[Row], cat: Catalogue
) -> Fields:
    """The claim's system against ``versus`` in one MLPerf round (closed)."""
    rows = bench(mlperf, cat, c["model"])
    rnd = str(c.get("mlperf_rounds") or "").split()[-1:]
    if not rnd:
        return dict(why_not="the claim names no MLPerf round")
    mine = best(of_system(rows, rnd[0], c["system"], cat))
    theirs = best(of_system(rows, rnd[0], c["versus"], cat))
    d = less_time(
        c,
        [(theirs, mine)] if mine and theirs else [],
        f"{c['system']} or {c['versus']} MLPerf v{rnd[0]} result",
    )
    fastest = best(of_system(rows, rnd[0], c["versus"], cat, own=False))
    if mine and fastest and fastest is not theirs:
        p = percent_less(float(fastest["value"]), float(mine["value"]))
        d["evidence"] = (
            *d.get("evidence", ()),
            f"the fastest result of the round on the same chips, by any submitter: "
            f"{fastest['submitter']} {fastest['system_name']} "
            f"{float(fastest['value']):.2f} min [{fastest['result_id']}], against "
            f"which {mine['system_name']} takes {p:.2f}% less time ({NOT_VERIFIED})",
        )
    if mine and theirs:
        n, m = chips(mine), chips(theirs)
        d["differences"] = [
            Difference(
                "chips",
                f"{n}× {mine['accelerator_type']} against {m}× "
                f"{theirs['accelerator_type']}; per chip "
                f"{float(mine['value']) * n:,.0f} vs "
                f"{float(theirs['value']) * m:,.0f} chip-minutes (time × "
                "accelerators, derived)",
                setup=False,
            )
        ]
    return d


def speedup(
    c: Row, vendor: Sequence[Row], mlperf: Sequence[Row], cat: Catalogue
) -> Fields:
    """The system against ``versus`` as a ratio of times (their time ÷ ours),
    on the claim's model or on every benchmark both ran in the round: the
    worst case ("across the board"), or the best for "up to"."""
    rnd = str(c.get("mlperf_rounds") or "").split()[-1]
    models = (
        [c["model"]]
        if c.get("model")
        else sorted(
            {str(cat.canonical("model", r["mlperf_benchmark"])) for r in mlperf}
        )
    )
    lines, figs, diffs, ratios = [], [], [], []
    for model in models:
        rows = bench(mlperf, cat, model)
        mine, near = _of_or_nearest(rows, rnd, c["system"], cat)
        theirs = best(of_system(rows, rnd, c["versus"], cat))
        if mine is None or theirs is None:
            continue
        m, t = float(mine["value"]), float(theirs["value"])
        ratios.append((t / m, model))
        lines.append(
            f"{model}: {theirs['system_name']} {t:.2f} min ÷ {mine['system_name']} "
            f"{m:.2f} min = {t / m:.2f}x"
            + (" (the IPU system took longer)" if t < m else "")
        )
        figs += [mlperf_fig(mine), mlperf_fig(theirs)]
        n, k = chips(mine), chips(theirs)
        diffs += near + [
            Difference(
                "chips",
                f"{model}: {n}× {mine['accelerator_type']} against {k}× "
                f"{theirs['accelerator_type']}; per chip {m * n:,.0f} vs "
                f"{t * k:,.0f} chip-minutes (time × accelerators, derived)",
                setup=False,
            )
        ]
    if not ratios:
        return dict(why_not=f"no MLPerf v{rnd} result of both systems")
    up_to = c.get("qualifier") == "up to"
    value, model = (max if up_to else min)(ratios)
    lines.append(
        ("the best case" if up_to else "every benchmark must hold: the worst case")
        + f" is {model}, {value:.2f}x; {NOT_VERIFIED}"
    )
    if c.get("metric") != "time_to_train":
        diffs.append(
            Difference(
                "metric",
                f"MLPerf v{rnd} times to train to a quality target; the claim is "
                f"about {str(c.get('metric') or 'other figures').replace('_', ' ')}",
            )
        )
    return dict(
        recomputed=value,
        recomputed_text=f"{value:.2f}x ({model}, time ratio)",
        agreed=agreement(
            float(c["stated_change"]),
            f"{c['stated_change']:g}",
            value,
            unit="x",
            more_than=c.get("qualifier") == "more than",
        ),
        figures=figs,
        arithmetic=lines,
        differences=diffs,
        derived=True,
    )


def previous_round(
    c: Row, vendor: Sequence[Row], mlperf: Sequence[Row], cat: Catalogue
) -> Fields:
    """IPU results of one round against the same-size IPU system of the round
    before (the claim's ``mlperf_rounds``: before, after)."""
    rows = bench(mlperf, cat, c["model"])
    before_r, after_r = str(c["mlperf_rounds"]).split()
    pairs = []
    for n in sorted({chips(r) for r in ipus(rows, after_r)}):
        before, after = best(ipus(rows, before_r, n)), best(ipus(rows, after_r, n))
        if before and after:
            pairs.append((before, after))
    return less_time(c, pairs, "IPU results of both rounds")


def on_par(
    c: Row, vendor: Sequence[Row], mlperf: Sequence[Row], cat: Catalogue
) -> Fields:
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
                f"{platform}: PaddlePaddle ({p['mlperf_id']}) {p['value_as_printed']}"
                f" vs PopART ({q['mlperf_id']}) {q['value_as_printed']} min: "
                f"{d:.2f}% apart"
            )
            figs += [vendor_fig(p), vendor_fig(q)]
            # The same systems' PaddlePaddle results filed by another submitter
            # (Baidu files its own, with other logs): the claim names Baidu's.
            rnd = str(c.get("mlperf_rounds") or "").split()[-1:]
            for o in ipus(mlperf, rnd[0] if rnd else "", cat.chips(platform)):
                if o["submitter"] != "Graphcore" and o["framework"] == "PaddlePaddle":
                    d = abs(float(o["value"]) - q["value"]) / q["value"] * 100
                    worst = max(worst, d)
                    lines.append(
                        f"{platform}: {o['submitter']}'s own PaddlePaddle submission "
                        f"{float(o['value']):.2f} vs PopART {q['value_as_printed']} "
                        f"min: {d:.2f}% apart"
                    )
                    figs.append(mlperf_fig(o))
    if not lines:
        return dict(why_not="the results named are not stored")
    ok = worst < ON_PAR_PERCENT
    return dict(
        recomputed=worst,
        recomputed_text=f"at most {worst:.2f}% apart",
        agreed=Agreement(
            ok,
            f"“on par” read as within {ON_PAR_PERCENT:g}% (our reading): at most "
            f"{worst:.2f}% apart",
        ),
        figures=figs,
        arithmetic=lines,
    )


def submission(
    c: Row, vendor: Sequence[Row], mlperf: Sequence[Row], cat: Catalogue
) -> Fields:
    """A claim that a result was submitted: the official result of each MLPerf
    ID the claim names (a vendor row sharing the official row)."""
    ids = str(c.get("mlperf_ids") or "").replace(",", " ").split()
    found = [r for r in vendor if r["mlperf_id"] in ids and r.get("mlperf_round")]
    if not found:
        return dict(why_not="no official MLPerf result stored for the IDs named")
    return dict(
        recomputed_text=", ".join(
            f"{r['mlperf_id']}: {r['division']} {r['model']}, {r['platform']}"
            for r in found
        ),
        agreed=Agreement(
            len(found) == len(ids),
            "the official results hold "
            + "; ".join(
                f"{r['mlperf_id']} ({r['division']} division, {r['model']} on "
                f"{r['platform']}, {r['value_as_printed']} min)"
                for r in found
            ),
        ),
        figures=[vendor_fig(r) for r in found],
    )


def benchmarks(
    c: Row, vendor: Sequence[Row], mlperf: Sequence[Row], cat: Catalogue
) -> Fields:
    """A claim naming the benchmarks IPU systems were submitted to in a round
    (``model``: "ResNet-50; BERT"): the round's IPU results, benchmark by
    benchmark; it holds when they are exactly the ones named."""
    rnd = str(c.get("mlperf_rounds") or "").split()[-1]
    named = {
        str(cat.canonical("model", m.strip()))
        for m in str(c.get("model") or "").split(";")
        if m.strip()
    }
    found: dict[str, list[Row]] = {}
    for r in ipus(mlperf, rnd):
        found.setdefault(str(cat.canonical("model", r["mlperf_benchmark"])), []).append(
            r
        )
    if not found:
        return dict(why_not=f"no IPU result of MLPerf v{rnd} is stored")
    lines = [
        f"{m}: {len(rows)} IPU results ("
        + ", ".join(sorted({f"{r['division']}" for r in rows}))
        + ")"
        for m, rows in sorted(found.items())
    ]
    ok = set(found) == named
    return dict(
        recomputed_text=", ".join(sorted(found)),
        agreed=Agreement(
            ok,
            f"the MLPerf v{rnd} results hold IPU results for "
            + ", ".join(sorted(found))
            + ("" if ok else f"; the claim names {', '.join(sorted(named))}"),
        ),
        figures=[
            mlperf_fig(best(rows) or rows[0]) for _m, rows in sorted(found.items())
        ],
        arithmetic=lines,
    )


def listed_ids(
    c: Row, vendor: Sequence[Row], mlperf: Sequence[Row], cat: Catalogue
) -> Fields:
    """MLPerf IDs printed without figures or benchmarks: nothing to check; the
    vendor's results of that round are shown as evidence."""
    rnd = str(c.get("mlperf_rounds") or "")
    return dict(
        why_not="the document lists MLPerf IDs without figures or benchmarks",
        evidence=tuple(
            f"{r['result_id']}: v{rnd} {r['system_name']} {r['mlperf_benchmark']} "
            f"{float(r['value']):.2f} min ({NOT_VERIFIED})"
            for r in mlperf
            if r["mlperf_round"] == rnd and r["submitter"] == "Graphcore"
        ),
    )


def first_other_submitter(
    c: Row, vendor: Sequence[Row], mlperf: Sequence[Row], cat: Catalogue
) -> Fields:
    """A claim that a round holds the first result on a maker's accelerators
    filed by someone else ("the first ever third-party submission on a
    Graphcore system"): every stored round up to it, by submitter. ``system``
    names the submitter claimed, ``versus`` the maker."""
    rnd = str(c.get("mlperf_rounds") or "").split()[-1:]
    who, maker = str(c.get("system") or ""), str(c.get("versus") or "")
    rounds = sorted({r["mlperf_round"] for r in mlperf}, key=_round_key)
    upto = [x for x in rounds if rnd and _round_key(x) <= _round_key(rnd[0])]
    if not upto:
        return dict(why_not="no MLPerf round up to the claim's is stored")
    lines, first, figs = [], None, []
    for x in upto:
        mine = ipus(mlperf, x)
        by: dict[str, int] = {}
        for r in mine:
            by[r["submitter"]] = by.get(r["submitter"], 0) + 1
        lines.append(
            f"v{x}: results on {maker}'s IPUs filed by "
            + (", ".join(f"{s} ({n})" for s, n in sorted(by.items())) or "nobody")
        )
        others = sorted(s for s in by if s != maker)
        if first is None and others:
            first = (x, others)
            figs = [mlperf_fig(r) for r in mine if r["submitter"] in others]
    ok = first is not None and first[0] == rnd[0] and first[1] == [who]
    return dict(
        recomputed_text=(
            f"v{first[0]}: {', '.join(first[1])}" if first else f"none up to v{rnd[0]}"
        ),
        agreed=Agreement(
            ok,
            (
                f"the first round with results on {maker}'s IPUs filed by another "
                f"submitter is v{first[0]} ({', '.join(first[1])})"
                if first
                else f"no result on {maker}'s IPUs was filed by another submitter"
            )
            + f"; rounds stored: v{upto[0]} to v{upto[-1]} ({maker} first "
            "submitted in v1.0, 2021, as 001 announces)",
        ),
        figures=figs,
        arithmetic=lines,
    )


def _round_key(x: str) -> tuple[int, ...]:
    return tuple(int(p) for p in x.split("."))
