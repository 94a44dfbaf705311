"""Undo and redo of filter, chart and comparison changes (Ctrl+Z, Ctrl+Shift+Z,
Edit menu): each change one step, choosing a claim included, the status line
saying how to go back; driven through the widgets with key events, and
through the state (round trips of random changes)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from ipubench_gui.domain.compare import Comparison
from ipubench_gui.domain.filters import FilterState, NumRange
from tests.conftest import examples

CTRL, SHIFT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier


def _undo(qtbot, widget) -> None:
    qtbot.keyClick(widget, Qt.Key.Key_Z, CTRL)


def _redo(qtbot, widget) -> None:
    qtbot.keyClick(widget, Qt.Key.Key_Z, CTRL | SHIFT)


def _focus(qtbot, w, widget) -> None:
    w.activateWindow()
    widget.setFocus()
    qtbot.waitUntil(widget.hasFocus)


def _tick(qtbot, w, box, row: int = 0):
    """Tick a facet's value from the keyboard (Space), as a user does."""
    _focus(qtbot, w, box.list)
    box.list.setCurrentIndex(box.proxy.index(row, 0))
    qtbot.keyClick(box.list, Qt.Key.Key_Space)


def test_nothing_to_undo_after_start(make_session):
    """What the window starts with (restored settings) is no step; the Edit
    menu starts with Undo and Redo, disabled."""
    from PySide6.QtWidgets import QMenu

    from ipubench_gui.domain.chartspec import ChartSpec
    from ipubench_gui.ui import settings_store as ss

    saved = FilterState().with_values("framework", ["PopART"])
    ss.save_filters(saved)
    ss.save_chart(ChartSpec(kind="scaling"))
    s = make_session(start=False)
    s.start(restore=True)
    assert s.state.filters == saved and s.state.chart.kind == "scaling"
    w = s.window
    assert not s.state.undo_stack.canUndo()
    assert not w.undo_action.isEnabled() and not w.redo_action.isEnabled()
    menus = {m.title().replace("&", ""): m for m in w.menuBar().findChildren(QMenu)}
    first = menus["Edit"].actions()[:2]
    assert first == [w.undo_action, w.redo_action]
    assert w.undo_action.shortcut().toString() == "Ctrl+Z"
    assert "Ctrl+Shift+Z" in [k.toString() for k in w.redo_action.shortcuts()]
    w.guide_action.trigger()  # Help → Guide names both keys
    text = w.guide_dialog.text.toPlainText()
    assert "undone (Ctrl+Z) and redone (Ctrl+Shift+Z)" in text


def test_filter_chart_and_comparison_undone_one_step_at_a_time(qtbot, session):
    w, state = session.window, session.state
    table = w.table
    # 1. a filter: a facet value ticked with Space
    box = w.facets.boxes["framework"]
    _tick(qtbot, w, box)
    ticked = state.filters
    assert ticked.values("framework")
    # 2. a chart option: the chart kind, from the keyboard (Down in the combo)
    _focus(qtbot, w, w.chart_options.kind)
    kind_before = state.chart.kind
    qtbot.keyClick(w.chart_options.kind, Qt.Key.Key_Down)
    charted = state.chart
    assert charted.kind != kind_before
    # 3. the comparison: the current table row added with Ctrl+Shift+A
    _focus(qtbot, w, table)
    table.selectRow(0)
    qtbot.keyClick(table, Qt.Key.Key_A, CTRL | SHIFT)
    assert len(state.comparison.ids) == 1
    compared = state.comparison
    assert w.undo_action.text().replace("&", "") == "Undo Add to comparison"
    # undone from the table, newest first, each widget showing it
    _focus(qtbot, w, table)
    _undo(qtbot, table)
    assert state.comparison == Comparison() and w.comparator.model.columnCount() == 0
    assert "Undone: Add to comparison — Ctrl+Shift+Z redoes it" in (
        w.statusBar().currentMessage()
    )
    _undo(qtbot, table)
    assert state.chart.kind == kind_before
    assert w.chart_options.kind.currentData() == kind_before
    assert state.filters == ticked  # one step back only
    _undo(qtbot, table)
    assert state.filters == FilterState()
    assert not state.undo_stack.canUndo()
    # and redone, in order
    _redo(qtbot, table)
    assert state.filters == ticked
    _redo(qtbot, table)
    assert state.chart == charted and w.chart_options.kind.currentData() == charted.kind
    w.redo_action.trigger()  # Edit → Redo
    assert state.comparison == compared and w.comparator.model.columnCount() == 1
    assert "Redone: Add to comparison — Ctrl+Z undoes it" in (
        w.statusBar().currentMessage()
    )


def test_clear_all_says_how_to_go_back(qtbot, session):
    w, state = session.window, session.state
    mine = FilterState().with_values("framework", ["PopART"])
    state.set_filters(mine.with_text("bert"))
    before = state.filters
    _focus(qtbot, w, w.table)
    qtbot.keyClick(w.table, Qt.Key.Key_Backspace, CTRL | SHIFT)  # Clear all
    assert state.filters == FilterState()
    assert w.statusBar().currentMessage() == (
        "Filters cleared — Ctrl+Z (Edit → Undo) goes back"
    )
    _undo(qtbot, w.table)
    assert state.filters == before and w.search.text() == "bert"


def test_a_search_typed_is_one_step(qtbot, session):
    w, state = session.window, session.state
    _focus(qtbot, w, w.search)
    qtbot.keyClicks(w.search, "bert")
    qtbot.waitUntil(lambda: state.filters.text == "bert")
    stack = state.undo_stack
    assert stack.count() == 1 and stack.undoText() == "Search “bert”"
    # Ctrl+Z in the search box is the box's own (typing); elsewhere the app's
    _focus(qtbot, w, w.table)
    _undo(qtbot, w.table)
    assert state.filters.text == "" and w.search.text() == ""


def test_choosing_a_claim_is_one_step_and_the_filters_come_back(qtbot, session):
    """The issue: choosing a claim cleared the user's filters with no way back."""
    w, state = session.window, session.state
    w.claims_dock.show()
    qtbot.waitUntil(lambda: w.claims.table.rowCount() > 0, timeout=20_000)
    mine = FilterState().with_values("framework", ["PopART"])
    state.set_filters(mine)
    w.claims.choose("clm-bow16-vs-dgx640-rn50")  # its results are not PopART's
    assert state.filters == FilterState()
    assert w.statusBar().currentMessage() == (
        "Filters cleared to show the results this claim was checked against — "
        "Ctrl+Z (Edit → Undo) goes back"
    )
    assert state.undo_stack.undoText() == "Choose claim clm-bow16-vs-dgx640-rn50"
    _focus(qtbot, w, w.table)
    _undo(qtbot, w.table)
    assert state.filters == mine
    _redo(qtbot, w.table)
    assert state.filters == FilterState()


def test_opening_a_view_is_one_step(qtbot, session, tmp_path):
    from ipubench_gui.domain.chartspec import ChartSpec
    from ipubench_gui.domain.views import View

    state = session.state
    state.set_filters(FilterState().with_text("gpt"))
    before = (state.filters, state.chart, state.comparison)
    path = tmp_path / "v.ipubench-view.json"
    view = View(
        FilterState().with_values("framework", ["PopART"]),
        ChartSpec(kind="scaling"),
        Comparison(("bowtr-536574",), "bowtr-536574"),
    )
    path.write_text(json.dumps(view.to_json()), encoding="utf-8")
    session.compare.open_view(path)
    qtbot.waitUntil(lambda: state.chart.kind == "scaling")
    assert state.undo_stack.undoText() == "Open view"
    state.undo_stack.undo()
    assert (state.filters, state.chart, state.comparison) == before


# -- the state alone: random changes, all undone and redone --
_CHANGES = st.lists(
    st.one_of(
        st.tuples(st.just("values"), st.sampled_from(["PopART", "PyTorch"])),
        st.tuples(st.just("text"), st.sampled_from(["", "b", "be", "bert"])),
        st.tuples(st.just("range"), st.sampled_from([1.0, 2.0, None])),
        st.tuples(st.just("kind"), st.sampled_from(["throughput", "scaling"])),
        st.tuples(st.just("chips"), st.booleans()),
        st.tuples(st.just("add"), st.sampled_from(["a", "b", "c"])),
        st.tuples(st.just("remove"), st.sampled_from(["a", "b"])),
        st.tuples(st.just("clear"), st.none()),
    ),
    max_size=12,
)


@settings(max_examples=examples(60), deadline=None)
@given(_CHANGES)
def test_every_change_undone_and_redone_through_the_state(changes):
    from ipubench_gui.app import ensure_app
    from ipubench_gui.ui.state import AppState

    ensure_app()
    s = AppState()
    seen = [(s.filters, s.chart, s.comparison)]
    for what, v in changes:
        f, c, cmp = s.filters, s.chart, s.comparison
        if what == "values":
            s.set_filters(f.toggled("framework", v))
        elif what == "text":
            s.set_filters(f.with_text(v))
        elif what == "range":
            s.set_filters(f.with_range("latency_ms", NumRange(None, v)))
        elif what == "kind":
            s.set_chart(c.with_(kind=v))
        elif what == "chips":
            s.set_chart(c.with_(per_accelerator=v))
        elif what == "add":
            s.set_comparison(cmp.added(v))
        elif what == "remove":
            s.set_comparison(cmp.removed(v))
        else:
            s.set_filters(FilterState())
        now = (s.filters, s.chart, s.comparison)
        if now != seen[-1]:
            seen.append(now)
    stack = s.undo_stack
    # typing and dragging run into one step; nothing else does, and no step
    # is a no-op: the states between steps are a subsequence of those seen
    states = [(s.filters, s.chart, s.comparison)]
    while stack.canUndo():
        stack.undo()
        states.append((s.filters, s.chart, s.comparison))
    assert states[-1] == seen[0]
    assert all(a != b for a, b in zip(states, states[1:]))
    it = iter(reversed(seen))
    assert all(any(x == y for y in it) for x in states)
    while stack.canRedo():
        stack.redo()
    assert (s.filters, s.chart, s.comparison) == seen[-1]
    s.deleteLater()
    QApplication.processEvents()
