# ruff: noqa: F811  (combined_session is a fixture imported from test_import_ui)
"""Result routing: jobs hand their answers to the ``on_done`` they
were submitted with, widgets subscribe to the ``Results`` holder, and a
cancelled request stops even between two statements."""

from __future__ import annotations

import threading

from ipubench_gui.domain.filters import FilterState
from ipubench_gui.service import browse
from ipubench_gui.store.db import Cancelled, Query
from tests.conftest import STORE_ROWS
from tests.ui.conftest import GuiSide, sql_ids, table_ids
from tests.ui.test_import_ui import combined_session  # noqa: F401 (a fixture)
from tests.ui.test_main_window import Gate


def test_cancel_between_two_statements_stops_the_job(qtbot, fresh_db):
    """DuckDB drops an interrupt that comes while no statement runs: the
    request's own flag stops the job before its next statement."""
    from ipubench_gui.ui.runner import QueryRunner

    r = QueryRunner(fresh_db)
    gate = Gate(fresh_db, "second_gate")
    between, release = threading.Event(), threading.Event()
    done, failed = [], []

    def job(d):
        d.run(Query("SELECT 1", {}))  # the first statement
        between.set()
        release.wait(10)  # Python work between the two: no statement runs
        return d.run(gate.query)  # would count rows for hours

    r.submit("import", job, on_done=done.append, on_error=lambda s, e: failed.append(e))
    qtbot.waitUntil(between.is_set, timeout=10000)
    r.cancel("import")
    release.set()
    qtbot.waitUntil(lambda: bool(failed), timeout=10000)
    assert isinstance(failed[0], Cancelled) and "Interrupted" in str(failed[0])
    assert gate.calls == 0 and done == []  # the second statement never ran
    # The worker's cursor serves the next request as usual.
    r.submit(
        "page", lambda d: d.run(Query("SELECT 42", {})).rows[0][0], on_done=done.append
    )
    qtbot.waitUntil(lambda: bool(done), timeout=10000)
    assert done == [42]
    r.shutdown()


def test_answers_go_to_their_receiver_only_while_current(qtbot, fresh_db):
    from ipubench_gui.ui.runner import QueryRunner

    r = QueryRunner(fresh_db)
    gui = GuiSide(r)
    got: dict[str, list] = {"old": [], "new": [], "page": [], "chart": []}
    release = threading.Event()

    def slow(d):
        release.wait(10)
        return "old answer"

    old = r.submit("facets", slow, on_done=got["old"].append)
    r.submit("facets", lambda d: "new answer", on_done=got["new"].append)
    r.submit(
        ("page", "chart"),
        lambda d: {"page": 1, "chart": 2},
        on_done={"page": got["page"].append, "chart": got["chart"].append},
    )
    qtbot.waitUntil(
        lambda: all(got[k] for k in ("new", "page", "chart")), timeout=10000
    )
    release.set()  # the superseded answer reaches the GUI thread, and is dropped
    qtbot.waitUntil(lambda: ("facets", old) in gui.seen, timeout=10000)
    assert got == {"old": [], "new": ["new answer"], "page": [1], "chart": [2]}
    r.shutdown()


def test_widgets_follow_the_results_holder(qtbot, session, db):
    """An answer set on the holder reaches the table, the count and the facet
    lists with no controller code in between."""
    res = session.results
    ids = sql_ids(db, "lower(framework) = 'pytorch'")
    f = FilterState().with_values("framework", ["PyTorch"])
    page = browse.page(db, f, (None, False))
    res.set_page(page)
    assert table_ids(session) == ids
    assert (
        session.window.count_label.text() == f"{len(ids):,} of {STORE_ROWS:,} results"
    )
    counts = browse.facet_counts(db, f)
    res.set_counts(counts)
    m = session.window.facets.boxes["platform"].model
    assert {v: m.count(v) for v in m.values() if m.count(v)} == counts["platform"]


def test_one_filter_change_is_one_answer_of_each_kind(qtbot, session):
    res = session.results
    seen = []
    for name in ("pageChanged", "countsChanged", "chartRowsChanged"):
        getattr(res, name).connect(lambda _v, n=name: seen.append(n))
    session.state.set_filters(FilterState().with_values("framework", ["PyTorch"]))
    assert sorted(seen) == ["chartRowsChanged", "countsChanged", "pageChanged"]


def test_a_comparison_reaches_the_comparator_through_its_own_request_only(
    qtbot, session, db
):
    """The comparator shows what its own request fetched. An answer on the
    same slot that names no receiver (or another one) reaches nobody else:
    no controller listens on slot names."""
    from ipubench_gui.domain.compare import Comparison

    a, b, c = sorted(sql_ids(db, "lower(framework) = 'pytorch'"))[:3]
    cm = session.window.comparator.model
    session.state.set_comparison(Comparison((a, b), a))
    qtbot.waitUntil(lambda: cm.ids() == [a, b])
    stored = {r["result_id"]: r["value"] for r in browse.rows_by_ids(db, [a, b, c])}
    assert [r["value"] for r in session.compare.compare_rows] == [stored[a], stored[b]]

    elsewhere = []
    session.runner.submit("compare", lambda d: browse.rows_by_ids(d, [c]))
    session.runner.submit(
        "compare", lambda d: browse.rows_by_ids(d, [c]), on_done=elsewhere.append
    )
    assert [r["result_id"] for r in elsewhere[0]] == [c]
    assert cm.ids() == [a, b]
    assert [r["result_id"] for r in session.compare.compare_rows] == [a, b]
    # The next change of the comparison is shown as usual.
    session.state.set_comparison(Comparison((a, c), a))
    qtbot.waitUntil(lambda: cm.ids() == [a, c])


def test_an_import_answer_reaches_the_import_controller_through_its_own_request(
    qtbot, combined_session, tmp_path
):
    """A preview opens the import dialog with the file's own columns; a preview
    answer that names no receiver opens nothing, and an import's error is
    said by the import's reporter once, not by the window's sink too."""
    make, db = combined_session
    s = make()
    f = tmp_path / "mine.csv"
    f.write_text("Benchmark,System,Samples/s\nResNet-50,A100 80GB,2500\n")
    sunk = []
    s.runner.failed.connect(lambda slot, exc: sunk.append(slot))
    s.imports.open_file(f)
    dlg = s.imports.dialog
    assert [c.currentText() for c in dlg.maps] == ["model", "platform", "value"]

    from ipubench_gui.service import imports

    other = tmp_path / "other.csv"
    other.write_text("model,platform\nX,Y\n")
    s.runner.submit("import-preview", lambda d: imports.preview(d, other))
    assert s.imports.dialog is dlg and dlg.isVisible()
    assert [c.currentText() for c in dlg.maps] == ["model", "platform", "value"]
    assert sunk == []

    # A failed import (its file gone since the preview): said in the dialog
    # by the import's own reporter, once; nothing stored.
    dlg.metric_box.setCurrentText("throughput")
    dlg.unit_box.setText("images/s")
    f.unlink()
    s.imports.start_import(dlg.spec())
    assert "mine.csv" in dlg.report.toPlainText()
    assert s.imports.last_error in dlg.report.toPlainText()
    assert sunk == [] and s.imports.last_result is None
    assert db.scalar("SELECT count(*) FROM u.imports") == 0
