"""UI fixtures: a real window over the real store, queries run inline."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QObject, QThread, Slot


@pytest.fixture
def make_session(qtbot, store_path):
    """``make(db=None, synchronous=True, prefetch=False, start=True)``: a Session
    over ``db`` (a Database or a Future of one), by default a connection of its
    own to the test store, so no test changes what another's store holds (its
    in-memory copy, caches). Every session made is closed, and its store with
    it, when the test ends; closing one earlier (a restart) is fine."""
    from ipubench_gui.app import Session, ensure_app
    from ipubench_gui.store.db import Database

    ensure_app()
    made = []

    def make(db=None, *, synchronous=True, prefetch=False, start=True):
        s = Session(
            Database.open(store_path) if db is None else db,
            synchronous=synchronous,
            prefetch=prefetch,
        )
        made.append(s)
        qtbot.addWidget(s.window)
        if start:
            s.start(restore=False)
        return s

    yield make
    for s in made:
        s.close()


@pytest.fixture
def session(make_session, qtbot):
    s = make_session()
    s.window.resize(1400, 900)
    s.window.show()
    qtbot.waitExposed(s.window)
    return s


_COLS = (
    "result_id, task, model, variant, dataset, platform, framework, precision, "
    "batch_size, metric, value, unit, source_file"
)
# Every stored figure, from the base tables: the vendor's results and NVIDIA's
# published figures that are measurements (a latency figure is also the row's
# latency, as data/README.md says).
STORED = (
    f"(SELECT {_COLS}, latency_ms FROM results UNION ALL SELECT {_COLS}, "
    "coalesce(latency_ms, CASE WHEN metric = 'latency' THEN value END) "
    "FROM gpu_reference WHERE value IS NOT NULL "
    "AND metric IN (SELECT metric FROM metrics))"
)
# The same columns for the official MLPerf results no vendor row shares
# (Training), and every MLPerf Inference result.
MLPERF_AS_RESULTS = (
    "SELECT result_id, 'training' AS task, model, NULL AS variant, dataset, "
    "coalesce(system_name, system_id) AS platform, framework, NULL AS precision, "
    "CAST(NULL AS INTEGER) AS batch_size, 'time_to_train' AS metric, value, unit, "
    "repository AS source_file, CAST(NULL AS DOUBLE) AS latency_ms "
    "FROM mlperf_training WHERE vendor_result_id IS NULL UNION ALL "
    "SELECT result_id, 'inference' AS task, model, variant, dataset, "
    "coalesce(system_name, system_id) AS platform, framework, NULL AS precision, "
    "CAST(NULL AS INTEGER) AS batch_size, 'throughput' AS metric, value, unit, "
    "repository AS source_file, CAST(NULL AS DOUBLE) AS latency_ms "
    "FROM mlperf_inference"
)


def sql_ids(db, where: str = "TRUE", params: dict | None = None) -> set[str]:
    """Result ids by an independent SQL query on the store's base tables: the
    vendor rows, and the official MLPerf results no vendor row shares."""
    rows = (
        db.cursor()
        .execute(
            f"SELECT r.result_id FROM {STORED} r "
            f"JOIN platforms p USING (platform) WHERE {where} UNION ALL "
            f"SELECT r.result_id FROM ({MLPERF_AS_RESULTS}) r WHERE {where}",
            params or {},
        )
        .fetchall()
    )
    return {r[0] for r in rows}


def message_boxes(window) -> list[tuple[str, str]]:
    """(title, text) of each message box open over ``window``."""
    from PySide6.QtWidgets import QMessageBox

    return [
        (b.windowTitle(), b.text())
        for b in window.findChildren(QMessageBox)
        if b.isVisible()
    ]


def press_ok(qtbot, window) -> None:
    """Answer every open message box over ``window`` with its OK button."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QMessageBox

    for b in window.findChildren(QMessageBox):
        if b.isVisible():
            ok = b.button(QMessageBox.StandardButton.Ok)
            qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: message_boxes(window) == [])


def table_ids(session) -> set[str]:
    m = session.window.model
    return {m.result_id(r) for r in range(m.rowCount())}


class GuiSide(QObject):
    """What a QueryRunner's worker threads handed to the GUI thread, as the
    GUI thread saw it: connected to the runner's internal ``_delivered`` after
    the runner's own receiver, so each entry is recorded on the GUI thread
    (a queued call) after the runner has dealt with that answer.

    Waiting on ``_delivered`` itself with ``qtbot.waitSignal`` ran pytest-qt's
    slot on the worker thread, which quit the test's event loop from there:
    an intermittent segfault under load."""

    def __init__(self, runner):
        super().__init__()
        self.seen: list[tuple[str, int]] = []
        runner._delivered.connect(self._record)

    @Slot(str, int, object)
    def _record(self, slot: str, rid: int, _result: object) -> None:
        assert QThread.currentThread() is self.thread()
        self.seen.append((slot, rid))
