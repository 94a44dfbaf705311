"""What a file given to the app (``ipubench-gui FILE``, a double-click) is."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

VIEW_SUFFIX = ".ipubench-view.json"  # registered as application/x-ipubench-view
VIEW_MARK = '"ipubench-gui view"'  # the "format" of every saved view
IMPORT_SUFFIXES = (".csv", ".tsv", ".txt", ".parquet", ".json", ".jsonl", ".ndjson")


@dataclass(frozen=True)
class Opening:
    """``kind``: view, import, mlperf-folder or error (``message`` says why)."""

    kind: str
    path: Path
    message: str = ""


def classify(path: Path) -> Opening:
    """A saved view, results to import, an MLPerf results folder, or an error.

    A ``.json`` file is a view when it says so (views saved before the
    ``.ipubench-view.json`` name was the default are plain ``.json``)."""
    path = Path(path)
    if path.is_dir():
        return Opening("mlperf-folder", path)
    if not path.exists():
        return Opening("error", path, f"{path} does not exist.")
    if path.name.lower().endswith(VIEW_SUFFIX):
        return Opening("view", path)
    if path.suffix.lower() == ".json" and _says_view(path):
        return Opening("view", path)
    return Opening("import", path)


def _says_view(path: Path) -> bool:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            head = f.read(4096)
    except OSError:
        return False
    return VIEW_MARK in head


def view_path(path: str | Path) -> Path:
    """``path`` with the saved-view suffix unless it already ends in .json."""
    p = Path(path)
    if p.suffix.lower() == ".json":
        return p
    return p.with_name(p.name + VIEW_SUFFIX)
