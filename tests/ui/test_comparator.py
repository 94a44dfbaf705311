"""The comparator and saved views, driven through the real widgets."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from ipubench_gui.domain.filters import FilterState
from tests.ui.conftest import message_boxes, press_ok


def _select_rows(session, ids):
    session.window.table.select_ids(tuple(ids))


def test_add_remove_reorder_and_baseline(qtbot, session, db):
    from ipubench_gui.domain.compare import ATTRIBUTES
    from ipubench_gui.store.db import Query

    w = session.window
    session.state.set_filters(
        FilterState()
        .with_values("model", ["BERT-Large"])
        .with_values("framework", ["PopART"])
    )
    m = w.model
    ids = [m.result_id(r) for r in range(3)]
    for rid in ids:
        _select_rows(session, [rid])
        w.table.setFocus()
        qtbot.keyClick(
            w.table,
            Qt.Key.Key_A,
            Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
        )
    assert session.state.comparison.ids == tuple(ids)
    assert w.compare_dock.isVisible()
    cm = w.comparator.model
    assert cm.columnCount() == 3 and cm.headerData(
        0, Qt.Orientation.Horizontal
    ).endswith("★ baseline")
    # reorder: select column 2 and move it left
    w.comparator.view.setCurrentIndex(cm.index(0, 2))
    qtbot.mouseClick(w.comparator.buttons["left"], Qt.MouseButton.LeftButton)
    assert session.state.comparison.ids == (ids[0], ids[2], ids[1])
    # make it the baseline
    w.comparator.view.setCurrentIndex(cm.index(0, 1))
    qtbot.mouseClick(w.comparator.buttons["baseline"], Qt.MouseButton.LeftButton)
    assert session.state.comparison.baseline == ids[2]
    assert cm.headerData(1, Qt.Orientation.Horizontal).endswith("★ baseline")
    # remove with the Delete key
    w.comparator.view.setCurrentIndex(cm.index(0, 0))
    w.comparator.view.setFocus()
    qtbot.keyClick(w.comparator.view, Qt.Key.Key_Delete)
    assert session.state.comparison.ids == (ids[2], ids[1])
    assert cm.columnCount() == 2
    # differing attributes are flagged; "only differences" hides the others
    rows = cm.rows()
    by_id = "SELECT * FROM results_v WHERE result_id = $i"
    a, b = (db.run(Query(by_id, {"i": i})).dicts()[0] for i in (ids[2], ids[1]))
    keys = [k for k, _ in ATTRIBUTES if k in a]  # as stored (data_kind is derived)
    flagged = {r.key for r in rows if r.kind == "attribute" and r.differs}
    # a blank on either side is unknown: never flagged as a difference
    known = [k for k in keys if a[k] is not None and b[k] is not None]
    assert flagged & set(keys) == {k for k in known if a[k] != b[k]} != set()
    unknown = {r.key for r in rows if r.kind == "attribute" and r.status == "unknown"}
    assert unknown & set(keys) == {k for k in keys if (a[k] is None) != (b[k] is None)}
    w.comparator.only_diff.setChecked(True)
    assert all(
        r.status in ("differs", "unknown") for r in cm.rows() if r.kind == "attribute"
    )
    # copy as TSV
    qtbot.mouseClick(w.comparator.buttons["tsv"], Qt.MouseButton.LeftButton)
    first = QGuiApplication.clipboard().text().splitlines()[0].split("\t")
    assert first == ["attribute", f"{ids[2]} (baseline)", ids[1], "differs"]


def test_counterpart_added_with_one_click(qtbot, session, db):
    rid = db.scalar(
        "SELECT result_id FROM results_v WHERE model = 'BERT-Base' AND "
        "platform = 'IPU-POD16' AND framework = 'PopART' AND "
        "variant = 'Ph1 Pre-Training (SL128)'"
    )
    session.state.set_selection((rid,))
    tree = session.window.comparator.counterparts
    gen = next(
        tree.topLevelItem(i)
        for i in range(tree.topLevelItemCount())
        if tree.topLevelItem(i).text(0) == "accelerator type"
    )
    child = gen.child(0)
    tree.itemActivated.emit(child, 0)
    assert session.state.comparison.ids == (child.text(1),)
    assert child.text(4) == "with SDK 3.1 (was SDK 2.4.0)"


@pytest.mark.scale
def test_comparison_exports(qtbot, session, tmp_path):
    from PySide6.QtGui import QImage

    from ipubench_gui.domain.compare import Comparison

    session.state.set_comparison(
        Comparison(("bowtr-536574", "bowtr-aeb672"), "bowtr-536574")
    )
    c = session.compare
    md = c.save_comparison(tmp_path / "c.md", "md").read_text()
    assert "like for like: same workload; compares 64 vs 16 chips" in md
    csv_text = c.save_comparison(tmp_path / "c.csv", "csv").read_text()
    assert csv_text.splitlines()[0] == (
        "attribute,bowtr-536574 (baseline),bowtr-aeb672,differs"
    )
    png = c.save_comparison(tmp_path / "c.png", "png")
    img = QImage(str(png))
    assert img.width() == 1920 and img.height() > 300


def test_view_round_trip_through_the_window(qtbot, session, tmp_path):
    from ipubench_gui.domain.compare import Comparison

    st = session.state
    st.set_filters(FilterState().with_values("framework", ["PopART"]).with_text("bert"))
    st.set_chart(st.chart.with_(kind="scaling", log=False))
    st.set_comparison(Comparison(("bowtr-536574", "bowtr-aeb672"), "bowtr-aeb672"))
    path = tmp_path / "v.json"
    session.compare.save_view(path)
    saved = (st.filters, st.chart, st.comparison)
    st.set_filters(FilterState())
    st.set_chart(st.chart.with_(kind="vendor"))
    st.set_comparison(Comparison())
    session.compare.open_view(path)
    assert (st.filters, st.chart, st.comparison) == saved
    assert session.window.chart_options.kind.currentData() == "scaling"
    assert session.window.recent_menu.actions()[0].text() == str(path)
    # a view naming things that no longer exist opens with a message
    data = json.loads(path.read_text())
    data["filters"]["selected"]["framework"] = ["PopART", "Vanished"]
    data["comparison"]["ids"].append("gone-000000")
    path.write_text(json.dumps(data))
    session.compare.open_view(path)
    assert st.filters.values("framework") == {"PopART"}
    assert st.comparison.ids == ("bowtr-536574", "bowtr-aeb672")
    msg = session.compare.last_view_message
    assert "framework: Vanished" in msg and "gone-000000" in msg
    w = session.window
    assert message_boxes(w) == [("Some of the view no longer exists", msg)]
    press_ok(qtbot, w)
    # a broken file: a message, nothing changes
    path.write_text("{not json")
    session.compare.open_view(path)
    assert st.filters.values("framework") == {"PopART"}
    expected = (
        f"{path}: not valid JSON (JSON is malformed: object keys must be strings "
        "(byte 1))"
    )
    assert message_boxes(w) == [("Cannot open the view", expected)]
    assert w.statusBar().currentMessage() == expected
    press_ok(qtbot, w)


def test_searchable_picker_and_focus(qtbot, session):
    from ipubench_gui.domain.compare import Comparison

    w = session.window
    session.compare.open_picker()
    picker = session.compare.picker
    qtbot.addWidget(picker)
    qtbot.keyClicks(picker.search, "IPU-POD64 TensorFlow1 BERT"[:9])  # "IPU-POD64"
    assert 0 < picker.proxy.rowCount() < w.model.rowCount()
    first = picker.proxy.index(0, 0)
    picker.view.setCurrentIndex(first)
    picker.view.activated.emit(first)
    rid = first.data(Qt.ItemDataRole.UserRole + 2)
    assert session.state.comparison.ids == (rid,)
    # choosing what is being compared names it first (not the verdict)
    session.state.set_comparison(
        Comparison(("bowtr-536574", "podtr-0f234b"), "bowtr-536574")
    )
    text = w.comparator.verdicts.text()
    assert "not like for like: workload differs in model (" in text
    combo = w.comparator.focus
    combo.setCurrentIndex(combo.findData("batch_size"))
    assert session.state.comparison.focus == "batch_size"
    text = w.comparator.verdicts.text()
    assert "not like for like: workload differs in batch size (65,536 vs 54,784)" in (
        text
    )


def test_compare_model_passes_modeltester(qtmodeltester, session):
    from ipubench_gui.domain.compare import Comparison

    session.state.set_comparison(
        Comparison(("bowtr-536574", "bowtr-aeb672"), "bowtr-536574")
    )
    qtmodeltester.check(session.window.comparator.model)


def test_vendor_claims_load_when_the_compare_dock_first_shows(qtbot, session, db):
    """Not fetched at start-up (the dock starts hidden); filled on first show with
    every recorded comparison, counted independently."""
    w = session.window
    w.show()
    qtbot.waitExposed(w)
    assert not w.compare_dock.isVisible()
    assert w.comparator.claims.topLevelItemCount() == 0
    w.compare_dock.show()
    n = db.scalar("SELECT count(*) FROM comparisons")
    qtbot.waitUntil(lambda: w.comparator.claims.topLevelItemCount() == n)
    assert n == 16  # the IPU-vs-GPU headline comparisons of 001 and 002


def test_headers_only_differences_and_copy_keys(qtbot, session, db):
    from ipubench_gui.domain import compare
    from ipubench_gui.domain.compare import Comparison
    from ipubench_gui.service import browse

    ids = ("bowtr-536574", "bowtr-aeb672")
    session.state.set_comparison(Comparison(ids, ids[0]))
    w = session.window
    cm, view = w.comparator.model, w.comparator.view
    qtbot.waitUntil(lambda: cm.columnCount() == 2)
    rows = browse.rows_by_ids(db, list(ids))
    h = Qt.Orientation.Horizontal
    # headers read "model · platform · batch", the full id in the tooltip
    first = rows[0]
    assert cm.headerData(0, h) == (
        f"{first['model']} · {first['platform']} · batch {first['batch_size']:,}"
        " ★ baseline"
    )
    assert [cm.headerData(i, h, Qt.ItemDataRole.ToolTipRole) for i in (0, 1)] == list(
        ids
    )
    # the ratio row in words, in the metric's direction
    ratio = next(r for r in cm.rows() if r.key == "ratio").values[1]
    r = rows[1]["value"] / rows[0]["value"]
    assert ratio == compare.ratio_words(
        rows[1]["value"], rows[0]["value"], "throughput"
    )
    assert ratio.startswith(f"{max(r, 1 / r):.2f}×") and ratio.endswith("%)")
    # "only differences" hides provenance that is the same in both columns too
    labels = lambda: [  # noqa: E731
        cm.headerData(i, Qt.Orientation.Vertical) for i in range(cm.rowCount())
    ]
    same = [
        k for k in ("source_title", "table", "source_date") if rows[0][k] == rows[1][k]
    ]
    assert same and all(compare.LABELS[k] in labels() for k in same)
    w.comparator.only_diff.click()
    assert not any(compare.LABELS[k] in labels() for k in same)
    assert "Against the baseline" in labels()
    # copy what is shown: Markdown with Ctrl+Alt+C, TSV with Ctrl+C, also on
    # the context menu
    w.compare_dock.show()
    w.activateWindow()
    view.setFocus()
    view.setCurrentIndex(cm.index(0, 0))
    qtbot.waitUntil(view.hasFocus)
    clip = QGuiApplication.clipboard()
    clip.clear()
    ctrl = Qt.KeyboardModifier.ControlModifier
    qtbot.keyClick(view, Qt.Key.Key_C, ctrl | Qt.KeyboardModifier.AltModifier)
    md = clip.text()
    assert md == compare.to_markdown(rows, 0, only_differences=True)
    assert "| Source |" not in md and f"{first['model']} · " in md.splitlines()[0]
    qtbot.keyClick(view, Qt.Key.Key_C, ctrl)
    tsv = clip.text().splitlines()
    assert tsv[0].split("\t") == [
        "attribute",
        f"{ids[0]} (baseline)",
        ids[1],
        "differs",
    ]
    assert "Source" not in [ln.split("\t")[0] for ln in tsv]
    menu = [a.text() for a in view.actions()]
    assert {"Copy comparison as TSV", "Copy comparison as Markdown"} <= set(menu)


def test_the_like_for_like_notes_name_columns_as_their_headers(qtbot, session, db):
    """The notes under the comparison name each configuration as its column
    header does ("model · platform · batch"), not by result id; two columns
    whose headers would read alike carry their ids."""
    from ipubench_gui.domain.compare import Comparison

    cur = db.cursor()
    # three rows: two of one model, system and batch size (by SQL), one other
    same = cur.execute(
        "SELECT list(result_id ORDER BY result_id) FROM results_v "
        "WHERE result_id LIKE 'bowtr-%' AND batch_size IS NOT NULL "
        "GROUP BY model, platform, batch_size HAVING count(*) = 2 "
        "ORDER BY 1 LIMIT 1"
    ).fetchone()[0]
    other = "podtr-95f129"
    ids = (other, *same)
    rows = {
        r[0]: r[1:]
        for r in cur.execute(
            "SELECT result_id, model, platform, batch_size FROM results_v "
            "WHERE list_contains($ids, result_id)",
            {"ids": list(ids)},
        ).fetchall()
    }
    assert rows[same[0]] == rows[same[1]] != rows[other]
    session.state.set_comparison(Comparison(ids, other))
    cm = session.window.comparator.model
    qtbot.waitUntil(lambda: cm.columnCount() == 3)

    def named(rid: str) -> str:
        model, platform, batch = rows[rid]
        return f"{model} · {platform} · batch {batch:,}"

    headers = [
        cm.headerData(i, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole)
        for i in range(3)
    ]
    assert headers[0].startswith(named(other))
    assert headers[1:] == [f"{named(r)} ({r})" for r in same]
    text = session.window.comparator.verdicts.text()
    for rid in same:
        assert f"<b>{named(rid)} ({rid})</b> against the baseline: " in text
    assert other not in text


def test_the_per_chip_row_says_it_is_derived(qtbot, session, db):
    from ipubench_gui.domain.compare import Comparison
    from ipubench_gui.domain.format import format_number

    ids = ("podtr-95f129", "bowtr-b56ee3")
    session.state.set_comparison(Comparison(ids, ids[0]))
    cm = session.window.comparator.model
    qtbot.waitUntil(lambda: cm.columnCount() == 2)
    row = next(r for r in cm.rows() if r.label.startswith("Throughput per"))
    assert row.label == "Throughput per chip (derived)"
    want = [
        f"{format_number(v / n)} {unit}"
        for v, n, unit in (
            db.cursor()
            .execute(
                # the vendor prints items/sec; shown as what a ResNet-50 item is
                "SELECT value, accelerators, unit_family FROM results_v"
                " WHERE result_id = $i",
                {"i": i},
            )
            .fetchone()
            for i in ids
        )
    ]
    assert list(row.values) == want
