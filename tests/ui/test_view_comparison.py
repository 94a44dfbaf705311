"""A view keeps the comparison (ids, baseline, focus, "only differences") and
opens with it, in the window and from the command line; ``--screenshot``
waits for what the view asks for, and never waits on a box no one answers."""

from __future__ import annotations

import json

from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.compare import LABELS, Comparison
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.views import View
from tests.conftest import STORE_ROWS, run_cli

IDS = ("bowtr-536574", "bowtr-aeb672")  # same page, table and date


def _labels(cm) -> list[str]:
    from PySide6.QtCore import Qt

    return [cm.headerData(i, Qt.Orientation.Vertical) for i in range(cm.rowCount())]


def test_the_comparison_and_only_differences_round_trip(qtbot, session, tmp_path):
    st, w = session.state, session.window
    cm = w.comparator.model
    st.set_comparison(Comparison(IDS, IDS[1], "accelerators"))
    qtbot.waitUntil(lambda: cm.columnCount() == 2)
    assert LABELS["source_title"] in _labels(cm)
    w.comparator.only_diff.click()  # as the user ticks it
    assert st.comparison.only_differences
    assert LABELS["source_title"] not in _labels(cm)  # the same in both
    path = tmp_path / "v.ipubench-view.json"
    session.compare.save_view(path)
    saved = st.comparison
    assert json.loads(path.read_text())["comparison"] == {
        "ids": list(IDS),
        "baseline": IDS[1],
        "focus": "accelerators",
        "only_differences": True,
    }
    st.set_comparison(Comparison())
    assert not w.comparator.only_diff.isChecked() and cm.columnCount() == 0
    session.compare.open_view(path)
    qtbot.waitUntil(lambda: cm.columnCount() == 2)
    assert st.comparison == saved
    assert w.comparator.only_diff.isChecked() and cm.only_differences
    assert LABELS["source_title"] not in _labels(cm)
    # a view saved before the choice was kept opens, showing every row
    data = json.loads(path.read_text())
    del data["comparison"]["only_differences"]
    path.write_text(json.dumps(data))
    session.compare.open_view(path)
    qtbot.waitUntil(lambda: not st.comparison.only_differences)
    assert st.comparison.ids == IDS and not w.comparator.only_diff.isChecked()
    assert LABELS["source_title"] in _labels(cm)
    assert session.compare.last_view_message == ""


def _view_file(tmp_path, db) -> tuple:
    f = FilterState().with_values("framework", ["PopART"])
    view = View(f, ChartSpec(kind="scaling"), Comparison(IDS, IDS[0], None, True))
    path = tmp_path / "v.ipubench-view.json"
    path.write_text(json.dumps(view.to_json()))
    n = db.scalar("SELECT count(*) FROM results_v WHERE framework = 'PopART'")
    return path, n


def test_screenshot_of_a_view_waits_for_its_rows_chart_and_comparison(db, tmp_path):
    path, n = _view_file(tmp_path, db)
    assert 0 < n < STORE_ROWS
    shot = tmp_path / "shot.png"
    p = run_cli("--view", str(path), "--screenshot", str(shot), home=tmp_path / "h")
    assert p.returncode == 0, p.stderr[-2000:]
    assert shot.stat().st_size > 0
    # what the window showed when it was captured
    assert (
        f"showing: {n:,} of {STORE_ROWS:,} results; chart scaling; "
        "comparison of 2, only differences"
    ) in p.stdout


def test_screenshot_does_not_wait_on_a_box_no_one_answers(db, tmp_path):
    """A damaged user database is set aside with a message box; under
    --screenshot that box waited forever. Now the message goes to stderr."""
    home = tmp_path / "h"
    (home / "data").mkdir(parents=True)
    (home / "data" / "user.duckdb").write_bytes(b"not a database " * 1000)
    path, n = _view_file(tmp_path, db)
    shot = tmp_path / "shot.png"
    p = run_cli("--view", str(path), "--screenshot", str(shot), home=home)
    assert p.returncode == 0, p.stderr[-2000:]
    assert shot.stat().st_size > 0
    assert "note: " in p.stderr and "a new, empty one was started" in p.stderr
    assert f"showing: {n:,} of {STORE_ROWS:,} results" in p.stdout
    assert list((home / "data").glob("user.damaged-*.duckdb"))  # kept, not lost
