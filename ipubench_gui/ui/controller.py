"""Controller: turns state changes into store jobs and results into widget updates."""

from __future__ import annotations

import html
import logging
from functools import partial

from PySide6.QtCore import QObject, QSignalBlocker

from ipubench_gui.domain import compare as compare_domain
from ipubench_gui.domain.chartspec import ChartRows, ChartSpec
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.format import format_number
from ipubench_gui.domain.plots import Plot, build_plot, footnote
from ipubench_gui.domain.views import View, reconcile
from ipubench_gui.store import fetch, queries
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
        self.plot: Plot | None = None
        self._chart_key: tuple | None = None
        runner.finished.connect(self._on_runner_finished)
        state.filtersChanged.connect(self._on_state_filters_changed)
        state.sortChanged.connect(self._on_state_sort_changed)
        state.chartChanged.connect(self._on_state_chart_changed)
        state.selectionChanged.connect(self._on_state_selection_changed)
        window.canvas.itemClicked.connect(self._on_canvas_item_clicked)
        window.canvas.budgetChanged.connect(
            lambda v: state.set_chart(state.chart.with_(budget_ms=v))
        )
        window.chart_options.specEdited.connect(state.set_chart)
        window.chart_options.render(state.chart)
        window.chart_options.export_button.clicked.connect(self.open_export_dialog)
        window.export_chart_action.triggered.disconnect()
        window.export_chart_action.triggered.connect(self.open_export_dialog)
        window.copy_chart_action.triggered.disconnect()
        window.copy_chart_action.triggered.connect(self.copy_chart)
        self.compare_rows: list[dict] = []
        state.comparisonChanged.connect(self._on_state_comparison_changed)
        window.add_compare_action.triggered.connect(self.add_selection_to_comparison)
        cmp = window.comparator
        cmp.addRequested.connect(
            lambda rid: state.set_comparison(state.comparison.added(rid))
        )
        cmp.removeRequested.connect(
            lambda rid: state.set_comparison(state.comparison.removed(rid))
        )
        cmp.moveRequested.connect(
            lambda rid, step: state.set_comparison(state.comparison.moved(rid, step))
        )
        cmp.baselineRequested.connect(
            lambda rid: state.set_comparison(state.comparison.with_baseline(rid))
        )
        cmp.exportRequested.connect(self.export_comparison)
        cmp.focusChosen.connect(
            lambda f: state.set_comparison(state.comparison.with_focus(f))
        )
        cmp.pickerRequested.connect(self.open_picker)
        for act, slot in (
            (window.open_view_action, self.open_view_dialog),
            (window.save_view_action, self.save_view_dialog),
        ):
            act.triggered.disconnect()
            act.triggered.connect(slot)
        self._fill_recent()

    def start(self) -> None:
        # The first page does not wait for the universe: both are queued now.
        self.runner.submit("universe", fetch.universe)
        self.refresh()
        self.runner.submit("claims", lambda db: db.run(queries.comparisons()).dicts())
        if self.state.comparison.ids:
            self._on_state_comparison_changed(self.state.comparison)

    # -- saved views --------------------------------------------------------------
    def current_view(self) -> View:
        return View(self.state.filters, self.state.chart, self.state.comparison)

    def save_view(self, path) -> None:
        """Write the whole state to ``path`` (JSON); raises ExportError/OSError."""
        import json

        from ipubench_gui.store.export import write_text
        from ipubench_gui.ui import settings_store as ss

        write_text(path, json.dumps(self.current_view().to_json(), indent=2) + "\n")
        ss.add_recent_view(str(path))
        self._fill_recent()

    def open_view(self, path) -> None:
        """Read a view file; the state follows once the store has checked it."""
        import json
        from pathlib import Path

        from ipubench_gui.ui import settings_store as ss

        try:
            view = View.from_json(json.loads(Path(path).read_text(encoding="utf-8")))
        except (OSError, ValueError) as exc:
            self._warn("Cannot open the view", f"{path}: {exc}")
            return
        ss.add_recent_view(str(path))
        self._fill_recent()
        self.runner.submit("view", partial(_check_view, view=view))

    def _apply_view(self, result) -> None:
        view, dropped = result
        self.state.set_filters(view.filters)
        self.state.set_chart(view.chart)
        self.state.set_comparison(view.comparison)
        if view.comparison.ids:
            self.window.compare_dock.show()
        self.last_view_message = ""
        if dropped:
            self.last_view_message = (
                "The view was opened without what no longer "
                "exists: " + "; ".join(dropped) + "."
            )
            self._warn("Some of the view no longer exists", self.last_view_message)

    def _warn(self, title: str, text: str) -> None:
        from PySide6.QtWidgets import QMessageBox

        self.window.statusBar().showMessage(text, 10000)
        if self.window.isVisible() and not self.runner.synchronous:
            QMessageBox.warning(self.window, title, text)

    def open_view_dialog(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        path, _ = QFileDialog.getOpenFileName(
            self.window, "Open view", "", "Views (*.json);;All files (*)"
        )
        if path:
            self.open_view(path)

    def save_view_dialog(self) -> None:
        from pathlib import Path

        from PySide6.QtWidgets import QFileDialog

        from ipubench_gui.store.export import ExportError

        path, _ = QFileDialog.getSaveFileName(
            self.window, "Save view", str(Path.home() / "view.json"), "Views (*.json)"
        )
        if not path:
            return
        try:
            self.save_view(Path(path))
        except (ExportError, OSError) as exc:
            self._warn("Cannot save the view", str(exc))

    def _fill_recent(self) -> None:
        from ipubench_gui.ui import settings_store as ss

        menu = self.window.recent_menu
        menu.clear()
        for p in ss.recent_views():
            menu.addAction(p, partial(self.open_view, p))
        menu.setEnabled(bool(menu.actions()))

    # -- comparator -----------------------------------------------------------------
    def add_selection_to_comparison(self) -> None:
        c = self.state.comparison
        for rid in self.state.selection:
            c = c.added(rid)
        if c == self.state.comparison and len(c.ids) >= c.MAX:
            self.window.statusBar().showMessage(
                f"The comparison holds at most {c.MAX} configurations.", 5000
            )
        self.state.set_comparison(c)
        self.window.compare_dock.show()
        self.window.compare_dock.raise_()

    def open_picker(self) -> None:
        from ipubench_gui.ui.widgets.picker import ResultPicker

        picker = ResultPicker(self.window.model, self.window)
        picker.picked.connect(
            lambda rid: self.state.set_comparison(self.state.comparison.added(rid))
        )
        picker.show()
        self.picker = picker

    def _on_state_comparison_changed(self, c) -> None:
        self.runner.submit("compare", partial(fetch.rows_by_ids, ids=list(c.ids)))

    def export_comparison(self, kind: str) -> None:
        from pathlib import Path

        from PySide6.QtGui import QGuiApplication
        from PySide6.QtWidgets import QFileDialog, QMessageBox

        from ipubench_gui.domain import compare
        from ipubench_gui.domain.format import to_tsv
        from ipubench_gui.store.export import ExportError
        from ipubench_gui.ui import settings_store as ss

        rows, b = self.compare_rows, self.state.comparison.baseline_index
        if not rows:
            return
        if kind == "tsv":
            header, body = compare.to_rows(rows, b)
            QGuiApplication.clipboard().setText(to_tsv(header, body))
            self.window.statusBar().showMessage("Comparison copied.", 3000)
            return
        ext = {"csv": "csv", "md": "md", "png": "png"}[kind]
        folder = ss.load_text(ss.LAST_EXPORT_DIR, str(Path.home()))
        path, _ = QFileDialog.getSaveFileName(
            self.window, "Save comparison", str(Path(folder) / f"comparison.{ext}")
        )
        if not path:
            return
        try:
            self.save_comparison(Path(path), kind)
        except (ExportError, OSError) as exc:
            QMessageBox.warning(self.window, "Could not save the comparison", str(exc))

    def save_comparison(self, path, kind: str):
        """Write the current comparison as csv, md or png (no dialogs)."""
        from ipubench_gui.domain import compare
        from ipubench_gui.store.export import write_csv, write_text
        from ipubench_gui.ui.compare_export import save_png

        rows, b = self.compare_rows, self.state.comparison.baseline_index
        if kind == "csv":
            header, body = compare.to_rows(rows, b)
            return write_csv(path, header, body)
        if kind == "md":
            return write_text(path, compare.to_markdown(rows, b))
        return save_png(rows, b, path)

    def refresh(self) -> None:
        f, sort = self.state.filters, self.state.sort
        self.runner.submit("page", partial(fetch.page, state=f, sort=sort))
        self.runner.submit("facets", partial(fetch.facet_counts, state=f))
        self._submit_chart()

    def _submit_chart(self) -> None:
        spec, f = self.state.chart, self.state.filters
        self._chart_key = spec.data_key()
        self.runner.submit("chart", partial(fetch.chart_data, state=f, spec=spec))

    # -- export ------------------------------------------------------------------
    def export_dialog(self):
        # Imported on first use: pyqtgraph's exporters are not needed to start.
        from ipubench_gui.ui.widgets.export_dialog import ExportDialog

        if self.plot is None or self.plot.empty:
            self.window.statusBar().showMessage(
                "Nothing to export: the chart is empty.", 5000
            )
            return None
        f = self.state.filters
        subtitle = "" if f.is_empty() else f"Filters: {f.describe()}"
        return ExportDialog(self.plot, subtitle, footnote(self.plot), self.window)

    def open_export_dialog(self) -> None:
        dlg = self.export_dialog()
        if dlg is not None:
            dlg.exec()

    def copy_chart(self) -> None:
        from ipubench_gui.charts.export import copy_to_clipboard

        dlg = self.export_dialog()
        if dlg is not None:
            copy_to_clipboard(self.plot, dlg.options())
            self.window.statusBar().showMessage("Chart copied as an image.", 3000)

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

    def _on_state_chart_changed(self, spec: ChartSpec) -> None:
        self.window.chart_options.render(spec)
        if self._chart_key == spec.data_key():
            self._render_chart()  # style only: redraw from the rows we have
        else:
            self._submit_chart()

    def _on_canvas_item_clicked(self, item_id: str) -> None:
        if self.window.model.row_of(item_id) is None:
            # Not a table row (a vendor claim, or beyond the table's page): show
            # what the chart knows about it.
            hit = next(
                (h for h in self.window.canvas.drawn.hits if h.result_id == item_id),
                None,
            )
            if hit is not None:
                self.window.details.show_text(hit.tooltip)
            return
        self.state.set_selection((item_id,))
        self.window.table.select_ids((item_id,))

    def _on_state_selection_changed(self, ids) -> None:
        self.window.canvas.set_selection(ids)
        if ids:
            self.runner.submit("counterparts", partial(_counterparts, rid=ids[0]))
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
        elif slot == "compare":
            self.compare_rows = result
            c = self.state.comparison
            self.window.comparator.show_comparison(result, c.baseline_index, c.focus)
        elif slot == "counterparts":
            row, groups = result
            self.window.comparator.show_counterparts(row, groups)
        elif slot == "view":
            self._apply_view(result)
        elif slot == "claims":
            self.window.comparator.show_claims(result)

    def _report(self, slot: str, exc: Exception) -> None:
        log.error("%s query failed: %s", slot, exc)
        what = {"facets": "Facet counts", "page": "Results", "chart": "The chart"}
        self.window.statusBar().showMessage(
            f"{what.get(slot, 'Loading')} could not be computed: {exc}"
        )

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
        self.window.show_empty(p.matching == 0, self.state.filters.describe())
        if self.state.selection:
            self.window.table.select_ids(self.state.selection, scroll=False)

    def _render_chart(self) -> None:
        if self.chart_rows is None:
            return
        spec = self.state.chart
        order = self.universe.values.get(spec.color_by, []) if self.universe else []
        self.plot = build_plot(spec, self.chart_rows, order)
        self.window.canvas.render(self.plot, self.state.selection)
        what = (
            f"{len(self.plot.point_ids())} shown"
            if not self.plot.empty
            else "nothing to draw for these filters"
        )
        self.window.chart_title.setText(
            f"<b>{html.escape(self.plot.title)}</b> — {what}"
        )


def _counterparts(db, rid: str):
    """Store job: the row and its counterparts, grouped by attribute."""
    (row,) = fetch.rows_by_ids(db, [rid])
    return row, compare_domain.counterparts(row, fetch.family_rows(db, row))


def _check_view(db, view: View):
    """Store job: the view without values or ids the store no longer has."""
    u = fetch.universe(db)
    known = fetch.existing_ids(db, list(view.comparison.ids))
    return reconcile(view, u.values, known)
