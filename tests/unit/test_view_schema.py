"""Saved views and settings through one schema: every malformed file or
setting ends with a message, and what does fit is kept."""

from __future__ import annotations

import json
import os

import pytest

from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.filters import FilterState, NumRange
from ipubench_gui.domain.view_schema import parse_chart
from ipubench_gui.domain.views import FORMAT, View, load_view


def _view(**parts) -> dict:
    return {"format": FORMAT, "version": 1, **parts}


DEFAULTS = "chart options ({}): the defaults are used"
GOOD = FilterState().with_values("framework", ["PopART"]).with_text("bert")


@pytest.mark.parametrize(
    ("parts", "kept", "notes"),
    [
        (
            {"filters": {"selected": 5}},
            FilterState(),
            ["selections are not an object: dropped"],
        ),
        (
            {"filters": {"selected": {"framework": 5}}},
            FilterState(),
            ["filter on 'framework' (Expected 'array', got 'int'): dropped"],
        ),
        (
            {"filters": {"selected": {"nonexistent": ["x"]}, "text": "bert"}},
            FilterState().with_text("bert"),
            ["filter on unknown dimension 'nonexistent': dropped"],
        ),
        (
            {"filters": {"ranges": {"batch_size": 5}}},
            FilterState(),
            ["range on 'batch_size' (Expected 'array', got 'int'): dropped"],
        ),
        (
            {"filters": {"ranges": {"nonexistent": [1, 2]}}},
            FilterState(),
            ["range on unknown dimension 'nonexistent': dropped"],
        ),
        (
            {"filters": {"ranges": {"batch_size": [8, 2]}}},
            FilterState(),
            ["range on 'batch_size' is not LO <= HI: dropped"],
        ),
        (
            {"filters": {"ranges": {"batch_size": [8, None]}}},
            FilterState().with_range("batch_size", NumRange(8, None)),
            [],
        ),
        (
            {"filters": {"text": ["x"]}},
            FilterState(),
            ["search text is not a short text: dropped"],
        ),
        (
            {"filters": "x"},
            FilterState(),
            ["filters are not an object: none are applied"],
        ),
        (
            {
                "filters": {"selected": {"framework": ["PopART"]}, "text": "bert"},
                "comparison": "x",
            },
            GOOD,
            ["comparison (Expected 'object', got 'str'): dropped"],
        ),
    ],
)
def test_malformed_parts_are_dropped_with_a_notice(parts, kept, notes):
    view, said = View.parse(_view(**parts))
    assert view.filters == kept
    assert said == notes
    view.filters.chips()  # every kept filter can be shown (KeyError before)


@pytest.mark.parametrize(
    ("chart", "spec", "notes"),
    [
        ({"kind": "scaling", "log": False}, ChartSpec(kind="scaling", log=False), []),
        (
            {"max_bars": "a"},
            ChartSpec(),
            [DEFAULTS.format("Expected 'int', got 'str' - at '$.max_bars'")],
        ),
        (
            {"max_bars": 0},
            ChartSpec(),
            [DEFAULTS.format("Expected 'int' >= 1 - at '$.max_bars'")],
        ),
        (
            {"kind": "pie"},
            ChartSpec(),
            ["unknown chart kind 'pie': throughput is shown"],
        ),
        (
            {"color_by": "colour"},
            ChartSpec(),
            ["chart colour by 'colour' is unknown: framework"],
        ),
        (
            {"budget_ms": -1},
            ChartSpec(),
            [DEFAULTS.format("Expected 'float' > 0.0 - at '$.budget_ms'")],
        ),
        (
            {"title": "x" * 600},
            ChartSpec(),
            [DEFAULTS.format("Expected 'str' of length <= 500 - at '$.title'")],
        ),
        ({"newer_option": 1}, ChartSpec(), []),
    ],
)
def test_chart_options(chart, spec, notes):
    assert parse_chart(chart) == (spec, notes)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"format": "x"}, "not an ipubench-gui view file"),
        ([], "not an ipubench-gui view file"),
        (
            _view(version="1"),
            "the view's format version should be a whole number from 1, got '1'",
        ),
        (
            _view(version=True),
            "the view's format version should be a whole number from 1, got 'True'",
        ),
        (
            _view(version=3),
            "saved by a newer ipubench-gui (view format 3; this app "
            "reads format 1 and older): update the app to open it",
        ),
    ],
)
def test_not_a_view_says_why(data, message):
    with pytest.raises(ValueError) as err:
        View.parse(data)
    assert str(err.value) == message


def test_files_deep_huge_or_special_are_refused(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ValueError, match="nested too deeply"):
        load_view(deep)
    big = tmp_path / "big.json"
    big.write_text(json.dumps(_view(filters={"text": "x" * 2_000_000})))
    with pytest.raises(ValueError, match=r"2\.0 MB is too large for a view file"):
        load_view(big)
    fifo = tmp_path / "v.json"
    os.mkfifo(fifo)
    for special in (fifo, "/dev/zero", tmp_path):
        with pytest.raises(ValueError, match="not a regular file"):
            load_view(special)
    ok = tmp_path / "ok.json"
    ok.write_text(json.dumps(View(GOOD).to_json()))
    assert load_view(ok) == (View(GOOD), [])
