"""Controller: turns state changes into store jobs; their answers go to a
``Results`` holder, which the widgets (and the controller's own views: the
count, the chart) subscribe to."""

from __future__ import annotations

import html
import logging
from collections.abc import Callable
from concurrent.futures import Future, TimeoutError
from functools import partial

from PySide6.QtCore import QObject, QSignalBlocker

from ipubench_gui.domain.chartrows import ChartRows
from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.format import format_number
from ipubench_gui.domain.kinds import kind
from ipubench_gui.domain.metrics import family
from ipubench_gui.domain.plot_mlperf import benchmark_counts, chosen_benchmark
from ipubench_gui.domain.plot_model import Point
from ipubench_gui.domain.plots import Chart, Plot
from ipubench_gui.domain.ranges import counted_unit, per_chip_unit
from ipubench_gui.service import browse
from ipubench_gui.service import chart as chart_service
from ipubench_gui.store.db import Database
from ipubench_gui.ui.main_window import MainWindow
from ipubench_gui.ui.messages import Message
from ipubench_gui.ui.results import Built, Results
from ipubench_gui.ui.runner import Job, QueryRunner
from ipubench_gui.ui.state import AppState
from ipubench_gui.ui.window_port import WindowPort

log = logging.getLogger(__name__)

# A job's wait for the universe: it, or None if its job failed or was dropped.
UniverseWait = Callable[[Database], "browse.Universe | None"]


class Say:
    """What the window's controller says, in the status bar (ui/messages.py)."""

    NOTHING_TO_EXPORT = Message("", "Nothing to export: the chart is empty.")
    CHART_COPIED = Message("", "Chart copied as an image.")
    NOT_COMPUTED = Message("", "{what} could not be computed: {why}")


class Controller(QObject):
    """Wires AppState -> QueryRunner -> MainWindow. Holds no widgets of its own."""

    def __init__(
        self,
        state: AppState,
        runner: QueryRunner,
        window: MainWindow,
        results: Results | None = None,
    ):
        """``results``: the holder that jobs submitted before the window
        existed deliver to (``submit_initial``); else one of its own."""
        super().__init__(window)
        self.state, self.runner, self.window = state, runner, window
        self.results = results or Results(self)
        # What this and the other controllers ask of the window; rows they look
        # up in ``results``, never in the table or the chart.
        self.port = WindowPort(window)
        self.chart: Chart | None = None  # as drawn: what every export writes
        self._chart_key: tuple | None = None
        self._refreshing = False  # answers delivered inline, painted after
        runner.failed.connect(self._report)  # the error sink of every job here
        self._subscribe(self.results)
        state.filtersChanged.connect(self._on_state_filters_changed)
        state.sortChanged.connect(self._on_state_sort_changed)
        state.chartChanged.connect(self._on_state_chart_changed)
        state.selectionChanged.connect(self._on_state_selection_changed)
        window.canvas.itemClicked.connect(self._on_canvas_item_clicked)
        window.canvas.rendered.connect(self._forget_hidden_details)
        window.canvas.budgetChanged.connect(
            lambda v: state.set_chart(state.chart.with_(budget_ms=v))
        )
        window.chart_options.specEdited.connect(state.set_chart)
        window.chart_options.render(state.chart)
        # State may already hold restored values (Session prefetch): show them.
        with QSignalBlocker(window.search):
            window.search.setText(state.filters.text)
        window.chart_options.export_button.clicked.connect(self.open_export_dialog)
        window.export_chart_action.triggered.connect(self.open_export_dialog)
        window.copy_chart_action.triggered.connect(self.copy_chart)

    def _subscribe(self, r: Results) -> None:
        """Who shows which answer. The table model first: the page's own
        handler below reads the new rows from it."""
        w = self.window
        r.pageChanged.connect(lambda p: w.model.set_result(p.result, self._more))
        r.rowsAdded.connect(w.model.append)
        r.moreFailed.connect(w.model.more_failed)
        r.rowsAdded.connect(lambda _rows: self._show_count())
        r.pageChanged.connect(self._on_page)
        r.countsChanged.connect(w.facets.set_counts)
        r.countsChanged.connect(self._on_counts)
        r.universeChanged.connect(
            lambda u: w.facets.set_universe(
                u.values,
                u.bounds,
                u.counts,
                # a source by its title (and date), filtered by its file id
                u.list_names,
                u.names,
            )
        )
        r.universeChanged.connect(self._on_universe)
        r.universeFailed.connect(self._on_universe_failed)
        r.chartRowsChanged.connect(self._on_chart_rows)

    # What tests and the other controllers read: the holder's answers.
    @property
    def universe(self) -> browse.Universe | None:
        return self.results.universe

    @property
    def names(self) -> dict | None:
        """How filter values are named (the universe's; None before it)."""
        return self.universe.names if self.universe is not None else None

    @property
    def page(self) -> browse.Page | None:
        return self.results.page

    @property
    def chart_rows(self) -> ChartRows | None:
        return self.results.chart_rows

    @property
    def facet_counts(self) -> dict:
        return self.results.counts

    def start(self, prefetched: bool = False) -> None:
        """Ask for the first data; ``prefetched``: ``submit_initial`` already did
        (before the window was built), into ``results``."""
        if not prefetched:
            submit_initial(self.runner, self.state, self.results)
        self._chart_key = self.state.chart.data_key()

    def refresh(self) -> None:
        self._refreshing = True
        try:
            submit_refresh(self.runner, self.state, self.results)
        finally:
            self._refreshing = False
        self._chart_key = self.state.chart.data_key()
        self.window.paint_update()  # what answered inline, in one paint

    def _submit_chart(self) -> None:
        submit_chart(self.runner, self.state, self.results)
        self._chart_key = self.state.chart.data_key()

    @property
    def plot(self) -> Plot | None:
        return None if self.chart is None else self.chart.plot

    # -- export ------------------------------------------------------------------
    def export_dialog(self):
        # Imported on first use: pyqtgraph's exporters are not needed to start.
        from ipubench_gui.ui.widgets.export_dialog import ExportDialog

        c = self.chart
        if c is None or c.plot.empty:
            self.port.say(Say.NOTHING_TO_EXPORT.text, 5000)
            return None
        return ExportDialog(c.plot, c.subtitle, c.footnote, self.window)

    def open_export_dialog(self) -> None:
        dlg = self.export_dialog()
        if dlg is not None:
            dlg.exec()

    def copy_chart(self) -> None:
        from ipubench_gui.charts.export import copy_to_clipboard
        from ipubench_gui.ui.widgets.export_dialog import busy_cursor

        dlg = self.export_dialog()
        if dlg is not None:
            with busy_cursor():
                copy_to_clipboard(self.plot, dlg.options())
            self.port.say(Say.CHART_COPIED.text, 3000)

    # -- state -> jobs -----------------------------------------------------------
    def _on_state_filters_changed(self, f: FilterState) -> None:
        if self.window.search.text() != f.text:
            with QSignalBlocker(self.window.search):
                self.window.search.setText(f.text)
        self.refresh()

    def _on_state_sort_changed(self, sort) -> None:
        self.window.table.show_sort(*sort)
        self.runner.submit(
            "page",
            partial(browse.page, state=self.state.filters, sort=sort),
            on_done=self.results.set_page,
        )

    def _more(self, offset: int) -> None:
        """The table's rows after its first ``offset`` (it scrolled to them):
        from memory at once when held, else on a worker. An answer for a page
        since replaced (a new filter or sort) is dropped."""
        page = self.results.page
        if page is None or "page" in self.runner.pending():
            return  # rows of another filter are coming; set_result asks anew
        db = self.runner.opened
        snap = browse.inline_snapshot(db) if db is not None else None

        def done(rows) -> None:
            self.results.add_rows(page, offset, rows)

        job = partial(
            browse.more,
            state=self.state.filters,
            sort=self.state.sort,
            offset=offset,
            snap=snap,
        )

        def failed(slot: str, exc: Exception) -> None:
            self.results.fail_more(page)
            self._report(slot, exc)

        self.runner.submit(
            "more", job, inline=snap is not None, on_done=done, on_error=failed
        )

    def _on_state_chart_changed(self, spec: ChartSpec) -> None:
        self.window.chart_options.render(spec)
        if self._chart_key == spec.data_key():
            self._render_chart()  # style only: redraw from the rows we have
        else:
            self._submit_chart()

    def _on_canvas_item_clicked(self, item_id: str) -> None:
        if not self.results.holds(item_id):
            # Not a table row (a vendor claim, or beyond the table's page): show
            # what the chart knows about it.
            point = _point(self.plot, item_id)
            if point is not None:
                self.window.details.show_text(point.tooltip, (item_id,))
            return
        self.state.set_selection((item_id,))
        self.port.select((item_id,))

    def _on_state_selection_changed(self, ids) -> None:
        self.window.canvas.set_selection(ids)
        rows = [r for r in map(self.results.row, ids) if r is not None]
        self.port.show_rows(rows)

    # -- results -> widgets ------------------------------------------------------
    def _report(self, slot: str, exc: Exception) -> None:
        """The error sink of every job submitted without its own reporter."""
        log.error("%s query failed: %s", slot, exc)
        what = {
            "facets": "Facet counts",
            "page": "Results",
            "chart": "The chart",
            "more": "More table rows",
        }
        said = Say.NOT_COMPUTED.with_(what=what.get(slot, "Loading"), why=exc)
        self.port.say(said.text)

    def _on_counts(self, counts: dict) -> None:
        # The per-chip column names what the rows shown count, as the
        # throughput range does: images/s, or mixed units.
        counted = counted_unit(
            counts.get("unit_family", {}), self.state.filters.values("unit_family")
        )
        self.window.model.set_unit("throughput_per_accelerator", per_chip_unit(counted))

    def _on_universe_failed(self, exc: Exception) -> None:
        self._report("universe", exc)
        self._render_chart()  # draw without it rather than not at all

    def _on_chart_rows(self, _rows: ChartRows) -> None:
        # Colours follow the universe's order: before it arrives (at start
        # only), its own handler draws, so the chart is drawn once.
        if self.universe is not None or self.results.universe_failed:
            self._render_chart()

    def _on_universe(self, u: browse.Universe) -> None:
        self.window.sources_text = (
            "<ul>"
            + "".join(
                f"<li>{html.escape(title)} — "
                f"{html.escape(f'{kind} {date}' if date else 'date not stated')}"
                f" <small>({html.escape(file)})</small></li>"
                for file, title, date, kind in u.sources
            )
            + "</ul>"
        )
        self.window.chips.set_names(u.names)
        self.window.loaded()
        self._show_count()
        self._render_chart()  # colours follow the universe's order

    def _on_page(self, p: browse.Page) -> None:
        self._show_count()
        self.window.show_empty(p.matching == 0, self.state.filters.describe(self.names))
        if self.state.selection:
            # The selection follows the filter: rows it hid are no longer
            # selected (nor added to a comparison, nor shown in the details).
            kept = tuple(i for i in self.state.selection if self.results.holds(i))
            self.state.set_selection(kept)
            self.window.table.select_ids(kept, scroll=False)
        self._forget_hidden_details()

    def _forget_hidden_details(self) -> None:
        """Details about a result no longer in the table or the chart (a
        point's, an explained row's) give way to the selection's."""
        w = self.window
        about = w.details.about
        if not about or w.canvas.drawing():
            return  # the usual case; or asked again once the chart is whole
        drawn = set(self.plot.point_ids()) if self.plot is not None else set()
        if any(not self.results.holds(i) and i not in drawn for i in about):
            self._on_state_selection_changed(self.state.selection)

    def _show_count(self) -> None:
        """'N of M results': M is known once the universe has arrived (the two
        come from different jobs, in either order)."""
        p = self.page
        if p is None:
            return
        total = self.universe.total if self.universe else p.matching
        shown = ""
        held = self.results.held
        if held < p.matching:
            shown = f" (table holds the first {format_number(held)}, more on scrolling)"
        self.window.count_label.setText(
            f"{format_number(p.matching)} of {format_number(total)} results{shown}"
        )

    def _render_chart(self) -> None:
        if self.chart_rows is None:
            return
        spec, filters = self.state.chart, self.state.filters
        order = chart_service.color_order(self.universe, spec)
        built = self.results.built
        asked = (self.chart_rows, spec, filters, order, self.names)
        if built is None or not built.asked_for(*asked):
            # Built for another style, colour order or names (a style change;
            # the universe arrived after the chart's job was asked): built
            # again on the worker from the rows at hand, then drawn: built on
            # this thread, a large chart held it for several frames.
            submit_build(self.runner, self.state, self.results)
            return
        # else built (or failed: built again here, which reports why)
        self.chart = built.chart or chart_service.chart_from_rows(
            spec, self.chart_rows, filters, self.universe
        )
        drawn = self.plot != self.window.canvas.current  # else drawn already
        if drawn:
            self.window.canvas.render(self.plot, self.state.selection)
        rows = self.chart_rows.rows
        self.window.chart_options.set_families(
            family(rows[0]) if rows and spec.kind == "throughput" else None,
            self.chart_rows.others,
        )
        if spec.kind == "mlperf":
            self.window.chart_options.set_benchmarks(
                chosen_benchmark(rows, spec.benchmark), benchmark_counts(rows)
            )
        what = (
            f"{len(self.plot.point_ids())} shown"
            if not self.plot.empty
            else "nothing to draw for these filters"
        )
        shared = f" · all: {html.escape(self.plot.shared)}" if self.plot.shared else ""
        self.window.chart_title.setText(
            f"<b>{html.escape(self.plot.title)}</b> — {what}{shared}"
        )
        if not self._refreshing:  # else painted with what answered inline
            # Painted now, once: delivered by the worker, the chart's two
            # scenes each painted it in a queued call of their own, and the
            # legend's layout a third time (bundled store, a filter change to
            # the one plot or to panels, drawn within ``render``).
            self.window.paint_update(drawn)


def _point(plot: Plot | None, result_id: str) -> Point | None:
    """``plot``'s point of ``result_id``, if it draws one."""
    if plot is None:
        return None
    return next(
        (p for s in plot.series for p in s.points if p.result_id == result_id), None
    )


def submit_refresh(
    runner: QueryRunner,
    state: AppState,
    results: Results,
    inline: bool = True,
    universe: UniverseWait | None = None,
) -> None:
    """The jobs behind every view of the data: page, facet counts, chart; their
    answers go to ``results``.

    A small store held in memory answers the page and the counts in a
    millisecond or two: unless ``inline`` is false they then run on this thread
    (see ``browse.inline_snapshot``), so they change together in one paint,
    where a worker's answers would arrive after a first paint of the chips.
    So does a bar chart picked from the page's rows; a chart that needs its
    own queries (other kinds, or more rows than a page) still runs on a worker,
    and over a store on disk on a worker of its own: the page and the counts
    share the other (over 1M rows the page then no longer delays the chart).
    ``universe``: the chart is built for the colours and names of the universe
    that job waits for (``submit_initial``).
    """
    f = state.filters
    db = runner.opened
    # The rows held in memory are handed to the inline jobs themselves: asked
    # again inside them, a write in between could have dropped them.
    snap = browse.inline_snapshot(db) if inline and db is not None else None
    if snap is not None:
        apart = not browse.chart_from_page(snap, f, state.chart)
    else:  # only a chart of the best rows can be picked from the page
        apart = kind(state.chart.kind).rows != "best"
    if apart:
        # Its own queries, the longest job: first, on a worker of its own,
        # while the other one answers the page and the counts.
        submit_chart(runner, state, results, universe)
        page = partial(browse.page, state=f, sort=state.sort, snap=snap)
        runner.submit("page", page, inline=snap is not None, on_done=results.set_page)
    else:
        both = partial(
            browse.page_and_chart, state=f, sort=state.sort, spec=state.chart, snap=snap
        )
        runner.submit(
            ("page", "chart"),
            _building(both, state, results, universe),
            inline=snap is not None,
            on_done={"page": results.set_page, "chart": results.set_built},
        )
    counts = partial(browse.facet_counts, state=f, snap=snap)
    runner.submit("facets", counts, inline=snap is not None, on_done=results.set_counts)


def submit_chart(
    runner: QueryRunner,
    state: AppState,
    results: Results,
    universe: UniverseWait | None = None,
) -> None:
    job = partial(browse.chart_data, state=state.filters, spec=state.chart)
    runner.submit(
        "chart", _building(job, state, results, universe), on_done=results.set_built
    )


def submit_build(runner: QueryRunner, state: AppState, results: Results) -> None:
    """The chart built again from the rows ``results`` holds, on the worker,
    for the state's spec and the colour order and names known now."""
    rows = results.chart_rows
    build = _building(lambda _db: rows, state, results)
    runner.submit("chart", build, on_done=results.set_built)


def _building(
    job: Job, state: AppState, results: Results, wait: UniverseWait | None = None
) -> Job:
    """``job`` (answering the chart's rows, alone or under "chart"), then the
    Chart built from them on the same thread, for the colour order and names
    known now (the universe's, else none: the GUI thread then builds it again
    once they are known, as it does for a style change), or for the universe
    ``wait`` waits for: over a large store, building it on the GUI thread
    cost a filter change frames."""
    spec, filters, universe = state.chart, state.filters, results.universe

    def run(db: Database) -> object:
        out = job(db)
        rows = out["chart"] if isinstance(out, dict) else out
        u = universe if wait is None else wait(db)
        try:
            chart = chart_service.chart_from_rows(spec, rows, filters, u)
        except Exception:  # noqa: BLE001  built again on the GUI thread, which reports it
            chart = None
        order = chart_service.color_order(u, spec)
        built = Built(rows, chart, spec, filters, tuple(order), u.names if u else None)
        return {**out, "chart": built} if isinstance(out, dict) else built

    return run


def submit_initial(runner: QueryRunner, state: AppState, results: Results) -> None:
    """Start-up jobs: the universe and the first page, facets and chart. Callable
    before any widget exists, so the worker queries while the window is built;
    results are delivered through queued signals once the event loop runs, to
    ``results``, which the widgets subscribe to by then.

    The chart is built for the universe's colour order and names: its job
    waits on the worker for the universe's (asked first, so already running
    on the other worker). Built without them, it was not the chart to draw,
    and was built again and drawn once the universe had come: a second
    round trip and draw after the window first showed its data."""
    known: Future[browse.Universe] = Future()

    def universe(db: Database) -> browse.Universe:
        try:
            u = browse.universe(db)
        except BaseException as exc:
            known.set_exception(exc)
            raise
        known.set_result(u)
        return u

    rid = runner.submit(
        "universe",
        universe,
        on_done=results.set_universe,
        on_error=lambda _slot, exc: results.fail_universe(exc),
    )
    wait = partial(
        _universe_when_known, known, lambda: runner.is_current("universe", rid)
    )
    # nothing listens yet: delivered once the event loop runs
    submit_refresh(runner, state, results, inline=False, universe=wait)


def _universe_when_known(
    known: Future[browse.Universe], asked: Callable[[], bool], db: Database
) -> browse.Universe | None:
    """The universe ``known`` will hold, waited for on a worker; None if its
    job failed, or is no longer ``asked`` (a newer request replaced it before
    it ran). Raises ``Cancelled`` if the waiting job is cancelled (a newer
    request for its slot, or the runner shutting down)."""
    while True:
        try:
            return known.result(timeout=0.02)
        except TimeoutError:
            if not asked():
                return None
            db.cursor()  # raises Cancelled once this job is cancelled
        except Exception:  # noqa: BLE001  reported by the universe's own job
            return None
