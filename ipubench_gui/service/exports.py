"""Exporting stored results to a file: every result (``export-results``), or
the rows a filter keeps as CSV, Parquet or xlsx (``export-table`` and the
window's Export table), per accelerator chip if asked. Atomic: a file that
cannot be written whole is not written."""

from __future__ import annotations

from pathlib import Path

from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.plot_model import point_columns, point_rows
from ipubench_gui.domain.plots import Plot
from ipubench_gui.store.db import Database
from ipubench_gui.store.export import export


def export_results(db: Database, path: Path) -> int:
    """Every stored result to ``path`` as CSV; how many rows."""
    return export.export_results(db, path)


def export_table(
    db: Database, state: FilterState, path: Path, per_accelerator: bool = False
) -> int:
    """The rows ``state`` keeps to ``path`` (.csv, .parquet, .xlsx); how many
    rows. Raises ExportError in words."""
    return export.export_table(db, state, path, per_accelerator)


def export_points(plot: Plot, path: Path) -> None:
    """A chart's plotted points to ``path`` as CSV (series, x, y, result_id;
    cells made inert for spreadsheets): ``export-chart --data``."""
    rows = ([export.inert(v) for v in r] for r in point_rows(plot))
    export.write_csv(path, point_columns(plot), rows)
