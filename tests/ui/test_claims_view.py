"""The Claims dock: reached from the keyboard, filled off the GUI thread,
choosing a claim selects its results in the table and explains its numbers."""

from __future__ import annotations

import csv

from PySide6.QtCore import Qt

from ipubench_gui.domain.filters import FilterState
from tests.conftest import DATA


def _ids_in(path, key):
    with open(DATA / path, newline="", encoding="utf-8") as f:
        return {r[key] for r in csv.DictReader(f)}


def _selected(session):
    t = session.window.table
    m = session.window.model
    return {m.result_id(i.row()) for i in t.selectionModel().selectedRows()}


def test_claims_dock_opens_from_the_keyboard_and_explains_a_ratio(qtbot, session):
    w = session.window
    assert not w.claims_dock.isVisible()
    w.table.setFocus()
    qtbot.keyClick(
        w.table,
        Qt.Key.Key_K,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    assert w.claims_dock.isVisible()
    view = w.claims
    want = _ids_in("comparisons.csv", "comparison_id") | _ids_in(
        "claims.csv", "claim_id"
    )
    qtbot.waitUntil(lambda: view.table.rowCount() == len(want), timeout=20_000)
    shown = {view.table.item(r, 0).text() for r in range(view.table.rowCount())}
    assert shown == want
    # A filter that hides the rows the claim used: choosing it shows them again.
    session.state.set_filters(FilterState().with_values("framework", ["PyTorch"]))
    view.choose("cmp-rnx101-infer-tput")
    # IPU-M2000 TensorFlow batch 4 (4,483 items/s at 2.66 ms, seed table row 27)
    # against NVIDIA's A100 40GB batch 1 (127.96 images/s at 7.84 ms).
    assert session.state.filters == FilterState()
    assert set(session.state.selection) == {"podinf-2080f7", "nvref-a925d6"}
    assert _selected(session) == {"podinf-2080f7", "nvref-a925d6"}
    text = view.explain.toPlainText()
    for part in (
        "4,483 items/s",
        "127.96 images/s",
        "35.03x",
        "Verdict: nearest evidence only",
        "Rests on: IPU: the vendor's own figures; GPU: NVIDIA's publication",
        "chips: 4 IPUs (IPU-M2000) against 1 GPU",
        "NVIDIA/DeepLearningExamples @b2e7f4a",
        "IPU-POD Classic - Inference",
    ):
        assert part in text, part


def test_claims_checked_on_mlperf_results_select_them(qtbot, session):
    w = session.window
    w.claims_dock.show()
    qtbot.waitUntil(lambda: w.claims.table.rowCount() > 0, timeout=20_000)
    # The PaddlePaddle "on par" claim rests on the seed's MLPerf v2.0 table rows
    # and on Baidu's own PaddlePaddle results (Baidu's folder, same systems).
    w.claims.choose("clm-paddle-bert")
    baidu = {
        r[0]
        for r in session.db.cursor()
        .execute(
            "SELECT result_id FROM results_v WHERE mlperf_round = '2.0' AND "
            "submitter = 'Baidu' AND system_id LIKE 'IPU_POD%_PaddlePaddle'"
        )
        .fetchall()
    }
    assert len(baidu) == 2
    want = {"mlp20-fc7cae", "mlp20-bc85a3", "mlp20-769653", "mlp20-a791e0"} | baidu
    assert _selected(session) == want
    # Bow Pod16 vs DGX A100 rests on two MLPerf v2.0 results (by their
    # results-repository folders); a filter hiding them is cleared.
    ids = {
        r[0]
        for r in session.db.cursor()
        .execute(
            "SELECT result_id FROM results_v WHERE mlperf_round = '2.0' AND "
            "mlperf_benchmark = 'resnet' AND system_id IN "
            "('ipu-pod16-TF1-closed', 'dgxa100_ngc22.04_mxnet')"
        )
        .fetchall()
    }
    assert len(ids) == 2
    session.state.set_filters(FilterState().with_values("framework", ["PopART"]))
    w.claims.choose("clm-bow16-vs-dgx640-rn50")
    assert session.state.filters == FilterState() and _selected(session) == ids
    text = w.claims.explain.toPlainText()
    assert "31.55% less time" in text and "not verified by MLCommons" in text
    assert "MLPerf™ is a trademark of MLCommons Association" in text


def test_claims_audit_runs_on_a_worker_thread(qtbot, make_session):
    s = make_session(synchronous=False)  # worker threads, as the app runs
    s.window.show()
    with qtbot.waitSignal(
        s.runner.finished,
        check_params_cb=lambda slot, *_: slot == "claims-audit",
        timeout=30_000,
    ):
        s.window.claims_dock.show()
    assert s.window.claims.table.rowCount() == len(
        _ids_in("comparisons.csv", "comparison_id") | _ids_in("claims.csv", "claim_id")
    )


def test_vendor_claims_tab_shows_the_audits_numbers(qtbot, session):
    """The comparator's Vendor claims tab and the Claims view show one
    computation: the same recomputed figure and verdict for every comparison."""
    w = session.window
    w.show()
    qtbot.waitExposed(w)
    w.claims_dock.show()
    view = w.claims
    qtbot.waitUntil(lambda: view.table.rowCount() > 0, timeout=20_000)
    audit = {
        view.table.item(r, 0).text(): (
            view.table.item(r, 2).text(),
            view.table.item(r, 3).text(),
        )
        for r in range(view.table.rowCount())
    }
    w.compare_dock.show()
    w.compare_dock.raise_()  # it shares a tab with the Claims dock
    tab = w.comparator.claims
    n = len(_ids_in("comparisons.csv", "comparison_id"))
    qtbot.waitUntil(lambda: tab.topLevelItemCount() == n, timeout=20_000)
    for i in range(n):
        item = tab.topLevelItem(i)
        cid = item.data(0, Qt.ItemDataRole.UserRole)
        rec, verdict = audit[cid]
        assert item.text(2) == f"{rec} · {verdict}", cid
    shown = {
        tab.topLevelItem(i).data(0, Qt.ItemDataRole.UserRole): tab.topLevelItem(i)
        for i in range(n)
    }
    # Once 10.02x here and 10.26x in the audit; once "—" here and 3.31x there.
    assert shown["cmp-enb4-train-std"].text(2).startswith("10.02x and 10.26x")
    assert shown["cmp-bertl-infer"].text(2) == "3.31x · nearest evidence only"


def test_ctrl_shift_k_brings_the_claims_to_the_front_of_the_compare_tabs(
    qtbot, session
):
    """The Compare, Claims and MLPerf table docks share one tabbed area: with
    the comparison showing, Ctrl+Shift+K (View → Claims audit) added the
    Claims tab behind it, so nothing was audited and nothing seemed to happen."""
    w = session.window
    w.compare_dock.show()
    w.compare_dock.raise_()
    qtbot.waitUntil(lambda: not w.compare_dock.visibleRegion().isEmpty())
    claims = w.claims_dock.toggleViewAction()
    assert claims.shortcut().toString() == "Ctrl+Shift+K"
    claims.trigger()  # what the key does
    qtbot.waitUntil(lambda: w.claims.table.rowCount() > 0, timeout=20_000)
    assert not w.claims_dock.visibleRegion().isEmpty()
    assert w.compare_dock.visibleRegion().isEmpty()  # behind, as a tab
    mlperf = w.mlperf_dock.toggleViewAction()
    mlperf.trigger()
    qtbot.waitUntil(lambda: not w.mlperf_dock.visibleRegion().isEmpty())
    assert w.claims_dock.visibleRegion().isEmpty()
