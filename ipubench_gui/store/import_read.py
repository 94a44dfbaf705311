"""Reading a file to import: DuckDB's readers into a staging table, the column
guesses, the preview, and the value types every import step shares."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from ipubench_gui.domain.fields import RESULT_FIELDS
from ipubench_gui.store.db import Row, one_row

FIELDS: tuple[str, ...] = (*RESULT_FIELDS, "task", "accelerators", "nodes", "division")
METRICS = ("throughput", "latency", "time_to_train", "time_to_result")
# Header words that suggest a field, most specific first.
SYNONYMS: dict[str, tuple[str, ...]] = {
    "value": (
        "performance_result",
        "throughput",
        "items/sec",
        "samples/s",
        "value",
        "result",
        "score",
        "time to train",
        "time_to_train",
    ),
    "latency_ms": ("latency (ms)", "latency_ms", "latency"),
    "unit": ("performance_units", "units", "unit"),
    "model": ("model", "benchmark", "network", "workload"),
    "variant": ("variant", "scenario", "config"),
    "platform": ("platform", "system", "accelerator", "hardware", "device"),
    "sdk_version": ("sdk", "software version", "sdk_version"),
    "framework": ("framework", "software"),
    "dataset": ("dataset", "data set"),
    "batch_size": ("batch size", "batch_size", "batch", "bs"),
    "precision": ("precision", "weight_data_types", "dtype", "data type"),
    "metric": ("metric",),
    "mlperf_id": ("mlperf id", "mlperf_id", "id"),
    "task": ("task",),
    "accelerators": ("a#", "accelerators", "num accelerators", "gpus", "ipus"),
    "nodes": ("nodes",),
    "division": ("division", "category"),
}
MAX_PROBLEMS = 50


class ImportFailed(Exception):
    """Nothing was stored; ``problems`` says why, row by row where it can."""

    def __init__(
        self, message: str, problems: list[Problem] | None = None, more: int = 0
    ):
        super().__init__(message)
        self.problems = problems or []
        self.more = more

    def __str__(self) -> str:
        lines = [self.args[0]]
        lines += [f"  {p}" for p in self.problems]
        if self.more:
            lines.append(f"  … and {self.more} more")
        return "\n".join(lines)


@dataclass(frozen=True)
class Problem:
    row: int | None
    column: str | None
    reason: str

    def __str__(self) -> str:
        where = ", ".join(
            x
            for x in (
                self.row and f"row {self.row}",
                self.column and f"column {self.column!r}",
            )
            if x
        )
        return f"{where}: {self.reason}" if where else self.reason


@dataclass(frozen=True)
class ImportSpec:
    """What to read and how: field <- column, constants, optional unpivot."""

    path: Path
    columns: dict[str, str] = field(default_factory=dict)  # field -> file column
    constants: dict[str, str] = field(default_factory=dict)  # field -> value
    unpivot: tuple[str, ...] = ()  # value columns of a wide file
    unpivot_into: str = "model"  # the field their names become
    label: str = ""


@dataclass(frozen=True)
class Preview:
    columns: list[str]
    types: list[str]
    rows: list[Row]
    guessed: dict[str, str]
    constants: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class ImportResult:
    source_id: int
    landed: int
    skipped: int
    label: str


# -- reading --
def reader_sql(path: Path) -> str:
    """A DuckDB table function reading ``path`` by its suffix (path bound as $path)."""
    suffix = path.suffix.lower()
    if suffix in (".parquet", ".pq"):
        return "read_parquet($path)"
    if suffix in (".json", ".jsonl", ".ndjson"):
        return "read_json_auto($path)"
    if suffix in (".csv", ".tsv", ".txt", ""):
        return "read_csv($path, header = true, all_varchar = true)"
    raise ImportFailed(
        f"{path.name}: cannot read {suffix} files; use CSV, TSV, Parquet or JSON"
    )


def _check_file(path: Path) -> None:
    if not path.exists():
        raise ImportFailed(f"{path}: no such file")
    if path.is_dir():
        raise ImportFailed(f"{path}: is a folder, not a file")
    if path.stat().st_size == 0:
        raise ImportFailed(f"{path.name}: the file is empty")


def stage(
    con: duckdb.DuckDBPyConnection, path: Path, only: Sequence[str] | None = None
) -> tuple[list[str], list[str]]:
    """Read ``path`` into TEMP TABLE import_stage (+ __row); return the names and
    types of all the file's columns. With ``only``, just those of its columns
    are kept: an import reads only what it maps (a 1 GB file with a wide notes
    column need not sit in memory)."""
    _check_file(path)
    src = reader_sql(path)
    p = {"path": str(path)}
    try:
        desc = con.execute(f"DESCRIBE SELECT * FROM {src}", p).fetchall()
        names = [d[0] for d in desc]
        types = [d[1] for d in desc]
        keep = "*"
        if only is not None:
            wanted = [c for c in dict.fromkeys(only) if c in names]
            keep = ", ".join(column_ident(c) for c in wanted) or "NULL AS __none"
        # Rows keep file order (insertion order is preserved), so rowid + 1 is the
        # data row number: no window function over the whole file.
        con.execute(
            "CREATE OR REPLACE TEMP TABLE import_stage_raw AS "
            f"SELECT {keep} FROM {src}",
            p,
        )
        con.execute(
            "CREATE OR REPLACE TEMP VIEW import_stage AS SELECT "
            "rowid + 1 AS __row, * FROM import_stage_raw"
        )
    except duckdb.Error as exc:
        raise ImportFailed(f"{path.name}: cannot be read: {first_line(exc)}") from None
    n = one_row(con.execute("SELECT count(*) FROM import_stage"))[0]
    if n == 0:
        raise ImportFailed(f"{path.name}: has a header but no data rows")
    return names, types


def first_line(exc: Exception) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:300] if text else type(exc).__name__


def guess(columns: list[str]) -> dict[str, str]:
    """field -> column, from header words; each column used at most once."""
    used: set[str] = set()
    out: dict[str, str] = {}
    lower = {c: c.lower().strip() for c in columns}
    for fld, words in SYNONYMS.items():
        for w in words:
            hit = next(
                (c for c in columns if c not in used and lower[c] == w), None
            ) or next(
                (c for c in columns if c not in used and w in lower[c] and len(w) > 2),
                None,
            )
            if hit:
                out[fld] = hit
                used.add(hit)
                break
    return out


INFERENCE_SCENARIOS = ("offline", "server", "singlestream", "multistream")


def guess_constants(
    con: duckdb.DuckDBPyConnection, columns: dict[str, str]
) -> dict[str, str]:
    """Values the file implies without a column for them: MLPerf inference
    scenarios (Offline, Server, SingleStream, MultiStream) mean task inference."""
    col = columns.get("variant")
    if col is None:
        return {}
    vals = {
        str(v[0]).lower()
        for v in con.execute(
            f"SELECT DISTINCT CAST({column_ident(col)} AS VARCHAR) "
            "FROM import_stage LIMIT 20"
        ).fetchall()
    }
    if vals and vals <= set(INFERENCE_SCENARIOS):
        return {"task": "inference"}
    return {}


def preview(con: duckdb.DuckDBPyConnection, path: Path, n: int = 20) -> Preview:
    names, types = stage(con, path)
    rows = con.execute(
        f"SELECT * EXCLUDE (__row) FROM import_stage ORDER BY __row LIMIT {int(n)}"
    ).fetchall()
    guessed = guess(names)
    return Preview(names, types, rows, guessed, guess_constants(con, guessed))


def column_ident(name: str) -> str:
    """A file's own column name, quoted for SQL (any text, so never whitelisted)."""
    return '"' + name.replace('"', '""') + '"'


def delimiter_hint(names: list[str]) -> str:
    """When a file was read as one column, ask about the delimiter it seems to use."""
    seps = (";", "|", "\t", ":", "#", "~", "^")
    if len(names) == 1 and any(s in names[0] for s in seps):
        sep = next(s for s in seps if s in names[0])
        return (
            f". It was read as a single column; is the delimiter "
            f"{'a tab' if sep == chr(9) else repr(sep)}?"
        )
    return ""
