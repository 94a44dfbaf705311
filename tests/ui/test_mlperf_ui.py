"""File > Import MLPerf results folder, through the window."""
# ruff: noqa: F811  (combined_session is a fixture imported from test_import_ui)

from __future__ import annotations

from tests.conftest import STORE_ROWS
from tests.mlperf_trees import tree
from tests.ui.test_import_ui import combined_session  # noqa: F401 (fixture)


def test_import_a_folder_then_again(qtbot, combined_session, tmp_path):
    make, _db = combined_session
    s = make()
    ctl = s.mlperf_imports
    ctl.ask = False  # the test answers the confirmation itself
    assert ctl.action.isEnabled() and ctl.action in s.window.file_menu.actions()
    root = tree(tmp_path, [10, 20, 30, 40, 100])
    ctl.open_folder(root)
    assert ctl.plan is not None and len(ctl.plan.new) == 1 and not ctl.plan.bad
    ctl.land(skip_bad=False)
    assert ctl.last_message == "Imported 1 MLPerf results (source 1)."
    total = STORE_ROWS + 1
    assert s.window.count_label.text() == f"{total:,} of {total:,} results"
    ctl.open_folder(root)
    assert "0 new result(s), 1 already stored" in ctl.last_message
    assert s.window.count_label.text() == f"{total:,} of {total:,} results"


def test_reading_a_folder_can_be_cancelled(qtbot, combined_session, tmp_path):
    make, _db = combined_session
    s = make(synchronous=False)
    ctl = s.mlperf_imports
    ctl.ask = False
    root = tree(tmp_path, [10] * 5)
    ctl.stop.set()  # as the progress dialog's Cancel does
    ctl.open_folder(root)
    ctl.stop.set()
    qtbot.waitUntil(lambda: "cancelled" in ctl.last_message, timeout=10_000)
    assert ctl.last_message == "MLPerf import cancelled; nothing was stored."
    assert ctl.plan is None


def test_a_folder_without_a_round_or_results_is_refused(
    qtbot, combined_session, tmp_path
):
    make, _db = combined_session
    s = make()
    ctl = s.mlperf_imports
    ctl.ask = False
    bare = tmp_path / "training_results_v2.1" / "nothing"
    bare.mkdir(parents=True)
    ctl.open_folder(bare)
    assert "not an MLPerf Training results tree" in ctl.last_message
