"""Composition root: QApplication, the store, state, runner, window, wiring."""

from __future__ import annotations

import argparse
import gc
import logging
import os
import sys
import time
from collections.abc import Callable
from concurrent.futures import Future
from functools import partial

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from ipubench_gui import trace
from ipubench_gui.store.bundled.build import DataError
from ipubench_gui.store.db import Database, StoreError
from ipubench_gui.ui import settings_store
from ipubench_gui.ui.application import ensure_app
from ipubench_gui.ui.claims_controller import ClaimsController
from ipubench_gui.ui.compare_controller import CompareController
from ipubench_gui.ui.controller import Controller, submit_initial
from ipubench_gui.ui.import_controller import ImportController
from ipubench_gui.ui.main_window import MainWindow
from ipubench_gui.ui.mlperf_import_controller import MLPerfImportController
from ipubench_gui.ui.mlperf_table_controller import MLPerfTableController
from ipubench_gui.ui.results import Results
from ipubench_gui.ui.runner import QueryRunner
from ipubench_gui.ui.state import AppState
from ipubench_gui.ui.user_watch import UserWatch
from ipubench_gui.ui.widgets.message_box import show_alone, show_warning

log = logging.getLogger(__name__)


class Session:
    """One open window over one store: what ``app.py`` builds and tests drive.

    The session owns the store it is given: ``close()`` closes it.
    """

    def __init__(
        self,
        db: Database | Future[Database],
        synchronous: bool = False,
        prefetch: bool = False,
    ):
        """``db`` may still be opening (a Future, see ``open_store_async``): the
        window is built meanwhile, and opening errors are raised from here."""
        self.state = AppState()
        self.runner = QueryRunner(db, synchronous=synchronous)
        self.results = Results()  # answers, which the widgets subscribe to
        # Restored filters and chart options are plain values: set them now and,
        # with a worker thread, queue the first queries too, so they run while
        # this thread builds the window (results arrive through queued signals,
        # after the controller is connected). The window's own restore then
        # finds the same values: no signal, no second query. A synchronous
        # runner delivers at once, so there start() submits as usual.
        self._prefetched = prefetch and not synchronous
        if prefetch:
            self.state.set_filters(settings_store.load_filters())
            self.state.set_chart(settings_store.load_chart())
        if self._prefetched:
            submit_initial(self.runner, self.state, self.results)
        self.window = MainWindow(self.state)
        _ = self.runner.db  # opened by now, or its error raised
        self.controller = Controller(self.state, self.runner, self.window, self.results)
        self.compare = CompareController(self.controller)
        self.imports = ImportController(self.controller)
        self.claims = ClaimsController(self.controller)
        self.mlperf_table = MLPerfTableController(self.controller)
        self.mlperf_imports = MLPerfImportController(self.controller)
        # what another process writes to the user's results is shown here too
        self.user_watch = UserWatch(self.runner, self._on_user_reread, self.window)

    def _on_user_reread(self, message: str) -> None:
        self.controller.start()  # every answer again, from what is read now
        self.window.statusBar().showMessage(message, 10000)

    def start(self, restore: bool = True) -> None:
        if restore:
            self.window.restore_settings()
        self.controller.start(prefetched=self._prefetched)
        self.compare.start()
        self.state.forget_history()  # what was restored is where undo stops

    @property
    def db(self) -> Database:
        """The store read now (a write replaces it: ui/runner)."""
        return self.runner.db

    def close(self) -> None:
        """Stop the worker threads, then close the store (again: a no-op)."""
        self.user_watch.stop()
        self.runner.shutdown()
        self.db.close()


def run_gui(args: argparse.Namespace, store: Future[Database] | None = None) -> int:
    """The app's window over ``store`` (being opened; opened here if None)."""
    logging.basicConfig(
        level=logging.INFO, format="%(levelname)s %(name)s: %(message)s"
    )
    app = ensure_app()
    from ipubench_gui.ui import appearance

    # Before any widget is made; --theme is for this run only.
    appearance.apply(
        getattr(args, "theme", None) or appearance.saved_mode(), save=False
    )
    trace.mark("QApplication")
    from ipubench_gui.bootstrap import open_store_async

    try:
        session = Session(store or open_store_async(), prefetch=True)
    except (StoreError, DataError, OSError) as exc:
        show_alone("Cannot open the results store", str(exc))
        return 1
    db = session.db
    trace.mark("window built")
    session.start()
    session.window.show()
    trace.mark("window shown")
    # What to do once the first window is painted with its data, in order.
    when_ready = [_resume_gc]
    if trace.ON:
        session.runner.finished.connect(lambda slot, *_: trace.mark(f"got {slot}"))
        when_ready.append(lambda: trace.mark("ready (data painted)"))
    if args.view:
        session.compare.open_view(args.view)
    for path in getattr(args, "files", []):
        open_path(session, path)
    if args.screenshot:
        # After what the view asked for (its chart, its comparison) is shown too.
        when_ready.append(
            partial(_when_idle, session, partial(_screenshot, session, args.screenshot))
        )
    elif os.environ.get("IPUBENCH_GUI_EXIT_WHEN_READY"):  # start-up benchmark
        when_ready.append(_print_ready_and_quit)
    _when_ready(session, *when_ready)
    # Collection resumes even if some start-up query never answers.
    QTimer.singleShot(10_000, _resume_gc)
    # After the above are connected: this dialog's own event loop delivers the
    # start-up results.
    status = db.user_status
    if status is not None and status.message:
        session.window.statusBar().showMessage(status.message, 30000)
        if args.screenshot:  # no one to answer a box: say it, and go on
            print(f"note: {status.message}", file=sys.stderr)
        else:  # a box that does not block: start-up goes on under it
            show_warning(session.window, "Your imported results", status.message)
    code = app.exec()
    session.close()
    _fast_exit(code)
    return code  # not reached


def open_path(session: Session, path) -> str:
    """Open a file given to the app (``ipubench-gui FILE``, a double-click): a
    saved view, results to import (the import dialog), or an MLPerf results
    folder. Returns what it was taken for (domain.opening.classify)."""
    from ipubench_gui.domain.opening import classify

    what = classify(path)
    if what.kind == "view":
        session.compare.open_view(what.path)
    elif what.kind == "import":
        session.imports.open_file(what.path)
    elif what.kind == "mlperf-folder":
        session.mlperf_imports.open_folder(what.path)
    else:
        session.imports.warn("Cannot open the file", what.message)
    return what.kind


def _fast_exit(code: int) -> None:
    """Leave without Python's teardown of thousands of Qt objects, which a
    user would wait for after the window has gone.

    Everything that must persist is written by now: settings are saved in
    closeEvent and synced here, the store is closed, and nothing else is open.
    """
    from ipubench_gui.ui import settings_store

    settings_store.settings().sync()
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


STARTUP_SLOTS = frozenset({"universe", "page", "facets", "chart"})


def _when_ready(session: Session, *thens: Callable[[], object]) -> None:
    """Call each of ``thens`` once everything the first window shows has arrived
    and is painted: the table page, the facet counts and values, and the chart
    (and what their answers asked for: a chart to build again, say)."""
    seen: set[str] = set()

    def done(slot: str, _rid: int, _result: object) -> None:
        seen.add(slot)
        if STARTUP_SLOTS <= seen and not session.runner.pending():
            session.runner.finished.disconnect(done)
            # A big chart is drawn over several turns: all of it now.
            session.window.canvas.finish()
            # Layout is deferred (posted LayoutRequest and resize events): run
            # it, then paint, so "ready" means the window as the user sees it.
            QApplication.processEvents()
            session.window.repaint()
            for then in thens:
                then()

    # Connected after the controller's own handler, so the window shows them.
    session.runner.finished.connect(done)


def _resume_gc() -> None:
    """Resume the cyclic garbage collector that ``cli.main`` paused for start-up.

    What start-up built (modules, the window, its models) lives as long as the
    app, so it first goes to the permanent generation (``gc.freeze``): later
    full collections, which can land in the middle of a filter change, no
    longer walk it.
    """
    if not gc.isenabled():
        gc.freeze()
        gc.enable()
        trace.mark(f"GC resumed, {gc.get_freeze_count()} start-up objects frozen")


def _print_ready_and_quit() -> None:
    """For the start-up benchmark: print when ready, then quit."""
    print(f"ready {time.time():.6f}", flush=True)  # read by tests/bench
    QTimer.singleShot(0, QApplication.instance().quit)


def _when_idle(session: Session, then: Callable[[], object]) -> None:
    """Call ``then`` once every request made so far has been answered and
    shown (a view given at start-up asks for its rows, chart and comparison
    after the first answers), the window laid out and painted."""
    runner = session.runner
    done = False

    def check() -> None:
        # Posted, not called from the idle signal itself: an answer given
        # inline (a small store answers from memory) makes the runner idle in
        # the middle of applying a view, between its filters and its chart.
        nonlocal done
        if done or runner.pending():
            return  # an answer asked for more: its idle comes later
        done = True
        runner.idle.disconnect(posted)
        session.window.canvas.finish()  # a big chart: all of it now
        QApplication.processEvents()
        session.window.repaint()
        then()

    def posted() -> None:
        QTimer.singleShot(0, check)

    runner.idle.connect(posted)
    posted()


def _screenshot(session: Session, path) -> None:
    """Save a picture of the ready window, say what it shows, then quit."""
    w = session.window
    ok = w.grab().save(str(path))
    print(f"{'saved' if ok else 'could not save'} {path}")
    cm = w.comparator.model
    print(
        f"showing: {w.count_label.text()}; chart {session.state.chart.kind}; "
        f"comparison of {cm.columnCount()}"
        + (", only differences" if cm.only_differences else "")
    )
    QApplication.instance().exit(0 if ok else 1)
