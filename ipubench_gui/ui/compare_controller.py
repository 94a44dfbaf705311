"""CompareController: the comparator dock and saved views, off the GUI thread."""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import QObject

from ipubench_gui import paths
from ipubench_gui.domain import compare as compare_domain
from ipubench_gui.domain.opening import VIEW_SUFFIX, view_path
from ipubench_gui.domain.per_chip import NOTE as CHIP_NOTE
from ipubench_gui.domain.views import View, load_view
from ipubench_gui.service import browse, claims, views
from ipubench_gui.service import compare as compare_service
from ipubench_gui.ui.controller import Controller
from ipubench_gui.ui.messages import Message
from ipubench_gui.ui.widgets.message_box import show_message


class Say:
    """What the comparator and saved views say (ui/messages.py)."""

    NO_VIEW_FILE = Message(
        "Cannot open the view", "The view file {path} does not exist."
    )
    VIEW_UNREADABLE = Message(
        "Cannot open the view", "The view file {path} cannot be read: {why}."
    )
    NOT_A_VIEW = Message("Cannot open the view", "{path}: {why}")
    VIEW_SHRANK = Message(
        "Some of the view no longer exists",
        "The view was opened without what no longer exists: {what}.",
    )
    VIEW_NOT_SAVED = Message("Cannot save the view", "{why}")
    COMPARISON_NOT_SAVED = Message("Could not save the comparison", "{why}")
    # in the status bar
    SELECT_FIRST = Message("", "Select results in the table first, then add them.")
    AT_MOST = Message("", "The comparison holds at most {most} configurations.")
    ALREADY = Message("", "Already in the comparison.")
    ADDED = Message(
        "",
        "Added {what} to the comparison ({n} of at most {most} columns). To "
        "remove {it}, select its column and press Delete (or Remove).",
    )
    COPIED = Message("", "Comparison copied as {what}.")


class CompareController(QObject):
    """Columns, baseline, counterparts, vendor claims, and saved views."""

    def __init__(self, main: Controller):
        super().__init__(main)
        self.main = main
        state, window = main.state, main.window
        self.state, self.window, self.runner = state, window, main.runner
        self.port, self.results = main.port, main.results
        self.view = cmp = window.comparator  # the Compare dock: this controller's
        self.compare_rows: list[dict] = []  # as shown (per chip when toggled)
        self._fetched: list[dict] = []  # as stored
        self._counterparts: compare_service.Counterparts | None = None  # as stored
        self._per_chip = state.chart.per_accelerator
        self._parse_notes: list[str] = []  # what a view file lost on reading
        self.last_view_message = ""
        self.picker = None
        self._flash: str | None = None  # a column added, flashed once shown
        state.comparisonChanged.connect(self._on_state_comparison_changed)
        state.selectionChanged.connect(self._on_state_selection_changed)
        state.chartChanged.connect(self._on_state_chart_changed)
        window.add_compare_action.triggered.connect(self.add_selection_to_comparison)
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
        cmp.focusChosen.connect(
            lambda f: state.set_comparison(state.comparison.with_focus(f))
        )
        cmp.onlyDifferencesChosen.connect(
            lambda on: state.set_comparison(state.comparison.with_only_differences(on))
        )
        cmp.exportRequested.connect(self.export_comparison)
        window.explain_action.triggered.connect(self.explain_current)
        window.explain_point_action.triggered.connect(
            lambda: self.explain_result(self.port.chart_menu_point)
        )
        cmp.pickerRequested.connect(self.open_picker)
        for act, slot in (
            (window.open_view_action, self.open_view_dialog),
            (window.save_view_action, self.save_view_dialog),
        ):
            act.triggered.connect(slot)
        self._fill_recent()

    def start(self) -> None:
        # The vendor claims fill a tab of the comparator dock: fetched when the
        # dock first shows (it starts hidden), not during start-up.
        self._claims_asked = False
        if self.window.compare_dock.isVisible():
            self._load_claims()
        else:
            self.window.compare_dock.visibilityChanged.connect(self._load_claims)
        if self.state.comparison.ids:
            self._on_state_comparison_changed(self.state.comparison)

    def _load_claims(self, visible: bool = True) -> None:
        if visible and not self._claims_asked:
            self._claims_asked = True
            self.runner.submit(
                "claims",
                partial(claims.vendor_comparisons, data_dir=paths.data_dir()),
                on_done=lambda got: self.view.show_claims(*got),
            )

    def _on_state_selection_changed(self, ids) -> None:
        if ids:
            self.runner.submit(
                "counterparts",
                partial(compare_service.counterparts, rid=ids[0]),
                on_done=self._on_counterparts,
            )

    # -- answers (errors: the window's one sink, Controller._report) --
    def _on_compared(self, rows: list[dict]) -> None:
        self._fetched = rows
        self._show_comparison()
        self._flash_added()  # once its column is there

    def _on_counterparts(self, result: compare_service.Counterparts) -> None:
        self._counterparts = result
        self._show_counterparts()

    # -- per chip: the dock follows the window's Per chip toggle (derived) --
    def _on_state_chart_changed(self, spec) -> None:
        if spec.per_accelerator != self._per_chip:
            self._per_chip = spec.per_accelerator
            self._show_comparison()
            if self._counterparts is not None:
                self._show_counterparts()

    def shown(self) -> compare_service.Compared:
        """The comparison as the dock shows it (per chip with the toggle)."""
        return compare_service.shown(
            self._fetched, self.state.comparison, self._per_chip
        )

    def _show_comparison(self) -> None:
        shown = self.shown()
        self.compare_rows = list(shown.rows)
        c = self.state.comparison
        self.view.show_comparison(
            self.compare_rows, c.baseline_index, c.focus, shown.note
        )

    def _show_counterparts(self) -> None:
        found = self._counterparts
        if found is None:
            return
        if self._per_chip:
            found = found.per_chip()
        note = CHIP_NOTE if self._per_chip else ""
        self.view.show_counterparts(found.row, found.groups, note)

    def current_view(self) -> View:
        return View(self.state.filters, self.state.chart, self.state.comparison)

    def save_view(self, path) -> None:
        """Write the whole state to ``path`` (JSON); raises ExportError/OSError."""
        from ipubench_gui.ui import settings_store as ss

        views.save_view(self.current_view(), path)
        ss.add_recent_view(str(path))
        self._fill_recent()

    def open_view(self, path) -> None:
        """Read a view file; the state follows once the store has checked it."""
        from pathlib import Path

        from ipubench_gui.ui import settings_store as ss

        path = Path(path)
        try:
            view, self._parse_notes = load_view(path)
        except FileNotFoundError:
            self._warn(Say.NO_VIEW_FILE.with_(path=path))
            return
        except OSError as exc:
            self._warn(Say.VIEW_UNREADABLE.with_(path=path, why=exc.strerror or exc))
            return
        except ValueError as exc:
            self._warn(Say.NOT_A_VIEW.with_(path=path, why=exc))
            return
        ss.add_recent_view(str(path))
        self._fill_recent()
        self.runner.submit(
            "view", partial(views.check_view, view=view), on_done=self._apply_view
        )

    def _apply_view(self, result) -> None:
        view, dropped = result
        with self.state.step("Open view", announce="View opened"):
            self.state.set_filters(view.filters)
            self.state.set_chart(view.chart)
            self.state.set_comparison(view.comparison)
        if view.comparison.ids:
            self.port.show_comparison(front=False)
        self.last_view_message = ""
        dropped = [*self._parse_notes, *dropped]
        self._parse_notes = []
        if dropped:
            said = Say.VIEW_SHRANK.with_(what="; ".join(dropped))
            self.last_view_message = said.text
            self._warn(said)

    def _warn(self, message: Message) -> None:
        self.port.tell(message)

    def open_view_dialog(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        path, _ = QFileDialog.getOpenFileName(
            self.window,
            "Open view",
            "",
            f"Views (*{VIEW_SUFFIX} *.json);;All files (*)",
        )
        if path:
            self.open_view(path)

    def save_view_dialog(self) -> None:
        from pathlib import Path

        from PySide6.QtWidgets import QFileDialog

        from ipubench_gui.domain.files import ExportError

        path, _ = QFileDialog.getSaveFileName(
            self.window,
            "Save view",
            str(Path.home() / f"view{VIEW_SUFFIX}"),
            f"Views (*{VIEW_SUFFIX})",
        )
        if not path:
            return
        try:
            self.save_view(view_path(path))
        except (ExportError, OSError) as exc:
            self._warn(Say.VIEW_NOT_SAVED.with_(why=exc))

    def _fill_recent(self) -> None:
        from ipubench_gui.ui import settings_store as ss

        menu = self.window.recent_menu
        menu.clear()
        for p in ss.recent_views():
            menu.addAction(p, partial(self.open_view, p))
        menu.setEnabled(bool(menu.actions()))

    def add_selection_to_comparison(self) -> None:
        """Ctrl+Shift+A: the selected rows become columns; the Comparison tab
        shows, the column added flashes, and the status bar says what was
        added and how to take it out again."""
        before = self.state.comparison
        c = before
        for rid in self.state.selection:
            c = c.added(rid)
        added = [rid for rid in c.ids if rid not in before.ids]
        if not self.state.selection:
            said = Say.SELECT_FIRST
        elif not added and len(c.ids) >= c.MAX:
            said = Say.AT_MOST.with_(most=c.MAX)
        elif not added:
            said = Say.ALREADY
        else:
            said = Say.ADDED.with_(
                what=", ".join(self._label(rid) for rid in added),
                n=len(c.ids),
                most=c.MAX,
                it="it" if len(added) == 1 else "one",
            )
        self.port.say(said.text, 10000)
        self._flash = added[-1] if added else None
        self.state.set_comparison(c)
        self.port.show_comparison()
        if self._flash is not None and self._flash in self._fetched_ids():
            self._flash_added()

    def _label(self, rid: str) -> str:
        """A result as its comparison column is headed (its id if not held)."""
        row = self.results.row(rid)
        return compare_domain.column_label(row) if row is not None else rid

    def _fetched_ids(self) -> list[str]:
        return [r["result_id"] for r in self._fetched]

    def _flash_added(self) -> None:
        if self._flash is not None:
            self.view.flash_column(self._flash)
            self._flash = None

    def open_picker(self) -> None:
        from ipubench_gui.ui.widgets.picker import ResultPicker

        picker = ResultPicker(self.window.model, self.window)
        picker.picked.connect(
            lambda rid: self.state.set_comparison(self.state.comparison.added(rid))
        )
        picker.show()
        self.picker = picker

    def _on_state_comparison_changed(self, c) -> None:
        self.view.show_only_differences(c.only_differences)
        if [r["result_id"] for r in self._fetched] == list(c.ids):
            self._show_comparison()  # the same rows: shown another way
        else:
            self.runner.submit(
                "compare",
                partial(compare_service.fetch_rows, comparison=c),
                on_done=self._on_compared,
            )

    def explain_current(self) -> None:
        """Help → Explain this number: the current cell of the comparator (when
        it has the focus), the chosen point of the chart (when it has), or the
        current cell of the table, step by step, in Details."""
        from ipubench_gui.domain.explain import explain

        rows, c = self._fetched, self.state.comparison
        base = rows[c.baseline_index] if rows else None
        cell = self.port.cell_to_explain()
        about: tuple[str, ...] = ()  # a comparison's column stays while compared
        # the comparator's cells are per chip when the window's toggle is on:
        # explained so, with the very number (and ratio) the cell shows
        chips = self._per_chip
        if cell.where == "mlperf table":
            # an MLPerf table cell: its result, per chip as the table shows it
            return self.explain_result(cell.result_id)
        if cell.where == "comparison" and cell.column < len(rows):
            # the "Throughput per chip" row is per chip whatever the toggle:
            # its cell is explained with that number, the ratios as shown
            cell_per_chip = chips or cell.key == "throughput_per_accelerator"
            text = explain(rows[cell.column], rows, base, cell_per_chip, chips)
        else:
            row = self._chosen_point() if cell.where == "chart" else None
            # a chart point is per chip as the chart is; a table cell as stored
            per_chip_cell = row is not None and chips
            row = row or cell.row
            if row is None:
                text = EXPLAIN_HINT
            else:
                compared = row.get("result_id") in c.ids
                base_or_none = base if compared else None
                text = explain(row, rows, base_or_none, per_chip_cell, chips)
                about = (row["result_id"],)
        self.port.explain(text, about)

    def _chosen_point(self) -> dict | None:
        """The row of the chart point chosen last (the selection), if shown."""
        for rid in self.state.selection:
            row = self.results.row(rid)
            if row is not None:
                return row
        return None

    def explain_result(self, rid: str | None) -> None:
        """A chart point's figure explained in Details, as a table cell's is
        (against the comparison's baseline when the point is compared)."""
        if not rid:
            return
        row = self.results.row(rid)
        if row is not None:
            self._explain_row(row)
        else:  # beyond the table's rows held: from the store
            self.runner.submit(
                "explain",
                partial(browse.rows_by_ids, ids=[rid]),
                on_done=lambda rows: rows and self._explain_row(rows[0]),
            )

    def _explain_row(self, row: dict) -> None:
        from ipubench_gui.domain.explain import explain

        rows, c = self._fetched, self.state.comparison
        base = rows[c.baseline_index] if rows and row["result_id"] in c.ids else None
        chips = self._per_chip  # a chart point is per chip as the chart is
        text = explain(row, rows, base, chips, chips)
        self.port.explain(text, (row["result_id"],))

    def export_comparison(self, kind: str) -> None:
        from pathlib import Path

        from PySide6.QtGui import QGuiApplication
        from PySide6.QtWidgets import QFileDialog

        from ipubench_gui.domain.files import ExportError
        from ipubench_gui.ui import settings_store as ss

        if not self.compare_rows:
            return
        if kind in ("tsv", "mdcopy"):
            fmt = "tsv" if kind == "tsv" else "markdown"
            QGuiApplication.clipboard().setText(self.shown().text(fmt))
            what = "TSV" if kind == "tsv" else "Markdown"
            self.port.say(Say.COPIED.with_(what=what).text, 3000)
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
            show_message(self.window, Say.COMPARISON_NOT_SAVED.with_(why=exc))

    def save_comparison(self, path, kind: str):
        """Write the comparison as shown (only differences, focus and per chip
        honoured) as csv, md or png (no dialogs)."""
        from ipubench_gui.ui.compare_export import save_png

        shown = self.shown()
        if kind == "png":
            return save_png(shown, path)
        return compare_service.save(shown, path, "csv" if kind == "csv" else "markdown")


EXPLAIN_HINT = (
    "Select a cell in the table or the comparison, then choose Help → Explain "
    "this number (Shift+F1)."
)
