"""Axes read at any zoom: at least 3 ticks, numbers in the axis' own unit
(k, M for large ones), never pyqtgraph's '(x0.001)' scale note."""

from __future__ import annotations

import math

import pytest

from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.plots import build_plot
from ipubench_gui.service import browse


def _shown_ticks(axis, lo, hi):
    """The tick strings the axis draws for the view lo..hi (view units)."""
    size = axis.width() if axis.orientation in ("left", "right") else axis.height()
    out = []
    for spacing, values in axis.tickValues(lo, hi, size):
        inside = [v for v in values if lo <= v <= hi]
        out += axis.tickStrings(inside, axis.autoSIPrefixScale, spacing)
    return out


@pytest.mark.scale
@pytest.mark.parametrize("log", [False, True])
@pytest.mark.parametrize(
    "ms", [(0.2, 1.8), (0.5, 0.9), (1.0, 1.3), (0.002, 0.02), (0.004, 0.007)]
)
def test_latency_axis_zoomed_to_2ms_reads(qapp, db, log, ms):
    from ipubench_gui.ui.widgets.chart_canvas import ChartCanvas

    spec = ChartSpec(kind="latency-throughput", log=log)
    plot = build_plot(spec, browse.chart_data(db, FilterState(), spec))
    assert plot.x_title.startswith("Latency (ms)") and plot.log_x == log
    canvas = ChartCanvas()
    canvas.resize(1000, 700)
    canvas.show()
    canvas.render(plot)
    # in panels (more lines than one plot reads), axes linked: the lowest
    # panel's axis carries the x title
    assert canvas.panels, "the default latency chart is in panels"
    pi = canvas.panels[-1].pi
    lo, hi = (math.log10(v) for v in ms) if log else ms
    pi.vb.setXRange(lo, hi, padding=0)
    qapp.processEvents()
    axis = pi.getAxis("bottom")
    ticks = _shown_ticks(axis, *pi.vb.viewRange()[0])
    assert "(x" not in axis.labelString()  # no "(x0.001)" scale note
    assert len(ticks) >= 3, ticks
    assert len(set(ticks)) == len(ticks), ticks  # each tick says its own value
    # Plain numbers inside the zoomed range: in ms, or below 0.1 ms in µs
    # (2 to 20 µs reads "2 ... 20", not "0.002 ... 0.02"), as the title says.
    micro = ms[1] < 0.1
    assert axis.labelText.startswith("Latency (µs)" if micro else "Latency (ms)")
    k = 1000 if micro else 1
    for t in ticks:
        assert ms[0] * k - 1e-9 <= float(t) <= ms[1] * k + 1e-9, (t, ms)
        assert not micro or "0.00" not in t
    pi.vb.setXRange(*[math.log10(v) if log else v for v in (0.5, 20)], padding=0)
    qapp.processEvents()
    assert axis.labelText.startswith("Latency (ms)")  # back in ms
    # The throughput axis still writes large numbers compactly (k, M).
    left = pi.getAxis("left")
    ys = _shown_ticks(left, *pi.vb.viewRange()[1])
    assert len(ys) >= 3 and any(t[-1] in "kM" for t in ys), ys
    canvas.close()
