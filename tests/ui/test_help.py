"""Help: F1 lists the window's real shortcuts; About shows versions and sources."""

from __future__ import annotations

import csv

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence

from ipubench_gui import paths
from tests.ui.conftest import message_boxes, press_ok


def test_f1_lists_the_windows_own_shortcuts(qtbot, session):
    w = session.window
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow)
    qtbot.keyClick(w, Qt.Key.Key_F1)
    qtbot.waitUntil(lambda: getattr(w, "shortcuts_dialog", None) is not None)
    dlg = w.shortcuts_dialog
    qtbot.waitUntil(dlg.isVisible)
    rows = dlg.rows()
    keys = {(a, k) for _, a, k in rows}
    native = QKeySequence.SequenceFormat.NativeText
    # shortcuts declared in different places, as the code declares them
    assert ("Keyboard shortcuts", "F1") in keys
    assert (
        "Copy chart as image",
        QKeySequence("Ctrl+Shift+C").toString(native),
    ) in keys
    assert ("Comparison", "Copy comparison as Markdown") in {(r[0], r[1]) for r in rows}
    # built from the actions, not a hand-kept list: a new one shows up
    dlg.close()
    extra = QAction("Zz test action", w)
    extra.setShortcut(QKeySequence("Ctrl+Alt+F12"))
    w.addAction(extra)
    w.show_shortcuts()
    assert (
        "Window",
        "Zz test action",
        QKeySequence("Ctrl+Alt+F12").toString(native),
    ) in w.shortcuts_dialog.rows()
    w.shortcuts_dialog.close()


def test_about_shows_versions_and_dated_sources(qtbot, session):
    import duckdb
    from PySide6.QtCore import qVersion

    from ipubench_gui import __version__

    w = session.window
    qtbot.waitUntil(lambda: bool(w.sources_text))
    w.about_action.trigger()
    qtbot.waitUntil(lambda: len(message_boxes(w)) == 1)
    ((title, text),) = message_boxes(w)
    assert title == "About IPU Benchmark Explorer"
    assert __version__ in text and f"Qt {qVersion()}" in text
    assert f"DuckDB {duckdb.__version__}" in text and "data: " in text
    with open(paths.data_dir() / "sources.csv", encoding="utf-8") as f:
        dated = [r for r in csv.DictReader(f) if r["date"]]
    assert dated
    for r in dated:
        assert f"{r['date']}" in text and r["title"].split(" (")[0] in text
    press_ok(qtbot, w)
