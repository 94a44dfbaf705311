"""The MLPerf results table (``mlperf-table`` and View → MLPerf results table):
made for a filter state, and written to a file as the window shows it."""

from __future__ import annotations

from pathlib import Path

from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.mlperf_table import MLPerfTable
from ipubench_gui.store.db import Database
from ipubench_gui.store.query import mlperf_table as made


def table(db: Database, state: FilterState, per_chip: bool = False) -> MLPerfTable:
    """A row per system and framework of the MLPerf results ``state`` keeps, a
    column per benchmark (chip-minutes with ``per_chip``). On the calling
    thread: the window calls it through its query runner."""
    return made.mlperf_table(db, state, per_chip)


def write(table: MLPerfTable, path: Path, fmt: str) -> int:
    """``table`` to ``path`` as ``fmt`` (csv, markdown, xlsx), atomically; how
    many rows. Raises ExportError naming the path and why."""
    # the writers imported when one writes, not with the window
    from ipubench_gui.store.export.mlperf_table import write_table

    return write_table(table, path, fmt)
