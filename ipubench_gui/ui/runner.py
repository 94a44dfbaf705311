"""QueryRunner: the one way to run store work off the GUI thread.

Jobs run one at a time on a single worker thread, each on that thread's own
DuckDB cursor. Every request carries an increasing id per *slot* ("results",
"facets", ...); a newer request for a slot makes older ones stale: a queued
stale job is skipped, a running one is interrupted, and a stale result is
never delivered.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from PySide6.QtCore import QObject, Signal

from ipubench_gui.store.db import Database

Job = Callable[[Database], Any]


class QueryRunner(QObject):
    """Run ``job(db)`` for a slot; deliver ``finished(slot, id, result|Exception)``."""

    finished = Signal(str, int, object)
    # Internal: carries results from the worker thread; queued to the GUI thread.
    _delivered = Signal(str, int, object)

    def __init__(
        self, db: Database, synchronous: bool = False, parent: QObject | None = None
    ):
        super().__init__(parent)
        self.db = db
        self.synchronous = synchronous
        self._ids = itertools.count(1)
        self._latest: dict[str, int] = {}
        self._running: tuple[str, int] | None = None
        self._lock = threading.Lock()
        self._pool = (
            None
            if synchronous
            else ThreadPoolExecutor(max_workers=1, thread_name_prefix="ipubench-query")
        )
        self._delivered.connect(self._on_delivered)

    def submit(self, slot: str, job: Job) -> int:
        """Queue ``job`` for ``slot``; returns the request id."""
        rid = next(self._ids)
        with self._lock:
            self._latest[slot] = rid
            running = self._running
        if running and running[0] == slot:
            self.db.interrupt()  # the running job of this slot is now stale
        if self._pool is None:
            self._deliver(slot, rid, self._call(slot, rid, job))
        else:
            self._pool.submit(self._work, slot, rid, job)
        return rid

    def is_current(self, slot: str, rid: int) -> bool:
        return self._latest.get(slot) == rid

    def shutdown(self) -> None:
        with self._lock:
            for slot in self._latest:
                self._latest[slot] = -1
        if self._pool is not None:
            self.db.interrupt()
            self._pool.shutdown(wait=True, cancel_futures=True)

    # -- worker side ---------------------------------------------------------
    def _work(self, slot: str, rid: int, job: Job) -> None:
        if not self.is_current(slot, rid):
            return
        self._delivered.emit(slot, rid, self._call(slot, rid, job))

    def _call(self, slot: str, rid: int, job: Job) -> Any:
        with self._lock:
            self._running = (slot, rid)
        try:
            return job(self.db)
        except Exception as exc:  # delivered to the error sink, never swallowed
            return exc
        finally:
            with self._lock:
                self._running = None

    # -- GUI side ------------------------------------------------------------
    def _on_delivered(self, slot: str, rid: int, result: Any) -> None:
        self._deliver(slot, rid, result)

    def _deliver(self, slot: str, rid: int, result: Any) -> None:
        if self.is_current(slot, rid):
            self.finished.emit(slot, rid, result)
