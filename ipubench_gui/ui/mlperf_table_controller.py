"""MLPerfTableController: View → MLPerf results table. The table follows the
window's filters and its per-chip toggle (made on the worker thread while the
dock shows); choosing a cell chooses its result (Details, Add to comparison,
Explain this number)."""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from PySide6.QtCore import QObject

from ipubench_gui.domain.filters import FilterState
from ipubench_gui.service import browse
from ipubench_gui.service import mlperf_table as service
from ipubench_gui.ui.controller import Controller
from ipubench_gui.ui.messages import Message
from ipubench_gui.ui.widgets.message_box import show_message

SLOT = "mlperf-table"


class Say:
    """What the MLPerf results table says (ui/messages.py)."""

    NOT_EXPORTED = Message("Could not export the table", "{why}")
    SAVED = Message("", "MLPerf results table saved: {path}")  # status bar


class MLPerfTableController(QObject):
    def __init__(self, main: Controller):
        super().__init__(main)
        self.main = main
        self.state, self.runner = main.state, main.runner
        self.port, self.results = main.port, main.results
        # the MLPerf table dock and its view: this controller's
        self.view, self.dock = main.window.mlperf_table, main.window.mlperf_dock
        self._made_for: FilterState | None = None  # the filters shown
        self.state.filtersChanged.connect(lambda _f: self.refresh())
        self.state.chartChanged.connect(self._on_state_chart_changed)
        self.dock.visibilityChanged.connect(self._on_dock_visibility)
        self.view.resultChosen.connect(self.choose)
        self.view.exportRequested.connect(self.choose_export)

    def _on_dock_visibility(self, visible: bool) -> None:
        if visible:
            if self._made_for is None:  # first shown: room for the table
                self.port.show_dock_share(self.dock, 2 / 5)
            self.view.setFocus()  # reached from the keyboard: go there
            self.refresh()

    def _on_state_chart_changed(self, spec) -> None:
        table = self.view.model.table
        if table.per_chip != spec.per_accelerator:  # restyled, not queried
            self.view.show_table(replace(table, per_chip=spec.per_accelerator))

    def refresh(self) -> None:
        """Make the table for the current filters, if the dock shows and the
        table shown was made for others."""
        filters = self.state.filters
        if not self.dock.isVisible() or filters == self._made_for:
            return
        self._made_for = filters
        job = partial(
            service.table,
            state=filters,
            per_chip=self.state.chart.per_accelerator,
        )
        self.runner.submit(SLOT, job, on_done=self._on_made, on_error=self._on_failed)

    def _on_made(self, table) -> None:
        per_chip = self.state.chart.per_accelerator  # toggled while it was made
        self.view.show_table(replace(table, per_chip=per_chip))

    def _on_failed(self, _slot: str, exc: Exception) -> None:
        self._made_for = None
        self.view.show_error(str(exc))

    def choose(self, rid: str) -> None:
        """The cell's result becomes the selection: Details shows it (fetched
        when the results table does not hold it), Add to comparison and
        Explain this number act on it."""
        self.state.set_selection((rid,))
        if self.results.holds(rid):
            self.port.select((rid,))
            return
        self.runner.submit(
            "mlperf-table-details",
            partial(browse.rows_by_ids, ids=[rid]),
            on_done=self._on_details,
        )

    def _on_details(self, rows: list[dict]) -> None:
        if rows and self.state.selection == (rows[0]["result_id"],):
            self.port.show_rows(rows)

    def choose_export(self) -> None:
        """Save the table as shown, in the format of the file name chosen."""
        from pathlib import Path

        from PySide6.QtWidgets import QFileDialog

        from ipubench_gui.domain.files import ExportError
        from ipubench_gui.ui import settings_store as ss

        folder = ss.load_text(ss.LAST_EXPORT_DIR, str(Path.home()))
        path, chosen = QFileDialog.getSaveFileName(
            self.port.parent,
            "Export the MLPerf results table",
            str(Path(folder) / "mlperf-results.csv"),
            ";;".join(FILTERS),
        )
        if not path:
            return
        try:
            # a suffix typed wins over the filter chosen
            fmt = SUFFIXES.get(Path(path).suffix.lower()) or FILTERS.get(chosen)
            out = self.save(Path(path), fmt)
        except (ExportError, OSError) as exc:
            show_message(self.port.parent, Say.NOT_EXPORTED.with_(why=exc))
            return
        ss.save_text(ss.LAST_EXPORT_DIR, str(out.parent))
        self.port.say(Say.SAVED.with_(path=out).text, 8000)

    def save(self, path, fmt: str | None = None):
        """Write the table as shown to ``path`` (format: ``fmt``, else the
        file name's suffix, else CSV); the path written."""
        fmt = fmt or SUFFIXES.get(path.suffix.lower(), "csv")
        if path.suffix.lower() not in EXTENSIONS[fmt]:
            path = path.with_suffix(EXTENSIONS[fmt][0])
        service.write(self.view.model.table, path, fmt)
        return path


FILTERS = {
    "CSV (*.csv)": "csv",
    "Markdown (*.md)": "markdown",
    "Excel (*.xlsx)": "xlsx",
}
EXTENSIONS = {"csv": (".csv",), "markdown": (".md", ".markdown"), "xlsx": (".xlsx",)}
SUFFIXES = {ext: fmt for fmt, exts in EXTENSIONS.items() for ext in exts}
