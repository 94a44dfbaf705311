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

from ipubench_gui.domain.chartrows import ChartRows, chart_unit, shares, task_order
from ipubench_gui.domain.fields import FACETS, PROVENANCE, RANGES, TABLE_COLUMNS
from ipubench_gui.domain.filters import FilterState, Value
from ipubench_gui.domain.metrics import LOWER_IS_BETTER, per_chip_value
from ipubench_gui.store.db import Database, QueryResult, Row, fetch_rows
from ipubench_gui.store.query.clauses import (
    HAY_SQL,
    all_of,
    clause_mask,
    compile_filters,
    order_rows,
    without_own,
)
from ipubench_gui.store.schema import quote_ident

MAX_ROWS = 20_000
# Up to this many rows, a filter's table and counts are computed on the GUI
# thread (well within a frame) and change in the same paint as the chips;
# larger stores answer from memory too, on a worker, which kept the longest
# GUI stall shorter than inline (tests/bench --only ui).
INLINE_MAX_ROWS = 5_000
# The columns held: what the answers read (the table's and provenance for
# pages and charts, the filters' and the figure a chart ranks by). The
# others (system file details, the search text, which ``hay`` holds) stay
# in the store: each value fetched is a Python object made at every start.
HELD: tuple[str, ...] = tuple(
    dict.fromkeys(
        [f.name for f in (*TABLE_COLUMNS, *FACETS, *RANGES)]
        + [*PROVENANCE, "value", "unit", "unit_family", "accelerators"]
    )
)


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
        # the range filters' columns, and the figure a chart ranks by
        self.numbers = {n: self.floats(n) for n in [f.name for f in RANGES] + ["value"]}
        self._orders: dict[tuple[str, bool], np.ndarray] = {}
        self._projections: dict[tuple[str, ...], list[Row]] = {}
        # per set of columns: id of each projected row -> the row as a dict
        self._dicts: dict[tuple[str, ...], dict[int, dict[str, Any]]] = {}
        # what the chart of the best rows ranks by, worked out on first use
        self._ranking: tuple[np.ndarray, list[str], np.ndarray] | None = None
        self._per_chip: dict[str, np.ndarray] = {}

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
        held = ", ".join(quote_ident(c) for c in HELD)
        cur.execute(f"SELECT {held}, {HAY_SQL} AS __hay FROM results_v ORDER BY ord")
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
        if result.columns not in self._projections:
            return None
        made = self._row_dicts(result.columns)
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

    # -- the chart of the best rows --------------------------------------------
    def best_rows(
        self,
        state: FilterState,
        metric: str,
        limit: int,
        columns: Sequence[str],
        wanted: str | None = None,
        per_chip: bool = False,
    ) -> ChartRows:
        """What ``domain.chartrows.best_rows`` picks from the rows matching
        ``state`` (each a dict of ``columns``), ranked over arrays: picked in
        Python from every matching row, a large share of a filter change."""
        families, names, rid_rank = self._ranking_arrays()
        keep = self.mask(state)
        metrics = self.codes["metric"]
        mlevels = self.levels["metric"]
        pair = metrics * len(names) + families
        counts = np.bincount(pair[keep], minlength=len(mlevels) * len(names))
        found = [
            (str(mlevels[i // len(names)]), names[i % len(names)], int(counts[i]))
            for i in np.flatnonzero(counts).tolist()
        ]
        unit, total, mine, plotted, others = chart_unit(found, metric, wanted)
        if unit is None:
            return ChartRows(metric, (), total, 0, 0)
        keep &= (metrics == self.index["metric"][metric]) & (
            families == names.index(unit)
        )
        figure = self._figures(metric) if per_chip else self.floats("value")
        blank = np.isnan(figure)
        # as best_rows' key: (blank, figure best first, result_id)
        ranked = np.where(blank, 0.0, figure if metric in LOWER_IS_BETTER else -figure)
        tlevels, tcodes = self.levels["task"], self.codes["task"]
        in_task = np.bincount(tcodes[keep], minlength=len(tlevels))
        by_task = {tlevels[i]: i for i in np.flatnonzero(in_task).tolist()}
        order = task_order(by_task)
        sizes = [int(in_task[by_task[t]]) for t in order]
        room = [limit] if len(order) < 2 else shares(sizes, limit)
        picked: list[int] = []
        for t, k in zip(order, room):
            rows = np.flatnonzero(keep & (tcodes == by_task[t]))
            best = np.lexsort((rid_rank[rows], ranked[rows], blank[rows]))[:k]
            picked += rows[best].tolist()
        dicts = self._row_dicts(columns)
        projected = self.projected(columns)
        out = tuple(dicts[id(projected[i])] for i in picked)
        if len(order) < 2:
            return ChartRows(metric, out, total, mine, plotted, 1, others)
        tasks = tuple((t, k, n) for t, k, n in zip(order, room, sizes))
        return ChartRows(metric, out, total, mine, plotted, 1, others, tasks)

    def _ranking_arrays(self) -> tuple[np.ndarray, list[str], np.ndarray]:
        """Each row's unit family (as ``metrics.family``: its code, and the
        names) and its place in the order of result ids, made once."""
        if self._ranking is None:
            uf, unit = self._col["unit_family"], self._col["unit"]
            fams = [str(r[uf] or r[unit] or "") for r in self.rows]
            names = list(dict.fromkeys(fams))
            at = {f: i for i, f in enumerate(names)}
            codes = np.fromiter(map(at.__getitem__, fams), np.intp, len(fams))
            rid = self._col["result_id"]
            by_id = sorted(range(len(self.rows)), key=lambda i: self.rows[i][rid])
            rank = np.empty(len(self.rows), dtype=np.intp)
            rank[by_id] = np.arange(len(self.rows))
            self._ranking = (codes, names, rank)
        return self._ranking

    def _figures(self, metric: str) -> np.ndarray:
        """Each row's figure of ``metric`` per accelerator chip (NaN where it
        has none), made once per metric."""
        held = self._per_chip.get(metric)
        if held is None:
            v, n = self._col["value"], self._col["accelerators"]
            held = self._per_chip[metric] = np.array(
                [
                    np.nan
                    if r[v] is None or not r[n]
                    else _or_nan(per_chip_value(metric, r[v], r[n]))
                    for r in self.rows
                ],
                dtype=np.float64,
            )
        return held

    def _row_dicts(self, columns: Sequence[str]) -> dict[int, dict[str, Any]]:
        """id of each row projected to ``columns`` -> the row as a dict, made
        once (shared by every answer: read-only)."""
        key = tuple(columns)
        made = self._dicts.get(key)
        if made is None:
            made = self._dicts[key] = {
                id(r): dict(zip(key, r)) for r in self.projected(columns)
            }
        return made


def _or_nan(value: float | None) -> float:
    return np.nan if value is None else value
