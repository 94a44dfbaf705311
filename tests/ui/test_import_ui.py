"""Import through the window: preview, mapping, check, import, cancel."""

from __future__ import annotations

import os

import pytest
from PySide6.QtCore import Qt

from ipubench_gui.domain.filters import FilterState
from tests.conftest import DATA, STORE_ROWS, write_csv


@pytest.fixture
def combined_session(tmp_path, store_path, make_session):
    """``make(synchronous)``: a shown window over the test store plus a user
    database of its own (closed with the session)."""
    from ipubench_gui.store.bundled.build import fingerprint
    from ipubench_gui.store.user.userdb import open_combined

    cache = tmp_path / "cache"
    cache.mkdir()
    os.link(store_path, cache / f"results-{fingerprint(DATA)[:16]}.duckdb")
    db, status = open_combined(DATA, cache, tmp_path / "user.duckdb")

    def make(synchronous=True):
        s = make_session(db, synchronous=synchronous)
        s.window.show()
        return s

    yield make, db
    db.close()  # when no session took it


def test_import_through_the_dialog(qtbot, combined_session, tmp_path):
    make, db = combined_session
    s = make()
    f = tmp_path / "mine.csv"
    f.write_text(
        'Benchmark,System,Samples/s,bs\nResNet-50,A100 80GB,"2,500",256\n'
        "ResNet-50,A100 80GB,2700,512\nBERT,A100 80GB,,8\n"
    )
    assert s.imports.import_action.isEnabled()
    s.imports.open_file(f)
    dlg = s.imports.dialog
    # dlg is a child of the window, which qtbot already owns
    chosen = [c.currentText() for c in dlg.maps]
    assert chosen == ["model", "platform", "value", "batch_size"]  # guessed
    dlg.metric_box.setCurrentText("throughput")
    dlg.unit_box.setText("images/s")
    dlg.label_box.setText("Lab A100")
    qtbot.mouseClick(dlg.check_button, Qt.MouseButton.LeftButton)
    assert "2 rows will land; 1 without a figure" in dlg.report.toPlainText()
    qtbot.mouseClick(dlg.import_button, Qt.MouseButton.LeftButton)
    assert s.imports.last_result.landed == 2
    assert (
        s.window.count_label.text()
        == f"{STORE_ROWS + 2:,} of {STORE_ROWS + 2:,} results"
    )
    s.state.set_filters(FilterState().with_values("source_file", ["mine.csv"]))
    m = s.window.model
    names = [f.name for f in m.fields]
    rows = [
        (m.raw(r, names.index("value")), m.raw(r, names.index("table")))
        for r in range(m.rowCount())
    ]
    assert sorted(rows) == [(2500.0, "Lab A100"), (2700.0, "Lab A100")]
    assert s.window.facets.boxes["source_file"].model.count("mine.csv") == 2


def test_bad_file_shows_problems_and_stores_nothing(qtbot, combined_session, tmp_path):
    make, db = combined_session
    s = make()
    f = tmp_path / "bad.csv"
    f.write_text("model,platform,throughput\nM,P,fast\n")
    s.imports.open_file(f)
    dlg = s.imports.dialog
    # dlg is a child of the window, which qtbot already owns
    dlg.metric_box.setCurrentText("throughput")
    dlg.unit_box.setText("items/s")
    qtbot.mouseClick(dlg.import_button, Qt.MouseButton.LeftButton)
    assert (
        "row 1, column 'throughput': not a number: 'fast'" in dlg.report.toPlainText()
    )
    assert db.scalar("SELECT count(*) FROM user_results_v") == 0


def test_a_file_that_cannot_be_read_is_named_in_a_warning(
    qtbot, combined_session, tmp_path
):
    from tests.ui.conftest import message_boxes, press_ok

    make, db = combined_session
    s = make()
    sunk = []
    s.runner.failed.connect(lambda slot, exc: sunk.append(slot))
    missing = tmp_path / "gone.csv"
    s.imports.open_file(missing)
    [(title, text)] = message_boxes(s.window)
    assert title == "Cannot import this file"
    assert "gone.csv" in text and text == s.imports.last_error
    # Reported once, by the import's own handler: not by the general sink too
    # (whose "... could not be computed" would replace the status line).
    assert sunk == []
    assert s.window.statusBar().currentMessage() == text.splitlines()[0]
    assert s.imports.dialog is None  # no import dialog for it
    press_ok(qtbot, s.window)
    assert db.scalar("SELECT count(*) FROM user_results_v") == 0


def test_cancel_a_large_import_keeps_nothing(qtbot, combined_session, tmp_path):
    make, db = combined_session
    big = write_csv(
        tmp_path / "big.csv",
        "SELECT 'M' || (i % 50) AS model, 'P' AS platform, i + 1 AS "
        "throughput FROM range(2000000) t(i)",
    )
    s = make(synchronous=False)
    with qtbot.waitSignal(
        s.runner.finished,
        timeout=30000,
        check_params_cb=lambda slot, *_: slot == "import-preview",
    ):
        s.imports.open_file(big)
    dlg = s.imports.dialog
    # dlg is a child of the window, which qtbot already owns
    dlg.metric_box.setCurrentText("throughput")
    dlg.unit_box.setText("items/s")
    answers = []  # (failed, text): the error's traceback would keep its cursor
    s.runner.finished.connect(
        lambda slot, _rid, res: (
            answers.append((isinstance(res, Exception), str(res)))
            if slot == "import"
            else None
        )
    )
    qtbot.mouseClick(dlg.import_button, Qt.MouseButton.LeftButton)
    assert dlg.cancel_button.isVisible()  # busy from the click on

    def cancel_until_answered() -> bool:
        # Cancel interrupts the statement running; DuckDB ignores an interrupt
        # that falls between two statements, so press again until it answers
        # (2M rows take seconds; one press in a statement is enough).
        if not answers:
            qtbot.mouseClick(dlg.cancel_button, Qt.MouseButton.LeftButton)
        return bool(answers)

    qtbot.waitUntil(cancel_until_answered, timeout=60000)
    [(failed, text)] = answers
    assert failed and "INTERRUPT" in text.upper()
    assert s.imports.last_result is None
    assert s.imports.last_error == "Import cancelled; nothing was stored."
    assert dlg.report.toPlainText() == s.imports.last_error
    assert not dlg.cancel_button.isVisible()
    assert db.scalar("SELECT count(*) FROM user_results_v") == 0
    assert db.scalar("SELECT count(*) FROM u.imports") == 0


def test_renaming_and_removing_a_source_update_the_table(
    qtbot, combined_session, tmp_path
):
    # The seed is held in memory (store.query.snapshot): each write must drop that
    # copy, or the table would keep showing the rows as they were.
    from ipubench_gui.domain.import_spec import ImportSpec

    make, db = combined_session
    s = make()
    f = tmp_path / "mine.csv"
    f.write_text("model,platform,value\nResNet-50,A100 80GB,2500\n")
    spec = ImportSpec(
        f,
        {"model": "model", "platform": "platform", "value": "value"},
        {"metric": "throughput", "unit": "images/s"},
        label="Lab A100",
    )
    s.imports.start_import(spec)
    assert (
        s.window.count_label.text()
        == f"{STORE_ROWS + 1:,} of {STORE_ROWS + 1:,} results"
    )
    sid = s.imports.last_result.source_id
    s.state.set_filters(FilterState().with_values("source_file", ["mine.csv"]))
    m = s.window.model
    title = [f.name for f in m.fields].index("table")
    assert [m.raw(r, title) for r in range(m.rowCount())] == ["Lab A100"]

    s.imports.show_sources()
    s.imports.sources_dialog.renameRequested.emit(sid, "Lab B")
    assert [m.raw(r, title) for r in range(m.rowCount())] == ["Lab B"]

    s.imports.sources_dialog.removeRequested.emit(sid)
    assert m.rowCount() == 0
    s.state.set_filters(FilterState())
    assert s.window.count_label.text() == f"{STORE_ROWS:,} of {STORE_ROWS:,} results"
    s.imports.sources_dialog.close()


def test_a_file_in_another_encoding_can_be_read_in_it(
    qtbot, combined_session, tmp_path
):
    """Not UTF-8: the warning offers the other encodings; choosing one opens the
    mapping dialog on the file read in it, and the import keeps its letters."""
    from PySide6.QtWidgets import QMessageBox

    make, db = combined_session
    s = make()
    f = tmp_path / "latin.csv"
    f.write_bytes("model,platform,value\nRésNet,Lab Bôx,1234\n".encode("latin-1"))
    s.imports.open_file(f)
    assert s.imports.dialog is None
    (box,) = [b for b in s.window.findChildren(QMessageBox) if b.isVisible()]
    assert "not utf-8 text" in box.text()
    offered = {b.text(): b for b in box.buttons()}
    assert {"Read as utf-16", "Read as latin-1"} <= set(offered)
    qtbot.mouseClick(offered["Read as latin-1"], Qt.MouseButton.LeftButton)
    dlg = s.imports.dialog
    assert dlg is not None, s.imports.last_error
    assert dlg.encoding_box.currentText() == "latin-1"
    assert dlg.table.item(1, 0).text() == "RésNet"  # row 1 under the "maps to" row
    dlg.metric_box.setCurrentText("throughput")
    dlg.unit_box.setText("images/s")
    qtbot.mouseClick(dlg.import_button, Qt.MouseButton.LeftButton)
    assert s.imports.last_result.landed == 1
    got = db.scalar(
        "SELECT platform FROM user_results_v WHERE source_file = 'latin.csv'"
    )
    assert got == "Lab Bôx"
    # Choosing utf-8 in the dialog reads the file again in it, and says why not.
    dlg.encoding_box.setCurrentText("utf-8")
    assert any(
        "not utf-8 text" in b.text()
        for b in s.window.findChildren(QMessageBox)
        if b.isVisible()
    )


def test_preview_names_and_treat_as_alias(qtbot, combined_session, tmp_path):
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QInputDialog

    make, db = combined_session
    s = make()
    f = tmp_path / "gpu.csv"
    f.write_text(
        "model,system,throughput\nResNet50,A100 80GB,2000\nOur Net,A100 80GB,9\n"
    )
    s.imports.open_file(f)
    dlg = s.imports.dialog
    shown = [dlg.names.list.item(i).text() for i in range(dlg.names.list.count())]
    assert "model: ResNet50 → ResNet-50 v1.5 (alias)" in shown
    assert "model: Our Net (not recognised)" in shown
    i = shown.index("model: Our Net (not recognised)")
    dlg.names.list.setCurrentRow(i)
    assert dlg.names.alias_button.isEnabled()
    # the user picks ResNet-50 v1.5 in the "Treat as alias of…" list
    picked = []

    def pick():
        box = QApplication.activeModalWidget()
        if not isinstance(box, QInputDialog):
            QTimer.singleShot(20, pick)
            return
        picked.append(set(box.comboBoxItems()))
        box.setTextValue("ResNet-50 v1.5")
        box.accept()

    QTimer.singleShot(0, pick)
    dlg.names.alias_button.click()
    assert "ResNet-50 v1.5" in picked[0]  # the known models were offered
    shown = [dlg.names.list.item(i).text() for i in range(dlg.names.list.count())]
    assert "model: Our Net → ResNet-50 v1.5 (user alias)" in shown
    saved = db.cursor().execute("SELECT kind, alias, canonical FROM u.user_aliases")
    assert saved.fetchall() == [("model", "Our Net", "ResNet-50 v1.5")]


def test_skip_rows_already_stored_in_the_dialog(qtbot, combined_session, tmp_path):
    """A file imported twice: refused, naming the stored rows; with the box
    ticked only the new row lands and the report says how many were left out."""
    make, db = combined_session
    s = make()
    f = tmp_path / "mine.csv"
    f.write_text("model,platform,throughput\nResNet-50,A100 80GB,2500\n")

    def run(skip: bool):
        s.imports.open_file(f)
        dlg = s.imports.dialog
        dlg.metric_box.setCurrentText("throughput")
        dlg.unit_box.setText("images/s")
        if skip:
            qtbot.keyClick(dlg.skip_existing_box, Qt.Key.Key_Space)
        assert dlg.spec().skip_existing is skip
        qtbot.mouseClick(dlg.import_button, Qt.MouseButton.LeftButton)
        return dlg.report.toPlainText()

    run(False)
    f.write_text(
        "model,platform,throughput\nResNet-50,A100 80GB,2500\nBERT,A100 80GB,900\n"
    )
    text = run(False)
    assert "row 1: already stored by the import 'mine.csv'" in text
    assert "Skip rows already stored" in text
    assert db.scalar("SELECT count(*) FROM user_results_v") == 1
    text = run(True)
    assert "Imported 1 row as" in text and "1 already stored left out" in text
    values = db.cursor().execute("SELECT value FROM user_results_v ORDER BY value")
    assert [v for (v,) in values.fetchall()] == [900.0, 2500.0]


def test_a_table_export_that_cannot_be_written_says_why(
    qtbot, combined_session, tmp_path
):
    """The window's table export to a path that cannot be written (its folder
    is a file) names the path in the status bar and the message, and writes
    nothing; the app goes on (a later export to a good path works)."""
    make, db = combined_session
    s = make()
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    bad = blocker / "results.csv"
    s.imports.export(bad)
    assert str(bad) in s.imports.last_error
    assert s.window.statusBar().currentMessage() == s.imports.last_error.splitlines()[0]
    assert blocker.read_text() == "x"
    good = tmp_path / "ok.csv"
    s.imports.export(good)
    lines = good.read_text().splitlines()
    assert len(lines) == STORE_ROWS + 1  # header + every row (no filter)
    assert f"Wrote {STORE_ROWS} results" in s.window.statusBar().currentMessage()
