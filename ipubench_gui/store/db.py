"""Database: owns the DuckDB connection; one cursor per thread; interrupt()."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb

Row = tuple[Any, ...]  # one row as DuckDB returns it
Params = dict[str, Any]  # bound parameters by name


@dataclass(frozen=True)
class Query:
    """SQL text and its bound parameters. Values never go into ``sql``."""

    sql: str
    params: Params


@dataclass(frozen=True)
class QueryResult:
    """An immutable result: column names, row tuples, truncation, timing."""

    columns: tuple[str, ...]
    rows: tuple[Row, ...]
    truncated: bool = False
    elapsed_ms: float = 0.0

    def column(self, name: str) -> list[Any]:
        i = self.columns.index(name)
        return [r[i] for r in self.rows]

    def dicts(self) -> list[dict[str, Any]]:
        return [dict(zip(self.columns, r)) for r in self.rows]


FETCH_CHUNK = 1000


def fetch_rows(cur: duckdb.DuckDBPyConnection, most: int | None) -> list[Row]:
    """The result's rows (at most ``most``), fetched in chunks: converting rows
    to Python holds the GIL, and a whole page in one call held it long enough
    for the GUI thread to stall; chunks of 1,000 hold it briefly each and were
    faster overall."""
    rows: list[Row] = []
    while most is None or len(rows) < most:
        n = FETCH_CHUNK if most is None else min(FETCH_CHUNK, most - len(rows))
        chunk = cur.fetchmany(n)
        if not chunk:
            break
        rows.extend(chunk)
    return rows


@dataclass(frozen=True)
class UserStatus:
    """What happened to the user database at start-up, in words for users."""

    path: Path | None
    writable: bool
    message: str = ""


class StoreError(Exception):
    """A store could not be opened or queried; the message is for users."""


class UserLocked(StoreError):
    """Another process holds the user's database (it is writing it); the
    message names it and what to do."""


class Cancelled(StoreError):
    """The work was cancelled before its next statement (``Database.cancellable``)."""

    def __init__(self) -> None:
        super().__init__("Interrupted: cancelled")


def one_row(cur: duckdb.DuckDBPyConnection) -> Row:
    """The row a query known to return one (an aggregate) returned."""
    row = cur.fetchone()
    if row is None:
        raise StoreError("the store answered no row where one was expected")
    return row


class Database:
    """A DuckDB database used from several threads.

    A DuckDB connection is not safe to share between threads, so each thread
    gets its own cursor (a child connection to the same database).
    """

    def __init__(self, con: duckdb.DuckDBPyConnection, path: Path | None = None):
        self._con: duckdb.DuckDBPyConnection | None = con
        self.path = path
        self._local = threading.local()
        self._lock = threading.Lock()
        self._cursors: list[duckdb.DuckDBPyConnection] = []
        # Called by data_changed: what holds values derived from the rows
        # (store.query.cache) registers here, so this module names none of them.
        self._on_change: list[Callable[[], None]] = []
        self.user_status: UserStatus | None = None  # when a user db is attached
        # Opens another Database over the same files (ui/runner): "write"
        # holds the user's database to write it, for one job; "read" reads a
        # fresh copy of it ("peek": the same, or UserLocked at once while
        # another process writes it). None: nothing to reopen (a store file).
        self.reopen: Callable[[str], Database] | None = None
        # The user's database file this one reads (a copy of it, for a
        # window) and its stamp then: a window reads it again when it changes.
        self.user_file: Path | None = None
        self.user_stamp: tuple[int, ...] | None = None
        self.on_close: list[Callable[[], None]] = []  # called once, by close()

    @classmethod
    def open(cls, path: Path, read_only: bool = True) -> Database:
        """Open an existing store file; read-only by default (never modifies it)."""
        if not path.exists():
            raise StoreError(f"store not found: {path}")
        try:
            con = duckdb.connect(str(path), read_only=read_only)
        except duckdb.Error as exc:
            raise StoreError(f"cannot open store {path}: {exc}") from exc
        return cls(con, path)

    @contextmanager
    def cancellable(self, cancelled: threading.Event) -> Iterator[None]:
        """Within, this thread's statements first check ``cancelled`` and raise
        ``Cancelled`` once it is set. An interrupt() reaches only a statement
        that is running (DuckDB drops one that comes between two statements),
        so a job of several statements would otherwise go on with its next."""
        before = getattr(self._local, "cancelled", None)
        self._local.cancelled = cancelled
        try:
            yield
        finally:
            self._local.cancelled = before

    def cursor(self) -> duckdb.DuckDBPyConnection:
        """This thread's cursor (raises ``Cancelled``: see ``cancellable``)."""
        cancelled: threading.Event | None = getattr(self._local, "cancelled", None)
        if cancelled is not None and cancelled.is_set():
            raise Cancelled()
        cur = getattr(self._local, "cur", None)
        if cur is None:
            if self._con is None:
                raise StoreError("the results store is closed")
            cur = self._con.cursor()
            self._local.cur = cur
            with self._lock:
                self._cursors.append(cur)
        return cur

    def run(self, query: Query, limit: int | None = None) -> QueryResult:
        """Run ``query`` on this thread's cursor (``limit + 1`` rows: truncation)."""
        t0 = time.perf_counter()
        cur = self.cursor()
        cur.execute(query.sql, query.params)
        cols = tuple(d[0] for d in cur.description or ())
        rows = fetch_rows(cur, None if limit is None else limit + 1)
        truncated = limit is not None and len(rows) > limit
        if truncated:
            rows = rows[:limit]
        return QueryResult(
            cols, tuple(rows), truncated, (time.perf_counter() - t0) * 1000
        )

    def scalar(self, sql: str, params: dict[str, Any] | None = None) -> Any:
        row = self.cursor().execute(sql, params or {}).fetchone()
        return None if row is None else row[0]

    @contextmanager
    def writing(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """This thread's cursor, to write rows with; afterwards, failed or not,
        what was derived from the rows is forgotten (``data_changed``)."""
        try:
            yield self.cursor()
        finally:
            self.data_changed()

    def data_changed(self) -> None:
        """Forget what was derived from the rows (the in-memory copy)."""
        for forget in list(self._on_change):
            forget()

    def on_data_changed(self, forget: Callable[[], None]) -> None:
        """Call ``forget()`` whenever the rows change (see ``data_changed``)."""
        self._on_change.append(forget)

    def interrupt(self) -> None:
        """Cancel whatever query is running on any cursor of this database."""
        with self._lock:
            cursors = list(self._cursors)
        for cur in cursors:
            try:
                cur.interrupt()
            except duckdb.Error:
                pass

    def close(self) -> None:
        """Close every cursor and the connection, and let go of them: DuckDB's
        bindings report a connection object still referenced when Python
        exits as leaked, closed or not."""
        with self._lock:
            for cur in self._cursors:
                cur.close()
            self._cursors.clear()
        self._local = threading.local()  # this thread's cursor
        if self._con is not None:
            self._con.close()
            self._con = None
        for release in self.on_close:  # what this connection held (a lock)
            release()
        self.on_close = []
