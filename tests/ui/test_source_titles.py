"""Sources are named by their title, date and addresses in the details, the
table's tooltips and the comparator; the file id is a column of exports only."""

from __future__ import annotations

import re
from datetime import datetime

from PySide6.QtCore import Qt

from ipubench_gui.domain.compare import Comparison
from ipubench_gui.domain.filters import FilterState
from tests.conftest import seeds_or_skip

PAGE = "000_74c88246ac92525e.txt"
IDS = ("bowtr-536574", "bowtr-aeb672")  # two rows of that page
OGB_IDS = ("ogb-479a09", "ogb-057d6a")  # two rows of its OGB-LSC table


def _printed_title_and_date() -> tuple[str, str]:
    """The results page's heading and its 'last updated' date, from its text."""
    text = (seeds_or_skip() / PAGE).read_text()
    lines = [ln.strip() for ln in text.splitlines()]
    title = next(ln for ln in lines if ln and not ln.startswith("<"))
    m = re.search(r"last updated on \w+, (\w+ \d+, \d{4})", text)
    assert m, "the page says when it was last updated"
    return title, datetime.strptime(m[1], "%B %d, %Y").date().isoformat()


def test_details_and_tooltips_name_the_source_by_its_title(qtbot, session):
    title, date = _printed_title_and_date()
    assert title == "Performance Results"
    w = session.window
    session.state.set_filters(FilterState().with_values("source_file", [PAGE]))
    qtbot.waitUntil(lambda: w.model.rowCount() > 0)
    w.table.select_ids((IDS[0],))
    qtbot.waitUntil(lambda: IDS[0] in w.details.toPlainText())
    text = w.details.toPlainText()
    assert f"Source: Graphcore: {title}" in text
    assert f"Page last updated: {date}" in text
    assert "https://ogb.stanford.edu/neurips2022/results/" in text
    assert PAGE not in text and "000_" not in text
    # a link in the details is a link
    assert 'href="https://ogb.stanford.edu/neurips2022/results/"' in w.details.toHtml()
    m = w.model
    row = next(r for r in range(m.rowCount()) if m.result_id(r) == IDS[0])
    tip = m.data(m.index(row, 1), Qt.ItemDataRole.ToolTipRole)
    assert f"Source: Graphcore: {title}" in tip and "000_" not in tip
    # the table's Source column shows the title; the file id is its own
    # column, hidden in the window, kept for exports
    names = [f.name for f in m.fields]
    assert m.data(m.index(row, names.index("source_title"))).startswith(
        f"Graphcore: {title}"
    )
    assert w.table.isColumnHidden(names.index("source_file"))


def test_the_comparator_names_the_source_by_title_date_and_link(qtbot, session):
    title, date = _printed_title_and_date()
    text = (seeds_or_skip() / PAGE).read_text()
    # the address the page gives for its OGB-LSC table, and for nothing else
    ogb_link = re.search(r"OGB-LSC competition results available at (\S+)", text)[1]
    cm = session.window.comparator.model

    def compared(ids: tuple[str, str]) -> dict[str, tuple[str, ...]]:
        session.state.set_comparison(Comparison(ids, ids[0]))

        def shown() -> dict[str, tuple[str, ...]]:
            return {r.label: tuple(r.values) for r in cm.rows()}

        qtbot.waitUntil(lambda: shown().get("Result id") == ids)
        return shown()

    # two rows of its OGB-LSC table: title, date and that table's address
    rows = compared(OGB_IDS)
    assert all(v.startswith(f"Graphcore: {title} (") for v in rows["Source"])
    assert rows["Date"] == (date, date)
    assert rows["Link"] == (ogb_link, ogb_link)
    # two rows of its Bow training table, which gives no address: no Link (the
    # page's addresses of its other tables are not theirs; Details list them)
    rows = compared(IDS)
    assert all(v.startswith(f"Graphcore: {title} (") for v in rows["Source"])
    assert rows["Date"] == (date, date)
    assert "Link" not in rows
    cells = [
        str(cm.data(cm.index(i, j)))
        for i in range(cm.rowCount())
        for j in range(cm.columnCount())
    ]
    assert not any("000_" in c for c in cells)
