"""What the import says about a file it cannot read: what is wrong, and what
to do, in the window's message (no DuckDB error text)."""

from __future__ import annotations

import os

import pytest
from PySide6.QtWidgets import QMessageBox

from ipubench_gui.ui.import_messages import ADVICE, DEFAULT, explain
from tests.ui.conftest import press_ok


def advice(kind: str) -> str:
    return ADVICE[kind]


@pytest.mark.parametrize(
    "name, content, wrong, todo",
    [
        (
            "unclosed.csv",
            b'model,platform,value\n"ResNet-50,A100,2500\nBERT,A100,300\n',
            "a quoted value opened on line 2 is never closed",
            advice("unclosed_quote"),
        ),
        (
            "random.csv",
            bytes(range(256)) * 8 + os.urandom(1000),
            "the file holds binary data (NUL bytes), not CSV text",
            advice("binary"),
        ),
        (
            "latin.csv",
            "model,platform,value\nRésNet,A100,1\n".encode("latin-1"),
            "not utf-8 text",
            "Choose an encoding",
        ),
    ],
)
def test_a_file_that_cannot_be_read_says_what_and_what_to_do(
    qtbot, session, tmp_path, name, content, wrong, todo
):
    f = tmp_path / name
    f.write_bytes(content)
    session.imports.open_file(f)
    assert session.imports.dialog is None  # no mapping dialog for such a file
    (box,) = [b for b in session.window.findChildren(QMessageBox) if b.isVisible()]
    assert box.windowTitle() == "Cannot import this file"
    assert wrong in box.text()
    assert box.informativeText().startswith(todo)
    for raw in ("Invalid Input Error", "sniffing", "Errno", "Traceback"):
        assert raw not in box.text() + box.informativeText()
    assert session.window.statusBar().currentMessage().startswith(name)
    press_ok(qtbot, session.window)


def test_every_kind_has_advice_and_the_advice_a_kind():
    from ipubench_gui.store.user.import_csv import KINDS
    from ipubench_gui.store.user.import_read import FAILURES

    # every kind but those whose message says what to do, or says it in the
    # store's own words, and the failures listed row by row
    assert set(ADVICE) == set(KINDS + FAILURES) - {"encoding", "other", "rows"}
    for kind, todo in ADVICE.items():
        assert explain("x.csv: whatever is wrong", kind) == (
            "x.csv: whatever is wrong",
            todo,
        )
    assert explain("x.csv: something new", "other")[1] == DEFAULT
    what, todo = explain("x.csv: not latin-1 text — choose an encoding (utf-8)")
    assert what == "x.csv: not latin-1 text"
    assert todo == "Choose an encoding (utf-8)."


def test_a_problem_found_by_check_shows_in_the_import_dialog(qtbot, session, tmp_path):
    """The file went away between the preview and the check."""
    from PySide6.QtCore import Qt

    f = tmp_path / "moved.csv"
    f.write_text("model,platform,value\nResNet-50,A100 80GB,2500\n")
    session.imports.open_file(f)
    dlg = session.imports.dialog
    assert dlg is not None, session.imports.last_error
    dlg.metric_box.setCurrentText("throughput")
    dlg.unit_box.setText("images/s")
    f.unlink()
    qtbot.mouseClick(dlg.check_button, Qt.MouseButton.LeftButton)
    report = dlg.report.toPlainText()
    what, todo = session.imports.last_message
    assert "moved.csv" in what and report.startswith(what)
    assert todo == advice("missing")
    assert todo in report and "Nothing was imported." in report
    assert "Errno" not in report
