"""The main window driven through its real widgets, checked against SQL."""

from __future__ import annotations

import csv
import os
from collections import Counter

import pytest
from PySide6.QtCore import QEvent, QObject, QPointF, Qt
from PySide6.QtGui import QGuiApplication, QImage

from ipubench_gui.domain.filters import FilterState, NumRange
from ipubench_gui.ui.models.facet_model import VALUE_ROLE
from tests.conftest import DATA, STORE_ROWS
from tests.ui.conftest import (
    MLPERF_AS_RESULTS,
    STORED,
    GuiSide,
    sql_ids,
    table_ids,
)


def click_facet_value(qtbot, session, dim: str, value) -> None:
    box = session.window.facets.boxes[dim]
    view = box.list
    for row in range(box.proxy.rowCount()):
        ix = box.proxy.index(row, 0)
        if ix.data(VALUE_ROLE) == value:
            view.scrollTo(ix)
            qtbot.mouseClick(
                view.viewport(),
                Qt.MouseButton.LeftButton,
                pos=view.visualRect(ix).center(),
            )
            return
    raise AssertionError(f"{value!r} not listed in facet {dim}")


def facet_counts_shown(session, dim: str) -> dict:
    m = session.window.facets.boxes[dim].model
    return {v: m.count(v) for v in m.values() if m.count(v)}


def test_opens_with_every_result(session, db):
    assert table_ids(session) == sql_ids(db)
    assert (
        session.window.count_label.text() == f"{STORE_ROWS:,} of {STORE_ROWS:,} results"
    )


def test_facet_click_filters_table_counts_and_chart(qtbot, session, db):
    click_facet_value(qtbot, session, "framework", "PyTorch")
    assert session.state.filters.values("framework") == {"PyTorch"}
    want = sql_ids(db, "lower(framework) = 'pytorch'")  # every spelling
    assert table_ids(session) == want
    assert (
        session.window.count_label.text() == f"{len(want):,} of {STORE_ROWS:,} results"
    )
    # Another facet's counts: computed with the framework filter applied.
    rows = (
        db.cursor()
        .execute(
            f"SELECT p.platform FROM {STORED} r JOIN platforms p USING (platform) "
            "WHERE lower(framework) = 'pytorch' UNION ALL SELECT platform FROM "
            f"({MLPERF_AS_RESULTS}) WHERE lower(framework) = 'pytorch'"
        )
        .fetchall()
    )
    assert facet_counts_shown(session, "platform") == dict(Counter(r[0] for r in rows))
    # The facet's own counts ignore its own filter (so a second value can be added).
    # The facet lists canonical names ('TensorFlow 2 (Keras)' for the printed
    # 'TF2 w/Keras'), each counting every spelling.
    own = dict(
        db.cursor()
        .execute("SELECT framework, count(*) FROM results_v GROUP BY 1")
        .fetchall()
    )
    assert facet_counts_shown(session, "framework") == own
    keras = db.scalar("SELECT count(*) FROM results WHERE framework = 'TF2 w/Keras'")
    assert own["TensorFlow 2 (Keras)"] == keras == 5
    # The chart: PyTorch throughput rows counting one thing, each task's best
    # first, at most 60 shared between the tasks (30 each unless one has fewer).
    best = dict(
        db.cursor()
        .execute(
            # one unit family at a time: the largest among PyTorch throughputs
            "WITH t AS (SELECT * FROM results_v WHERE framework = 'PyTorch' AND "
            "metric = 'throughput'), f AS (SELECT unit_family FROM t GROUP BY 1 "
            "ORDER BY count(*) DESC, 1 LIMIT 1) SELECT task, list(result_id ORDER BY "
            "value DESC, result_id) FROM t SEMI JOIN f USING (unit_family) GROUP BY 1"
        )
        .fetchall()
    )
    shown = session.window.canvas.item_ids()
    if len(best) == 1:
        assert shown == next(iter(best.values()))[:60]
    else:
        a, b = (len(v) for v in best.values())
        room = {t: min(len(v), max(30, 60 - (a + b - len(v)))) for t, v in best.items()}
        assert sorted(shown) == sorted(i for t, v in best.items() for i in v[: room[t]])
        for t, v in best.items():  # each task's bars in its own order
            assert [i for i in shown if i in v] == v[: room[t]]
    # A second value in the same facet ORs.
    click_facet_value(qtbot, session, "framework", "PopART")
    assert table_ids(session) == sql_ids(
        db, "lower(framework) IN ('pytorch', 'popart')"
    )


def test_zero_count_values_stay_listed(qtbot, session):
    click_facet_value(qtbot, session, "generation", "Bow")
    m = session.window.facets.boxes["platform"].model
    assert "IPU-POD16" in m.values() and m.count("IPU-POD16") == 0
    assert m.count("Bow Pod16") > 0


def test_range_boxes_filter(qtbot, session, db):
    rf = session.window.facets.ranges["latency_ms"]
    rf.hi_box.setFocus()
    qtbot.keyClicks(rf.hi_box, "2")
    qtbot.keyClick(rf.hi_box, Qt.Key.Key_Return)
    assert table_ids(session) == sql_ids(db, "latency_ms <= 2")
    qtbot.keyClicks(rf.lo_box, "1,000")  # thousands separators accepted
    qtbot.keyClick(rf.lo_box, Qt.Key.Key_Return)
    # "1,000" typed as the minimum above a maximum of 2: the bounds are swapped.
    assert session.state.filters.range("latency_ms") == NumRange(2, 1000)
    assert table_ids(session) == sql_ids(db, "latency_ms BETWEEN 2 AND 1000")


def test_slider_keyboard_moves_apply_a_range(qtbot, session, db):
    rf = session.window.facets.ranges["batch_size"]
    rf.slider.setValue((0, 500))  # keyboard-style move: no press/release
    hi = session.state.filters.range("batch_size").hi
    assert hi is not None and 2 < hi < 65536
    assert table_ids(session) == sql_ids(db, "batch_size <= $h", {"h": hi})


def test_search_box_is_debounced_and_escape_clears(qtbot, session, db, csv_rows):
    w = session.window
    qtbot.keyClick(w, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert w.search.hasFocus()
    qtbot.keyClicks(w.search, "squad")
    assert session.state.filters.text == ""  # not yet: debounced
    qtbot.waitUntil(lambda: session.state.filters.text == "squad", timeout=2000)
    want = sql_ids(
        db,
        "strpos(lower(coalesce(model,'') || ' ' || coalesce(variant,'')"
        " || ' ' || coalesce(dataset,'')), 'squad') > 0",
    )
    with open(DATA / "mlperf_inference.csv", newline="", encoding="utf-8") as f:
        inference = list(csv.DictReader(f))  # BERT: SQuAD v1.1
    by_csv = {
        r["result_id"]
        for r in (*csv_rows, *inference)
        if "squad" in " ".join((r["model"], r["variant"], r["dataset"])).lower()
    }
    assert table_ids(session) == want == by_csv
    qtbot.keyClick(w.search, Qt.Key.Key_Escape)
    assert w.search.text() == "" and session.state.filters.text == ""
    assert len(table_ids(session)) == STORE_ROWS


class _EventLog(QObject):
    def __init__(self, kind, log):
        super().__init__()
        self.kind, self.log = kind, log

    def eventFilter(self, obj, e):  # noqa: N802 (Qt API)
        if e.type() == self.kind:
            self.log.append(e.size() if hasattr(e, "size") else e)
        return False


def test_chips_and_clear_all(qtbot, session, db):
    click_facet_value(qtbot, session, "task", "inference")
    click_facet_value(qtbot, session, "framework", "PyTorch")
    chips = session.window.chips.chips
    assert [c.property("dim") for c in chips] == ["framework", "task"]
    qtbot.mouseClick(chips[0], Qt.MouseButton.LeftButton)
    assert table_ids(session) == sql_ids(db, "task = 'inference'")
    qtbot.mouseClick(session.window.chips.clear_all, Qt.MouseButton.LeftButton)
    assert session.state.filters == FilterState()
    assert len(table_ids(session)) == STORE_ROWS
    assert session.window.chips.chips == []


@pytest.mark.scale
def test_chips_coming_and_going_move_nothing_below(qtbot, session):
    """Not even for a moment: a resize of the chart and table would also
    repaint the whole centre of the window on every filter change."""
    w = session.window
    resized: list = []
    watch = _EventLog(QEvent.Type.Resize, resized)
    w.stack.installEventFilter(watch)
    for f in (
        FilterState().with_values("task", ["inference"]),
        FilterState().with_values("task", ["inference"]).with_text("bert"),
        FilterState(),
        FilterState().with_values("framework", ["PyTorch"]),
    ):
        session.state.set_filters(f)
        QGuiApplication.processEvents()  # layout runs deferred
    w.stack.removeEventFilter(watch)
    assert resized == []
    assert [c.property("dim") for c in w.chips.chips] == ["framework"]
    chip = w.chips.chips[0]
    assert chip.isVisible() and chip.geometry().bottom() < w.chips.height()


TEXT_WRAP = int(Qt.TextFlag.TextWordWrap)


def test_a_chip_whose_filter_stays_keeps_its_button(qtbot, session):
    """Chips are not rebuilt on every filter change (each rebuild
    relaid out and repainted the chip bar); each still removes its own."""
    w = session.window
    fw = FilterState().with_values("framework", ["PyTorch"])
    session.state.set_filters(fw)
    first = w.chips.chips[0]
    session.state.set_filters(fw.with_values("task", ["inference"]))
    assert [c.property("dim") for c in w.chips.chips] == ["framework", "task"]
    assert w.chips.chips[0] is first
    qtbot.mouseClick(w.chips.chips[1], Qt.MouseButton.LeftButton)
    assert session.state.filters == fw
    assert w.chips.chips == [first]
    qtbot.mouseClick(first, Qt.MouseButton.LeftButton)
    assert session.state.filters == FilterState()
    assert w.chips.chips == [] and w.chips.hint.isVisibleTo(w.chips)
    assert not w.chips.clear_all.isEnabled()


@pytest.mark.scale
def test_a_chart_note_a_line_shorter_leaves_the_plot_its_size(qtbot, session):
    """The throughput chart's notes take two lines for PyTorch rows and one
    for PyTorch on Bow at this width: the plot keeps its size (a resize laid
    the chart out and repainted it again on such filter changes)."""
    w = session.window
    caption = w.canvas.caption
    fw = FilterState().with_values("framework", ["PyTorch"])
    lines = []
    resized: list = []
    watch = _EventLog(QEvent.Type.Resize, resized)
    for f in (fw, fw.with_values("generation", ["Bow"]), fw):
        session.state.set_filters(f)
        QGuiApplication.processEvents()  # layout runs deferred
        w.canvas.plot.installEventFilter(watch)  # from the first on
        text = caption.fontMetrics().boundingRect(
            0, 0, caption.contentsRect().width(), 10**4, TEXT_WRAP, caption.text()
        )
        lines.append(text.height() // caption.fontMetrics().lineSpacing())
    w.canvas.plot.removeEventFilter(watch)
    assert lines == [2, 1, 2]
    assert resized == []


def test_threaded_app_applies_a_filter_at_once_when_the_store_is_in_memory(
    qtbot, db, make_session
):
    """With worker threads, a small store's answers still come before
    set_filters returns: table, counts and chart change in the same paint."""
    s = make_session(synchronous=False)  # worker threads, as the app runs
    s.window.show()
    qtbot.waitUntil(lambda: s.window.model.rowCount() == STORE_ROWS, timeout=10_000)
    qtbot.waitUntil(lambda: s.controller.universe is not None, timeout=10_000)
    assert s.runner.opened is s.db
    want = sql_ids(db, "lower(framework) = 'pytorch'")  # every spelling
    s.state.set_filters(FilterState().with_values("framework", ["PyTorch"]))
    # No event loop has run since: everything below arrived inline.
    assert table_ids(s) == want
    assert s.window.count_label.text() == f"{len(want):,} of {STORE_ROWS:,} results"
    counts = s.window.facets.boxes["framework"].model
    assert counts.count("PyTorch") == len(want)


def test_a_chart_with_its_own_queries_follows_from_a_worker(qtbot, db, make_session):
    """A kind whose chart needs SQL (here MLPerf) gets the table and counts at
    once, from memory, and its chart from a worker thread moments later."""
    s = make_session(synchronous=False)
    s.window.show()
    s.state.set_chart(s.state.chart.with_(kind="mlperf"))
    qtbot.waitUntil(lambda: s.controller.chart_rows is not None, timeout=10_000)
    qtbot.waitUntil(lambda: s.controller.universe is not None, timeout=10_000)
    before = s.controller.chart_rows
    want = sql_ids(db, "framework = 'PopART'")
    s.state.set_filters(FilterState().with_values("framework", ["PopART"]))
    assert table_ids(s) == want  # inline
    assert s.controller.chart_rows is before  # not yet: a worker draws it
    qtbot.waitUntil(lambda: s.controller.chart_rows is not before, timeout=10_000)
    trained = sql_ids(db, "framework = 'PopART' AND metric = 'time_to_train'")
    assert {r["result_id"] for r in s.controller.chart_rows.rows} == trained


def test_empty_result_offers_clear(qtbot, session):
    session.state.set_filters(FilterState().with_text("no such model anywhere"))
    w = session.window
    assert w.stack.currentWidget() is w.empty
    qtbot.mouseClick(w.empty.clear_button, Qt.MouseButton.LeftButton)
    assert w.stack.currentWidget() is w.splitter
    assert w.model.rowCount() == STORE_ROWS


def test_ctrl_c_copies_selected_rows_as_tsv(qtbot, session, db):
    session.state.set_filters(
        FilterState()
        .with_values("platform", ["Bow-2000"])
        .with_values("model", ["BERT-Large"])
    )
    t = session.window.table
    t.selectRow(0)
    t.selectionModel().select(
        t.model().index(1, 0),
        t.selectionModel().SelectionFlag.Select | t.selectionModel().SelectionFlag.Rows,
    )
    t.setFocus()
    QGuiApplication.clipboard().clear()
    qtbot.keyClick(t, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    lines = QGuiApplication.clipboard().text().splitlines()
    headers = lines[0].split("\t")
    assert headers[:3] == ["Model", "Variant", "Platform"]
    assert "Latency (ms)" in headers
    got = [dict(zip(headers, ln.split("\t"))) for ln in lines[1:]]
    ids = [t.model().result_id(r) for r in (0, 1)]
    want = (
        db.cursor()
        .execute(
            "SELECT batch_size, value, latency_ms FROM results WHERE list_contains($i, "
            'result_id) ORDER BY "row"',
            {"i": ids},
        )
        .fetchall()
    )
    assert [
        (int(g["Batch size"]), float(g["Value"]), float(g["Latency (ms)"])) for g in got
    ] == want


@pytest.mark.scale
def test_bar_click_selects_and_scrolls_table_and_back(qtbot, session):
    c = session.window.canvas
    hit = next(h for h in c.drawn.hits if h.y == 7)
    vb = c.item.getViewBox()
    scene = vb.mapViewToScene(QPointF(hit.bar_end / 2, hit.y))
    pos = c.plot.mapFromScene(scene)
    qtbot.mouseClick(c.plot.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    rid = hit.result_id
    assert session.state.selection == (rid,)
    t = session.window.table
    assert t.selected_rows() == [t.model().row_of(rid)]
    assert "Printed as" in session.window.details.toPlainText()
    # table -> chart: selecting two rows outlines their two bars
    other = c.item_ids()[2]
    t.select_ids((rid, other))
    assert set(session.state.selection) == {rid, other}
    pi, outline = c._highlights[0]
    assert pi is c.item
    ys = sorted(float(y) for y in outline.opts["y"].tolist())
    # the rows the two bars are drawn on (a task's header may take a row)
    other_y = next(h.y for h in c.drawn.hits if h.result_id == other)
    assert ys == sorted([float(other_y), float(hit.y)])


def test_header_click_sorts_in_the_store(qtbot, session, db):
    t = session.window.table
    col = [f.name for f in t.model().fields].index("latency_ms")
    t.horizontalHeader().sectionClicked.emit(col)
    assert session.state.sort == ("latency_ms", True)
    vals = [t.model().raw(r, col) for r in range(t.model().rowCount())]
    nums = [v for v in vals if v is not None]
    longest = db.scalar(f"SELECT max(latency_ms) FROM {STORED}")
    assert nums == sorted(nums, reverse=True) and vals[0] == longest


def test_colour_by_changes_groups_not_rows(qtbot, session):
    c = session.window.canvas
    before = c.item_ids()
    rows = session.results.chart_rows
    combo = session.window.chart_options.color_by
    combo.setCurrentIndex(combo.findData("platform"))
    # a style change: built again from the rows at hand, not queried again
    assert session.results.chart_rows is rows
    assert session.results.built.spec.color_by == "platform"
    assert c.item_ids() == before
    plot = session.controller.plot
    platforms = {r["platform"] for r in plot.rows}
    assert {s.name for s in plot.series} == platforms


def test_models_pass_qabstractitemmodeltester(qtmodeltester, session):
    qtmodeltester.check(session.window.model)
    qtmodeltester.check(session.window.facets.boxes["model"].model)


@pytest.mark.scale
def test_settings_round_trip_across_a_restart(qtbot, db, make_session):
    s1 = make_session(start=False)
    s1.start()
    s1.window.resize(712, 555)  # offscreen screen is 800x600
    s1.window.show()
    s1.state.set_filters(FilterState().with_values("framework", ["PopART"]))
    header = s1.window.table.horizontalHeader()
    header.moveSection(header.visualIndex(3), 0)
    s1.window.table.setColumnHidden(5, True)
    combo = s1.window.chart_options.color_by
    combo.setCurrentIndex(combo.findData("platform"))
    order1 = s1.window.table.visible_columns()
    size1 = s1.window.size()
    s1.window.legend_action.trigger()
    assert not s1.window.legend_action.isChecked()
    assert not s1.window.canvas.legend.isVisible()
    s1.window.close()
    s1.close()

    s2 = make_session(start=False)
    s2.start()
    s2.window.show()
    assert s2.state.filters.values("framework") == {"PopART"}
    assert s2.window.model.rowCount() == len(sql_ids(db, "framework = 'PopART'"))
    assert s2.window.table.visible_columns() == order1
    assert s2.window.table.isColumnHidden(5)
    assert s2.window.size() == size1
    assert s2.state.chart.color_by == "platform"
    assert not s2.window.canvas.legend.isVisible()  # still hidden after a restart
    s2.window.legend_action.trigger()
    assert s2.window.canvas.legend.isVisible()
    s2.window.reset_layout()
    assert not s2.window.table.isColumnHidden(5)
    s2.window.close()
    s2.close()


class Gate:
    """A SQL function ``NAME(i)``, true for every row, that counts its calls.

    A job running ``self.query`` (which would run for hours) is inside DuckDB,
    where an interrupt stops it, once ``calls`` > 0, and still running while
    ``calls`` goes up: tests wait on these events, not on the clock.
    """

    def __init__(self, db, name: str):
        from ipubench_gui.store.db import Query

        self.calls = 0

        def count(_i: int) -> bool:
            self.calls += 1
            return True

        db.cursor().create_function(
            name, count, ["BIGINT"], "BOOLEAN", side_effects=True
        )
        self.query = Query(
            f"SELECT count(*) FROM range(10000000000000) t(i) WHERE {name}(i)", {}
        )

    def running_on(self, qtbot) -> None:
        """Wait until the query runs, then until it makes progress again."""
        qtbot.waitUntil(lambda: self.calls > 0, timeout=10000)
        seen = self.calls
        qtbot.waitUntil(lambda: self.calls > seen, timeout=10000)


def test_threaded_runner_delivers_only_the_latest(qtbot, fresh_db):
    from ipubench_gui.store.db import Query
    from ipubench_gui.ui.runner import QueryRunner

    r = QueryRunner(fresh_db)
    got = []
    r.finished.connect(lambda slot, rid, res: got.append((slot, rid, res)))
    gui = GuiSide(r)
    gate = Gate(fresh_db, "page_gate")
    stale = r.submit("page", lambda d: d.run(gate.query))
    gate.running_on(qtbot)
    # The newer request interrupts the running one; that one's answer (its
    # error) still reaches the GUI thread, where it is dropped as stale.
    last = r.submit("page", lambda d: d.run(Query("SELECT 42", {})).rows[0][0])
    qtbot.waitUntil(
        lambda: {("page", stale), ("page", last)} <= set(gui.seen), timeout=10000
    )
    assert got == [("page", last, 42)]
    err = r.submit("facets", lambda d: d.run(Query("SELECT * FROM nowhere", {})))
    with qtbot.waitSignal(r.finished, timeout=5000) as blocker:
        pass
    assert blocker.args[:2] == ["facets", err]
    assert "nowhere" in str(blocker.args[2])  # the store's own error, delivered
    r.shutdown()


def test_one_job_answers_several_slots_each_unless_superseded(qtbot, fresh_db):
    import threading

    from ipubench_gui.store.db import Query
    from ipubench_gui.ui.runner import QueryRunner

    r = QueryRunner(fresh_db)
    got = []
    r.finished.connect(lambda slot, rid, res: got.append((slot, rid, res)))
    release = threading.Event()
    count = Query("SELECT count(*) FROM range(7000) t(i) WHERE i % 7 = 3", {})

    def both(d):
        release.wait(10)
        return {"page": d.run(count).rows[0][0], "chart": "old chart"}

    pair = r.submit(("page", "chart"), both)
    newer = r.submit("chart", lambda d: "new chart")  # supersedes the pair's chart
    qtbot.waitUntil(lambda: len(got) == 1, timeout=10000)
    assert got == [("chart", newer, "new chart")]
    # The pair's two answers reach the GUI thread, page first, chart last.
    gui = GuiSide(r)
    release.set()
    qtbot.waitUntil(lambda: ("chart", pair) in gui.seen, timeout=10000)
    assert gui.seen == [("page", pair), ("chart", pair)]
    assert sorted((s, i, v) for s, i, v in got) == [
        ("chart", newer, "new chart"),
        ("page", pair, 1000),  # i % 7 == 3 for 1000 of i < 7000
    ]
    # A failing job reports its error to every slot it answers.
    got.clear()
    r.submit(("page", "chart"), lambda d: d.run(Query("SELECT * FROM nowhere", {})))
    qtbot.waitUntil(lambda: len(got) == 2, timeout=5000)
    assert {s for s, _, _ in got} == {"page", "chart"}
    assert all(isinstance(v, Exception) for _, _, v in got)
    r.shutdown()


def test_a_long_job_neither_blocks_nor_is_cancelled_with_another(qtbot, fresh_db):
    from ipubench_gui.ui.runner import QueryRunner

    r = QueryRunner(fresh_db)
    got = {}
    r.finished.connect(lambda slot, rid, res: got.__setitem__(slot, res))
    importing, other = Gate(fresh_db, "import_gate"), Gate(fresh_db, "other_gate")
    r.submit("import", lambda d: d.run(importing.query))
    r.submit("page", lambda d: 7)
    qtbot.waitUntil(lambda: "page" in got, timeout=5000)
    assert got["page"] == 7 and "import" not in got  # not held up by the import
    r.submit("other", lambda d: d.run(other.query))
    importing.running_on(qtbot)
    other.running_on(qtbot)  # both running, one per worker thread
    r.cancel("import")
    qtbot.waitUntil(lambda: "import" in got, timeout=20000)
    assert "INTERRUPT" in str(got["import"]).upper()  # cancelled, error delivered
    other.running_on(qtbot)  # still counting rows: cancelling one left it alone
    assert "other" not in got
    r.cancel("other")
    qtbot.waitUntil(lambda: "other" in got, timeout=20000)
    r.shutdown()


def test_store_opened_on_a_thread_feeds_the_window(
    qtbot, store_path, tmp_path, make_session
):
    """The app opens the store while it builds the window: the Session takes a
    Future, its queries wait for it off the GUI thread, and opening errors
    surface from Session itself (run_gui shows them)."""
    import threading
    from concurrent.futures import Future

    from ipubench_gui.app import Session
    from ipubench_gui.store.db import Database, StoreError

    fut: Future = Future()
    threading.Timer(0.3, lambda: fut.set_result(Database.open(store_path))).start()
    s = make_session(fut, synchronous=False, start=False)
    s.start(restore=False)
    done = set()
    s.runner.finished.connect(lambda slot, *_: done.add(slot))
    qtbot.waitUntil(lambda: {"page", "facets", "chart"} <= done, timeout=10000)
    n = s.db.scalar("SELECT count(*) FROM results_v")
    assert s.window.model.rowCount() == n
    s.window.close()
    s.close()  # closes the store it opened, too
    with pytest.raises(StoreError, match="closed"):
        s.db.cursor()

    bad: Future = Future()
    bad.set_exception(StoreError(f"store not found: {tmp_path / 'none.duckdb'}"))
    with pytest.raises(StoreError, match="store not found"):
        Session(bad)


def test_startup_trace_names_each_step_in_order(tmp_path):
    """IPUBENCH_GUI_TRACE=1: where start-up time goes, as the app runs."""
    import subprocess
    import sys

    from ipubench_gui.app import STARTUP_SLOTS
    from tests.conftest import REPO

    env = dict(
        os.environ,
        IPUBENCH_GUI_HOME=str(tmp_path),
        IPUBENCH_GUI_TRACE="1",
        IPUBENCH_GUI_EXIT_WHEN_READY="1",
        QT_QPA_PLATFORM="offscreen",
    )
    p = subprocess.run(
        [sys.executable, "-m", "ipubench_gui"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode == 0, p.stderr
    steps = [
        ln.split("ms", 1)[1].strip()
        for ln in p.stderr.splitlines()
        if ln.startswith("trace ")
    ]
    times = [
        float(ln.split()[1]) for ln in p.stderr.splitlines() if ln.startswith("trace ")
    ]
    assert times == sorted(times)
    for before, after in [
        ("store opening on a thread", "app modules imported (Qt, pyqtgraph)"),
        ("QApplication", "window built"),
        ("window built", "window shown"),
        ("got page", "ready (data painted)"),
        ("got universe", "ready (data painted)"),
        ("worker finished universe", "got universe"),
        (
            "pyqtgraph.Qt imported; lazy Qt mirrors: QtCore, QtGui, QtWidgets",
            "app modules imported (Qt, pyqtgraph)",
        ),
        (
            "PySide6 imported; per-module source scan replaced",
            "pyqtgraph.Qt imported; lazy Qt mirrors: QtCore, QtGui, QtWidgets",
        ),
    ]:
        assert steps.index(before) < steps.index(after), steps
    assert "store open" in steps
    # Garbage collection was paused for start-up (cli.main) and resumes once
    # everything the window shows has arrived, with start-up's objects frozen.
    resumed = [i for i, s in enumerate(steps) if s.startswith("GC resumed, ")]
    assert len(resumed) == 1, steps
    assert resumed[0] > max(steps.index(f"got {slot}") for slot in STARTUP_SLOTS)
    frozen = int(steps[resumed[0]].split()[2])
    assert frozen > 10_000, steps[resumed[0]]


@pytest.mark.scale
def test_ctrl_e_export_dialog_writes_the_chart(qtbot, session, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QDialog

    from ipubench_gui.ui.widgets.export_dialog import ExportDialog

    shown = []

    def fake_exec(dlg):  # the dialog is real; only its modal loop is skipped
        shown.append(dlg)
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(ExportDialog, "exec", fake_exec)
    session.state.set_filters(FilterState().with_values("framework", ["PopART"]))
    qtbot.keyClick(session.window, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    assert len(shown) == 1
    dlg = shown[0]
    qtbot.addWidget(dlg)
    assert dlg.subtitle.text() == "Filters: Framework: PopART"
    assert dlg.footnote.toPlainText().startswith("Source: ")
    dlg.size_box.setCurrentIndex(1)  # 4K preset
    assert (dlg.w_box.value(), dlg.h_box.value()) == (3840, 2160)
    out = dlg.save_to(tmp_path / "c.png")
    assert QImage(str(out)).size().toTuple() == (3840, 2160)
    from ipubench_gui.ui import settings_store as ss

    assert ss.load_text(ss.LAST_EXPORT_DIR) == str(tmp_path)


def test_chart_kind_picker_switches_kinds(qtbot, session):
    combo = session.window.chart_options.kind
    combo.setCurrentIndex(combo.findData("mlperf"))
    assert session.state.chart.kind == "mlperf"
    # the Closed division's official times to train (with an accelerator
    # count) of the benchmark with the most results: one benchmark at a time
    assert len(session.window.canvas.item_ids()) == session.runner.db.scalar(
        "SELECT count(*) FILTER (WHERE division = 'closed') FROM mlperf_training "
        "WHERE value IS NOT NULL AND accelerators > 0 GROUP BY model "
        "ORDER BY count(*) DESC LIMIT 1"
    )
    assert not session.window.chart_options.color_by.isVisibleTo(session.window)


def test_a_chart_kind_with_nothing_to_draw_says_so(qtbot, session):
    session.state.set_filters(FilterState().with_values("task", ["training"]))
    combo = session.window.chart_options.kind
    combo.setCurrentIndex(combo.findData("latency-throughput"))  # inference only
    c = session.window.canvas
    assert c.current.empty
    assert c.empty_label.isVisible() and not c.plot.isVisible()
    combo.setCurrentIndex(combo.findData("scaling"))
    assert not c.current.empty and not c.empty_label.isVisible()
    # the seed's scaling lines are more than one plot reads: in panels
    assert c.current.panels and c.panels_view.isVisible()


@pytest.mark.parametrize("threaded", [False, True], ids=["inline", "worker thread"])
def test_restart_with_prefetch_restores_everything_the_user_sees(
    qtbot, make_session, threaded
):
    """The app's own start-up path: filters and chart restored before the window
    exists, first queries queued early (Session(prefetch=True))."""
    s1 = make_session(start=False)
    s1.start()
    s1.state.set_filters(
        FilterState().with_values("framework", ["PopART"]).with_text("squad")
    )
    s1.state.set_chart(s1.state.chart.with_(kind="mlperf"))
    s1.window.close()
    s1.close()

    s2 = make_session(synchronous=not threaded, prefetch=True, start=False)
    s2.start()
    s2.window.show()
    w = s2.window
    qtbot.waitUntil(
        lambda: (
            s2.controller.plot is not None
            and s2.controller.universe is not None
            and bool(s2.controller.facet_counts)
        ),
        timeout=10000,
    )
    assert s2.state.filters.text == "squad" and w.search.text() == "squad"
    assert w.chart_options.kind.currentData() == "mlperf"
    assert [c.property("dim") for c in w.chips.chips] == ["framework", "text"]
    m = w.facets.boxes["framework"].model
    assert (
        m.data(m.index(m.values().index("PopART"), 0), Qt.ItemDataRole.CheckStateRole)
        == Qt.CheckState.Checked
    )
    assert w.model.rowCount() > 0 and s2.controller.plot is not None
    s2.window.close()
    s2.close()


@pytest.mark.scale
def test_the_legend_never_covers_more_than_half_the_chart(qtbot, session):
    """The seed's latency chart has 55 lines, drawn in panels of at most 8;
    in the window each panel's legend is beside its plot (never over a
    point), lists what fits in the plot's height, names wrapped at words, and
    counts the rest. Ctrl+L hides and shows them all."""
    kind = "latency-throughput"
    session.state.set_chart(session.state.chart.with_(kind=kind))
    canvas = session.window.canvas
    plot = canvas.current
    assert len([s for s in plot.series if s.points and s.in_legend]) > 20
    assert [p.title for p in canvas.panels] == list(plot.panels)
    legends = [p.legend for p in canvas.panels]
    assert all(lg.isVisible() for lg in legends)
    w = session.window  # Ctrl+L hides them and shows them again
    qtbot.keyClick(w, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    assert not any(lg.isVisible() for lg in legends)
    assert not w.legend_action.isChecked()
    session.state.set_filters(FilterState().with_values("framework", ["PyTorch"]))
    assert canvas.current is not plot
    assert not any(p.legend.isVisible() for p in canvas.panels)  # redrawn, hidden
    session.state.set_filters(FilterState())
    qtbot.keyClick(w, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    for panel in canvas.panels:
        legend, vb = panel.legend, panel.pi.getViewBox()
        assert legend.isVisible()
        box = legend.sceneBoundingRect()
        assert not box.intersects(vb.sceneBoundingRect())
        assert box.height() <= vb.sceneBoundingRect().height() + 1
        named = [s for s in plot.panel(panel.title).series if s.in_legend]
        labels = [label.item.toPlainText() for _, label in legend.items]
        if not named:  # a panel's only line: named by its title
            assert not labels
            continue
        if len(labels) < len(named):
            more = len(named) - (len(labels) - 1)
            # the hint as long as the legend's width allows
            assert labels[-1] in [
                f"+ {more} more — click for every name",
                f"+ {more} more — click",
                f"+ {more} more",
            ]
            labels = labels[:-1]
        # wrapped, or cut after a whole word ("…"): each name's beginning
        for label, s in zip(labels, named, strict=False):
            letters = "".join(c for c in label.removesuffix(" …") if c.isalnum())
            assert "".join(c for c in s.name if c.isalnum()).startswith(letters)
        assert 0 < len(labels) <= len(named)


# A popup menu asks the window system to raise it and grab the keyboard, which
# the offscreen platform cannot do (and says so).
@pytest.mark.qt_log_ignore("does not support (raise|grabbing)", extend=True)
def test_right_click_on_the_chart_offers_the_charts_actions(qtbot, session):
    """Not pyqtgraph's menus (whose plot options would re-transform data the
    chart has already mapped): the window's chart actions, with shortcuts."""
    from PySide6.QtGui import QContextMenuEvent

    w = session.window
    view = w.canvas.plot
    assert view.getPlotItem().getViewBox().menu is None
    pos = view.viewport().rect().center()
    QGuiApplication.sendEvent(
        view.viewport(),
        QContextMenuEvent(
            QContextMenuEvent.Reason.Mouse, pos, view.viewport().mapToGlobal(pos)
        ),
    )
    qtbot.waitUntil(w.chart_menu.isVisible)
    acts = [a for a in w.chart_menu.actions() if not a.isSeparator()]
    # and "Explain this point" first when over a point or bar (test_daily_use)
    acts = [a for a in acts if a is not w.explain_point_action]
    assert [a.shortcut().toString() for a in acts] == [
        "Ctrl+0",
        "Ctrl+E",
        "Ctrl+Shift+C",
        "Ctrl+L",
        "Ctrl+Shift+L",  # every line's name (a legend folds the rest)
        "Ctrl+Shift+P",  # figures per accelerator chip
    ]
    assert all(a.isEnabled() for a in acts)
    w.chart_menu.close()


def test_ctrl_0_puts_the_chart_back_after_zooming(qtbot, session):
    # three models: three panels, one a model (the 16 of every model: the
    # last panel, alone on its row, comes back 0.05 log units off in x)
    three = ["BERT-Large", "EfficientNet-B0", "ResNet-50 v1.5"]
    session.state.set_filters(FilterState().with_values("model", three))
    session.state.set_chart(session.state.chart.with_(kind="latency-throughput"))
    vb = session.window.canvas.panels[-1].pi.getViewBox()  # linked to the rest
    QGuiApplication.processEvents()
    before = vb.viewRange()
    vb.scaleBy((0.25, 0.25))  # what a wheel zoom does
    QGuiApplication.processEvents()
    assert vb.viewRange() != before
    with qtbot.waitSignal(session.window.canvas.rendered, timeout=20_000):
        qtbot.keyClick(
            session.window, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier
        )
    QGuiApplication.processEvents()
    after = vb.viewRange()
    for (a0, a1), (b0, b1) in zip(after, before):
        assert abs(a0 - b0) < 1e-6 and abs(a1 - b1) < 1e-6


def test_chips_show_in_the_update_that_adds_them(session):
    """A new filter's chip is on the bar in the update that added it, so in
    that change's paint: a new button in a shown bar was shown by Qt's queued
    call after that paint, which relaid the window out up to its docks and
    painted the bar and the centre again. A chip that comes back
    takes a button made before, rather than a new one."""
    from PySide6.QtWidgets import QToolButton

    w = session.window
    two = (
        FilterState()
        .with_values("framework", ["PyTorch"])
        .with_values("task", ["training"])
    )
    session.state.set_filters(two)  # no events processed after this
    made = list(w.chips.chips)
    assert len(made) == 2 and all(b.isVisible() for b in made)
    session.state.set_filters(FilterState())
    assert [b for b in w.chips.findChildren(QToolButton) if b.isVisible()] == []
    assert w.chips.chips == [] and w.chips.hint.isVisible()
    session.state.set_filters(two)
    assert w.chips.chips == made and all(b.isVisible() for b in made)
    assert not w.chips.hint.isVisible()
