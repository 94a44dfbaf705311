"""The claims audit's judgement: five verdicts, one rounding rule, one rule
that draws a verdict from what a recomputation rests on.

Pure Python. Every claim and comparison, whatever rule recomputed it, is
judged here, so one kind of evidence never gets two kinds of verdict.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

CONFIRMED = "confirmed"
CONTRADICTED = "contradicted"
VENDOR_ONLY = "consistent with the vendor's own figures"
NEAREST = "nearest evidence only"
NOT_CHECKABLE = "not checkable"
VERDICTS: tuple[str, ...] = (
    CONFIRMED,
    CONTRADICTED,
    VENDOR_ONLY,
    NEAREST,
    NOT_CHECKABLE,
)
# Each verdict in a few words, for a reader who meets it on a chart.
MEANING: dict[str, str] = {
    CONFIRMED: "independent like-for-like figures agree",
    CONTRADICTED: "independent like-for-like figures disagree",
    VENDOR_ONLY: "only the vendor's own figures are stored, and they agree",
    NEAREST: "independent figures exist for another setup; no verdict drawn",
    NOT_CHECKABLE: "nothing stored checks it like for like",
}
# Whose figures: anything the vendor printed (its charts, tables, blogs) is its
# own; NVIDIA's publications and MLPerf logs are independent of it.
VENDOR = "vendor"
INDEPENDENT = ("NVIDIA", "MLPerf")

# What a difference is about, in the order differences are listed: chip counts
# first, as a buyer comparing systems meets them first.
ASPECTS: tuple[str, ...] = (
    "chips",
    "system",
    "batch",
    "SDK",
    "stand-in",
    "precision",
    "framework",
    "derived",
    "workload",
    "dataset",
    "metric",
    "date",
    "attribution",
)


@dataclass(frozen=True)
class Difference:
    """One way a comparison is not like for like.

    ``setup`` is True when the evidence differs from what the claim states (a
    stand-in figure, another SDK's table, another workload): no verdict can
    be drawn from it. False when the claim's own two sides differ (64 IPUs
    against 8 GPUs, FP16 against INT8): listed, but the claim is about
    exactly that, so a verdict can still be drawn.
    """

    aspect: str
    text: str
    setup: bool = True

    def line(self) -> str:
        return f"{self.aspect}: {self.text}"


def ordered(diffs: Iterable[Difference]) -> tuple[Difference, ...]:
    """Differences without repeats, chip counts first (:data:`ASPECTS` order)."""
    rank = {a: i for i, a in enumerate(ASPECTS)}
    unique = list(dict.fromkeys(diffs))
    return tuple(sorted(unique, key=lambda d: rank.get(d.aspect, len(rank))))


def decimals(printed: str) -> int:
    """Decimal places of the first number in ``printed`` ("5.3x" -> 1)."""
    m = re.search(r"\d+(?:\.(\d+))?", printed)
    return len(m.group(1) or "") if m else 0


def rounded(x: float, d: int) -> float:
    """``x`` rounded half up to ``d`` decimals (30.70 -> 31, 31.55 -> 32)."""
    q = 10**d
    return float(math.floor(x * q + 0.5 + 1e-9) / q)


def truncated(x: float, d: int) -> float:
    """``x`` cut to ``d`` decimals (31.55 -> 31)."""
    q = 10**d
    return float(math.floor(x * q + 1e-9) / q)


@dataclass(frozen=True)
class Agreement:
    """Whether a stated figure agrees with the recomputed one, and how."""

    ok: bool
    text: str


def _num(x: float, d: int, unit: str) -> str:
    return f"{x:,.{d}f}{unit}"


def agreement(
    stated: float,
    printed: str,
    recomputed: float,
    *,
    unit: str = "",
    more_than: bool = False,
    at_least: bool = False,
    lower_bound: bool = False,
) -> Agreement:
    """The one rounding rule.

    A stated figure agrees when it equals the recomputed one rounded (half
    up) or truncated to the precision it was printed with; the text says
    which ("31.55% → 31% truncated, 32% rounded"). "More than X" agrees when
    the recomputed figure exceeds X, "at least X" when it reaches X. When
    ``recomputed`` is itself a lower bound (a time printed as "less than"),
    any stated figure at or above it at the printed precision agrees. "Up
    to X" is checked by the caller against its best case.
    """
    d = decimals(printed)
    s = _num(stated, d, unit)
    if more_than or at_least:
        ok = recomputed > stated or (at_least and recomputed == stated)
        than = "more than" if more_than else "at least"
        return Agreement(
            ok, f"{_num(recomputed, 2, unit)} is {'' if ok else 'not '}{than} {s}"
        )
    cut, near = truncated(recomputed, d), rounded(recomputed, d)
    if lower_bound:
        ok = stated >= cut
        return Agreement(
            ok,
            f"at least {_num(recomputed, d + 2, unit)} ({_num(cut, d, unit)} "
            f"truncated): the stated {s} is "
            + ("within" if ok else "below")
            + " that bound",
        )
    which = [w for w, v in (("truncated", cut), ("rounded", near)) if v == stated]
    head = (
        f"{_num(recomputed, d + 2, unit)} → {_num(cut, d, unit)} truncated, "
        f"{_num(near, d, unit)} rounded"
    )
    if which:
        how = "both" if len(which) == 2 else f"the {which[0]} figure"
        return Agreement(True, f"{head}: the stated {s} is {how}")
    off = (recomputed - stated) / stated * 100
    return Agreement(False, f"{head}: the stated {s} is neither ({off:+.0f}%)")


def is_independent(whose: str) -> bool:
    return whose in INDEPENDENT


def judge(
    agreed: Agreement | None,
    whose: Sequence[str],
    differences: Sequence[Difference],
    why_not: str = "",
) -> tuple[str, str]:
    """The verdict, and its reason, for a recomputation.

    Parameters
    ----------
    agreed
        The stated figure against the recomputed one; None when nothing
        could be recomputed (``why_not`` says why).
    whose
        Whose figures the recomputation used ("vendor", "NVIDIA", "MLPerf").
    differences
        Every way the recomputation is not like for like.
    """
    if agreed is None:
        return NOT_CHECKABLE, why_not or "nothing stored to recompute it from"
    independent = any(is_independent(w) for w in whose)
    setup = [d for d in ordered(differences) if d.setup]
    if setup:
        what = ", ".join(dict.fromkeys(d.aspect for d in setup))
        if independent:
            return NEAREST, (
                f"independent figures exist but differ from the claim's setup "
                f"({what}): recomputed for reference, no verdict drawn"
            )
        return NOT_CHECKABLE, (
            "only the vendor's own figures are stored, and they are not like for "
            "like with the claim: " + "; ".join(d.text for d in setup)
        )
    if not independent:
        if agreed.ok:
            return VENDOR_ONLY, f"{agreed.text}; only the vendor's numbers exist"
        # "contradicted" needs independent evidence; the vendor disagreeing with
        # itself is said in the reason, not drawn as a verdict.
        return NOT_CHECKABLE, (
            f"{agreed.text}: the vendor's own figures disagree with its claim, "
            "and no independent figure checks it"
        )
    return (CONFIRMED if agreed.ok else CONTRADICTED), agreed.text
