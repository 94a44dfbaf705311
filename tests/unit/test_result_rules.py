"""The one set of value rules every import path meets (domain/result_rules)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ipubench_gui.domain import result_rules as rr


@pytest.mark.parametrize(
    "given_", ["3.0", "v3.0", "V3.0", "03.0", "3.00", "３.０", "٣.٠", " v3.0 ", "3 . 0"]
)
def test_every_spelling_of_a_round_is_one_round(given_):
    assert rr.normalise_round(given_) == "3.0"


@pytest.mark.parametrize(
    "bad",
    ["0.0", "99999999999999999999.0", "100.0", "3", "3.0.1", "", "x.y", "3,0", "-3.0"],
)
def test_what_is_not_a_round_is_refused(bad):
    with pytest.raises(rr.RoundError, match="round"):
        rr.normalise_round(bad)


@given(st.integers(0, 99), st.integers(0, 99), st.integers(0, 3))
def test_leading_zeros_and_a_v_never_make_another_round(major, minor, zeros):
    if (major, minor) == (0, 0):
        return
    padded = f"v{'0' * zeros}{major}.{minor}{'0' * (zeros if minor == 0 else 0)}"
    assert rr.normalise_round(padded) == f"{major}.{minor}"


@pytest.mark.parametrize(
    "x",
    [
        -28_070_691.0,
        0,
        0.0,
        -0.0,
        math.nan,
        math.inf,
        -math.inf,
        1.7e295,
        10**400,
        True,
        "5",
        None,
    ],
)
def test_figures_that_are_not_measurements(x):
    assert rr.figure_problem(x) is not None


@pytest.mark.parametrize("x", [0.179485, 1196.6, 1, 2**31, 1e15])
def test_figures_that_are(x):
    assert rr.figure_problem(x) is None


def test_counts():
    for bad in (-40, -5, 0, 1.5, 2**31, 99999999999999999999, math.nan, "8", False):
        assert rr.count_problem(bad) is not None, bad
    for good in (1, 8, 2**31 - 1, 4.0):
        assert rr.count_problem(good) is None, good
    # a CPU-only system's accelerators (MLPerf's system files say 0)
    assert rr.count_problem(0, zero=True) is None
    assert rr.count_problem(-1, zero=True) is not None


def test_scaling_factors():
    for bad in (math.nan, math.inf, 1e308, 0, -1, 10**400, None):
        assert rr.scaling_problem(bad) is not None, bad
    for good in (1, 1.0044, 1.02385):  # the factors of rounds 1.0-2.1
        assert rr.scaling_problem(good) is None


def test_run_counts():
    assert rr.runs_problem(5, 5) is None and rr.runs_warning(5, 5) is None
    assert rr.runs_warning(11, 5) is not None and rr.runs_problem(11, 5) is None
    assert rr.runs_problem(10_000, 5) is not None
    assert rr.runs_problem(10_000, None) is not None
    assert rr.runs_problem(40, None) is None
