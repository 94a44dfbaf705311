"""The MLPerf results table (store/query/mlperf_table.py) written to a file:
CSV, Markdown or a workbook."""

from __future__ import annotations

from pathlib import Path

from ipubench_gui.domain.mlperf_table import FORMATS, MLPerfTable, markdown
from ipubench_gui.store.export import export
from ipubench_gui.store.export.export_xlsx import write_rows_xlsx


def write_table(table: MLPerfTable, path: Path, fmt: str) -> int:
    """Write ``table`` to ``path`` as ``fmt`` (csv, markdown, xlsx), atomically;
    returns the number of rows. CSV holds the figures only; Markdown and the
    workbook carry the unit and the footnote the MLPerf messaging rules ask
    for. Raises ExportError naming the path and why."""
    heads = [*table.headers]
    if fmt == "csv":
        export.write_csv(path, heads, table.records())
    elif fmt == "markdown":
        export.write_text(path, markdown(table))
    elif fmt == "xlsx":
        write_rows_xlsx(
            table.records(),
            path,
            heads,
            export.atomic_write_binary,
            (table.unit, table.footnote()),
        )
    else:
        raise ValueError(f"unknown format {fmt!r}; one of {', '.join(FORMATS)}")
    return len(table.rows)
