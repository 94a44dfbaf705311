"""The claims of claims.csv, each recomputed by the check its ``checked_by`` column
names (one registry), then judged by ``domain.verdicts.judge``.

Checks: ``mlperf_versus`` (a system against another in one MLPerf round, in
percent less time), ``mlperf_speedup`` (as a ratio of times, every benchmark),
``mlperf_previous_round`` (against the round before), ``mlperf_on_par``,
``mlperf_submission`` (a result was submitted),
``mlperf_first_other_submitter`` (the first round in which another submitter
files results on the maker's accelerators), ``mlperf_benchmarks`` (the
benchmarks a round's IPU results cover), ``mlperf_ids`` (IDs printed
without figures), ``vendor_stated`` (a general claim against the vendor's own
stated figures of the claims it names in ``related``), ``none`` (no figure in
any stored source).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ipubench_gui.domain import claim_mlperf as cm
from ipubench_gui.domain.claim_evidence import Evidence
from ipubench_gui.domain.claims import Audit, Figure, audit
from ipubench_gui.domain.entities import Catalogue
from ipubench_gui.domain.verdicts import agreement

Row = Mapping[str, Any]
Fields = dict[str, Any]


@dataclass(frozen=True)
class Context:
    """What every check may use: the vendor's rows citing MLPerf IDs, the
    MLPerf results, the entity tables, and what every claim and comparison
    states (id -> stated figure, as printed, source file)."""

    vendor: Sequence[Row]
    mlperf: Sequence[Row]
    cat: Catalogue
    stated: Mapping[str, tuple[float, str, str]]


Check = Callable[[Row, Context], Fields]


def _stated(c: Row) -> str:
    """The claim's words as printed, then how the audit reads them where they
    are words ("an order of magnitude or greater — read as at least 10x")."""
    change = c.get("stated_change")
    q = c.get("qualifier") or ""
    printed = c.get("stated_as_printed") or ""
    unit = c.get("change_unit") or ""
    number = "" if change is None else f"{change:,g}"
    figure = number + ("" if unit in ("", "%", "x") else " ") + unit if number else ""
    reading = (
        f"{q} {figure}" if q in ("up to", "over", "at least", "more than") else figure
    )
    if not printed:
        return reading.strip() or q or "no figure stated"
    if not figure or number in printed:
        return printed
    return f"{printed} — read as {reading.strip()}"


def vendor_stated(c: Row, ctx: Context) -> Fields:
    """A general claim ("an order of magnitude or greater in some cases")
    against the figures the vendor itself states for the claims it names in
    ``related``. The best case is checked; none of those figures is
    independent."""
    related = [
        (cid, *ctx.stated[cid])
        for cid in str(c.get("related") or "").split()
        if cid in ctx.stated
    ]
    if not related:
        return dict(why_not="the claims it rests on are not stored")
    figs = [
        Figure("", "IPU vs GPU", v, "x", printed, cid, f"{src} (stated by the vendor)")
        for cid, v, printed, src in related
    ]
    top = max(related, key=lambda t: t[1])
    return dict(
        recomputed=top[1],
        recomputed_text=f"{top[1]:g}x ({top[0]}), the largest the vendor states",
        agreed=agreement(
            float(c["stated_change"]),
            f"{c['stated_change']:g}",
            top[1],
            unit="x",
            at_least=True,
        ),
        figures=figs,
        arithmetic=[
            f"“{c.get('qualifier')}” {c['stated_change']:g}x read as the best case "
            f"of the figures the vendor states (our reading); the largest is "
            f"{top[2]} ({top[0]})"
        ],
    )


def _mlperf(fn: Callable[..., Fields]) -> Check:
    return lambda c, ctx: fn(c, ctx.vendor, ctx.mlperf, ctx.cat)


CHECKS: dict[str, Check] = {
    "mlperf_versus": _mlperf(cm.versus),
    "mlperf_speedup": _mlperf(cm.speedup),
    "mlperf_previous_round": _mlperf(cm.previous_round),
    "mlperf_on_par": _mlperf(cm.on_par),
    "mlperf_submission": _mlperf(cm.submission),
    "mlperf_benchmarks": _mlperf(cm.benchmarks),
    "mlperf_ids": _mlperf(cm.listed_ids),
    "mlperf_first_other_submitter": _mlperf(cm.first_other_submitter),
    "vendor_stated": vendor_stated,
    "none": lambda c, ctx: dict(why_not="nothing stored recomputes it"),
}


def audit_claim(c: Row, ctx: Context, evidence: Sequence[Evidence] = ()) -> Audit:
    """One claim of claims.csv, recomputed by its check where the stored
    results allow; when its check has nothing, the first evidence source
    that recomputes it is used."""
    check = str(c.get("checked_by") or "none")
    if check in CHECKS:
        d = CHECKS[check](c, ctx)
    else:
        d = dict(why_not=f"unknown check {check!r}")
    if d.get("recomputed") is None and d.get("agreed") is None:
        reading = next((e.reading for e in evidence if e.reading), None)
        if reading is not None:
            d = reading.fields() | dict(why_not=d.get("why_not", ""))
            d["agreed"] = (
                agreement(
                    float(c["stated_change"]),
                    f"{c['stated_change']:g}",
                    reading.recomputed,
                    unit=str(c.get("change_unit") or ""),
                )
                if c.get("stated_change") is not None
                else None
            )
    note = (f"our note: {c['note']}",) if c.get("note") and check == "none" else ()
    return audit(
        claim_id=c["claim_id"],
        kind="claim",
        subject=c["subject"],
        stated=_stated(c),
        stated_value=c.get("stated_change"),
        recomputed=d.get("recomputed"),
        recomputed_text=d.get("recomputed_text", ""),
        agreed=d.get("agreed"),
        why_not=d.get("why_not", ""),
        figures=tuple(d.get("figures", ())),
        arithmetic=tuple(d.get("arithmetic", ())),
        differences=list(d.get("differences", ())),
        derived=bool(d.get("derived")),
        evidence=tuple(d.get("evidence", ()))
        + note
        + tuple(line for e in evidence for line in e.lines),
    )
