"""File > Import MLPerf results folder…: read and score on a worker thread with a
progress bar and Cancel, confirm what would land, then land it all or nothing."""

from __future__ import annotations

import threading
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (
    QFileDialog,
    QInputDialog,
    QMessageBox,
    QProgressDialog,
)

from ipubench_gui import paths
from ipubench_gui.store.db import Cancelled
from ipubench_gui.ui import settings_store as ss
from ipubench_gui.ui.controller import Controller
from ipubench_gui.ui.messages import Message, Whole

# The MLPerf log readers are imported on first use, not with the window.
if TYPE_CHECKING:
    from ipubench_gui.service.imports import MLPerfPlan as Plan


class Say:
    """What an MLPerf folder's import says (ui/messages.py)."""

    FAILED = Message("MLPerf import", "{why}")
    CONFIRM = Message(
        "Import MLPerf results",
        "{summary}.",
        "Results with problems are not imported unless you import only the "
        "good ones; see Details.",
    )
    # in the status bar
    NO_ROUND = Message("", "{why}")
    NOTHING_NEW = Message("", "{summary}. Nothing to import.")
    IMPORTED = Message("", "Imported {n} MLPerf results (source {sid}).")
    CANCELLED = Message("", "MLPerf import cancelled; nothing was stored.")


class _Progress(QObject):
    """Carries (done, total) from the worker to the GUI thread (queued)."""

    moved = Signal(int, int)


class MLPerfImportController(QObject):
    """Adds File > Import MLPerf results folder…"""

    def __init__(self, main: Controller, import_menu_after: Any = None):
        super().__init__(main)
        self.main = main
        self.runner = main.runner
        self.window = main.window  # the parent of its dialogs and boxes
        self.port = main.port
        self.progress = _Progress()
        self.progress.moved.connect(
            self._on_progress, Qt.ConnectionType.QueuedConnection
        )
        self.dialog: QProgressDialog | None = None
        self.stop = threading.Event()
        self.plan: Plan | None = None
        self.last_message = ""
        self.ask = True  # tests answer the questions themselves
        from PySide6.QtGui import QAction

        self.action = QAction("Import &MLPerf results folder…", self.window)
        menu = self.port.file_menu
        menu.insertAction(
            menu.actions()[1] if len(menu.actions()) > 1 else None, self.action
        )
        self.action.triggered.connect(self.choose_folder)
        status = main.runner.db.user_status
        self.action.setEnabled(bool(status and status.writable))
        if status and not status.writable:
            self.action.setToolTip(status.message)

    def choose_folder(self) -> None:
        start = ss.load_text("import/mlperf_dir", str(Path.home()))
        folder = QFileDialog.getExistingDirectory(
            self.window, "Import MLPerf results folder", start
        )
        if folder:
            ss.save_text("import/mlperf_dir", folder)
            self.open_folder(Path(folder))

    def open_folder(self, folder: Path, round_: str | None = None) -> None:
        """Read ``folder`` on the worker; asks for the round if no folder says."""
        from ipubench_gui.domain.import_spec import MLPerfImportError
        from ipubench_gui.service import imports

        try:
            rnd = imports.resolve_round(folder, round_)
        except MLPerfImportError as exc:
            self._say(Say.NO_ROUND.with_(why=exc))
            if self.ask:  # not modal: the answer comes back as a signal
                dlg = QInputDialog(self.window)
                dlg.setWindowTitle("MLPerf round")
                dlg.setLabelText(
                    f"Which MLPerf round are the results in {folder.name} "
                    "from? (e.g. 2.1)"
                )
                dlg.textValueSelected.connect(
                    lambda text: self.open_folder(folder, text or None)
                )
                dlg.open()
            return
        self.stop.clear()
        self.dialog = QProgressDialog(
            f"Reading MLPerf results in {folder.name}…", "Cancel", 0, 0, self.window
        )
        self.dialog.setWindowModality(Qt.WindowModality.WindowModal)
        self.dialog.setMinimumDuration(300)
        self.dialog.canceled.connect(self.stop.set)
        self.runner.submit(
            "mlperf-plan",
            partial(
                imports.plan_mlperf,
                folder=folder,
                round_=rnd,
                data_dir=paths.data_dir(),
                progress=self.progress.moved.emit,
                stop=self.stop,
            ),
            on_done=self._on_planned,
            on_error=self._on_plan_failed,
        )

    def land(self, skip_bad: bool) -> None:
        from ipubench_gui.service import imports

        assert self.plan is not None
        self.runner.submit(
            "mlperf-land",
            partial(imports.land_mlperf, plan=self.plan, skip_bad=skip_bad),
            on_done=self._on_landed,
            on_error=self._on_failed,
            writes=True,
        )

    def _on_progress(self, done: int, total: int) -> None:
        if self.dialog is not None:
            self.dialog.setMaximum(total)
            self.dialog.setValue(done)

    def _close_progress(self) -> None:
        if self.dialog is not None:
            self.dialog.reset()
            self.dialog.deleteLater()
            self.dialog = None

    def _on_planned(self, plan: Plan) -> None:
        self._close_progress()
        self.plan = plan
        if not plan.new and not plan.bad:
            self._say(Say.NOTHING_NEW.with_(summary=Whole(plan.summary())))
            return
        if self.ask:
            self._confirm(plan)

    def _on_landed(self, result: tuple[int, int]) -> None:
        sid, n = result
        self._say(Say.IMPORTED.with_(n=n, sid=sid))
        self.main.start()

    def _on_plan_failed(self, slot: str, exc: Exception) -> None:
        self._close_progress()
        self._on_failed(slot, exc)

    def _on_failed(self, _slot: str, exc: Exception) -> None:
        """Both jobs' errors (their one sink: said once, here)."""
        if isinstance(exc, Cancelled):
            self._say(Say.CANCELLED)
        else:
            self._say(Say.FAILED.with_(why=exc), warn=True)

    def _confirm(self, plan: Plan) -> None:
        said = Say.CONFIRM.with_(summary=Whole(plan.summary()))
        box = QMessageBox(self.window)
        box.setWindowTitle(said.title)
        box.setText(said.text)
        details = [f"already stored: {r.path}" for r in plan.stored]
        details += [f"problem: {p}" for p in plan.problems]
        if details:
            box.setDetailedText("\n".join(details))
        every = box.addButton("Import", QMessageBox.ButtonRole.AcceptRole)
        good = None
        if plan.bad:
            box.setInformativeText(said.todo)
            every.setEnabled(False)
            good = box.addButton(
                "Import the good ones", QMessageBox.ButtonRole.AcceptRole
            )
            if not plan.new:
                good.setEnabled(False)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.exec()
        if box.clickedButton() is every:
            self.land(skip_bad=False)
        elif good is not None and box.clickedButton() is good:
            self.land(skip_bad=True)

    def _say(self, message: Message, warn: bool = False) -> None:
        self.last_message = message.text
        if warn and self.ask:
            self.port.tell(message)
        else:
            self.port.say(message.text.splitlines()[0], 10000)
