"""Write stored results to files: atomic, never partial."""

from __future__ import annotations

import csv
import os
import tempfile
from pathlib import Path

from ipubench_gui.store.db import Database, Query
from ipubench_gui.store.schema import quote_ident

# The documented export columns first (names fixed by contract), then extras.
EXPORT_COLUMNS: tuple[str, ...] = (
    "result_id",
    "source_file",
    "table",
    "model",
    "variant",
    "platform",
    "sdk_version",
    "framework",
    "dataset",
    "batch_size",
    "precision",
    "metric",
    "value",
    "unit",
    "latency_ms",
    "mlperf_id",
    # normalised and provenance extras
    "task",
    "vendor",
    "generation",
    "accelerator",
    "accelerators",
    "throughput_per_accelerator",
    "higher_is_better",
    "activation_bits",
    "weight_bits",
    "sdk_sort",
    "value_as_printed",
    "division",
    "quality_target",
    "evaluation_metric",
    "ranking",
    "row",
    "source_date",
    "source_date_kind",
    "link",
    "note",
)


class ExportError(Exception):
    """An export could not be written; the message names the path and why."""


def all_results_query() -> Query:
    cols = ", ".join(quote_ident(c) for c in EXPORT_COLUMNS)
    return Query(
        f'SELECT {cols} FROM results_v ORDER BY source_file, "table", "row", metric', {}
    )


def write_csv(path: Path, columns, rows) -> Path:
    """Write rows to ``path`` as CSV, atomically (see :func:`atomic_write`)."""

    def write(f) -> None:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(columns)
        for r in rows:
            w.writerow([_cell(v) for v in r])

    return atomic_write(path, write)


def write_text(path: Path, text: str) -> Path:
    return atomic_write(path, lambda f: f.write(text))


def atomic_write(path: Path, write) -> Path:
    """Call ``write(file)`` on a temporary file beside ``path``, then rename it
    over ``path``: readers see the old file or the new one, never half of one."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise ExportError(f"cannot write {path}: folder {folder} does not exist")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=folder)
    except OSError as exc:
        raise ExportError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "w", newline="", encoding="utf-8") as f:
            write(f)
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise ExportError(f"cannot write {path}: {exc.strerror or exc}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def export_results(db: Database, path: Path) -> int:
    """Write every stored result to ``path`` as CSV; return the row count."""
    res = db.run(all_results_query())
    write_csv(path, res.columns, res.rows)
    return len(res.rows)


def _cell(v: object) -> object:
    """CSV text of a value: blank for NULL, 1361 not 1361.0, true/false."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v
