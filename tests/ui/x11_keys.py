"""Run by tests/ui/test_keyboard.py under X (Xvfb): keys as the X11 platform
binds them (its line edits claim Ctrl+E as "end of line"; offscreen's do not).

    python tests/ui/x11_keys.py STORE  -> prints one line per check
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest


def main(store: str) -> int:
    from ipubench_gui.app import Session, ensure_app
    from ipubench_gui.store.db import Database

    app = ensure_app()
    db = Database.open(Path(store))
    s = Session(db, synchronous=True)
    s.start(restore=False)
    w = s.window
    w.resize(1400, 900)
    w.show()
    QTest.qWaitForWindowExposed(w)
    w.activateWindow()
    QTest.qWaitForWindowActive(w)
    end = QKeySequence.keyBindings(QKeySequence.StandardKey.MoveToEndOfLine)
    end = ", ".join(k.toString() for k in end)
    print("end-of-line key:", end)
    opened = []
    w.export_chart_action.triggered.disconnect()  # no modal dialog here
    w.export_chart_action.triggered.connect(lambda: opened.append(1))
    QTest.keyClick(w, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    print("search focused:", app.focusWidget() is w.search)
    QTest.keyClicks(w.search, "resnet")
    w.search.setCursorPosition(0)
    QTest.keyClick(w.search, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    print("ctrl+e exports:", opened == [1])
    print("cursor kept:", w.search.cursorPosition() == 0)
    QTest.keyClick(w.search, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    print("ctrl+a selects:", w.search.selectedText() == "resnet")
    s.close()
    db.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
