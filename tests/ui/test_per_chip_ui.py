"""The window: per-chip figures from the View menu, one unit family at a time."""

from __future__ import annotations

from PySide6.QtCore import Qt

from ipubench_gui.domain.per_chip import LABEL


def test_per_chip_toggle_from_the_keyboard(qtbot, session, db):
    w = session.window
    assert not session.state.chart.per_accelerator
    w.table.setFocus(Qt.FocusReason.MouseFocusReason)
    qtbot.keyClick(
        w.table,
        Qt.Key.Key_P,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    assert session.state.chart.per_accelerator
    assert w.per_chip_action.isChecked() and w.chart_options.per_chip.isChecked()
    plot = session.controller.plot
    assert LABEL in plot.x_title
    stored = {
        r[0]: r[1] / r[2]
        for r in db.cursor()
        .execute("SELECT result_id, value, accelerators FROM results_v")
        .fetchall()
        if r[2] and r[1] is not None
    }
    bars = {p.result_id: p.x for s in plot.series for p in s.points}
    assert bars and all(abs(v - stored[i]) < 1e-9 for i, v in bars.items())
    # and back
    w.per_chip_action.trigger()
    assert not session.state.chart.per_accelerator


def test_unit_family_one_click_away(qtbot, session):
    w = session.window
    combo = w.chart_options.family
    assert combo.isVisible() and combo.count() > 1
    drawn = {r["unit_family"] for r in session.controller.plot.rows}
    assert drawn == {combo.itemData(0)}
    i = next(i for i in range(combo.count()) if combo.itemData(i) == "nodes/s")
    combo.setCurrentIndex(i)
    combo.activated.emit(i)
    assert session.state.chart.unit_family == "nodes/s"
    assert {r["model"] for r in session.controller.plot.rows} == {"Cluster-GCN"}
