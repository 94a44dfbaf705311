"""A small store's rows held in memory, filtered and counted without SQL.

At the bundled scale DuckDB's planning and running of each query over
``results_v`` (a view uniting the bundled and the user database) dominates, and
a filter change needs two of them, a good part of a frame. Here the
same answers come from arrays built once: each facet as integer codes, each
range column as floats (NaN for blank), the text search as one lowered string
per row, computed by DuckDB itself so case folding is the SQL path's.

Each filter condition is tested as ``store.query.clauses`` defines it, the same
table the SQL comes from (semantics in ``domain.filters``);
``tests/store/test_snapshot.py`` checks every answer against the SQL path.
Only stores of at most ``MAX_ROWS`` rows are held (``service.browse.snapshot``): above
that, DuckDB's scans win and the copy would cost memory.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import Any

import numpy as np

from ipubench_gui.domain.fields import FACETS, RANGES
from ipubench_gui.domain.filters import FilterState, Value
from ipubench_gui.store.db import Database, QueryResult, Row, fetch_rows
from ipubench_gui.store.query.clauses import (
    HAY_SQL,
    all_of,
    clause_mask,
    compile_filters,
    order_rows,
    without_own,
)

MAX_ROWS = 20_000
# Up to this many rows, a filter's table and counts are computed on the GUI
# thread (well within a frame) and change in the same paint as the chips;
# larger stores answer from memory too, on a worker, which kept the longest
# GUI stall shorter than inline (tests/bench --only ui).
INLINE_MAX_ROWS = 5_000


class Snapshot:
    """Every row of ``results_v`` in ``ord`` order, with filter arrays."""

    def __init__(self, columns: Sequence[str], rows: list[Row], hay: list[str]):
        self.columns = tuple(columns)
        self.rows = rows
        self._col = {c: i for i, c in enumerate(self.columns)}
        self.hay = hay
        self.codes: dict[str, np.ndarray] = {}
        self.levels: dict[str, list[object]] = {}
        self.index: dict[str, dict[object, int]] = {}
        for f in FACETS:
            i = self._col[f.name]
            idx: dict[object, int] = {}
            codes = np.fromiter(
                (idx.setdefault(r[i], len(idx)) for r in rows),
                dtype=np.intp,
                count=len(rows),
            )
            self.codes[f.name] = codes
            self.index[f.name] = idx
            self.levels[f.name] = list(idx)
        self.numbers: dict[str, np.ndarray] = {}
        self.numbers = {f.name: self.floats(f.name) for f in RANGES}
        self._orders: dict[tuple[str, bool], np.ndarray] = {}
        self._projections: dict[tuple[str, ...], list[Row]] = {}
        # per set of columns: id of each projected row -> the row as a dict
        self._dicts: dict[tuple[str, ...], dict[int, dict[str, Any]]] = {}

    def floats(self, column: str) -> np.ndarray:
        """``column`` as floats, NaN for blank (held for the range filters')."""
        held = self.numbers.get(column)
        if held is not None:
            return held
        i = self._col[column]
        return np.array(
            [np.nan if r[i] is None else r[i] for r in self.rows], dtype=np.float64
        )

    def is_in(self, column: str, values: frozenset[Value]) -> np.ndarray:
        """Rows whose ``column`` is one of ``values`` (None: blank)."""
        idx = self.index.get(column)
        if idx is None:  # a selection on another column (a saved view's)
            i = self._col[column]
            found = (r[i] in values for r in self.rows)
            return np.fromiter(found, dtype=bool, count=len(self.rows))
        wanted = [idx[v] for v in values if v in idx]
        if not wanted:
            return np.zeros(len(self.rows), dtype=bool)
        return np.isin(self.codes[column], wanted)

    @classmethod
    def load(cls, db: Database) -> Snapshot:
        cur = db.cursor()
        cur.execute(f"SELECT *, {HAY_SQL} AS __hay FROM results_v ORDER BY ord")
        columns = [d[0] for d in cur.description][:-1]
        rows = fetch_rows(cur, None)
        return cls(columns, [r[:-1] for r in rows], [r[-1] for r in rows])

    def __len__(self) -> int:
        return len(self.rows)

    # -- filtering -------------------------------------------------------------
    def count(self, state: FilterState) -> int:
        return int(np.count_nonzero(self.mask(state)))

    def mask(self, state: FilterState) -> np.ndarray:
        clauses = compile_filters(state)
        return all_of([clause_mask(self, c) for c in clauses], len(self))

    # -- answers ---------------------------------------------------------------
    def page(
        self,
        state: FilterState,
        columns: Sequence[str],
        order_by: str | None,
        descending: bool,
        limit: int,
        offset: int = 0,
    ) -> tuple[QueryResult, int]:
        """The rows ``queries.results`` returns (at most ``limit``, after the
        first ``offset``) and the count."""
        keep = self.mask(state)
        if order_by:
            order = self._order(order_by, descending)
            hits = order[keep[order]]
        else:
            hits = np.flatnonzero(keep)  # rows are in ``ord`` order already
        rows = self.projected(columns)
        end = offset + limit
        out = tuple([rows[i] for i in hits[offset:end].tolist()])
        return QueryResult(tuple(columns), out, len(hits) > end), len(hits)

    def projected(self, columns: Sequence[str]) -> list[Row]:
        """Every row cut to ``columns``, made once per set of columns: cutting
        a page's rows anew for each page cost far more than picking them."""
        key = tuple(columns)
        rows = self._projections.get(key)
        if rows is None:
            picks = [self._col[c] for c in columns]
            pick = itemgetter(*picks) if len(picks) > 1 else lambda r: (r[picks[0]],)
            rows = self._projections[key] = list(map(pick, self.rows))
        return rows

    def row_dicts(self, result: QueryResult) -> list[dict[str, Any]] | None:
        """``result.rows`` as dicts, when they are rows this snapshot answered
        (:meth:`page`), each made once: a chart picked from a page of every
        row made a dict per row per filter change. Read-only: they are
        shared by every answer. None for other rows."""
        made = self._dicts.get(result.columns)
        if made is None:
            if result.columns not in self._projections:
                return None
            made = self._dicts[result.columns] = {
                id(r): dict(zip(result.columns, r))
                for r in self._projections[result.columns]
            }
        out = [made.get(id(r)) for r in result.rows]
        return None if None in out else out  # type: ignore[return-value]

    def _order(self, column: str, descending: bool) -> np.ndarray:
        """Row numbers in the table's order (``clauses.order_rows``), worked
        out once per column and direction."""
        key = (column, descending)
        if key not in self._orders:
            c, rid = self._col[column], self._col["result_id"]
            order = order_rows(self.rows, c, rid, descending)
            self._orders[key] = np.array(order, dtype=np.intp)
        return self._orders[key]

    def facet_counts(self, state: FilterState) -> dict[str, dict[object, int]]:
        """Per facet, the rows per value with every filter but its own applied
        (``clauses.without_own``); each clause is tested once."""
        clauses = compile_filters(state)
        masks = {c: clause_mask(self, c) for c in clauses}
        everything = all_of(list(masks.values()), len(self))
        out: dict[str, dict[object, int]] = {}
        for f in FACETS:
            kept = without_own(clauses, f.name)
            keep = (
                everything
                if len(kept) == len(clauses)
                else all_of([masks[c] for c in kept], len(self))
            )
            levels = self.levels[f.name]
            counts = np.bincount(self.codes[f.name][keep], minlength=len(levels))
            # whole arrays to Python at once: item by item, the MLPerf results'
            # many system names cost every filter change
            nz = np.flatnonzero(counts)
            out[f.name] = dict(
                zip(map(levels.__getitem__, nz.tolist()), counts[nz].tolist())
            )
        return out
