"""ImportController: import, imported sources and table export, off the GUI thread."""

from __future__ import annotations

import logging
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QFileDialog, QMessageBox

from ipubench_gui.domain.format import counted
from ipubench_gui.ui import settings_store as ss
from ipubench_gui.ui.controller import Controller
from ipubench_gui.ui.import_messages import NOTHING_STORED, explain
from ipubench_gui.ui.messages import Message, Whole

# The import and export machinery (readers, checks, MLPerf logs, writers) is
# imported on first use, not with the window: a good part of start-up's imports.
if TYPE_CHECKING:
    from ipubench_gui.domain.import_spec import ImportResult, ImportSpec
    from ipubench_gui.service.imports import Previewed

log = logging.getLogger(__name__)


class Say:
    """What imports, imported sources and the table export say
    (ui/messages.py; why an import failed: ui/import_messages.py)."""

    # what is wrong and what to do: import_messages.explain
    CANNOT_IMPORT = Message("Cannot import this file", "{what}", "{todo}")
    # the same in the import dialog's report
    NOT_IMPORTED = Message("", "{what}\n\n{todo} {nothing}")
    NOT_DONE = Message("Could not complete that", "{why}")
    # in the status bar (and the import dialog's report)
    CANCELLED = Message("", "Import cancelled; nothing was stored.")
    IMPORTING = Message("", "Importing {name}…")
    ALIAS_SAVED = Message("", "Alias saved in your user data.")
    WILL_LAND = Message(
        "", "{landed} will land; {skipped} without a figure will be skipped{left}."
    )
    LEFT_TO_LAND = Message("", "; {n} already stored will be left out")
    IMPORTED = Message(
        "", "Imported {landed} as '{label}'; skipped {skipped} without a figure{left}."
    )
    LEFT_OUT = Message("", "; {n} already stored left out")
    WROTE = Message("", "Wrote {n} results to {path}.")


FILE_FILTER = (
    "Result files (*.csv *.tsv *.txt *.parquet *.json *.jsonl *.ndjson);;All files (*)"
)


class ImportController(QObject):
    """Adds File > Import results, Imported sources and Export table."""

    def __init__(self, main: Controller):
        super().__init__(main)
        self.main = main
        self.runner = main.runner
        self.window = main.window  # the parent of its dialogs and boxes
        self.port = main.port
        self.dialog = None  # ImportDialog, made on first use
        self.sources_dialog = None  # SourcesDialog
        self.last_result: ImportResult | None = None
        self.last_error: str = ""
        self.last_message: tuple[str, str] = ("", "")  # what is wrong, what to do
        file_menu = self.port.file_menu
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
        from ipubench_gui.service import imports

        self.previewing = (path, encoding)
        self.runner.submit(
            "import-preview",
            partial(imports.preview, path=path, encoding=encoding),
            on_done=self._on_previewed,
            on_error=self._on_preview_failed,
        )

    def add_alias(self, kind: str, alias: str, canonical: str) -> None:
        from ipubench_gui.service import imports

        self.runner.submit(
            "import-alias",
            partial(imports.add_alias, kind=kind, alias=alias, canonical=canonical),
            on_done=self._on_alias_saved,
            writes=True,
        )

    def check(self, spec: ImportSpec) -> None:
        from ipubench_gui.service import imports

        self._busy(True)
        self.runner.submit(
            "import-check",
            partial(imports.check, spec=spec),
            on_done=self._on_checked,
            on_error=self._on_import_failed,
        )

    def start_import(self, spec: ImportSpec) -> None:
        from ipubench_gui.service import imports

        self._busy(True)
        self.port.say(Say.IMPORTING.with_(name=spec.path.name).text)
        self.runner.submit(
            "import",
            partial(imports.import_file, spec=spec),
            on_done=self._on_imported,
            on_error=self._on_import_failed,
            writes=True,
        )

    def cancel(self) -> None:
        # The import runs in one transaction: interrupting it rolls it all back.
        self.runner.cancel("import")

    def _busy(self, on: bool) -> None:
        if self.dialog is not None:
            self.dialog.show_busy(on)

    # -- sources -------------------------------------------------------------------
    def show_sources(self) -> None:
        from ipubench_gui.service import imports
        from ipubench_gui.ui.widgets.sources_dialog import SourcesDialog

        if self.sources_dialog is None:
            self.sources_dialog = SourcesDialog(self.window)
            self.sources_dialog.renameRequested.connect(
                lambda sid, label: self._submit_sources(
                    partial(imports.rename_source, source_id=sid, label=label),
                    writes=True,
                )
            )
            self.sources_dialog.removeRequested.connect(
                lambda sid: self._submit_sources(
                    partial(imports.remove_source, source_id=sid), writes=True
                )
            )
        self._submit_sources(imports.sources)
        self.sources_dialog.show()

    def _submit_sources(self, job, writes: bool = False) -> None:
        """List the imported sources (after renaming or removing one)."""
        self.runner.submit(
            "sources",
            job,
            on_done=self._on_sources,
            on_error=self._on_other_failed,
            writes=writes,
        )

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
            on_done=self._on_exported,
            on_error=self._on_other_failed,
        )

    # -- failures: each job's own reporter, said once ------------------------------
    def _on_preview_failed(self, _slot: str, exc: Exception) -> None:
        """The file cannot be read: a box saying why, with other encodings
        to read it in when that is why."""
        text, what, todo = self._failed(exc)
        box = self.say(Say.CANNOT_IMPORT.with_(what=Whole(what), todo=Whole(todo)))
        if box is not None and getattr(exc, "kind", "") == "encoding":
            self._offer_encodings(box)
        self.port.say(text.splitlines()[0], 8000)

    def _on_import_failed(self, _slot: str, exc: Exception) -> None:
        """A check or an import failed or was cancelled: said in the dialog
        (else in a box), nothing stored."""
        text, what, todo = self._failed(exc)
        if self.dialog is None:
            self.say(Say.CANNOT_IMPORT.with_(what=Whole(what), todo=Whole(todo)))
        elif text == Say.CANCELLED.text:
            self.dialog.show_report(text)
        else:
            said = Say.NOT_IMPORTED.with_(
                what=Whole(what), todo=Whole(todo), nothing=NOTHING_STORED
            )
            self.dialog.show_report(said.text)
        self.port.say(text.splitlines()[0], 8000)

    def _failed(self, exc: Exception) -> tuple[str, str, str]:
        """The words of a failed import step: its text, what is wrong (the
        store's words) and what to do (import_messages)."""
        self._busy(False)
        text = str(exc)
        if "INTERRUPT" in text.upper():
            text = Say.CANCELLED.text
        self.last_error = text
        what, todo = explain(text, getattr(exc, "kind", ""))
        self.last_message = (what, todo)
        return text, what, todo

    def _on_other_failed(self, _slot: str, exc: Exception) -> None:
        """A source change or a table export failed."""
        self.say(Say.NOT_DONE.with_(why=exc))

    # -- answers -------------------------------------------------------------------
    def _on_previewed(self, result: Previewed) -> None:
        from ipubench_gui.ui.widgets.import_dialog import ImportDialog

        path, preview, encoding, catalogue = (
            result.path,
            result.preview,
            result.encoding,
            result.names,
        )
        if self.dialog is not None:  # re-read in another encoding
            self.dialog.close()
        self.dialog = ImportDialog(path, preview, self.window, encoding, catalogue)
        self.dialog.encodingChosen.connect(partial(self.open_file, path))
        self.dialog.aliasRequested.connect(self.add_alias)
        self.dialog.checkRequested.connect(self.check)
        self.dialog.importRequested.connect(self.start_import)
        self.dialog.cancelRequested.connect(self.cancel)
        self.dialog.show()

    def _on_alias_saved(self, catalogue) -> None:
        if self.dialog is not None:
            self.dialog.refresh_names(catalogue)
        self.port.say(Say.ALIAS_SAVED.text, 8000)
        self.main.start()  # imported rows may have new names

    def _on_checked(self, result: tuple[int, int, int]) -> None:
        self._busy(False)
        landed, skipped, existing = result
        left = Say.LEFT_TO_LAND.with_(n=existing).text if existing else ""
        if self.dialog is not None:
            said = Say.WILL_LAND.with_(
                landed=counted(landed, "row"), skipped=skipped, left=left
            )
            self.dialog.show_report(said.text)

    def _on_imported(self, result: ImportResult) -> None:
        self._busy(False)
        self.last_result = result
        left = Say.LEFT_OUT.with_(n=result.existing).text if result.existing else ""
        msg = Say.IMPORTED.with_(
            landed=counted(result.landed, "row"),
            label=result.label,
            skipped=result.skipped,
            left=left,
        ).text
        if self.dialog is not None:
            self.dialog.show_report(msg)
        self.port.say(msg, 10000)
        self.main.start()  # new values for facets, charts, comparator

    def _on_sources(self, sources) -> None:
        if self.sources_dialog is not None:
            self.sources_dialog.show_sources(sources)
        self.main.start()

    def _on_exported(self, result: tuple[Path, int]) -> None:
        path, n = result
        ss.save_text(ss.LAST_EXPORT_DIR, str(Path(path).parent))
        self.port.say(Say.WROTE.with_(n=n, path=path).text, 8000)

    def say(self, message: Message) -> QMessageBox | None:
        """In the status bar, and in a message box over a shown window: what
        is wrong, and below it what to do. Returns the box, if one was shown."""
        return self.warn(message.title, message.text, message.todo)

    def warn(self, title: str, text: str, todo: str = "") -> QMessageBox | None:
        """``say`` for a message declared elsewhere (app.py's file opening)."""
        self.last_error = text
        return self.port.tell(Message(title, text, todo))

    def _offer_encodings(self, box: QMessageBox) -> None:
        """A file that is not text in the encoding tried: one button per other
        encoding, which reads the file again in it."""
        from ipubench_gui.domain.import_spec import ENCODINGS

        path, tried = self.previewing
        for enc in ENCODINGS:
            if enc != tried:
                button = box.addButton(
                    f"Read as {enc}", QMessageBox.ButtonRole.AcceptRole
                )
                button.clicked.connect(partial(self.open_file, path, enc))


# Store jobs: run on the worker thread with its own cursor.
def _export(db, state, path: Path):
    from ipubench_gui.service.exports import export_table

    return path, export_table(db, state, path)
