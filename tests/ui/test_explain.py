"""Help → Guide, and "Explain this number" (Shift+F1) for a table or
comparator cell: the cell as printed → normalised → shown → what is built on
it, checked against the figures printed in the seed."""

from __future__ import annotations

import csv
import re
from pathlib import Path

from PySide6.QtCore import Qt

from ipubench_gui.domain.compare import Comparison
from tests.conftest import seeds_or_skip
from tests.seedtables import RESULTS_PAGE, read_tables

ENTITIES = Path(__file__).resolve().parents[2] / "data" / "entities"
BASE, OTHER = "bowtr-536574", "bowtr-aeb672"  # rows 1 and 4 of the Bow training table


def _printed() -> list[dict]:
    (table,) = [
        t
        for t in read_tables(seeds_or_skip() / RESULTS_PAGE)
        if t.heading == "Bow Platform - Training"
    ]
    return table.rows


def _chips(platform: str) -> int:
    return int(re.fullmatch(r"Bow Pod(\d+)", platform)[1])  # a PodN holds N IPUs


def _item(model: str) -> str:
    """What one item of ``model`` is, read from data/entities/models.csv."""
    with open(ENTITIES / "models.csv", newline="", encoding="utf-8") as f:
        return next(r["item"] for r in csv.DictReader(f) if r["model"] == model)


def _press_explain(qtbot, widget) -> None:
    qtbot.keyClick(widget, Qt.Key.Key_F1, Qt.KeyboardModifier.ShiftModifier)


def test_explain_a_table_cell_from_print_to_per_chip(qtbot, session):
    seed = _printed()[0]
    printed = seed["Throughput (items/sec)"]
    value = int(printed.replace(",", ""))
    chips = _chips(seed["Platform"])
    w = session.window
    w.table.select_ids((BASE,))
    m = w.model
    row = next(r for r in range(m.rowCount()) if m.result_id(r) == BASE)
    col = [f.name for f in m.fields].index("value")
    w.activateWindow()
    w.table.setFocus()
    w.table.setCurrentIndex(m.index(row, col))
    qtbot.waitUntil(w.table.hasFocus)
    _press_explain(qtbot, w.table)
    text = w.details.toPlainText()
    assert f"1. As printed: '{printed}' in Graphcore: Performance Results" in text
    assert "table 'Bow Platform - Training', row 1" in text
    assert f"thousands separators dropped: '{printed}' → {value} items/s" in text
    assert f"model '{seed['Model']}' → canonical name 'BERT-Large'" in text
    # the page prints items/sec; shown as what one BERT-Large item is
    shown = f"{_item('BERT-Large')}/s"
    assert f"3. Shown: {value:,} {shown}" in text
    per_chip = f"{value / chips:,.2f}".rstrip("0").rstrip(".")
    assert (
        f"per accelerator chip (derived): {value:,} / {chips} chips = "
        f"{per_chip} {shown}"
    ) in text
    assert w.detail_dock.isVisible()


def test_explain_a_comparator_ratio(qtbot, session):
    rows = _printed()
    base = int(rows[0]["Throughput (items/sec)"].replace(",", ""))
    other = int(rows[3]["Throughput (items/sec)"].replace(",", ""))
    session.state.set_comparison(Comparison((BASE, OTHER), BASE))
    w = session.window
    cm, view = w.comparator.model, w.comparator.view
    qtbot.waitUntil(lambda: cm.columnCount() == 2)
    w.compare_dock.show()
    w.activateWindow()
    view.setFocus()
    ratio = next(i for i, r in enumerate(cm.rows()) if r.key == "ratio")
    view.setCurrentIndex(cm.index(ratio, 1))
    qtbot.waitUntil(view.hasFocus)
    _press_explain(qtbot, view)
    text = w.details.toPlainText()
    r = other / base
    unit = f"{_item('BERT-Large')}/s"
    assert (
        f"{OTHER} against {BASE}: {other:,} {unit} / {base:,} {unit} = {r:.4g}, "
        "shown as "
        f"'{r:.2f}× more throughput (+{(r - 1) * 100:.0f}%)'"
    ) in text
    assert text.startswith("BERT-Large · Bow Pod64")
    assert f"1. As printed: '{rows[3]['Throughput (items/sec)']}'" in text


def test_explain_with_nothing_selected_says_what_to_do(qtbot, session):
    w = session.window
    w.explain_action.trigger()
    assert "Select a cell in the table or the comparison" in w.details.toPlainText()


def test_the_guide_names_the_keys_of_the_actions(qtbot, session):
    w = session.window
    from PySide6.QtWidgets import QMenu

    menus = {m.title().replace("&", ""): m for m in w.menuBar().findChildren(QMenu)}
    help_menu = menus["Help"]
    texts = [a.text().replace("&", "") for a in help_menu.actions()]
    assert {"Guide", "Explain this number", "Keyboard shortcuts"} <= set(texts)
    w.guide_action.trigger()
    text = w.guide_dialog.text.toPlainText()
    for act in (w.add_compare_action, w.explain_action, w.save_view_action):
        assert act.shortcut().toString() in text
    assert "Ctrl+I" in text  # the import controller's own action
    # F1 lists the new key too
    w.shortcuts_action.trigger()
    rows = w.shortcuts_dialog.rows()
    assert ("Window", "Explain this number", "Shift+F1") in rows


def test_details_name_what_a_throughput_counts(qtbot, session):
    """The page prints every throughput as items/sec; Details says what one
    item of the row's model is (sequences for BERT-Large, per models.csv)."""
    seed = _printed()[0]
    value = int(seed["Throughput (items/sec)"].replace(",", ""))
    w = session.window
    w.table.select_ids((BASE,))
    qtbot.waitUntil(lambda: BASE in w.details.toPlainText())
    assert f"throughput: {value:,} {_item('BERT-Large')}/s" in w.details.toPlainText()
    assert "items/s" not in w.details.toPlainText().split("\n")[1]
