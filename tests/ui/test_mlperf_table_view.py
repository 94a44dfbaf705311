"""View → MLPerf results table: reached from the keyboard, following the
window's filters and per-chip toggle, sortable, a cell choosing its result
(Details, Add to comparison, Explain this number); its model passes Qt's
model tester."""

from __future__ import annotations

import csv

from PySide6.QtCore import Qt

from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.mlperf_table import CHIP_MINUTES, KEYS, LOGS_MISSING, MINUTES
from ipubench_gui.ui.models.mlperf_table_model import RAW_ROLE, RESULT_ROLE
from tests.conftest import DATA

CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


def _open(qtbot, session):
    w = session.window
    w.table.setFocus()
    qtbot.keyClick(w.table, Qt.Key.Key_M, CTRL_SHIFT)
    assert w.mlperf_dock.isVisible()
    view = w.mlperf_table
    qtbot.waitUntil(lambda: view.model.rowCount() > 0, timeout=20_000)
    return view


def _column(view, header: str) -> int:
    return view.model.table.headers.index(header)


def _sql(session, sql: str, params: dict | None = None):
    return session.db.cursor().execute(sql, params or {}).fetchall()


def test_opens_from_the_keyboard_follows_filters_and_per_chip(qtbot, session):
    view = _open(qtbot, session)
    m = view.model
    # a row per system of a Training round: a table of times to train (the
    # Inference rows' throughputs are not in it), counted in the CSV itself
    with (DATA / "mlperf_training.csv").open(encoding="utf-8") as f:
        systems = {
            (r["mlperf_round"], r["submitter"], r["system_id"])
            for r in csv.DictReader(f)
        }
    assert m.rowCount() == len(systems)
    assert view.unit.text().startswith(MINUTES)
    assert "MLPerf™ is a trademark" in view.note.text()
    # the window's filters: round 2.0, open division only
    session.state.set_filters(
        FilterState()
        .with_values("mlperf_round", ["2.0"])
        .with_values("division", ["open"])
    )
    qtbot.waitUntil(
        lambda: {m.table.rows[r].keys[1] for r in range(m.rowCount())} == {"open"},
        timeout=20_000,
    )
    # per chip: chip-minutes, the time × the system's accelerators
    rnnt = _column(view, "RNN-T")
    row = next(r for r in range(m.rowCount()) if m.index(r, rnnt).data(RAW_ROLE))
    minutes = m.index(row, rnnt).data(RAW_ROLE)
    chips = m.table.rows[row].keys[[k for k, _ in KEYS].index("accelerators")]
    session.state.set_chart(session.state.chart.with_(per_accelerator=True))
    assert view.unit.text().startswith(CHIP_MINUTES)
    assert m.index(row, rnnt).data(RAW_ROLE) == minutes * chips


def test_sorting_by_a_benchmark_and_logs_missing(qtbot, session):
    view = _open(qtbot, session)
    m = view.model
    bert = _column(view, "BERT-Large")
    view.view.sortByColumn(bert, Qt.SortOrder.AscendingOrder)
    figures = [m.index(r, bert).data(RAW_ROLE) for r in range(m.rowCount())]
    shown = [f for f in figures if f is not None]
    assert shown == sorted(shown) and figures[: len(shown)] == shown
    missing = _sql(
        session,
        "SELECT count(*) FROM results_v WHERE mlperf_status = 'logs missing'",
    )[0][0]
    texts = [
        m.index(r, c).data()
        for r in range(m.rowCount())
        for c in range(len(KEYS), m.columnCount())
    ]
    assert texts.count(LOGS_MISSING) == missing > 0


def test_a_cell_chooses_its_result_for_details_compare_and_explain(qtbot, session):
    view = _open(qtbot, session)
    w, m = session.window, view.model
    # Graphcore's Bow Pod16 ResNet-50 (TensorFlow): the vendor page's 19.64
    resnet = _column(view, "ResNet-50 v1.5")
    sid = [k for k, _ in KEYS].index("system_id")
    row = next(
        r
        for r in range(m.rowCount())
        if m.table.rows[r].keys[sid] == "ipu-pod16-TF1-closed"
    )
    ix = m.index(row, resnet)
    assert ix.data() == "19.64"
    rid = ix.data(RESULT_ROLE)
    view.view.setFocus()
    view.view.setCurrentIndex(ix)
    assert session.state.selection == (rid,)
    qtbot.waitUntil(lambda: "19.64" in w.details.toPlainText(), timeout=10_000)
    w.add_compare_action.trigger()
    assert rid in session.state.comparison.ids
    view.view.setFocus()
    view.view.setCurrentIndex(ix)
    w.explain_action.trigger()
    qtbot.waitUntil(
        lambda: "As printed: '19.64'" in w.details.toPlainText(), timeout=10_000
    )
    assert "mlp20-6ec6d2" in w.details.toPlainText()  # the vendor's row shares it


def test_model_passes_the_model_tester(qtbot, session, qtmodeltester):
    view = _open(qtbot, session)
    qtmodeltester.check(view.model)


def test_mlperf_chart_offers_every_benchmark_one_click_away(qtbot, session):
    w, state = session.window, session.state
    state.set_chart(state.chart.with_(kind="mlperf"))
    opts = w.chart_options
    assert opts.benchmark.isVisible() and opts.open_division.isVisible()
    assert not opts.family.isVisible()
    qtbot.waitUntil(lambda: opts.benchmark.count() > 1, timeout=20_000)
    first = opts.benchmark.itemData(0)  # the most results, drawn by default
    assert opts.benchmark.currentData() == first
    assert w.chart_title.text().startswith("<b>MLPerf™ Training")
    assert first in w.chart_title.text()
    second = opts.benchmark.itemData(1)
    opts.benchmark.setCurrentIndex(1)
    opts.benchmark.activated.emit(1)
    assert state.chart.benchmark == second
    qtbot.waitUntil(lambda: second in w.chart_title.text(), timeout=20_000)
    opts.open_division.setChecked(True)
    assert state.chart.open_division


def test_a_saved_view_keeps_the_mlperf_charts_benchmark_and_division():
    from ipubench_gui.domain.chartspec import ChartSpec
    from ipubench_gui.domain.view_schema import parse_chart

    spec = ChartSpec(kind="mlperf", benchmark="BERT-Large", open_division=True)
    assert parse_chart(spec.to_json()) == (spec, [])


def test_the_table_as_shown_is_exported(qtbot, session, tmp_path):
    from openpyxl import load_workbook

    view = _open(qtbot, session)
    m = view.model
    bert = _column(view, "BERT-Large")
    view.view.sortByColumn(bert, Qt.SortOrder.AscendingOrder)
    first = m.index(0, bert).data(RAW_ROLE)
    ctl = session.mlperf_table
    out = ctl.save(tmp_path / "t.xlsx")
    ws = load_workbook(out).active
    got = list(ws.iter_rows(values_only=True))
    assert list(got[0]) == list(m.table.headers)
    assert got[1][bert] == first  # sorted as shown, the figure unrounded
    assert got[-1][0].startswith("MLPerf™ Training") and "trademark" in got[-1][0]
    md = ctl.save(tmp_path / "t", "markdown")
    assert md.suffix == ".md" and f"| {first:.2f} |" in md.read_text(encoding="utf-8")
