"""Restored settings pass the views' schema: a bad setting never stops a start."""

from __future__ import annotations

import json

from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.filters import FilterState, NumRange


def test_a_bad_saved_setting_never_stops_a_start(make_session):
    """The issue's case: a filter on a dimension that does not exist, saved at
    close, made every later start fail with KeyError."""
    from ipubench_gui.ui import settings_store as ss

    bad = FilterState().with_range("nonexistent", NumRange(1, 2))
    ss.save_filters(bad.with_values("framework", ["PopART"]))
    st = ss.load_filters()
    assert st == FilterState().with_values("framework", ["PopART"])
    ss.settings().setValue(ss.LAST_FILTERS, "{not json")
    ss.settings().setValue(ss.CHART, json.dumps({"kind": 5}))
    assert ss.load_filters() == FilterState()
    assert ss.load_chart() == ChartSpec()
    # and a window starts over it, restoring what fits
    ss.save_filters(bad.with_values("framework", ["PopART"]))
    s = make_session(start=False)
    s.start(restore=True)
    assert s.state.filters == FilterState().with_values("framework", ["PopART"])
    said = s.window.statusBar().currentMessage()
    assert said.startswith("Some saved settings could not be used and were dropped")
    assert "nonexistent" in said
