"""Small frictions of daily use, each driven as a user would: keys, clicks,
the wheel and right-click menus on the real window over the real store."""

from __future__ import annotations

from PySide6.QtCore import Qt

from ipubench_gui.domain.filters import FilterState
from ipubench_gui.ui.widgets.detail_pane import DetailPane
from tests.ui.conftest import sql_ids, table_ids
from tests.ui.test_main_window import click_facet_value


def _details(session) -> str:
    return session.window.details.toPlainText()


def _placeholder() -> str:
    return DetailPane().toPlainText()


def test_clear_all_clears_every_box_and_details_of_rows_gone(qtbot, session, db):
    w = session.window
    # A facet's own search, the main search and a range's box, typed into.
    box = w.facets.boxes["platform"]
    qtbot.keyClicks(box.search, "bow")
    assert box.proxy.rowCount() < box.model.rowCount()
    qtbot.keyClicks(w.search, "bert")
    qtbot.waitUntil(lambda: session.state.filters.text == "bert")
    click_facet_value(qtbot, session, "framework", "PopART")
    lo = w.facets.ranges["batch_size"].lo_box
    qtbot.keyClicks(lo, "12")  # typed, not applied (no Enter)
    # A row explained (Shift+F1) in Details: the row of the current cell.
    w.table.setFocus()
    qtbot.keyClick(w.table, Qt.Key.Key_Down)
    row = w.table.current_row()
    qtbot.keyClick(w.table, Qt.Key.Key_F1, Qt.KeyboardModifier.ShiftModifier)
    assert w.details.about == (row["result_id"],)
    explained = _details(session)
    assert row["result_id"] in explained or row["model"] in explained
    # A filter that hides the row: its explanation goes with it.
    assert row["result_id"] not in sql_ids(db, "lower(framework) = 'pytorch'")
    click_facet_value(qtbot, session, "framework", "PopART")  # untick
    click_facet_value(qtbot, session, "framework", "PyTorch")
    assert _details(session) == _placeholder()
    assert w.details.about == ()
    # Clear all (its key): every filter and every box typed into.
    qtbot.keyClick(
        w.search,
        Qt.Key.Key_Backspace,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    assert session.state.filters == FilterState()
    assert w.search.text() == "" and box.search.text() == "" and lo.text() == ""
    assert box.proxy.rowCount() == box.model.rowCount()
    assert table_ids(session) == sql_ids(db)


def test_empty_state_shows_whole_at_1280x720(qtbot, session):
    """Every active filter is read in full, with the way out below it."""
    w = session.window
    w.resize(1280, 720)
    for dim, value in (
        ("framework", "PyTorch"),
        ("model", "ResNet-50 v1.5"),
        ("platform", "IPU-POD16"),
        ("task", "training"),
    ):
        click_facet_value(qtbot, session, dim, value)
    qtbot.keyClicks(w.search, "no such words")
    qtbot.waitUntil(lambda: w.stack.currentWidget() is w.empty)
    empty, detail = w.empty, w.empty.detail
    qtbot.waitUntil(lambda: detail.height() >= detail.heightForWidth(detail.width()))
    assert "IPU-POD16" in detail.text() and "no such words" in detail.text()
    for label in (empty.title, detail, empty.clear_button):
        top_left = label.mapTo(empty, label.rect().topLeft())
        bottom_right = label.mapTo(empty, label.rect().bottomRight())
        assert empty.rect().contains(top_left) and empty.rect().contains(
            bottom_right
        ), label
    qtbot.mouseClick(empty.clear_button, Qt.MouseButton.LeftButton)
    assert session.state.filters == FilterState() and w.search.text() == ""


def test_long_system_names_keep_both_ends_and_their_count(qtbot, session, db):
    """MLPerf system ids are one long word: cut in their middle at "_" or "-"
    ("HPE-…-80GB_pytorch  (16)"), never to "… (16)" with the name gone."""
    from ipubench_gui.domain.text import ELLIPSIS
    from ipubench_gui.ui.models.facet_model import VALUE_ROLE
    from tests.ui.test_word_elide import _shown

    w = session.window
    w.resizeDocks([w.facet_dock], [1], Qt.Orientation.Horizontal)  # narrowest
    qtbot.waitUntil(lambda: w.facet_dock.width() < 300)
    box = w.facets.boxes["platform"]
    qtbot.keyClicks(box.search, "HPE-ProLiant-XL675")
    proxy = box.list.model()
    assert proxy.rowCount() >= 4
    for r in range(proxy.rowCount()):
        ix = proxy.index(r, 0)
        name = ix.data(VALUE_ROLE)
        n = len(sql_ids(db, "platform = $p", {"p": name}))
        shown, _tip, width = _shown(box.list, ix)
        assert box.list.fontMetrics().horizontalAdvance(shown) <= width
        assert ELLIPSIS in shown and shown.endswith(f"  ({n})"), shown
        head, _, tail = shown[: -len(f"  ({n})")].partition(ELLIPSIS)
        assert head and name.startswith(head), shown
        assert tail and name.endswith(tail), shown
