"""The vendor-claims chart: the stated IPU-vs-GPU ratios, each with the claims
audit's verdict and its caveats."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from ipubench_gui.domain import metrics
from ipubench_gui.domain.chartrows import distinct_colors
from ipubench_gui.domain.claims import Audit
from ipubench_gui.domain.format import format_number
from ipubench_gui.domain.plot_model import Plot, Point, Row, Series
from ipubench_gui.domain.verdicts import (
    CONFIRMED,
    CONTRADICTED,
    MEANING,
    NEAREST,
    NOT_CHECKABLE,
    VENDOR_ONLY,
    VERDICTS,
)

# A bar's colour says its verdict (the legend names them): green where
# independent figures agree, vermillion where they disagree, grey where
# nothing stored checks the claim (palette colours: kept 3:1 on either theme).
VERDICT_COLORS = {
    CONFIRMED: "#009E73",
    CONTRADICTED: "#D55E00",
    VENDOR_ONLY: "#E69F00",
    NEAREST: "#0072B2",
    NOT_CHECKABLE: "#DDDDDD",
}
UNAUDITED = "not audited"


# -- 6. vendor comparisons --
def vendor_plot(comparisons: Sequence[Row]) -> Plot:
    """Stated IPU-vs-GPU ratios as bars, coloured by the claims audit's
    verdict (a row's ``audit``, as ``service.claims`` made it; the legend
    names it), each with a key to the footnote, which lists its verdict and
    caveats, chip counts first."""
    labels: list[str] = []
    by_verdict: dict[str, list[Point]] = defaultdict(list)
    notes = []
    listed: list[str] = []  # each drawn claim's verdict and caveats, by its key
    for c in sorted(comparisons, key=lambda c: -(c.get("ratio_stated") or 0)):
        metric: str = c["metric"]
        what_of = metrics.label(metric).lower()
        variant = f" ({c['variant']})" if c.get("variant") else ""
        claim = f"{c['model']}{variant} {c['task']} {what_of}"
        label = f"{claim}: {c['ipu_system']} vs {c['gpu_system']}"
        if c.get("ratio_stated") is None:
            notes.append(f"{label}: shown without a stated ratio")
            continue
        audit: Audit | None = c.get("audit")
        caveats = _caveats(c, audit)
        verdict = audit.verdict if audit is not None else UNAUDITED
        y = len(labels)
        labels.append(label)
        q = c.get("ratio_qualifier") or ""
        listed.append(f"⚠{y + 1} {claim} — {verdict}: " + "; ".join(caveats))
        tip = "\n".join(
            [
                label,
                f"stated: {c.get('ratio_as_printed') or ''}",
                *(_audit_lines(audit) if audit is not None else []),
                f"IPU: {c.get('ipu_framework') or '?'}, "
                f"{c.get('ipu_precision') or '?'}, batch {c.get('ipu_batch') or '?'}",
                f"GPU: {c.get('gpu_framework') or '?'}, "
                f"{c.get('gpu_precision') or '?'}, batch {c.get('gpu_batch') or '?'}",
                f"GPU figure: {c.get('gpu_source') or 'not stated'}",
                # the chips are in the audit's lines above
                *[f"⚠ {x}" for x in caveats if audit is None or x not in _chips(audit)],
                f"source: {c['source_file']} — {c['chart']}",
            ]
        )
        better = (
            "lower"
            if c["metric"] in ("latency",)
            else "faster"
            if c["metric"].startswith("time")
            else "higher"
        )
        by_verdict[verdict].append(
            Point(
                c["ratio_stated"],
                y,
                c["comparison_id"],
                f"{q}{format_number(c['ratio_stated'])}× {better} ⚠{y + 1}",
                tip,
            )
        )
    # "not audited" a colour of its own, apart from every verdict's
    colors = distinct_colors(by_verdict, fixed=VERDICT_COLORS)
    series = tuple(
        Series(v, colors[v], tuple(by_verdict[v]), "bars")
        for v in (*VERDICTS, UNAUDITED)
        if by_verdict.get(v)
    )
    shown = [v for v in VERDICTS if v in by_verdict]
    footnotes = []
    if shown:
        footnotes.append(
            "Colours: the verdict of this app's claims audit, each ratio "
            "recomputed from the stored results (the vendor's tables, NVIDIA's "
            "published figures, MLPerf results): "
            + "; ".join(f"{v}: {MEANING[v]}" for v in shown)
            + "."
        )
    if listed:
        footnotes.append(
            "Each claim's verdict and caveats: " + " ".join(f"{x}." for x in listed)
        )
    return Plot(
        "vendor",
        "The vendor's IPU-vs-GPU headline claims",
        "Stated advantage (×, log scale) — as claimed by the vendor",
        "",
        series,
        horizontal_bars=True,
        categories=tuple(labels),
        log_x=True,
        notes=tuple(notes)
        + (
            "ratios as stated by the vendor, coloured by the claims audit's "
            "verdict; ⚠ keys each claim's caveats",
        ),
        footnotes=tuple(footnotes),
        rows=tuple(comparisons),
    )


def _chips(audit: Audit) -> list[str]:
    """The audit's difference in chip counts, without its per-chip arithmetic
    (left to the tooltip and the audit: on a slide it doubled the footnote)."""
    return [
        d.text.partition("; per chip")[0]
        for d in audit.differences
        if d.aspect == "chips"
    ]


def _caveats(c: Row, audit: Audit | None) -> list[str]:
    """A claim's caveats, chip counts first: the audit's difference in chips,
    then the vendor's own notes and assumptions."""
    chips = _chips(audit) if audit is not None else []
    noted = [x.strip() for x in (c.get("caveats") or "").split(";") if x.strip()]
    return chips + noted + ([c["assumptions"]] if c.get("assumptions") else [])


def _audit_lines(audit: Audit) -> list[str]:
    """The audit in a tooltip: verdict, reason, whose figures, differences."""
    return [
        f"claims audit: {audit.verdict}"
        + (f" — {audit.reason}" if audit.reason else ""),
        f"rests on: {audit.rests_on}",
        *(f"not like for like: {n}" for n in audit.not_like_for_like),
    ]
