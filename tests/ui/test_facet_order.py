"""Facet lists keep their order while filtering: the value
under the pointer stays there, counts change in place, values no result
matches are greyed where they were, and the order is a choice (count, name)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from ipubench_gui.domain.filters import FilterState
from ipubench_gui.ui.models.facet_model import VALUE_ROLE
from tests.ui.test_main_window import click_facet_value


def store_counts(db, dim: str) -> dict:
    """Rows per value of ``dim`` in the whole store, by its own query."""
    return dict(
        db.cursor()
        .execute(f"SELECT {dim}, count(*) FROM results_v GROUP BY 1")
        .fetchall()
    )


def by_name(v) -> tuple:
    """Names ignoring case, then by case; blank last (the test's own rule)."""
    return (v is None, str(v).casefold(), str(v))


def shown_values(session, dim: str) -> list:
    box = session.window.facets.boxes[dim]
    return [box.proxy.index(r, 0).data(VALUE_ROLE) for r in range(box.proxy.rowCount())]


def value_at(view, pos: QPoint):
    return view.indexAt(pos).data(VALUE_ROLE)


@pytest.mark.scale
def test_the_value_under_the_pointer_stays_while_filtering(qtbot, session, db):
    box = session.window.facets.boxes["platform"]
    view = box.list
    # A row well inside the list, as the pointer would rest on it.
    ix = box.proxy.index(3, 0)
    pos = view.visualRect(ix).center()
    under = value_at(view, pos)
    before = shown_values(session, "platform")
    totals = store_counts(db, "platform")
    # By count (the default): most results in the whole store first.
    assert before == sorted(totals, key=lambda v: (-totals[v], by_name(v)))
    resets = []
    box.model.modelReset.connect(lambda: resets.append(1))
    # Filters that change the platform counts a lot, one after another.
    click_facet_value(qtbot, session, "generation", "Bow")
    assert value_at(view, pos) == under
    click_facet_value(qtbot, session, "framework", "PyTorch")
    assert value_at(view, pos) == under
    session.state.set_filters(FilterState().with_text("bert"))
    assert value_at(view, pos) == under
    assert shown_values(session, "platform") == before
    assert resets == []  # counts changed in place, no list rebuilt


def test_zero_counts_are_greyed_where_they_were(qtbot, session, db):
    m = session.window.facets.boxes["platform"].model
    row = m.values().index("IPU-POD16")
    assert m.count("IPU-POD16") > 0
    click_facet_value(qtbot, session, "generation", "Bow")
    # The count under the filter, by its own query: none of IPU-POD16 is Bow.
    n = db.scalar(
        "SELECT count(*) FROM results_v WHERE platform = 'IPU-POD16' "
        "AND generation = 'Bow'"
    )
    assert n == 0 and m.count("IPU-POD16") == 0
    ix = m.index(row, 0)
    assert ix.data(VALUE_ROLE) == "IPU-POD16"  # not moved
    grey = QApplication.palette().color(
        QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text
    )
    assert ix.data(Qt.ItemDataRole.ForegroundRole) == grey
    bow = m.index(m.values().index("Bow Pod16"), 0)
    assert m.count("Bow Pod16") > 0
    assert bow.data(Qt.ItemDataRole.ForegroundRole) is None  # the usual colour
    # A checked value stays where it was too (untick it there).
    assert m.values().index("IPU-POD16") == row
    click_facet_value(qtbot, session, "platform", "IPU-POD16")
    assert m.values().index("IPU-POD16") == row
    assert ix.data(Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Checked


def test_order_by_name_or_count_from_the_keyboard(qtbot, session, db):
    panel = session.window.facets
    totals = store_counts(db, "framework")
    by_count = sorted(totals, key=lambda v: (-totals[v], by_name(v)))
    named = sorted(totals, key=by_name)
    assert named != by_count  # the test tells them apart
    assert shown_values(session, "framework") == by_count
    box = panel.boxes["framework"]
    box.list.setCurrentIndex(box.proxy.index(by_count.index("PopART"), 0))
    panel.sort.setFocus()
    qtbot.keyClick(panel.sort, Qt.Key.Key_Down)  # "By name"
    assert panel.sort.currentData() == "name"
    assert shown_values(session, "framework") == named
    # The current item followed its value.
    assert box.list.currentIndex().data(VALUE_ROLE) == "PopART"
    # Every facet follows, and filtering keeps the chosen order.
    assert shown_values(session, "platform") == sorted(
        store_counts(db, "platform"),
        key=by_name,
    )
    click_facet_value(qtbot, session, "framework", "PyTorch")
    assert shown_values(session, "framework") == named
    qtbot.keyClick(panel.sort, Qt.Key.Key_Up)
    assert shown_values(session, "framework") == by_count


def test_facet_search_matches_names_not_counts(qtbot, session, db):
    box = session.window.facets.boxes["platform"]
    assert box.search.isVisibleTo(session.window)
    n = store_counts(db, "platform")["IPU-POD16"]
    box.search.setText(str(n))  # a count shown in the list, not in any name
    names = [v for v in store_counts(db, "platform") if v and str(n) in v]
    assert shown_values(session, "platform") == [
        v for v in box.model.values() if v in names
    ]
