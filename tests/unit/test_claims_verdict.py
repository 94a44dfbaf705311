"""Verdicts within the claim's printed rounding."""

from __future__ import annotations

import pytest

from ipubench_gui.domain.claims import CONSISTENT, INCONSISTENT, fmt, verdict


@pytest.mark.parametrize(
    ("stated", "printed", "got", "qualifier", "want"),
    [
        (3.4, "3.4x", 3.36, None, CONSISTENT),  # rounds to 3.4
        (3.4, "3.4x", 3.314, None, INCONSISTENT),  # 3.3
        (40, "40x", 35.03, None, INCONSISTENT),
        (40, "40x", 40.49, None, CONSISTENT),
        (31, "31%", 31.55, None, CONSISTENT),  # printed cut, not rounded: 31
        (31, "31%", 32.0, None, INCONSISTENT),
        (37, "37%", 36.83, None, CONSISTENT),
        (60, ">60x", 61.0, ">", CONSISTENT),
        (60, ">60x", 59.9, ">", INCONSISTENT),
    ],
)
def test_verdict_at_the_printed_precision(stated, printed, got, qualifier, want):
    v, why = verdict(stated, printed, got, qualifier)
    assert v == want, why


def test_figures_keep_what_was_printed():
    assert fmt(127.96) == "127.96" and fmt(160605.93) == "160,606"
    assert fmt(2.66) == "2.66" and fmt(4483.0) == "4,483"
