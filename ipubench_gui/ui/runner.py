"""QueryRunner: the one way to run store work off the GUI thread.

Jobs run on two worker threads, each job on its thread's own DuckDB cursor, so
one long job (an import, a query over a million rows) does not hold up the
next filter change. Every request carries an increasing id per *slot*
("page", "facets", ...); a newer request for a slot makes older ones stale: a
queued stale job is skipped, a running one is interrupted (its own cursor
only), and a stale result is never delivered. One job may answer several
slots at once (``submit`` with a tuple of slots; the job returns a mapping
slot -> result): each answer is delivered unless a newer request for its own
slot came since.

An answer goes to the ``on_done`` the job was submitted with (for a job
answering several slots, a mapping slot -> receiver). Errors have one sink: a
failed job's exception goes to the ``on_error`` it was submitted with, else to
the ``failed`` signal (the window's status bar), never to both; ``finished``
carries every delivered answer, errors too, for waiting on.

Cancelling (``cancel``, or a newer request) interrupts the job's cursor and
sets the request's own flag: DuckDB drops an interrupt that comes between two
statements, so the job's next statement checks the flag and stops
(``Database.cancellable``).

A window holds no lock on the user's database: it reads a copy
(``Database.reopen``), so the command line imports and exports while it is
open. A job that writes (``writes=True``) runs on a connection of its own that
holds the file for that job only; then a fresh copy replaces the one read
(``replace_db``: jobs still running finish on the old one, closed after them),
before the answer is delivered, so what the window asks next sees the write.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from PySide6.QtCore import QObject, Signal

from ipubench_gui import trace
from ipubench_gui.store.db import Database

Job = Callable[[Database], Any]
ErrorHandler = Callable[[str, Exception], None]
Receiver = Callable[[Any], None]
OnDone = Receiver | Mapping[str, Receiver]


class QueryRunner(QObject):
    """Run ``job(db)`` for a slot; deliver ``finished(slot, id, result|Exception)``."""

    finished = Signal(str, int, object)
    failed = Signal(str, object)  # slot, exception: jobs without their own on_error
    # Every slot's latest request has been answered (and what its answer set
    # off answered too): the window shows all it was asked to.
    idle = Signal()
    # Internal: carries results from the worker thread; queued to the GUI thread.
    _delivered = Signal(str, int, object)

    def __init__(
        self,
        db: Database | Future[Database],
        synchronous: bool = False,
        parent: QObject | None = None,
    ):
        """``db`` may still be opening (a Future): jobs then wait for it on the
        worker thread, so the GUI thread builds the window meanwhile."""
        super().__init__(parent)
        self._db = db
        self.synchronous = synchronous
        self._ids = itertools.count(1)
        self._latest: dict[str, int] = {}
        self._answered: dict[str, int] = {}  # slot -> the last request answered
        self._on_error: dict[int, ErrorHandler] = {}  # request id -> its handler
        self._on_done: dict[int, OnDone] = {}  # request id -> its receiver(s)
        # request id -> (its slots, the cursor running it, its cancelled flag)
        self._running: dict[int, tuple[tuple[str, ...], Any, threading.Event]] = {}
        # databases replaced (``replace_db``) and how many jobs still use each
        self._in_use: dict[int, int] = {}
        self._retired: list[Database] = []
        self._lock = threading.Lock()
        self._pool = (
            None
            if synchronous
            else ThreadPoolExecutor(max_workers=2, thread_name_prefix="ipubench-query")
        )
        self._delivered.connect(self._on_delivered)

    @property
    def db(self) -> Database:
        """The database, once open (waits for it; raises what opening raised)."""
        if isinstance(self._db, Future):
            self._db = self._db.result()
        return self._db

    def replace_db(self, db: Database) -> None:
        """Read ``db`` from now on (a fresh copy of the user's database); the
        one it replaces is closed once no job runs on it any more."""
        with self._lock:
            old = self._db
            self._db = db
            if isinstance(old, Database) and old is not db:
                self._retired.append(old)
        self._close_retired()

    def _close_retired(self) -> None:
        with self._lock:
            done = [d for d in self._retired if not self._in_use.get(id(d))]
            self._retired = [d for d in self._retired if d not in done]
        for d in done:
            d.close()

    @property
    def opened(self) -> Database | None:
        """The database if it is open by now; never waits."""
        if isinstance(self._db, Future):
            if not self._db.done() or self._db.exception() is not None:
                return None
        return self.db

    def submit(
        self,
        slot: str | tuple[str, ...],
        job: Job,
        inline: bool = False,
        on_error: ErrorHandler | None = None,
        on_done: OnDone | None = None,
        writes: bool = False,
    ) -> int:
        """Queue ``job`` for ``slot`` (or for each of a tuple of slots, the job
        then returning a mapping slot -> result); returns the request id.

        ``inline``: run it now, on this thread, and deliver before returning;
        for jobs known to take a millisecond or two (see ``browse.inline_snapshot``).
        ``on_done(answer)``: who receives the answer (for several slots, a
        mapping slot -> receiver); ``on_error(slot, exc)``: who reports this
        job's failure (else ``failed``); ``writes``: the job writes the user's
        database (see the module's text).
        """
        rid = next(self._ids)
        with self._lock:
            for s in slots_of(slot):
                self._latest[s] = rid
            # Handlers of requests made stale are dropped with them.
            live = set(self._latest.values())
            self._on_error = {r: h for r, h in self._on_error.items() if r in live}
            self._on_done = {r: h for r, h in self._on_done.items() if r in live}
            if on_error is not None:
                self._on_error[rid] = on_error
            if on_done is not None:
                self._on_done[rid] = on_done
        # A running job that is now stale for every slot it answers stops.
        self._interrupt(lambda old, slots: self._stale(slots, old))
        if self._pool is None or inline:
            for s, answer in answers(slot, self._call(slot, rid, job, writes)):
                self._deliver(s, rid, answer)
        else:
            self._pool.submit(self._work, slot, rid, job, writes)
        return rid

    def pending(self) -> set[str]:
        """Slots whose latest request has not been answered yet."""
        with self._lock:
            return {
                s
                for s, r in self._latest.items()
                if r > 0 and self._answered.get(s) != r
            }

    def is_current(self, slot: str, rid: int) -> bool:
        return self._latest.get(slot) == rid

    def _stale(self, slot: str | tuple[str, ...], rid: int) -> bool:
        return not any(self.is_current(s, rid) for s in slots_of(slot))

    def cancel(self, slot: str) -> None:
        """Stop the running job of ``slot``: at once if it is inside a
        statement, else before its next one (its error is still delivered)."""
        self._interrupt(lambda _rid, slots: slot in slots)

    def shutdown(self) -> None:
        with self._lock:
            for slot in self._latest:
                self._latest[slot] = -1
        if self._pool is not None:
            self._interrupt(lambda _rid, _slots: True)
            self._pool.shutdown(wait=True, cancel_futures=True)
        self._close_retired()

    def _interrupt(self, which: Callable[[int, tuple[str, ...]], bool]) -> None:
        """Cancel each running job ``which(rid, slots)`` picks: its flag first
        (read before each statement), then its cursor (the statement running)."""
        with self._lock:
            running = list(self._running.items())
        for rid, (slots, cur, cancelled) in running:
            if which(rid, slots):
                cancelled.set()
                cur.interrupt()

    # -- worker side ---------------------------------------------------------
    def _work(
        self, slot: str | tuple[str, ...], rid: int, job: Job, writes: bool
    ) -> None:
        if self._stale(slot, rid):
            return
        result = self._call(slot, rid, job, writes)
        trace.mark(f"worker finished {slot}")
        # One queued event per answer, as for a single-slot job.
        for s, answer in answers(slot, result):
            self._delivered.emit(s, rid, answer)

    def _call(
        self, slot: str | tuple[str, ...], rid: int, job: Job, writes: bool = False
    ) -> Any:
        db: Database | None = None
        try:
            db = self.db  # waits while it is still opening
            with self._lock:
                if not isinstance(self._db, Future):
                    db = self._db  # the one read now, counted as in use
                self._in_use[id(db)] = self._in_use.get(id(db), 0) + 1
            cancelled = threading.Event()
            # a writing job: a connection of its own that may write (held
            # for this job only); none to open for a store without a user
            # database of its own
            target = db.reopen("write") if writes and db.reopen else db
            try:
                with self._lock:
                    self._running[rid] = (slots_of(slot), target.cursor(), cancelled)
                with target.cancellable(cancelled):
                    return job(target)
            finally:
                if target is not db:
                    target.close()
                    # what was written is read next, even after a failure
                    # midway (a failed import leaves nothing: read as before)
                    assert db.reopen is not None
                    self.replace_db(db.reopen("read"))
        except Exception as exc:  # delivered to the error sink, never swallowed
            return exc
        finally:
            with self._lock:
                self._running.pop(rid, None)
                if db is not None and id(db) in self._in_use:
                    self._in_use[id(db)] -= 1
                    if not self._in_use[id(db)]:
                        del self._in_use[id(db)]
            self._close_retired()

    # -- GUI side ------------------------------------------------------------
    def _on_delivered(self, slot: str, rid: int, result: Any) -> None:
        self._deliver(slot, rid, result)

    def _deliver(self, slot: str, rid: int, result: Any) -> None:
        if not self.is_current(slot, rid):
            return
        with self._lock:
            self._answered[slot] = rid
        if isinstance(result, Exception):
            handler = self._on_error.get(rid)
            if handler is not None:
                handler(slot, result)
            else:
                self.failed.emit(slot, result)
        else:
            receiver = self._on_done.get(rid)
            if isinstance(receiver, Mapping):
                receiver = receiver.get(slot)
            if receiver is not None:
                receiver(result)
        # Last: who waits on it finds the answer received.
        self.finished.emit(slot, rid, result)
        if not self.pending():
            self.idle.emit()


def slots_of(slot: str | tuple[str, ...]) -> tuple[str, ...]:
    return (slot,) if isinstance(slot, str) else slot


def answers(slot: str | tuple[str, ...], result: Any) -> list[tuple[str, Any]]:
    """(slot, answer) pairs: a several-slot job's mapping split up, and an error
    given to each of its slots."""
    if isinstance(slot, str):
        return [(slot, result)]
    if isinstance(result, Exception):
        return [(s, result) for s in slot]
    return [(s, result[s]) for s in slot]
