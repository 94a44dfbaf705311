"""A filter change lays the table out with its new rows at once, in the update,
not by Qt's delayed-layout timer after the paint (which painted the table and
its header a second time a change)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from ipubench_gui.domain.filters import FilterState
from tests.ui.conftest import sql_ids


@pytest.mark.scale
def test_new_rows_are_laid_out_before_the_paint(session):
    view, bar = session.window.table, session.window.table.verticalScrollBar()
    every_row = bar.maximum()
    f = FilterState().with_values("framework", ["PyTorch"])
    want = sql_ids(session.runner.opened, "lower(framework) = 'pytorch'")
    session.state.set_filters(f)  # answered inline (synchronous session)
    assert session.window.model.rowCount() == len(want)
    laid_out_now = bar.maximum()
    QApplication.processEvents()  # what the delayed layout would have done
    assert laid_out_now == bar.maximum() < every_row
    assert view.rowAt(view.viewport().height() - 1) in range(len(want))
