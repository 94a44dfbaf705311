"""Keyboard-only use of the window, driven with real key presses (qtbot.keyClick)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QFileDialog

from ipubench_gui.domain.filters import FilterState
from tests.conftest import REPO
from tests.ui.conftest import sql_ids, table_ids

PANELS = (
    "search",
    "filters",
    "chart controls",
    "chart",
    "table",
    "details",
    "comparison",
)


def focus() -> object:
    return QApplication.focusWidget()


def when_modal(kind, then) -> list:
    """Call ``then(dialog)`` on the next modal dialog of class ``kind`` to open
    (its own event loop runs the timer); returns the dialogs seen."""
    seen: list = []

    def poll():
        dlg = QApplication.activeModalWidget()
        if isinstance(dlg, kind):
            seen.append(dlg)
            then(dlg)
        else:
            QTimer.singleShot(20, poll)

    QTimer.singleShot(0, poll)
    return seen


def answer_file_dialog(path) -> list:
    """Fill in the next file dialog (Qt's own) with ``path`` and accept it."""

    def fill(dlg):
        dlg.selectFile(str(path))
        dlg.accept()

    return when_modal(QFileDialog, fill)


@pytest.mark.scale
def test_enter_in_the_export_dialog_saves(qtbot, session, tmp_path):
    session.state.set_filters(FilterState().with_values("framework", ["PopART"]))
    dlg = session.controller.export_dialog()
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.waitExposed(dlg)
    dlg.title.setFocus()
    assert dlg.save_button.isDefault()
    out = tmp_path / "by-enter.png"
    seen = answer_file_dialog(out)
    with qtbot.waitSignal(dlg.accepted, timeout=10000):
        qtbot.keyClick(dlg.title, Qt.Key.Key_Return)
    assert seen, "Enter did not open the save dialog"
    assert QImage(str(out)).size().toTuple() == (1920, 1080)


def test_ctrl_e_works_from_the_search_box(qtbot, session):
    from ipubench_gui.ui.widgets.export_dialog import ExportDialog

    w = session.window
    qtbot.keyClick(w, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert focus() is w.search
    qtbot.keyClicks(w.search, "resnet")
    w.search.setCursorPosition(0)
    opened = when_modal(ExportDialog, lambda dlg: dlg.reject())
    qtbot.keyClick(w.search, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    assert len(opened) == 1
    assert opened[0].title.text()  # the chart's own title, filled in
    # The line edit did not take it as "end of line" either.
    assert w.search.cursorPosition() == 0
    # Its own editing keys stay its own: Ctrl+A selects the text.
    qtbot.keyClick(w.search, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    assert w.search.selectedText() == "resnet"


@pytest.mark.xvfb
@pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs an X display (Xvfb)")
def test_ctrl_e_from_the_search_box_under_x11(store_path, _isolated_home):
    """Under X the line edit claims Ctrl+E as "end of line" (offscreen's key
    scheme does not), so this runs the window on the xcb platform."""
    env = dict(os.environ, QT_QPA_PLATFORM="xcb", IPUBENCH_GUI_HOME=str(_isolated_home))
    p = subprocess.run(
        [sys.executable, str(Path(__file__).with_name("x11_keys.py")), str(store_path)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode == 0, p.stderr[-3000:]
    lines = dict(line.split(": ", 1) for line in p.stdout.splitlines())
    assert "Ctrl+E" in lines["end-of-line key"]  # the case this is about
    assert lines["search focused"] == "True"
    assert lines["ctrl+e exports"] == "True", p.stdout
    assert lines["cursor kept"] == "True", p.stdout
    assert lines["ctrl+a selects"] == "True", p.stdout


def tab_round(qtbot, window, back=False, limit=400, at_each=None) -> list:
    """Tab (or Shift+Tab) from the search box until focus comes back to it: the
    stops met, as (panel, widget); ``at_each(widget)`` is called at each."""
    key = Qt.Key.Key_Backtab if back else Qt.Key.Key_Tab
    mod = Qt.KeyboardModifier.ShiftModifier if back else Qt.KeyboardModifier.NoModifier
    window.search.setFocus(Qt.FocusReason.ShortcutFocusReason)
    stops = []
    for _ in range(limit):
        qtbot.keyClick(focus(), key, mod)
        w = focus()
        if w is window.search:
            return stops
        if at_each is not None:
            at_each(w)
        stops.append((window.panels.panel_of(w), w))
    raise AssertionError(f"Tab never came back to the search box: {stops[-5:]}")


def ring_marks(window, w) -> bool:
    """The focus ring is shown around ``w``, in the highlight colour."""
    ring = window.focus_ring
    if not ring.isVisible():
        return False
    box = ring.geometry()
    inner = w.rect().translated(w.mapTo(window, w.rect().topLeft()))
    if not box.intersects(inner):
        return False
    img = window.grab(box).toImage()
    hl = ring.palette().color(ring.palette().ColorRole.Highlight).rgb()
    y = img.height() // 2
    return (img.pixel(0, y) & 0xFFFFFF) == (hl & 0xFFFFFF)


def test_tab_goes_through_every_panel_in_order_and_out_of_each_table(qtbot, session):
    w = session.window
    w.compare_dock.show()
    stops = tab_round(qtbot, w)
    panels = list(dict.fromkeys(p for p, _ in stops))
    assert ["search"] + panels == list(PANELS)
    # Panels are not interleaved: each one's stops come together.
    runs = [p for i, (p, _) in enumerate(stops) if i == 0 or stops[i - 1][0] != p]
    assert runs == panels
    # One stop per table: Tab leaves it (no cell-by-cell stops).
    widgets = [x for _, x in stops]
    for table in (w.table, w.comparator.view):
        assert widgets.count(table) == 1
    for box in w.facets.boxes.values():
        assert widgets.count(box.list) == 1
    # Every chart option shown is reachable, and the chart itself.
    opts = w.chart_options
    for c in (opts.kind, opts.color_by, opts.group_by, opts.export_button):
        assert c in widgets
    assert w.canvas.plot in widgets
    # Backwards visits the same stops in reverse.
    assert [x for _, x in tab_round(qtbot, w, back=True)] == widgets[::-1]


@pytest.mark.scale
def test_every_tab_stop_shows_the_focus_ring(qtbot, session):
    w = session.window
    w.compare_dock.show()
    w.search.setFocus(Qt.FocusReason.ShortcutFocusReason)
    assert ring_marks(w, w.search)
    unmarked = []
    stops = tab_round(
        qtbot, w, at_each=lambda s: ring_marks(w, s) or unmarked.append(s)
    )
    assert len(stops) > 20 and unmarked == []


def test_first_tab_into_the_table_selects_the_row_it_marks(qtbot, session):
    w = session.window
    assert session.state.selection == ()
    w.canvas.plot.setFocus(Qt.FocusReason.TabFocusReason)  # the stop before it
    qtbot.keyClick(focus(), Qt.Key.Key_Tab)
    assert focus() is w.table
    first = w.model.result_id(0)
    assert session.state.selection == (first,)
    assert w.table.currentIndex().row() == 0
    assert first in w.details.toPlainText()
    # Arrows move inside; the selection follows the marked row.
    qtbot.keyClick(w.table, Qt.Key.Key_Down)
    assert session.state.selection == (w.model.result_id(1),)
    # Leaving and coming back keeps that row.
    qtbot.keyClick(w.table, Qt.Key.Key_Tab)
    assert focus() is w.details
    qtbot.keyClick(focus(), Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    assert focus() is w.table
    assert session.state.selection == (w.model.result_id(1),)
    assert w.table.currentIndex().row() == 1


def test_f6_cycles_between_panels(qtbot, session):
    w = session.window
    w.compare_dock.show()
    w.search.setFocus(Qt.FocusReason.ShortcutFocusReason)
    seen = ["search"]
    for _ in range(len(PANELS)):
        qtbot.keyClick(focus(), Qt.Key.Key_F6)
        seen.append(w.panels.panel_of(focus()))
    assert seen == list(PANELS) + ["search"]
    qtbot.keyClick(focus(), Qt.Key.Key_F6, Qt.KeyboardModifier.ShiftModifier)
    assert w.panels.panel_of(focus()) == "comparison"


def test_selection_follows_the_filter(qtbot, session, db):
    """A row selected, then hidden by a filter, is not added by Ctrl+Shift+A and
    leaves the details panel."""
    w = session.window
    hidden = sql_ids(db, "r.framework = 'PopART'")
    kept = sql_ids(db, "r.framework = 'TensorFlow2'")
    assert hidden and kept
    m = w.model
    pick = [m.result_id(r) for r in range(m.rowCount())]
    a = next(i for i in pick if i in hidden)
    b = next(i for i in pick if i in kept)
    w.table.select_ids((a, b))
    assert set(session.state.selection) == {a, b}
    assert a in w.details.toPlainText()
    session.state.set_filters(FilterState().with_values("framework", ["TensorFlow 2"]))
    assert table_ids(session) == kept
    assert session.state.selection == (b,)
    assert a not in w.details.toPlainText() and b in w.details.toPlainText()
    w.table.setFocus(Qt.FocusReason.MouseFocusReason)
    qtbot.keyClick(
        w.table,
        Qt.Key.Key_A,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    assert session.state.comparison.ids == (b,)
    # Filtering everything selected away empties the details.
    session.state.set_filters(FilterState().with_values("framework", ["PopART"]))
    assert session.state.selection == ()
    assert "Select a result" in w.details.toPlainText()
