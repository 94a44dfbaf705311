"""Explain this number (Shift+F1) shows the number its cell shows, for every
kind of cell that holds a per-chip figure: the table's per-chip column, the
comparator's cells (per chip while the window's toggle is on) and a chart
point of a per-chip chart. Chip-minutes are called chip-minutes throughout.

Figures against the seed: MLPerf v2.0 ResNet-50, Bow Pod16 (16 IPUs) 19.64 min
(2.0-2047) and Bow Pod64 (64 IPUs) 6.30 min (2.0-2050)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from ipubench_gui.domain.compare import Comparison
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.format import format_number
from ipubench_gui.domain.per_chip import chip_time_title
from tests.conftest import seeds_or_skip
from tests.seedtables import RESULTS_PAGE, read_tables

CHIP_MINUTES = "Chip-minutes (time × accelerators, derived) — lower is better"


def _seed_minutes(mlperf_id: str) -> float:
    (t,) = [
        t
        for t in read_tables(seeds_or_skip() / RESULTS_PAGE)
        if t.heading == "MLPerf v2.0 Training Performance"
    ]
    (r,) = [r for r in t.rows if r["MLPerf ID"] == mlperf_id]
    return float(r["Time to Train (mins)"])


def _rid(db, mlperf_id: str) -> str:
    return db.scalar(
        "SELECT result_id FROM results_v WHERE mlperf_id = $m", {"m": mlperf_id}
    )


def _explain(qtbot, w, widget) -> str:
    w.activateWindow()
    widget.setFocus()
    qtbot.waitUntil(widget.hasFocus)
    qtbot.keyClick(widget, Qt.Key.Key_F1, Qt.KeyboardModifier.ShiftModifier)
    return w.details.toPlainText()


def test_the_wording_of_chip_minutes():
    assert chip_time_title("min") == CHIP_MINUTES
    assert chip_time_title("s").startswith("Chip-seconds (time × accelerators")


def test_a_per_chip_comparator_cell_is_explained_with_its_own_number(
    qtbot, session, db
):
    """The issue: the cell showed "2.24× less time" and explain "1.12×"."""
    t16, t64 = _rid(db, "2.0-2047"), _rid(db, "2.0-2050")
    w = session.window
    session.state.set_comparison(Comparison((t16, t64), t16))
    cm, view = w.comparator.model, w.comparator.view
    qtbot.waitUntil(lambda: cm.columnCount() == 2)
    w.compare_dock.show()
    w.per_chip_action.trigger()
    rows = {r.key: i for i, r in enumerate(cm.rows())}
    figure = cm.rows()[rows["value"]]
    assert figure.label == f"Figure in {CHIP_MINUTES.lower()}"
    # by hand from the seed: 6.30 × 64 = 403.2 against 19.64 × 16 = 314.24
    m16, m64 = _seed_minutes("2.0-2047"), _seed_minutes("2.0-2050")
    want = (m64 * 64) / (m16 * 16)
    ratio_cell = cm.data(cm.index(rows["ratio"], 1))
    assert ratio_cell.startswith(f"{want:.2f}× more chip-minutes (+{want - 1:.0%})")
    for key in ("ratio", "value"):
        view.setCurrentIndex(cm.index(rows[key], 1))
        text = _explain(qtbot, w, view)
        cell = cm.data(cm.index(rows[key], 1))
        assert cell in text, (cell, text)
    shown = next(ln for ln in text.splitlines() if ln.startswith("3. Shown: "))
    assert shown.startswith(f"3. Shown: {cm.data(cm.index(rows['value'], 1))} = ")
    assert "chip-minutes (time × accelerators, derived)" in shown
    assert f"shown as '{ratio_cell}'" in text
    assert "less time" not in text and "more time" not in text
    # the toggle off: the stored figures, and their own ratio, explained
    w.per_chip_action.trigger()
    view.setCurrentIndex(cm.index(rows["ratio"], 1))
    text = _explain(qtbot, w, view)
    cell = cm.data(cm.index(rows["ratio"], 1))
    assert cell.startswith(f"{m16 / m64:.2f}× less time") and f"'{cell}'" in text


def test_the_tables_per_chip_cell_is_explained_with_its_own_number(qtbot, session):
    w, m = session.window, session.window.model
    session.state.set_filters(FilterState().with_values("model", ["BERT-Large"]))
    qtbot.waitUntil(lambda: m.rowCount() > 0)
    col = [f.name for f in m.fields].index("throughput_per_accelerator")
    row = next(r for r in range(m.rowCount()) if m.data(m.index(r, col)))
    w.table.setColumnHidden(col, False)
    w.table.setCurrentIndex(m.index(row, col))
    text = _explain(qtbot, w, w.table)
    cell = m.data(m.index(row, col))
    d = m.row_dict(row)
    assert cell == format_number(d["value"] / d["accelerators"])
    line = next(ln for ln in text.splitlines() if "per accelerator chip" in ln)
    assert line.split(" = ")[-1].startswith(f"{cell} ")


@pytest.mark.parametrize("kind", ["scaling", "mlperf"])
def test_a_per_chip_chart_point_is_explained_with_its_own_number(qtbot, session, kind):
    w, state = session.window, session.state
    state.set_filters(FilterState().with_values("model", ["ResNet-50 v1.5"]))
    state.set_chart(state.chart.with_(kind=kind, per_accelerator=True))
    plot = session.controller.plot
    if kind == "mlperf":  # times × chips: chip-minutes on the axis and legend
        assert plot.y_title == CHIP_MINUTES
        assert all(s.name.endswith(" (chip-minutes)") for s in plot.series)
    points = [
        p
        for s in plot.series
        for p in s.points
        if p.result_id and w.model.row_of(p.result_id) is not None
    ]
    assert points
    p = points[0]
    w.canvas.itemClicked.emit(p.result_id)  # as a click on the point does
    text = _explain(qtbot, w, w.canvas)
    figure = p.tooltip.splitlines()[1].split(" (")[0]  # "403.2 chip-minutes"
    assert figure.startswith(format_number(p.y) + " ")
    assert f"3. Shown: {figure} = " in text, (figure, text)


def test_every_comparator_figure_cell_is_explained_with_its_own_number(
    qtbot, session, db
):
    """With the toggle off the comparator still has a "Throughput per chip"
    row and the latency rows: Explain on each shows the number that cell shows
    (it explained the system's figure, and no latency ratio, whatever cell).
    Seed: IPU-POD Classic inference, BERT-Large SL128 on one IPU-M2000 (4
    IPUs), PopART batch 4 and 8."""
    (t,) = [
        t
        for t in read_tables(seeds_or_skip() / RESULTS_PAGE)
        if t.heading == "IPU-POD Classic - Inference"
    ]
    b4, b8 = (
        next(
            r
            for r in t.rows
            if r["Model"] == "BERT-Large"
            and r["Platform"] == "IPU-M2000"
            and r["Batch Size"] == batch
        )
        for batch in ("4", "8")
    )
    ids = [
        db.scalar(
            "SELECT result_id FROM results_v WHERE model = 'BERT-Large' AND "
            "platform = 'IPU-M2000' AND task = 'inference' AND batch_size = $b",
            {"b": b},
        )
        for b in (4, 8)
    ]
    w = session.window
    session.state.set_comparison(Comparison(tuple(ids), ids[0]))
    cm, view = w.comparator.model, w.comparator.view
    qtbot.waitUntil(lambda: cm.columnCount() == 2)
    w.compare_dock.show()
    assert not session.state.chart.per_accelerator
    rows = {r.key: i for i, r in enumerate(cm.rows())}
    tput8 = float(b8["Throughput (items/sec)"].replace(",", ""))
    lat4, lat8 = float(b4["Latency (ms)"]), float(b8["Latency (ms)"])
    want = {
        "throughput_per_accelerator": format_number(tput8 / 4),  # 727.75
        "latency_ms": format_number(lat8),  # 2.73
        "latency_ratio": f"{lat8 / lat4:.2f}× more latency",  # 1.42×
    }
    for key, number in want.items():
        ix = cm.index(rows[key], 1)
        cell = cm.data(ix)
        assert cell.startswith(number), (key, cell)
        view.setCurrentIndex(ix)
        text = _explain(qtbot, w, view)
        if key == "throughput_per_accelerator":  # "727.75 sequences/s"
            assert f"3. Shown: {cell} per chip = " in text, (cell, text)
        else:
            assert cell in text, (key, cell, text)
