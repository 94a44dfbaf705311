"""QSettings wrapper: window geometry, layout, column state, last filters.

All keys are declared here. With ``$IPUBENCH_GUI_HOME`` set, settings live in an
INI file under it (portable use, tests); otherwise in the platform's place.
"""

from __future__ import annotations

import json
import logging
import os

from PySide6.QtCore import QByteArray, QSettings

from ipubench_gui import paths
from ipubench_gui.domain.chartspec import ChartSpec
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


def settings() -> QSettings:
    if os.environ.get(paths.HOME_ENV):
        path = paths.user_dir("config") / "settings.ini"
        return QSettings(str(path), QSettings.Format.IniFormat)
    return QSettings()


def save_bytes(key: str, value: QByteArray) -> None:
    s = settings()
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
    s = settings()
    for key in (WINDOW_GEOMETRY, WINDOW_STATE, SPLITTER, TABLE_HEADER):
        s.remove(key)


def save_chart(spec: ChartSpec) -> None:
    settings().setValue(CHART, json.dumps(spec.to_json()))


def load_chart(notes: list[str] | None = None) -> ChartSpec:
    spec, dropped = parse_chart(_json_setting(CHART, notes))
    for n in dropped:
        _note(notes, f"saved chart options: {n}")
    return spec


def recent_views() -> list[str]:
    v = settings().value(RECENT_VIEWS, [])
    if isinstance(v, str):
        v = [v]
    return [p for p in (v or []) if isinstance(p, str)]


def add_recent_view(path: str) -> list[str]:
    items = [path] + [p for p in recent_views() if p != path]
    settings().setValue(RECENT_VIEWS, items[:MAX_RECENT])
    return items[:MAX_RECENT]
