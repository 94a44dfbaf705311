"""Claims audit values and arithmetic: figures used, verdicts within rounding.

Pure Python. ``store.query.claims`` picks the rows; ``domain.claim_rules`` says how
each kind of comparison is recomputed from them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

CONSISTENT, INCONSISTENT, NOT_CHECKABLE = "consistent", "inconsistent", "not checkable"
MLPERF_NOTE = (
    "MLPerf™ is a trademark of MLCommons Association in the United States and "
    "other countries. MLPerf figures here are scored from the official results "
    "repositories (mlcommons/training_results_v1.0 … v2.1, retrieved 2026-11-23); "
    "figures derived from them (ratios, percentages, chip-minutes) are not "
    "verified by MLCommons."
)
VERDICTS: tuple[str, ...] = (CONSISTENT, INCONSISTENT, NOT_CHECKABLE)
# The columns of ``claims --format csv``: the first five are kept stable.
CSV_COLUMNS: tuple[str, ...] = (
    "claim_id",
    "stated",
    "recomputed",
    "verdict",
    "evidence",
    "reason",
    "results_used",
    "not_like_for_like",
    "arithmetic",
    "independent_evidence",
    "subject",
)


@dataclass(frozen=True)
class Figure:
    """One stored figure an audit used, as printed and where it was printed."""

    result_id: str
    side: str  # "IPU", "GPU" or "MLPerf"
    value: float
    unit: str
    as_printed: str
    config: str
    source: str
    latency_ms: float | None = None

    def line(self) -> str:
        lat = "" if self.latency_ms is None else f" at {fmt(self.latency_ms)} ms"
        return (
            f"{self.side} {self.result_id}: {self.as_printed}{lat} — {self.config}; "
            f"{self.source}"
        )


def figure_of(
    r: Mapping[str, Any],
    side: str,
    config: str,
    *,
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
    )


@dataclass(frozen=True)
class Audit:
    """A claim or comparison: what is stated, what the stored data gives."""

    claim_id: str
    kind: str  # "comparison" or "claim"
    subject: str
    stated: str
    stated_value: float | None
    recomputed: float | None = None
    recomputed_text: str = ""
    verdict: str = NOT_CHECKABLE
    reason: str = ""
    figures: tuple[Figure, ...] = ()
    arithmetic: tuple[str, ...] = ()
    not_like_for_like: tuple[str, ...] = ()
    derived: bool = False
    evidence: tuple[str, ...] = field(default=())

    @property
    def result_ids(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(f.result_id for f in self.figures))

    def summary(self) -> str:
        """One line: the figures used and the arithmetic (the CSV's evidence)."""
        parts = [f.line() for f in self.figures] + list(self.arithmetic)
        return " | ".join(parts) if parts else self.reason

    def row(self) -> dict[str, str]:
        """The audit as one CSV/markdown row (columns of :data:`CSV_COLUMNS`)."""
        return {
            "claim_id": self.claim_id,
            "stated": self.stated,
            "recomputed": self.recomputed_text,
            "verdict": self.verdict,
            "evidence": self.summary(),
            "reason": self.reason,
            "results_used": " ".join(self.result_ids),
            "not_like_for_like": "; ".join(self.not_like_for_like),
            "arithmetic": " | ".join(self.arithmetic),
            "independent_evidence": " | ".join(self.evidence),
            "subject": self.subject,
        }

    def explain(self) -> str:
        """ "Explain this number": both figures as printed, their sources, the
        arithmetic, what is not like for like, and the verdict."""
        out = [f"{self.claim_id}: {self.subject}", f"Stated: {self.stated}"]
        if self.figures:
            out.append("Figures used (as printed):")
            out += [f"  {f.line()}" for f in self.figures]
        if self.arithmetic:
            out.append(
                "Arithmetic"
                + (" (derived, not a published figure):" if self.derived else ":")
            )
            out += [f"  {a}" for a in self.arithmetic]
        out.append(
            f"Recomputed: {self.recomputed_text or '—'}; verdict: {self.verdict}"
            + (f" ({self.reason})" if self.reason else "")
        )
        if self.not_like_for_like:
            out.append("Not like for like:")
            out += [f"  - {n}" for n in self.not_like_for_like]
        if self.evidence:
            out.append("Nearest independent evidence:")
            out += [f"  - {e}" for e in self.evidence]
        if self.uses_mlperf:
            out.append(MLPERF_NOTE)
        return "\n".join(out)

    @property
    def uses_mlperf(self) -> bool:
        return any(f.side == "MLPerf" for f in self.figures) or any(
            "MLPerf v" in e for e in self.evidence
        )


def fmt(x: float, digits: int = 6) -> str:
    """A figure to ``digits`` significant digits, thousands separated, no
    trailing zeros (127.96 stays 127.96, 160605.93 -> 160,606)."""
    if x == 0 or not math.isfinite(x):
        return str(x)
    d = max(0, digits - 1 - int(math.floor(math.log10(abs(x)))))
    text = f"{x:,.{d}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def decimals(printed: str) -> int:
    """Decimal places of the first number in ``printed`` ("5.3x" -> 1)."""
    m = re.search(r"\d+(?:\.(\d+))?", printed)
    return len(m.group(1) or "") if m else 0


def _round_half_up(x: float, d: int) -> float:
    q = 10**d
    return float(math.floor(x * q + 0.5 + 1e-9) / q)


def _truncate(x: float, d: int) -> float:
    q = 10**d
    return float(math.floor(x * q + 1e-9) / q)


def verdict(
    stated: float, printed: str, recomputed: float, qualifier: str | None = None
) -> tuple[str, str]:
    """``consistent`` when ``recomputed`` gives the stated figure at the
    precision it was printed with (rounded half up, or cut: "31%" is printed
    for 31.5% too); for "more than" (``>``) when it exceeds it. The reason
    says how far off it is."""
    d = decimals(printed)
    if qualifier == ">":
        ok = recomputed > stated
        how = f"{fmt(recomputed)} {'is' if ok else 'is not'} more than {fmt(stated)}"
        return (CONSISTENT if ok else INCONSISTENT), how
    ok = stated in (_round_half_up(recomputed, d), _truncate(recomputed, d))
    off = (recomputed - stated) / stated * 100
    how = (
        f"{recomputed:.{d + 2}f} gives {stated:.{d}f} at the printed precision"
        if ok
        else f"{recomputed:.{d + 2}f} is {off:+.0f}% from the stated {stated:g}"
    )
    return (CONSISTENT if ok else INCONSISTENT), how


def ratio_text(x: float) -> str:
    return f"{x:.2f}x"


def percent_less(before: float, after: float) -> float:
    """How much less time ``after`` takes than ``before``, in percent."""
    return (before - after) / before * 100


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def to_markdown(audits: list[Audit]) -> str:
    """A summary table of every claim and comparison, then each one explained."""
    out = [
        "| claim | stated | recomputed | verdict | results used |",
        "|---|---|---|---|---|",
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
                    ", ".join(a.result_ids) or "—",
                )
            )
            + " |"
        )
    counts = {v: sum(a.verdict == v for a in audits) for v in VERDICTS}
    out += ["", ", ".join(f"{n} {v}" for v, n in counts.items()) + ".", ""]
    for a in audits:
        text = a.explain().replace("\n" + MLPERF_NOTE, "")
        out += [f"## {a.claim_id}", "", "```", text, "```", ""]
    if any(a.uses_mlperf for a in audits):
        out += [MLPERF_NOTE, ""]
    return "\n".join(out)
