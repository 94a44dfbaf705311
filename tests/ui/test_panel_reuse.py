"""Panels redrawn in place for another filter look as when drawn afresh."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.filters import FilterState

FW = FilterState().with_values


def _legend_heights(make_session, filters: list[FilterState]):
    """The scaling chart's panel legends' heights after ``filters`` in turn
    (each laid out and painted), and the panels' plot items after each."""
    s = make_session()
    s.window.resize(1600, 1000)
    s.window.show()
    s.state.set_chart(ChartSpec(kind="scaling"))
    items = []
    for f in filters:
        s.state.set_filters(f)
        QApplication.processEvents()  # laid out: legends spread over their cells
        QApplication.processEvents()
        items.append([p.pi for p in s.window.canvas.panels])
    legends = [p.legend for p in s.window.canvas.panels]
    return [(g.maximumHeight(), g.layout.rowCount()) for g in legends], items


def test_a_legend_redrawn_in_place_is_packed_as_drawn_afresh(make_session):
    """TensorFlow 1's two scaling panels, drawn into PyTorch's (one plot in
    between): each legend as tall as in a window that drew them first."""
    tf = FW("framework", ["TensorFlow 1"])
    fresh, _ = _legend_heights(make_session, [tf])
    torch, gpt2 = FW("framework", ["PyTorch"]), FW("model", ["GPT-2"])
    reused, items = _legend_heights(make_session, [torch, gpt2, tf])
    assert items[0] == items[2] and items[1] == []  # the same cells, redrawn
    assert len(fresh) == 2 and reused == fresh
    # and when the cells were TensorFlow 1's before
    again, _ = _legend_heights(make_session, [tf, torch, tf])
    assert again == fresh
