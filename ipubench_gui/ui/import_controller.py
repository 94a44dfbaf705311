"""ImportController: import, imported sources and table export, off the GUI thread."""

from __future__ import annotations

import logging
from functools import partial
from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QFileDialog, QMessageBox

from ipubench_gui.store import importer, names
from ipubench_gui.store.export import export_table
from ipubench_gui.ui import settings_store as ss
from ipubench_gui.ui.controller import Controller
from ipubench_gui.ui.import_messages import NOTHING_STORED, explain
from ipubench_gui.ui.widgets.message_box import show_warning

log = logging.getLogger(__name__)
FILE_FILTER = (
    "Result files (*.csv *.tsv *.txt *.parquet *.json *.jsonl *.ndjson);;All files (*)"
)


class ImportController(QObject):
    """Adds File > Import results, Imported sources and Export table."""

    def __init__(self, main: Controller):
        super().__init__(main)
        self.main = main
        self.runner = main.runner
        self.window = main.window
        self.dialog = None  # ImportDialog, made on first use
        self.sources_dialog = None  # SourcesDialog
        self.last_result: importer.ImportResult | None = None
        self.last_error: str = ""
        self.last_message: tuple[str, str] = ("", "")  # what is wrong, what to do
        file_menu = self.window.file_menu
        first = file_menu.actions()[0]
        self.import_action = QAction("&Import results…", self.window)
        self.import_action.setShortcut(QKeySequence("Ctrl+I"))
        self.sources_action = QAction("Imported &sources…", self.window)
        self.export_action = QAction("Export &table…", self.window)
        self.export_action.setShortcut(QKeySequence("Ctrl+Shift+E"))
        for act in (self.import_action, self.sources_action, self.export_action):
            file_menu.insertAction(first, act)
        file_menu.insertSeparator(first)
        self.import_action.triggered.connect(self.choose_file)
        self.sources_action.triggered.connect(self.show_sources)
        self.export_action.triggered.connect(self.choose_export)
        self.runner.finished.connect(self._on_runner_finished)
        status = main.runner.db.user_status
        writable = bool(status and status.writable)
        for act in (self.import_action, self.sources_action):
            act.setEnabled(writable)
            if not writable and status:
                act.setToolTip(status.message)

    # -- import ------------------------------------------------------------------
    def choose_file(self) -> None:
        folder = ss.load_text("import/last_dir", str(Path.home()))
        path, _ = QFileDialog.getOpenFileName(
            self.window, "Import results", folder, FILE_FILTER
        )
        if path:
            ss.save_text("import/last_dir", str(Path(path).parent))
            self.open_file(Path(path))

    def open_file(self, path: Path, encoding: str = "utf-8") -> None:
        """Preview ``path`` read as ``encoding`` (CSV/TSV only; see ENCODINGS)."""
        self.previewing = (path, encoding)
        self.runner.submit(
            "import-preview",
            partial(_preview, path=path, encoding=encoding),
            on_error=self._on_failed,
        )

    def add_alias(self, kind: str, alias: str, canonical: str) -> None:
        self.runner.submit(
            "import-alias",
            partial(_alias, kind=kind, alias=alias, canonical=canonical),
        )

    def check(self, spec: importer.ImportSpec) -> None:
        self._busy(True)
        self.runner.submit(
            "import-check", partial(_check, spec=spec), on_error=self._on_failed
        )

    def start_import(self, spec: importer.ImportSpec) -> None:
        self._busy(True)
        self.window.statusBar().showMessage(f"Importing {spec.path.name}…")
        self.runner.submit(
            "import", partial(_import, spec=spec), on_error=self._on_failed
        )

    def cancel(self) -> None:
        # The import runs in one transaction: interrupting it rolls it all back.
        self.runner.cancel("import")

    def _busy(self, on: bool) -> None:
        if self.dialog is not None:
            self.dialog.show_busy(on)

    # -- sources -------------------------------------------------------------------
    def show_sources(self) -> None:
        from ipubench_gui.ui.widgets.sources_dialog import SourcesDialog

        if self.sources_dialog is None:
            self.sources_dialog = SourcesDialog(self.window)
            self.sources_dialog.renameRequested.connect(
                lambda sid, label: self.runner.submit(
                    "sources",
                    partial(_rename, sid=sid, label=label),
                    on_error=self._on_failed,
                )
            )
            self.sources_dialog.removeRequested.connect(
                lambda sid: self.runner.submit(
                    "sources", partial(_remove, sid=sid), on_error=self._on_failed
                )
            )
        self.runner.submit("sources", _list, on_error=self._on_failed)
        self.sources_dialog.show()

    # -- export --------------------------------------------------------------------
    def choose_export(self) -> None:
        folder = ss.load_text(ss.LAST_EXPORT_DIR, str(Path.home()))
        path, _ = QFileDialog.getSaveFileName(
            self.window,
            "Export table",
            str(Path(folder) / "results.csv"),
            "CSV (*.csv);;Parquet (*.parquet);;Excel (*.xlsx)",
        )
        if path:
            self.export(Path(path))

    def export(self, path: Path) -> None:
        self.runner.submit(
            "export-table",
            partial(_export, state=self.main.state.filters, path=path),
            on_error=self._on_failed,
        )

    # -- results -------------------------------------------------------------------
    def _on_failed(self, slot: str, exc: Exception) -> None:
        """The one report of a failed import, check, source change or export."""
        self._busy(False)
        text = str(exc)
        cancelled = "INTERRUPT" in text.upper()
        if cancelled:
            text = "Import cancelled; nothing was stored."
        self.last_error = text
        if cancelled and self.dialog is not None:
            self.dialog.show_report(text)
        elif slot.startswith("import"):
            # What is wrong (the store's words) and what to do (import_messages).
            what, todo = explain(text)
            self.last_message = (what, todo)
            if slot == "import-preview" or self.dialog is None:
                box = self.warn("Cannot import this file", what, todo)
                if box is not None and slot == "import-preview":
                    self._offer_encodings(box, text)
            else:
                self.dialog.show_report(f"{what}\n\n{todo} {NOTHING_STORED}")
        else:
            self._warn("Could not complete that", text)
        self.window.statusBar().showMessage(text.splitlines()[0], 8000)

    def _on_runner_finished(self, slot: str, _rid: int, result) -> None:
        if isinstance(result, Exception) or not slot.startswith(
            ("import", "sources", "export-table")
        ):
            return
        bar = self.window.statusBar()
        if slot == "import-preview":
            from ipubench_gui.ui.widgets.import_dialog import ImportDialog

            path, preview, encoding, catalogue = result
            if self.dialog is not None:  # re-read in another encoding
                self.dialog.close()
            self.dialog = ImportDialog(path, preview, self.window, encoding, catalogue)
            self.dialog.encodingChosen.connect(partial(self.open_file, path))
            self.dialog.aliasRequested.connect(self.add_alias)
            self.dialog.checkRequested.connect(self.check)
            self.dialog.importRequested.connect(self.start_import)
            self.dialog.cancelRequested.connect(self.cancel)
            self.dialog.show()
        elif slot == "import-alias":
            if self.dialog is not None:
                self.dialog.refresh_names(result)
            bar.showMessage("Alias saved in your user data.", 8000)
            self.main.start()  # imported rows may have new names
        elif slot == "import-check":
            self._busy(False)
            landed, skipped, existing = result
            self.dialog.show_report(
                f"{landed} rows will land; {skipped} without a figure will be skipped"
                + (
                    f"; {existing} already stored will be left out."
                    if existing
                    else "."
                )
            )
        elif slot == "import":
            self._busy(False)
            self.last_result = result
            msg = (
                f"Imported {result.landed} rows as '{result.label}'; skipped "
                f"{result.skipped} without a figure"
                + (
                    f"; {result.existing} already stored left out."
                    if result.existing
                    else "."
                )
            )
            if self.dialog is not None:
                self.dialog.show_report(msg)
            bar.showMessage(msg, 10000)
            self.main.start()  # new values for facets, charts, comparator
        elif slot == "sources":
            if self.sources_dialog is not None:
                self.sources_dialog.show_sources(result)
            self.main.start()
        elif slot == "export-table":
            path, n = result
            ss.save_text(ss.LAST_EXPORT_DIR, str(Path(path).parent))
            bar.showMessage(f"Wrote {n} results to {path}.", 8000)

    def warn(self, title: str, text: str, todo: str = "") -> QMessageBox | None:
        """In the status bar, and in a message box over a shown window: what
        is wrong, and below it what to do. Returns the box, if one was shown."""
        self.last_error = text
        self.window.statusBar().showMessage(text.splitlines()[0], 10000)
        if self.window.isVisible():
            return show_warning(self.window, title, text, todo)
        return None

    def _offer_encodings(self, box: QMessageBox, text: str) -> None:
        """A file that is not text in the encoding tried: one button per other
        encoding, which reads the file again in it."""
        if "choose an encoding" not in text and "choose the encoding" not in text:
            return
        path, tried = self.previewing
        for enc in importer.ENCODINGS:
            if enc != tried:
                button = box.addButton(
                    f"Read as {enc}", QMessageBox.ButtonRole.AcceptRole
                )
                button.clicked.connect(partial(self.open_file, path, enc))

    _warn = warn


# Store jobs: run on the worker thread with its own cursor.
def _preview(db, path: Path, encoding: str = "utf-8"):
    """The file's first rows and the names to read them with."""
    preview = importer.preview(db.cursor(), path, encoding=encoding)
    return path, preview, encoding, names.of(db)


def _alias(db, kind: str, alias: str, canonical: str):
    """Save a user alias; imported rows get it too. The catalogue after."""
    with db.writing() as cur:
        names.add_user_alias(cur, kind, alias, canonical)
        names.rename_user_rows(cur, names.user_catalogue(cur))
    return names.of(db)


def _check(db, spec: importer.ImportSpec):
    return importer.validate(db.cursor(), spec)


def _import(db, spec: importer.ImportSpec):
    with db.writing() as cur:
        return importer.import_file(cur, spec)


def _list(db):
    return importer.list_sources(db.cursor())


def _rename(db, sid: int, label: str):
    with db.writing() as cur:
        importer.rename_source(cur, sid, label)
    return _list(db)


def _remove(db, sid: int):
    with db.writing() as cur:
        importer.remove_source(cur, sid)
    return _list(db)


def _export(db, state, path: Path):
    return path, export_table(db, state, path)
