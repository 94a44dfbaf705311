"""The audit's one rounding rule and one verdict rule, on figures worked out
by hand."""

from __future__ import annotations

import pytest

from ipubench_gui.domain.claims import audit, fmt
from ipubench_gui.domain.verdicts import (
    CONFIRMED,
    CONTRADICTED,
    NEAREST,
    NOT_CHECKABLE,
    VENDOR_ONLY,
    VERDICTS,
    Difference,
    agreement,
    judge,
    ordered,
    rounded,
    truncated,
)


@pytest.mark.parametrize(
    ("x", "d", "cut", "near"),
    [
        (31.55, 0, 31, 32),  # the example: truncates to 31, rounds to 32
        (30.70, 0, 30, 31),
        (36.83, 0, 36, 37),
        (3.314, 1, 3.3, 3.3),
        (3.36, 1, 3.3, 3.4),
        (10.26, 0, 10, 10),
        (2.5, 0, 2, 3),  # half up, not to even
        (0.35, 1, 0.3, 0.4),  # 0.35 is 0.34999… in binary: still 0.4 rounded
    ],
)
def test_rounding_rule_table(x, d, cut, near):
    assert truncated(x, d) == cut
    assert rounded(x, d) == near


@pytest.mark.parametrize(
    ("stated", "printed", "got", "ok", "says"),
    [
        (31, "31%", 31.55, True, "31.55% → 31% truncated, 32% rounded"),
        (32, "32%", 31.55, True, "the rounded figure"),
        (31, "31%", 30.70, True, "30.70% → 30% truncated, 31% rounded"),
        (37, "37%", 36.83, True, "the rounded figure"),
        (10, "10x", 10.26, True, "both"),
        (3.4, "3.4x", 3.36, True, "the rounded figure"),
        (3.4, "3.4x", 3.314, False, "neither"),
        (40, "40x", 35.03, False, "neither (-12%)"),
        (31, "31%", 32.0, False, "neither"),
    ],
)
def test_stated_figure_agrees_rounded_or_truncated(stated, printed, got, ok, says):
    unit = "%" if "%" in printed else "x"
    a = agreement(stated, printed, got, unit=unit)
    assert a.ok is ok, a.text
    assert says in a.text, a.text


def test_more_than_at_least_and_lower_bounds():
    assert agreement(60, ">60x", 61.0, unit="x", more_than=True).ok
    assert not agreement(60, ">60x", 60.0, unit="x", more_than=True).ok
    assert agreement(10, "10x", 10.0, unit="x", at_least=True).ok
    assert not agreement(100, "100x", 99.9, unit="x", at_least=True).ok
    # 48 h against "less than 3 h": at least 16x, so 17x and 27x both fit.
    assert agreement(17, "17x", 48 / 3, unit="x", lower_bound=True).ok
    assert agreement(27, "27x", 48 / 3, unit="x", lower_bound=True).ok
    assert not agreement(15, "15x", 48 / 3, unit="x", lower_bound=True).ok


SIDE = Difference("chips", "16 IPUs against 8 GPUs", setup=False)
SETUP = Difference("SDK", "IPU table of SDK 2.4.0; the chart used SDK 1.4.0")
YES = agreement(31, "31%", 31.55, unit="%")
NO = agreement(40, "40x", 35.03, unit="x")


@pytest.mark.parametrize(
    ("agreed", "whose", "diffs", "want"),
    [
        (YES, ["MLPerf", "MLPerf"], [SIDE], CONFIRMED),
        (NO, ["MLPerf"], [SIDE], CONTRADICTED),
        (YES, ["vendor", "NVIDIA"], [], CONFIRMED),
        (YES, ["vendor", "vendor"], [SIDE], VENDOR_ONLY),
        # The vendor's own figures disagreeing with its claim are no independent
        # evidence: "contradicted" is for independent like-for-like figures.
        (NO, ["vendor"], [], NOT_CHECKABLE),
        (NO, ["vendor", "vendor"], [SIDE], NOT_CHECKABLE),
        (NO, ["vendor", "NVIDIA"], [SETUP, SIDE], NEAREST),
        (YES, ["vendor", "NVIDIA"], [SETUP], NEAREST),
        (YES, ["vendor"], [SETUP], NOT_CHECKABLE),
        (None, [], [], NOT_CHECKABLE),
    ],
)
def test_every_verdict_is_reachable_by_one_rule(agreed, whose, diffs, want):
    v, reason = judge(agreed, whose, diffs, "nothing stored")
    assert v == want and reason


def test_the_vocabulary_is_the_five_values():
    assert VERDICTS == (
        "confirmed",
        "contradicted",
        "consistent with the vendor's own figures",
        "nearest evidence only",
        "not checkable",
    )


def test_differences_listed_chip_counts_first():
    diffs = [
        Difference("derived", "GPU throughput derived from a published latency"),
        Difference("precision", "FP16.16 against INT8", False),
        SETUP,
        Difference("batch", "IPU batch 4 against GPU batch 1", False),
        SIDE,
        SIDE,
    ]
    got = [d.aspect for d in ordered(diffs)]
    assert got == ["chips", "batch", "SDK", "precision", "derived"]
    a = audit(
        claim_id="x",
        kind="claim",
        subject="s",
        stated="31%",
        stated_value=31,
        agreed=YES,
        differences=diffs,
    )
    assert a.not_like_for_like[0] == "chips: 16 IPUs against 8 GPUs"
    assert a.verdict == NOT_CHECKABLE  # no figure at all: the vendor's by default


def test_figures_keep_what_was_printed():
    assert fmt(127.96) == "127.96" and fmt(160605.93) == "160,606"
    assert fmt(2.66) == "2.66" and fmt(4483.0) == "4,483"


def test_the_vendor_disagreeing_with_itself_is_said_not_judged():
    """001 prints the MCMC times: "less than 3 hours" on the IPU-M2000, "48
    hours" on the latest GPU, so at least 16x. A ratio of 15x (below that
    bound) on those figures alone is not "contradicted": no independent figure
    exists. The reason says the vendor's own figures disagree."""
    import re

    from tests.conftest import seeds_or_skip

    text = (seeds_or_skip() / "001_84a8bfaf07a6e90f.txt").read_text(encoding="utf-8")
    m = re.search(r"less than (\d+) hours.*?than the (\d+) hours measured", text)
    assert m, "the MCMC sentence of 001"
    ipu_h, gpu_h = float(m[1]), float(m[2])
    assert (ipu_h, gpu_h) == (3, 48)
    agreed = agreement(15, "15x", gpu_h / ipu_h, unit="x", lower_bound=True)
    assert not agreed.ok
    verdict, reason = judge(agreed, ["vendor", "vendor"], [SIDE])
    assert verdict == NOT_CHECKABLE
    assert "the vendor's own figures disagree" in reason and "16.00x" in reason
    # The same figures from independent sources would contradict it.
    assert judge(agreed, ["MLPerf", "MLPerf"], [SIDE])[0] == CONTRADICTED
