"""Every window and dialog fits a 1280x720 laptop screen at its minimum size."""

from __future__ import annotations

from pathlib import Path

import pytest

from ipubench_gui.store.query import queries as q

LAPTOP = (1280, 720)


def _fits(widget) -> tuple[int, int]:
    hint = widget.minimumSizeHint().expandedTo(widget.minimumSize())
    assert hint.width() <= LAPTOP[0] and hint.height() <= LAPTOP[1], (
        type(widget).__name__,
        hint,
    )
    return hint.width(), hint.height()


@pytest.mark.scale
def test_main_window_fits(session):
    _fits(session.window)
    for dock in (
        session.window.facet_dock,
        session.window.detail_dock,
        session.window.compare_dock,
    ):
        _fits(dock.widget())


@pytest.mark.scale
def test_dialogs_fit(qtbot, session, db):
    from ipubench_gui.domain.import_spec import Preview
    from ipubench_gui.ui.widgets.export_dialog import ExportDialog
    from ipubench_gui.ui.widgets.import_dialog import ImportDialog
    from ipubench_gui.ui.widgets.picker import ResultPicker
    from ipubench_gui.ui.widgets.sources_dialog import SourcesDialog

    cols = [f"column {i}" for i in range(36)]  # as wide as the MLPerf file
    pv = Preview(cols, ["VARCHAR"] * 36, [tuple("x" * 40 for _ in cols)] * 20, {})
    for dlg in (
        ExportDialog(session.controller.plot, "Filters: …", "Source: …"),
        ImportDialog(Path("/tmp/wide.csv"), pv),
        ResultPicker(session.window.model),
        SourcesDialog(),
    ):
        qtbot.addWidget(dlg)
        _fits(dlg)


@pytest.mark.scale
@pytest.mark.parametrize("kind", ["throughput", "vendor", "latency-throughput"])
def test_chart_options_row_fits_the_centre(session, kind):
    session.state.set_chart(session.state.chart.with_(kind=kind))
    w, _ = _fits(session.window.chart_options)
    assert w <= LAPTOP[0] - 2 * session.window.facet_dock.minimumSizeHint().width()


@pytest.mark.scale
def test_range_filter_headers_are_not_clipped(qtbot, session, db):
    """Each range title shows whole at the dock's width, and the log tag marks
    exactly the ranges spanning two decades or more (bounds from SQL)."""
    session.window.show()
    qtbot.waitExposed(session.window)
    for name, rf in session.window.facets.ranges.items():
        lo, hi = db.run(
            q.Query(f"SELECT min({name}), max({name}) FROM results_v", {})
        ).rows[0]
        assert rf.log_tag.isVisible() == (lo > 0 and hi / lo >= 100), name
        t = rf.title
        assert t.height() >= t.heightForWidth(t.width()), (name, t.height())
