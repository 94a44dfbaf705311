"""A filter change applies the bar chart's new value range in the update, not
at the start of its paint (pyqtgraph's prepareForPaint), where it marked every
item in view dirty again and the value labels were painted in a second paint
pass."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from ipubench_gui.domain.filters import FilterState


def test_the_new_range_is_applied_before_the_paint(session):
    canvas = session.window.canvas
    # Drawn within its change, as at the app's budget (~5 of 10 ms): under a
    # suite's load it went past the budget, a step a turn (by design).
    canvas.steps.budget_ms = float("inf")
    group = canvas.item.getViewBox().childGroup  # its transform: range -> pixels
    session.state.set_filters(FilterState().with_values("framework", ["PyTorch"]))
    QApplication.processEvents()  # painted
    before = group.transform()
    session.state.set_filters(FilterState())  # every result: another range
    applied_now = group.transform()
    assert applied_now != before
    QApplication.processEvents()  # painted: nothing left to apply
    assert group.transform() == applied_now
