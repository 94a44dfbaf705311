"""Small frictions of daily use, each driven as a user would: keys, clicks,
the wheel and right-click menus on the real window over the real store."""

from __future__ import annotations

import pytest
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


@pytest.mark.scale
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
    # however many chips, the window still fits the screen; a chip cut to
    # fit keeps its filter whole in its tooltip
    assert w.minimumSizeHint().width() <= 1280 and w.width() <= 1280
    for chip in w.chips.chips:
        label = chip.property("label")
        assert chip.toolTip() == f"Remove this filter ({label})"
        assert chip.geometry().right() < w.chips.clear_all.geometry().left()
    qtbot.mouseClick(empty.clear_button, Qt.MouseButton.LeftButton)
    assert session.state.filters == FilterState() and w.search.text() == ""


@pytest.mark.scale
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


def _row_pos(table, row: int):
    """The middle of ``row``'s first cell shown (a result table's row)."""
    col = table.visible_columns()[0]
    return table.visualRect(table.model().index(row, col)).center()


def test_ctrl_shift_a_shows_the_comparison_flashes_the_column_and_says_so(
    qtbot, session
):
    from ipubench_gui.domain.compare import column_label

    w = session.window
    w.compare_dock.show()
    w.comparator.setCurrentIndex(w.comparator.count() - 1)  # on Vendor claims
    t = w.table
    qtbot.mouseClick(t.viewport(), Qt.MouseButton.LeftButton, pos=_row_pos(t, 3))
    row = w.model.row_dict(3)
    qtbot.keyClick(
        t,
        Qt.Key.Key_A,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    cmp = w.comparator
    assert w.compare_dock.isVisible() and cmp.currentIndex() == 0  # Comparison
    assert cmp.model.ids() == [row["result_id"]]
    said = w.statusBar().currentMessage()
    assert f"Added {column_label(row)} to the comparison" in said, said
    assert "Delete" in said
    # the added column flashes, then fades back to the table's colours
    assert cmp.model.flash() is not None and cmp.model.flash()[0] == 0
    assert cmp.view.currentIndex().column() == 0  # Delete removes it at once
    qtbot.waitUntil(lambda: cmp.model.flash() is None, timeout=5000)
    # a second one: its own column flashes
    qtbot.mouseClick(t.viewport(), Qt.MouseButton.LeftButton, pos=_row_pos(t, 5))
    qtbot.keyClick(
        t,
        Qt.Key.Key_A,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    assert cmp.model.ids()[1] == w.model.row_dict(5)["result_id"]
    assert cmp.model.flash()[0] == 1
    # and Delete in the comparison removes it, as the status bar said
    cmp.view.setFocus()
    qtbot.keyClick(cmp.view, Qt.Key.Key_Delete)
    assert cmp.model.ids() == [row["result_id"]]


def _right_click_and_choose(qtbot, view, pos, text: str) -> list[str]:
    """Right-click ``view``'s viewport at ``pos`` (a press, then the context
    menu event the window system sends) and choose ``text`` from the menu
    that opens; returns the menu's items."""
    from PySide6.QtCore import QTimer
    from PySide6.QtGui import QContextMenuEvent
    from PySide6.QtWidgets import QApplication

    seen: list[str] = []

    def choose():
        menu = QApplication.activePopupWidget()
        if menu is None:
            QTimer.singleShot(20, choose)
            return
        acts = [a for a in menu.actions() if not a.isSeparator() and a.isVisible()]
        seen.extend(a.text() for a in acts)
        menu.close()
        next(a for a in acts if a.text() == text).trigger()

    vp = view.viewport()
    qtbot.mousePress(vp, Qt.MouseButton.RightButton, pos=pos)
    qtbot.mouseRelease(vp, Qt.MouseButton.RightButton, pos=pos)
    QTimer.singleShot(0, choose)
    QApplication.sendEvent(
        vp,
        QContextMenuEvent(QContextMenuEvent.Reason.Mouse, pos, vp.mapToGlobal(pos)),
    )
    qtbot.waitUntil(lambda: bool(seen))
    return seen


# A popup menu asks the window system to raise it and grab the keyboard, which
# the offscreen platform cannot do (and says so).
@pytest.mark.scale
@pytest.mark.qt_log_ignore("does not support (raise|grabbing)", extend=True)
def test_explain_is_on_the_right_click_menus_of_table_comparison_and_chart(
    qtbot, session
):
    from PySide6.QtCore import QPoint, QPointF
    from PySide6.QtGui import QContextMenuEvent
    from PySide6.QtWidgets import QApplication

    w = session.window
    w.activateWindow()  # as a user's window is: clicks give focus
    qtbot.waitUntil(w.isActiveWindow)
    t = w.table
    explain = w.explain_action.text()
    # the table: the row right-clicked is the one explained
    row = w.model.row_dict(4)
    items = _right_click_and_choose(qtbot, t, _row_pos(t, 4), explain)
    assert explain in items and w.add_compare_action.text() in items
    assert w.details.about == (row["result_id"],)
    assert "1. As " in _details(session) and "2. Normalised" in _details(session)
    # the comparison: the column right-clicked
    for r in (2, 6):
        qtbot.mouseClick(t.viewport(), Qt.MouseButton.LeftButton, pos=_row_pos(t, r))
        w.add_compare_action.trigger()
    cmp = w.comparator.view
    second = w.model.row_dict(6)
    qtbot.mouseClick(t.viewport(), Qt.MouseButton.LeftButton, pos=_row_pos(t, 0))
    pos = cmp.visualRect(cmp.model().index(0, 1)).center()
    _right_click_and_choose(qtbot, cmp, pos, explain)
    text = _details(session)
    assert f"table '{second['table']}', row {second['row']}" in text, text
    assert w.details.about == ()  # a column stays while it is compared
    # a chart point: "Explain this point" over a bar, and not beside the bars
    c = w.canvas
    # the fourth bar from the top (hits are kept by series, not by row)
    hit = sorted(c.drawn.hits, key=lambda h: h.y)[3]
    vb = c.item.getViewBox()
    at = c.plot.mapFromScene(vb.mapViewToScene(QPointF(hit.bar_end / 2, hit.y)))
    vp = c.plot.viewport()

    def right_click(pos):
        qtbot.mouseClick(vp, Qt.MouseButton.RightButton, pos=pos)
        QApplication.sendEvent(
            vp,
            QContextMenuEvent(QContextMenuEvent.Reason.Mouse, pos, vp.mapToGlobal(pos)),
        )
        qtbot.waitUntil(w.chart_menu.isVisible)

    right_click(at)
    assert w.explain_point_action.isVisible()
    w.chart_menu.close()
    w.explain_point_action.trigger()
    assert w.details.about == (hit.result_id,)
    assert "1. As " in _details(session)
    right_click(vp.rect().topLeft() + QPoint(2, 2))  # no bar there
    assert not w.explain_point_action.isVisible()
    w.chart_menu.close()


def _wheel(widget, steps: int = -1) -> None:
    """The wheel turned ``steps`` notches over the middle of ``widget``
    (negative: down), as the window system delivers it."""
    from PySide6.QtCore import QPoint, QPointF
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication

    pos = QPointF(widget.rect().center())
    QApplication.sendEvent(
        widget,
        QWheelEvent(
            pos,
            QPointF(widget.mapToGlobal(pos.toPoint())),
            QPoint(),
            QPoint(0, 120 * steps),
            Qt.MouseButton.NoButton,
            Qt.KeyboardModifier.NoModifier,
            Qt.ScrollPhase.NoScrollPhase,
            False,
        ),
    )


def _enter(widget) -> None:
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QEnterEvent
    from PySide6.QtWidgets import QApplication

    p = QPointF(widget.rect().center())
    QApplication.sendEvent(widget, QEnterEvent(p, p, QPointF(widget.mapToGlobal(p))))


def test_the_wheel_scrolls_the_filter_panel_not_the_list_it_passes(qtbot, session):
    w = session.window
    w.resize(1400, 700)
    panel = w.facets
    box = w.facets.boxes["platform"]  # more values than it shows: it scrolls
    lst = box.list
    assert lst.verticalScrollBar().maximum() > 0
    panel.ensureWidgetVisible(box, 0, 0)
    bar, own = panel.verticalScrollBar(), lst.verticalScrollBar()
    bar.setValue(bar.minimum() + 10)
    vp = lst.viewport()
    # the pointer arrives on the list and the wheel turns at once: the panel
    _enter(vp)
    before, own_before = bar.value(), own.value()
    _wheel(vp)
    assert bar.value() > before and own.value() == own_before
    # the sort box at the top does not change with the wheel either
    sort = panel.sort.currentIndex()
    _wheel(panel.sort)
    assert panel.sort.currentIndex() == sort
    # the pointer rests on the list: then the wheel is the list's
    qtbot.waitUntil(lambda: panel.wheel.rested(vp), timeout=3000)
    before = bar.value()
    _wheel(vp)
    assert own.value() > own_before and bar.value() == before
    # the pointer leaves; the list with the focus (Tab) takes it at once
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication

    QApplication.sendEvent(vp, QEvent(QEvent.Type.Leave))
    own.setValue(0)
    _wheel(vp)
    assert own.value() == 0
    w.activateWindow()
    lst.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(lst.hasFocus)
    _wheel(vp)
    assert own.value() > 0


@pytest.mark.scale
def test_claims_dock_shows_ten_claims_at_1920x1080(qtbot, session):
    w = session.window
    w.resize(1920, 1080)
    w.table.setFocus()
    qtbot.keyClick(
        w.table,
        Qt.Key.Key_K,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    table = w.claims.table
    qtbot.waitUntil(lambda: table.rowCount() >= 10, timeout=20_000)
    qtbot.waitUntil(lambda: table.viewport().height() > 0)
    whole = [
        r
        for r in range(table.rowCount())
        if 0 <= table.rowViewportPosition(r)
        and table.rowViewportPosition(r) + table.rowHeight(r)
        <= table.viewport().height()
    ]
    assert len(whole) >= 10, (len(whole), table.viewport().height())
    # the chart keeps its room above
    assert w.canvas.height() >= w.canvas.minimumHeight()


def test_generation_and_task_are_columns_of_the_table_by_default(session, db):
    w = session.window
    fields = [f.name for f in w.model.fields]
    shown = {fields[c] for c in w.table.visible_columns()}
    assert {"generation", "task"} <= shown
    # each cell says what the store holds for its row (the platform's generation)
    m = w.model
    row = next(r for r in range(m.rowCount()) if m.result_id(r).startswith("bow"))
    rid = m.result_id(row)
    gen, task = (
        db.cursor()
        .execute(
            "SELECT p.generation, r.task FROM results r JOIN platforms p "
            "USING (platform) WHERE r.result_id = $id",
            {"id": rid},
        )
        .fetchone()
    )
    assert m.index(row, fields.index("generation")).data() == gen == "Bow"
    assert m.index(row, fields.index("task")).data() == task


def _near_pair(db) -> tuple[str, str, float, str]:
    """Two results of one model counting the same thing whose figures differ
    by less than half a percent (an independent query): their ratio is
    1.00× to two decimals."""
    return (
        db.cursor()
        .execute(
            "SELECT a.result_id, b.result_id, a.value / b.value, a.model "
            "FROM results_v a JOIN results_v b ON a.model = b.model "
            "AND a.metric = b.metric AND a.unit = b.unit "
            "AND a.result_id < b.result_id "
            "WHERE a.metric = 'time_to_train' AND a.value <> b.value "
            "AND abs(a.value / b.value - 1) < 0.004 ORDER BY 1, 2 LIMIT 1"
        )
        .fetchone()
    )


@pytest.mark.scale
def test_numbers_are_worded_by_their_value_and_columns_fit_their_words(
    qtbot, session, db
):
    from ipubench_gui.domain.text import ELLIPSIS

    w = session.window
    w.resize(1280, 720)
    base, other, ratio, model = _near_pair(db)
    session.state.set_filters(FilterState().with_values("model", [model]))
    for rid in (base, other):
        w.table.select_ids((rid,))
        qtbot.keyClick(
            w.table,
            Qt.Key.Key_A,
            Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
        )
    m = w.comparator.model
    assert m.ids() == [base, other]
    labels = [m.headerData(r, Qt.Orientation.Vertical) for r in range(m.rowCount())]
    against = m.index(labels.index("Against the baseline"), 1).data()
    pct = (1 / ratio - 1) * 100  # the other against the base
    assert against.startswith("1.00×, about the same time"), against
    assert "more" not in against and "less" not in against
    assert f"{abs(pct):.1f}%" in against
    # "1 chip": a result of one accelerator, explained (Shift+F1)
    (one,) = (
        db.cursor()
        .execute(
            "SELECT result_id FROM results_v WHERE accelerators = 1 AND metric = "
            "'throughput' ORDER BY result_id LIMIT 1"
        )
        .fetchone()
    )
    session.state.set_filters(FilterState())
    w.table.select_ids((one,))
    w.table.setFocus()
    qtbot.keyClick(w.table, Qt.Key.Key_F1, Qt.KeyboardModifier.ShiftModifier)
    text = _details(session)
    assert "/ 1 chip =" in text and "1 chips" not in text, text
    # the comparison's columns: a word is never cut, a cell never cut off,
    # also once the window is made narrower
    view = w.comparator.view
    w.resizeDocks([w.compare_dock], [400], Qt.Orientation.Vertical)
    qtbot.waitUntil(lambda: view.viewport().width() > 0)
    wide = view.viewport().width()
    w.resize(1000, 720)
    qtbot.waitUntil(lambda: view.viewport().width() < wide)
    fm = view.fontMetrics()
    for r in range(m.rowCount()):
        for c in range(m.columnCount()):
            cell = str(m.index(r, c).data() or "")
            words = [x for x in cell.split() if "/" not in x and len(x) < 20]
            widest = max((fm.horizontalAdvance(x) for x in words), default=0)
            assert view.columnWidth(c) > widest, (cell, view.columnWidth(c))
            if cell and ELLIPSIS not in cell:
                rect = fm.boundingRect(
                    0,
                    0,
                    view.columnWidth(c) - 8,
                    10_000,
                    int(Qt.TextFlag.TextWordWrap),
                    cell,
                )
                assert view.rowHeight(r) >= rect.height(), (cell, view.rowHeight(r))
    total = sum(view.columnWidth(c) for c in range(m.columnCount()))
    assert total <= view.viewport().width()  # no sideways scrolling


def test_an_mlperf_result_shows_its_rounds_date_and_apart_when_it_was_retrieved(
    qtbot, session
):
    """The comparator's Date of a 2022 MLPerf result is the round's
    publication date (data/mlperf_rounds.csv, with the page it is from), and
    Retrieved the date the results repository was copied."""
    import csv

    from tests.conftest import DATA

    with open(DATA / "mlperf_rounds.csv", newline="", encoding="utf-8") as f:
        rounds = {r["round_id"]: r for r in csv.DictReader(f)}
    published = rounds["training v2.0"]["published"]
    assert published and rounds["training v2.0"]["source"].startswith("https://")
    with open(DATA / "mlperf_training.csv", newline="", encoding="utf-8") as f:
        row = next(
            r
            for r in csv.DictReader(f)
            if r["mlperf_round"] == "2.0" and r["status"] == "scored"
            and not r["vendor_result_id"]
        )  # fmt: skip
    w = session.window
    session.state.set_filters(FilterState().with_values("mlperf_round", ["2.0"]))
    w.table.select_ids((row["result_id"],))
    qtbot.keyClick(
        w.table,
        Qt.Key.Key_A,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    m = w.comparator.model
    labels = [m.headerData(r, Qt.Orientation.Vertical) for r in range(m.rowCount())]
    assert m.index(labels.index("Date"), 0).data() == published
    assert m.index(labels.index("Retrieved"), 0).data() == row["retrieved"]
    assert published < row["retrieved"]
    # Details say both, each for what it is
    text = _details(session)
    assert f"Round published: {published}" in text, text
    assert f"Copy retrieved: {row['retrieved']}" in text
