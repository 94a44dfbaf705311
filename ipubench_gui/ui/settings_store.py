"""Settings: window geometry, layout, column state, last filters.

All keys are declared here. With ``$IPUBENCH_GUI_HOME`` set, settings live in an
INI file under it (portable use, tests); otherwise in the platform's place
(on Linux and other Unix systems an INI file too).

An INI file is read once, only if it is a regular file of sensible size (a
pipe would block the start, a huge list slowed it by a minute), and written by
writing a temporary file beside it and renaming it into place: never through a
symbolic link (Qt's own writer replaces a link's target, even a device), never
into a pipe or a device. Each write merges into what the file holds then, so
two windows keep each other's settings, as Qt's own writer does.
"""

from __future__ import annotations

import json
import logging
import os
import stat
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings

from ipubench_gui import paths
from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.files import kind_of, read_regular
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.view_schema import decode_json, parse_chart, parse_filters

log = logging.getLogger(__name__)

WINDOW_GEOMETRY = "window/geometry"
WINDOW_STATE = "window/state"
SPLITTER = "window/splitter"
TABLE_HEADER = "table/header"
LAST_FILTERS = "session/filters_json"
CHART = "chart/spec_json"
CHART_LEGEND = "chart/legend_visible"
LAST_EXPORT_DIR = "export/last_dir"
LAST_EXPORT_FORMAT = "export/last_format"
RECENT_VIEWS = "views/recent"
THEME = "view/theme"  # system | light | dark (ui/appearance.py)
MAX_RECENT = 8
SCHEMA_VERSION = "settings/schema_version"
CURRENT_SCHEMA = 1
# A settings file holds a few kilobytes (window state, filters, a few paths):
# one far larger was not written by us, and reading it would only slow the start.
MAX_FILE_BYTES = 1_000_000

# What is said about a settings file that cannot be used, by case.
NOT_REGULAR = (
    "Settings are not read or saved: {path} is {kind}. Remove it (the app "
    "then makes a new settings file there)."
)
SET_ASIDE = (
    "Your settings file {path} was too large to be ours ({size:,} bytes); it was "
    "kept as {aside} and the default settings are used."
)
UNREADABLE = "Your settings file {path} cannot be read ({why}); defaults are used."
UNWRITABLE = (
    "Settings cannot be saved to {path} ({why}); they last until the app closes."
)
NO_FOLDER = "Settings are kept only until the app closes: {why}"


def _location() -> Path | None:
    """The INI file settings live in; None where the platform keeps them
    elsewhere (the Windows registry, macOS's preferences)."""
    if os.environ.get(paths.HOME_ENV):
        return paths.user_dir("config") / "settings.ini"
    native = QSettings()
    if native.format() == QSettings.Format.NativeFormat and sys.platform in (
        "win32",
        "darwin",
    ):
        return None
    return Path(native.fileName())


def _parse(data: bytes) -> dict[str, object]:
    """An INI text's keys and values, read by Qt's own reader (from a private
    temporary file: QSettings reads only files)."""
    fd, tmp = tempfile.mkstemp(prefix="ipubench-settings-", suffix=".ini")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        qs = QSettings(tmp, QSettings.Format.IniFormat)
        values = {k: qs.value(k) for k in qs.allKeys()}
        if qs.status() != QSettings.Status.NoError:
            log.warning("settings file not in INI form: its settings are dropped")
            values = {}
        del qs
        return values
    finally:
        Path(tmp).unlink(missing_ok=True)


class SettingsFile:
    """The settings of one INI file, held in memory; each change written at
    once (see the module's text). ``notes`` says what went wrong, in words."""

    def __init__(self, path: Path | None, notes: list[str] | None = None):
        self.path = path
        self.notes: list[str] = list(notes or [])
        self.values: dict[str, object] = {}
        self._refused = path is None  # settings held in memory only
        self._held: tuple[dict[str, object], set[str]] | None = None  # see batch
        if path is not None:
            self.values = self._read_at_start(path)

    def _read_at_start(self, path: Path) -> dict[str, object]:
        try:
            st = os.lstat(path)
        except FileNotFoundError:
            return {}
        except OSError as exc:
            self._note(UNREADABLE.format(path=path, why=exc.strerror or exc))
            return {}
        if stat.S_ISLNK(st.st_mode):
            try:
                st = os.stat(path)
            except OSError:  # a dangling link: replaced by a file when saved
                return {}
        if not stat.S_ISREG(st.st_mode):
            self._refused = True
            self._note(NOT_REGULAR.format(path=path, kind=kind_of(st.st_mode)))
            return {}
        if st.st_size > MAX_FILE_BYTES:
            aside = path.with_name(
                f"{path.name}.too-large-{time.strftime('%Y%m%d-%H%M%S')}"
            )
            try:
                os.rename(path, aside)
            except OSError as exc:
                self._refused = True
                self._note(UNREADABLE.format(path=path, why=exc.strerror or exc))
                return {}
            self._note(SET_ASIDE.format(path=path, size=st.st_size, aside=aside))
            return {}
        data = self._current(path)
        return {} if data is None else _parse(data)

    def _current(self, path: Path) -> bytes | None:
        """What the file holds now, if it is a regular file of sensible size."""
        try:
            return read_regular(path, MAX_FILE_BYTES)
        except FileNotFoundError:
            return None
        except OSError as exc:
            self._note(UNREADABLE.format(path=path, why=exc.strerror or exc))
            return None

    def _note(self, text: str) -> None:
        log.warning("%s", text)
        if text not in self.notes:
            self.notes.append(text)

    # -- the subset of QSettings the app uses --
    def value(self, key: str, default: object = None) -> object:
        return self.values.get(key, default)

    def setValue(self, key: str, value: object) -> None:  # noqa: N802 (as QSettings)
        self.values[key] = value
        self._write({key: value}, ())

    def remove(self, *keys: str) -> None:
        for key in keys:
            self.values.pop(key, None)
        self._write({}, keys)

    def sync(self) -> None:
        """Every change is written when made: nothing is left to write."""

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Within, changes are held and written once, at the end."""
        if self._held is not None:  # already in a batch
            yield
            return
        self._held = ({}, set())
        try:
            yield
        finally:
            changed, removed = self._held
            self._held = None
            if changed or removed:
                self._write(changed, tuple(removed))

    def _write(self, changed: dict[str, object], removed: tuple[str, ...]) -> None:
        if self._held is not None:
            self._held[0].update(changed)
            self._held[1].update(removed)
            for k in changed:
                self._held[1].discard(k)
            for k in removed:
                self._held[0].pop(k, None)
            return
        if self._refused or self.path is None:
            return
        path = self.path
        try:
            st = os.lstat(path)
            if not (stat.S_ISREG(st.st_mode) or stat.S_ISLNK(st.st_mode)):
                self._note(NOT_REGULAR.format(path=path, kind=kind_of(st.st_mode)))
                return
        except FileNotFoundError:
            pass
        except OSError as exc:
            self._note(UNWRITABLE.format(path=path, why=exc.strerror or exc))
            return
        try:
            fd, tmp = tempfile.mkstemp(
                prefix=f".{path.name}.", suffix=".tmp", dir=path.parent
            )
        except OSError as exc:
            self._note(UNWRITABLE.format(path=path, why=exc.strerror or exc))
            return
        try:
            os.close(fd)
            # another window's changes since: kept (Qt's writer merges too)
            now = self._current(path)
            values = {} if now is None else _parse(now)
            values.update(changed)
            qs = QSettings(tmp, QSettings.Format.IniFormat)
            for k, v in values.items():
                if k not in removed:
                    qs.setValue(k, v)
            qs.sync()
            ok = qs.status() == QSettings.Status.NoError
            del qs
            if not ok:
                raise OSError("the new file could not be written completely")
            # rename() replaces a link itself, never what it points to
            os.replace(tmp, path)
        except OSError as exc:
            self._note(UNWRITABLE.format(path=path, why=exc.strerror or exc))
        finally:
            Path(tmp).unlink(missing_ok=True)
            Path(tmp + ".lock").unlink(missing_ok=True)


class _NativeSettings(SettingsFile):
    """Where the platform keeps settings outside files (the registry)."""

    def __init__(self) -> None:
        super().__init__(None)
        self._qs = QSettings()

    def value(self, key: str, default: object = None) -> object:
        return self._qs.value(key, default)

    def setValue(self, key: str, value: object) -> None:  # noqa: N802 (as QSettings)
        self._qs.setValue(key, value)

    def remove(self, *keys: str) -> None:
        for key in keys:
            self._qs.remove(key)

    def sync(self) -> None:
        self._qs.sync()


_OPEN: dict[str, SettingsFile] = {}


def settings() -> SettingsFile:
    """The settings of this run (read once per place: tests change the home)."""
    try:
        where = _location()
    except OSError as exc:  # the config folder cannot be made (paths says why)
        key = f"unusable:{os.environ.get(paths.HOME_ENV, '')}"
        if key not in _OPEN:
            _OPEN[key] = SettingsFile(None, [NO_FOLDER.format(why=exc)])
        return _OPEN[key]
    key = str(where)
    if key not in _OPEN:
        _OPEN[key] = _NativeSettings() if where is None else SettingsFile(where)
    return _OPEN[key]


def notes() -> list[str]:
    """What went wrong with the settings file, for the window to say."""
    return list(settings().notes)


def batch() -> AbstractContextManager[None]:
    """Changes made within are written in one go (closing the window)."""
    return settings().batch()


def save_bytes(key: str, value: QByteArray) -> None:
    s = settings()
    with s.batch():
        s.setValue(key, value)
        s.setValue(SCHEMA_VERSION, CURRENT_SCHEMA)


def load_bytes(key: str) -> QByteArray | None:
    v = settings().value(key)
    return v if isinstance(v, QByteArray) and not v.isEmpty() else None


def save_text(key: str, value: str) -> None:
    settings().setValue(key, value)


def load_text(key: str, default: str = "") -> str:
    v = settings().value(key, default)
    return v if isinstance(v, str) else default


def save_filters(state: FilterState) -> None:
    settings().setValue(LAST_FILTERS, json.dumps(state.to_json()))


MAX_SETTING_CHARS = 100_000


def _json_setting(key: str, notes: list[str] | None = None) -> object:
    """A JSON setting as Python values; None (with a note) when it is missing,
    too long or not JSON: a bad setting never stops a start."""
    raw = settings().value(key, "")
    if not raw:
        return None
    if not isinstance(raw, str) or len(raw) > MAX_SETTING_CHARS:
        _note(notes, f"saved {key}: not a short JSON text")
        return None
    try:
        return decode_json(raw.encode("utf-8", "replace"))
    except ValueError as exc:
        _note(notes, f"saved {key}: {exc}")
        return None


def _note(notes: list[str] | None, text: str) -> None:
    """A dropped setting: logged, and kept for the window to say."""
    log.warning("ignoring %s", text)
    if notes is not None:
        notes.append(text)


def load_filters(notes: list[str] | None = None) -> FilterState:
    """The last session's filters, checked by the views' schema: what does not
    fit is dropped (noted in ``notes``, and logged) and the rest kept."""
    st, dropped = parse_filters(_json_setting(LAST_FILTERS, notes))
    for n in dropped:
        _note(notes, f"saved filters: {n}")
    return st


def clear_layout() -> None:
    settings().remove(WINDOW_GEOMETRY, WINDOW_STATE, SPLITTER, TABLE_HEADER)


def save_chart(spec: ChartSpec) -> None:
    settings().setValue(CHART, json.dumps(spec.to_json()))


def load_chart(notes: list[str] | None = None) -> ChartSpec:
    spec, dropped = parse_chart(_json_setting(CHART, notes))
    for n in dropped:
        _note(notes, f"saved chart options: {n}")
    return spec


def recent_views() -> list[str]:
    """The views opened last, newest first: at most MAX_RECENT, however long
    the list a hand-edited file holds."""
    v = settings().value(RECENT_VIEWS, [])
    if isinstance(v, str):
        v = [v]
    if not isinstance(v, list):
        return []
    return [p for p in v[: MAX_RECENT * 4] if isinstance(p, str)][:MAX_RECENT]


def add_recent_view(path: str) -> list[str]:
    items = ([path] + [p for p in recent_views() if p != path])[:MAX_RECENT]
    settings().setValue(RECENT_VIEWS, items)
    return items
