"""A window shows what the user's database holds now: when another process
(an import from the command line) changes it, the window reads it again."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer

from ipubench_gui.service.user_file import UserLocked, changed, reread, watched_file
from ipubench_gui.ui.runner import QueryRunner

# What the window says when it read the user's results again.
CHANGED = "Your imported results changed (written by another ipubench-gui): shown now."
# A change is read this long after the last event (a write touches the file,
# its WAL and the folder several times), and again after a writer's lock.
SETTLE_MS = 400
RETRY_MS = 1000


class UserWatch(QObject):
    """Watches the file the runner's Database reads a copy of; ``show(text)``
    is called on the GUI thread once the window reads the new state."""

    def __init__(self, runner: QueryRunner, show: Callable[[str], None], parent=None):
        super().__init__(parent)
        self.runner = runner
        self.show = show
        self.watcher = QFileSystemWatcher(self)
        self._stopped = False
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.timeout.connect(self.check)
        self.watcher.fileChanged.connect(self._on_watcher_changed)
        self.watcher.directoryChanged.connect(self._on_watcher_changed)
        db = runner.opened
        self.path = watched_file(db) if db is not None else None
        if self.path is not None:
            self._watch()
            if changed(db):  # not read at start (another process wrote it)
                self.timer.start(RETRY_MS)

    def _watch(self) -> None:
        assert self.path is not None
        want = [str(self.path.parent)] + (
            [str(self.path)] if self.path.exists() else []
        )
        have = set(self.watcher.files()) | set(self.watcher.directories())
        missing = [p for p in want if p not in have]
        if missing:
            self.watcher.addPaths(missing)

    def stop(self) -> None:
        """Watch no more (the window is closing): nothing fires after this."""
        if self._stopped:
            return
        self._stopped = True
        self.timer.stop()
        self.path = None
        for signal in (
            self.timer.timeout,
            self.watcher.fileChanged,
            self.watcher.directoryChanged,
        ):
            signal.disconnect()
        paths = self.watcher.files() + self.watcher.directories()
        if paths:
            self.watcher.removePaths(paths)

    def _on_watcher_changed(self, _path: str) -> None:
        if self.path is not None:
            self.timer.start(SETTLE_MS)

    def check(self) -> None:
        """Read the file again if it is not what the window reads."""
        if self.path is None:
            return
        self._watch()  # a file replaced (set aside, made anew) is watched again
        db = self.runner.opened
        if db is None or watched_file(db) is None or not changed(db):
            return
        self.runner.submit(
            "user-reread",
            reread,
            on_done=self._on_reread,
            on_error=self._on_reread_failed,
        )

    def _on_reread(self, db) -> None:
        self.runner.replace_db(db)
        self.show(CHANGED)

    def _on_reread_failed(self, _slot: str, exc: Exception) -> None:
        if isinstance(exc, UserLocked):  # still being written: read it after
            self.timer.start(RETRY_MS)
