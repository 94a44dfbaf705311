"""Results: what the store last answered for the app's state, with a signal per
kind of answer that widgets subscribe to (as napari's layers hold their data
and emit an event when it changes).

The runner hands each answer to its setter (``submit(slot, job, on_done=...)``);
whoever shows it listens: the table model to ``pageChanged`` and
``rowsAdded``, the facet panel to ``countsChanged`` and ``universeChanged``,
the chart to ``chartRowsChanged``. Nothing is pushed into widgets by name, and
nothing is read back out of them: a controller asks ``row(result_id)`` for a
row the table holds, not the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import itemgetter

from PySide6.QtCore import QObject, Signal

from ipubench_gui.domain.chartrows import ChartRows
from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.filters import FilterState, Names
from ipubench_gui.domain.plots import Chart
from ipubench_gui.service import browse
from ipubench_gui.store.db import QueryResult

Counts = dict[str, dict[object, int]]


@dataclass(frozen=True)
class Built:
    """A chart job's rows and the Chart built from them on the worker (None if
    that failed), for the spec, filters, colour order and names it was asked
    with: the GUI thread then only draws it."""

    rows: ChartRows
    chart: Chart | None
    spec: ChartSpec
    filters: FilterState
    order: tuple[object, ...]
    names: Names | None

    def asked_for(
        self,
        rows: ChartRows | None,
        spec: ChartSpec,
        filters: FilterState,
        order: Sequence[object],
        names: Names | None,
    ) -> bool:
        """Whether it was built from ``rows`` for these (its chart then the
        one they would build, or None if building it failed)."""
        asked = (spec, filters, tuple(order))
        return (
            rows is self.rows
            and names is self.names
            and asked == (self.spec, self.filters, self.order)
        )


class Results(QObject):
    """The current universe, page, facet counts and chart rows (None until the
    first answer). Each setter emits once, and only for a new answer."""

    universeChanged = Signal(object)  # browse.Universe
    universeFailed = Signal(object)  # the exception: draw without it
    pageChanged = Signal(object)  # browse.Page
    countsChanged = Signal(object)  # Counts
    chartRowsChanged = Signal(object)  # ChartRows
    rowsAdded = Signal(object)  # QueryResult: the page's next rows (none: the end)
    moreFailed = Signal()  # the page's next rows could not be had

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.universe: browse.Universe | None = None
        self.universe_failed = False
        self.page: browse.Page | None = None
        self.counts: Counts = {}
        self.chart_rows: ChartRows | None = None
        self.built: Built | None = None  # the last chart built on a worker
        self._more: list[tuple] = []  # rows after the page's, as the table scrolled
        # result id -> row held: made when first asked after a new page (a
        # lookup follows a click or a selection, not every filter change)
        self._by_id: dict[str, tuple] | None = None

    def set_universe(self, u: browse.Universe) -> None:
        self.universe, self.universe_failed = u, False
        self.universeChanged.emit(u)

    def fail_universe(self, exc: Exception) -> None:
        self.universe_failed = True
        self.universeFailed.emit(exc)

    def set_page(self, p: browse.Page) -> None:
        old = self.page
        if old is not None and same_page(old, p):
            return  # a filter that kept the same rows: nothing to redraw
        self.page = p
        self._more, self._by_id = [], None
        self.pageChanged.emit(p)

    @property
    def held(self) -> int:
        """How many of the page's rows are held (its first, and those added)."""
        return 0 if self.page is None else len(self.page.result.rows) + len(self._more)

    def add_rows(self, page: browse.Page, offset: int, rows: QueryResult) -> None:
        """The rows of ``page`` after its first ``offset``; dropped if the page
        was replaced (a new filter or sort) or they are not the next ones."""
        if page is not self.page or offset != self.held:
            return
        self._more.extend(rows.rows)
        if self._by_id is not None:
            self._index(rows.rows)
        self.rowsAdded.emit(rows)

    def fail_more(self, page: browse.Page) -> None:
        if page is self.page:
            self.moreFailed.emit()

    def row(self, result_id: str) -> dict | None:
        """The row the table holds for ``result_id`` (column -> value), if held."""
        r = self._held(result_id)
        if r is None or self.page is None:
            return None
        return dict(zip(self.page.result.columns, r))

    def holds(self, result_id: str) -> bool:
        return self._held(result_id) is not None

    def _held(self, result_id: str) -> tuple | None:
        if self.page is None:
            return None
        if self._by_id is None:
            self._by_id = {}
            self._index(self.page.result.rows)
            self._index(self._more)
        return self._by_id.get(result_id)

    def _index(self, rows: Sequence[tuple]) -> None:
        assert self.page is not None and self._by_id is not None
        columns = self.page.result.columns
        if "result_id" in columns:  # a map in C, not a Python loop
            ids = map(itemgetter(columns.index("result_id")), rows)
            self._by_id.update(zip(ids, rows))

    def set_counts(self, counts: Counts) -> None:
        if counts == self.counts:
            return  # e.g. a text search that kept every row
        self.counts = counts
        self.countsChanged.emit(counts)

    def set_chart_rows(self, rows: ChartRows) -> None:
        self.chart_rows = rows
        self.chartRowsChanged.emit(rows)

    def set_built(self, built: Built) -> None:
        """Chart rows with the chart a worker built from them."""
        self.built = built
        self.set_chart_rows(built.rows)


def same_page(a: browse.Page, b: browse.Page) -> bool:
    """The same rows in the same order (from memory they are the same row
    objects, so this is quick). Never for a first page of more rows: the table
    may have brought the rest under the filter before (``ResultsModel.append``),
    and the new page starts its rows afresh."""
    return (
        a.matching == b.matching
        and not a.result.truncated
        and not b.result.truncated
        and a.result.columns == b.result.columns
        and a.result.rows == b.result.rows
    )
