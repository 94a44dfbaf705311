"""Controller: turns state changes into store jobs and results into widget updates."""

from __future__ import annotations

import html
import logging
from functools import partial

from PySide6.QtCore import QObject, QSignalBlocker

from ipubench_gui.domain.chartspec import ChartRows, chart_metric, make_bars
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.format import format_number
from ipubench_gui.store import fetch
from ipubench_gui.ui.main_window import MainWindow
from ipubench_gui.ui.runner import QueryRunner
from ipubench_gui.ui.state import AppState

log = logging.getLogger(__name__)


class Controller(QObject):
    """Wires AppState -> QueryRunner -> MainWindow. Holds no widgets of its own."""

    def __init__(self, state: AppState, runner: QueryRunner, window: MainWindow):
        super().__init__(window)
        self.state, self.runner, self.window = state, runner, window
        self.universe: fetch.Universe | None = None
        self.page: fetch.Page | None = None
        self.chart_rows: ChartRows | None = None
        self.facet_counts: dict = {}
        runner.finished.connect(self._on_runner_finished)
        state.filtersChanged.connect(self._on_state_filters_changed)
        state.sortChanged.connect(self._on_state_sort_changed)
        state.chartChanged.connect(self._on_state_chart_changed)
        state.selectionChanged.connect(self._on_state_selection_changed)
        window.canvas.barClicked.connect(self._on_canvas_bar_clicked)
        window.color_by.currentIndexChanged.connect(self._on_color_by_changed)

    def start(self) -> None:
        # The first page does not wait for the universe: both are queued now.
        self.runner.submit("universe", fetch.universe)
        self.refresh()

    def refresh(self) -> None:
        f, sort = self.state.filters, self.state.sort
        self.runner.submit("page", partial(fetch.page, state=f, sort=sort))
        self.runner.submit("facets", partial(fetch.facet_counts, state=f))
        self._submit_chart()

    def _submit_chart(self) -> None:
        spec, f = self.state.chart, self.state.filters
        metric = chart_metric(spec, f.values("metric"))
        self._chart_key = spec.data_key()
        self.runner.submit(
            "chart",
            partial(fetch.chart_rows, state=f, metric=metric, limit=spec.max_bars),
        )

    def _on_state_chart_changed(self, spec) -> None:
        # Only colour/title changed: redraw from the rows we have (no query).
        if getattr(self, "_chart_key", None) == spec.data_key():
            self._render_chart()
        else:
            self._submit_chart()

    # -- state -> jobs -----------------------------------------------------------
    def _on_state_filters_changed(self, f: FilterState) -> None:
        if self.window.search.text() != f.text:
            with QSignalBlocker(self.window.search):
                self.window.search.setText(f.text)
        self.refresh()

    def _on_state_sort_changed(self, sort) -> None:
        self.window.table.show_sort(*sort)
        self.runner.submit(
            "page", partial(fetch.page, state=self.state.filters, sort=sort)
        )

    def _on_color_by_changed(self, _index: int) -> None:
        name = self.window.color_by.currentData()
        self.state.set_chart(self.state.chart.with_(color_by=name))

    def _on_canvas_bar_clicked(self, result_id: str) -> None:
        self.state.set_selection((result_id,))
        self.window.table.select_ids((result_id,))

    def _on_state_selection_changed(self, ids) -> None:
        self.window.canvas.set_selection(ids)
        m = self.window.model
        rows = [m.row_dict(r) for r in (m.row_of(i) for i in ids) if r is not None]
        self.window.details.show_rows(rows)

    # -- results -> widgets ------------------------------------------------------
    def _on_runner_finished(self, slot: str, _rid: int, result) -> None:
        if isinstance(result, Exception):
            self._report(slot, result)
            return
        if slot == "universe":
            self._apply_universe(result)
        elif slot == "page":
            self._apply_page(result)
        elif slot == "facets":
            self.facet_counts = result
            self.window.facets.set_counts(result)
        elif slot == "chart":
            self.chart_rows = result
            self._render_chart()

    def _report(self, slot: str, exc: Exception) -> None:
        log.error("%s query failed: %s", slot, exc)
        what = {"facets": "Facet counts", "page": "Results"}.get(slot, "Loading")
        self.window.statusBar().showMessage(f"{what} could not be computed: {exc}")

    def _apply_universe(self, u: fetch.Universe) -> None:
        self.universe = u
        self.window.facets.set_universe(u.values, u.bounds)
        self.window.sources_text = (
            "<ul>"
            + "".join(
                f"<li>{html.escape(title)} — {html.escape(date or 'date not stated')}"
                f" <small>({html.escape(kind)}; {html.escape(file)})</small></li>"
                for file, title, date, kind in u.sources
            )
            + "</ul>"
        )
        i = self.window.color_by.findData(self.state.chart.color_by)
        with QSignalBlocker(self.window.color_by):
            self.window.color_by.setCurrentIndex(max(i, 0))
        self.window.statusBar().clearMessage()
        self.window.facets.set_counts(self.facet_counts)
        self._render_chart()  # colours follow the universe's order

    def _apply_page(self, p: fetch.Page) -> None:
        self.page = p
        self.window.model.set_result(p.result)
        total = self.universe.total if self.universe else p.matching
        shown = ""
        if p.result.truncated:
            shown = f" (table shows the first {format_number(len(p.result.rows))})"
        self.window.count_label.setText(
            f"{format_number(p.matching)} of {format_number(total)} results{shown}"
        )
        empty = p.matching == 0
        self.window.show_empty(empty, self.state.filters.describe())
        if self.state.selection:
            self.window.table.select_ids(self.state.selection, scroll=False)

    def _render_chart(self) -> None:
        if self.chart_rows is None:
            return
        spec = self.state.chart
        metric = self.chart_rows.metric
        order = self.universe.values.get(spec.color_by, []) if self.universe else []
        data = make_bars(spec, self.chart_rows, order)
        self.window.canvas.render(data, self.state.selection)
        note = (
            f"{len(data.bars)} bars"
            if data.bars
            else f"no {metric.replace('_', ' ')} figures among these rows"
        )
        self.window.chart_title.setText(f"<b>{data.axis_title}</b> — {note}")
