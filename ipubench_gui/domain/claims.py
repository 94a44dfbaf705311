"""Claims audit values: the figures an audit used, the audit, its texts.

Pure Python. ``store.query.claims`` picks the rows; ``domain.claim_rules`` and
``domain.claim_checks`` recompute each claim from them; every audit is made by
:func:`audit` so its verdict comes from ``domain.verdicts.judge``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ipubench_gui.domain.verdicts import (
    NOT_CHECKABLE,
    VENDOR,
    VERDICTS,
    Agreement,
    Difference,
    judge,
    ordered,
)

MLPERF_NOTE = (
    "MLPerf™ is a trademark of MLCommons Association in the United States and "
    "other countries. MLPerf figures here are scored from the official results "
    "repositories (mlcommons/training_results_v1.0 … v2.1, retrieved 2026-11-23); "
    "figures derived from them (ratios, percentages, chip-minutes) are not "
    "verified by MLCommons."
)
# The columns of ``claims --format csv``: the first five are kept stable.
CSV_COLUMNS: tuple[str, ...] = (
    "claim_id",
    "stated",
    "recomputed",
    "verdict",
    "evidence",
    "reason",
    "rests_on",
    "results_used",
    "not_like_for_like",
    "arithmetic",
    "independent_evidence",
    "subject",
)
_WHOSE = {
    VENDOR: "the vendor's own figures",
    "NVIDIA": "NVIDIA's publication (independent)",
    "MLPerf": "MLPerf logs (independent)",
}


@dataclass(frozen=True)
class Figure:
    """One figure an audit used, as printed, where and by whom.

    ``result_id`` is the stored row it is ("" for a figure only a chart
    prints); ``whose`` is "vendor", "NVIDIA" or "MLPerf".
    """

    result_id: str
    side: str  # "IPU", "GPU" or "MLPerf"
    value: float
    unit: str
    as_printed: str
    config: str
    source: str
    latency_ms: float | None = None
    whose: str = VENDOR

    def line(self) -> str:
        lat = "" if self.latency_ms is None else f" at {fmt(self.latency_ms)} ms"
        rid = f" {self.result_id}" if self.result_id else ""
        return (
            f"{self.side}{rid}: {self.as_printed}{lat} — {self.config}; {self.source}"
        )


def figure_of(
    r: Mapping[str, Any],
    side: str,
    config: str,
    *,
    whose: str = VENDOR,
    source: str | None = None,
    unit: str | None = None,
    as_printed: str | None = None,
) -> Figure:
    """A stored row as a Figure: id, value and latency from the row; the unit
    and the text as printed from the row unless given; ``source`` by default
    where a vendor page printed it (file, table, row)."""
    u = str(r["unit"]) if unit is None else unit
    return Figure(
        r["result_id"],
        side,
        float(r["value"]),
        u,
        f"{r['value_as_printed']} {u}" if as_printed is None else as_printed,
        config,
        f"{r['source_file']} “{r['table']}” row {r['row']}"
        if source is None
        else source,
        r.get("latency_ms"),
        whose,
    )


def chart_figure(cmp: Mapping[str, Any], side: str, value: float) -> Figure:
    """A figure the vendor prints for the chart: in the chart's document, or,
    where the values note says "from NNN", in that document's text (001's
    "less than 3 hours" for the MCMC chart of 002)."""
    unit = str(cmp.get("value_unit") or "")
    note = str(cmp.get("values_note") or "")
    part = next((p for p in re.split(r"[,;] ", note) if p.startswith(side)), "")
    doc = re.search(r"from (\d{3})\b", part)
    words = re.match(rf"{side}: (.+?) \(from", part)
    where = f"{cmp['source_file']} “{cmp['chart']}”"
    if doc and not str(cmp["source_file"]).startswith(doc[1]):
        where = f"the text of {doc[1]} (the chart “{cmp['chart']}” prints no figure)"
    return Figure(
        "",
        side,
        value,
        unit,
        words[1] if words else f"{fmt(value)} {unit}",
        f"{cmp['ipu_system'] if side == 'IPU' else cmp['gpu_system']}, as the "
        "vendor printed it",
        where,
        whose=VENDOR,
    )


@dataclass(frozen=True)
class Audit:
    """A claim or comparison: what is stated, what the stored data gives, and
    the verdict :func:`domain.verdicts.judge` draws (made by :func:`audit`)."""

    claim_id: str
    kind: str  # "comparison" or "claim"
    subject: str
    stated: str
    stated_value: float | None
    recomputed: float | None = None
    recomputed_text: str = ""
    verdict: str = NOT_CHECKABLE
    reason: str = ""
    agreement: str = ""
    figures: tuple[Figure, ...] = ()
    arithmetic: tuple[str, ...] = ()
    differences: tuple[Difference, ...] = ()
    derived: bool = False
    evidence: tuple[str, ...] = ()

    @property
    def result_ids(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(f.result_id for f in self.figures if f.result_id))

    @property
    def not_like_for_like(self) -> tuple[str, ...]:
        """Every difference as a line, chip counts first."""
        return tuple(d.line() for d in self.differences)

    @property
    def rests_on(self) -> str:
        """Whose figures each side rests on ("IPU: the vendor's own figures; …")."""
        sides: dict[str, list[str]] = {}
        for f in self.figures:
            sides.setdefault(f.side, [])
            if f.whose not in sides[f.side]:
                sides[f.side].append(f.whose)
        if not sides:
            return "no stored figure"
        return "; ".join(
            f"{side}: " + " and ".join(_WHOSE.get(w, w) for w in whose)
            for side, whose in sides.items()
        )

    def summary(self) -> str:
        """One line: whose figures, the figures, the arithmetic and the rounding
        (the CSV's evidence)."""
        if not self.figures and not self.arithmetic:
            return self.reason
        parts = [f"rests on {self.rests_on}"]
        parts += [f.line() for f in self.figures] + list(self.arithmetic)
        if self.agreement:
            parts.append(self.agreement)
        return " | ".join(parts)

    def row(self) -> dict[str, str]:
        """The audit as one CSV/markdown row (columns of :data:`CSV_COLUMNS`)."""
        return {
            "claim_id": self.claim_id,
            "stated": self.stated,
            "recomputed": self.recomputed_text,
            "verdict": self.verdict,
            "evidence": self.summary(),
            "reason": self.reason,
            "rests_on": self.rests_on,
            "results_used": " ".join(self.result_ids),
            "not_like_for_like": "; ".join(self.not_like_for_like),
            "arithmetic": " | ".join(self.arithmetic),
            "independent_evidence": " | ".join(self.evidence),
            "subject": self.subject,
        }

    def explain(self) -> str:
        """ "Explain this number": the verdict and what it rests on, the figures
        as printed with their sources, the arithmetic, the rounding, and every
        difference, chip counts first."""
        out = [
            f"{self.claim_id}: {self.subject}",
            f"Stated: {self.stated}",
            f"Verdict: {self.verdict}" + (f" — {self.reason}" if self.reason else ""),
            f"Rests on: {self.rests_on}",
        ]
        if self.figures:
            out.append("Figures used (as printed):")
            out += [f"  {f.line()}" for f in self.figures]
        if self.arithmetic:
            out.append(
                "Arithmetic"
                + (" (derived, not a published figure):" if self.derived else ":")
            )
            out += [f"  {a}" for a in self.arithmetic]
        out.append(f"Recomputed: {self.recomputed_text or '—'}")
        if self.agreement:
            out.append(f"Rounding: {self.agreement}")
        if self.differences:
            out.append("Not like for like (chip counts first):")
            out += [f"  - {n}" for n in self.not_like_for_like]
        if self.evidence:
            out.append("Nearest independent evidence:")
            out += [f"  - {e}" for e in self.evidence]
        if self.uses_mlperf:
            out.append(MLPERF_NOTE)
        return "\n".join(out)

    @property
    def uses_mlperf(self) -> bool:
        return any(f.whose == "MLPerf" for f in self.figures) or any(
            "MLPerf" in e for e in self.evidence
        )


def audit(
    *,
    agreed: Agreement | None = None,
    why_not: str = "",
    differences: Sequence[Difference] = (),
    **fields: Any,
) -> Audit:
    """The one way an :class:`Audit` is made: its verdict and reason come from
    :func:`domain.verdicts.judge` over the figures it used, the agreement of
    the stated figure with the recomputed one, and its differences."""
    figures: tuple[Figure, ...] = tuple(fields.pop("figures", ()))
    diffs = ordered(differences)
    v, reason = judge(agreed, [f.whose for f in figures], diffs, why_not)
    return Audit(
        **fields,
        figures=figures,
        differences=diffs,
        verdict=v,
        reason=reason,
        agreement=agreed.text if agreed else "",
    )


def fmt(x: float, digits: int = 6) -> str:
    """A figure to ``digits`` significant digits, thousands separated, no
    trailing zeros (127.96 stays 127.96, 160605.93 -> 160,606)."""
    if x == 0 or not math.isfinite(x):
        return str(x)
    d = max(0, digits - 1 - int(math.floor(math.log10(abs(x)))))
    text = f"{x:,.{d}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def ratio_text(x: float) -> str:
    return f"{x:.2f}x"


def percent_less(before: float, after: float) -> float:
    """How much less time ``after`` takes than ``before``, in percent."""
    return (before - after) / before * 100


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def counts(audits: Sequence[Audit]) -> str:
    """ "3 confirmed, 0 contradicted, …": every verdict value, in order."""
    n = {v: sum(a.verdict == v for a in audits) for v in VERDICTS}
    return ", ".join(f"{k} {v}" for v, k in n.items())


def to_markdown(audits: list[Audit]) -> str:
    """A summary table of every claim and comparison, then each one explained."""
    out = [
        "| claim | stated | recomputed | verdict | rests on | results used |",
        "|---|---|---|---|---|---|",
    ]
    for a in audits:
        out.append(
            "| "
            + " | ".join(
                _cell(x)
                for x in (
                    a.claim_id,
                    a.stated,
                    a.recomputed_text or "—",
                    a.verdict
                    + (f" ({a.reason})" if a.verdict == NOT_CHECKABLE else ""),
                    a.rests_on,
                    ", ".join(a.result_ids) or "—",
                )
            )
            + " |"
        )
    out += ["", counts(audits) + ".", ""]
    for a in audits:
        text = a.explain().replace("\n" + MLPERF_NOTE, "")
        out += [f"## {a.claim_id}", "", "```", text, "```", ""]
    if any(a.uses_mlperf for a in audits):
        out += [MLPERF_NOTE, ""]
    return "\n".join(out)
