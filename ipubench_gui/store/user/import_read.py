"""Reading a file to import: DuckDB's readers into a staging table, the column
guesses and the preview (the values an import is told and answers with are
domain/import_spec's)."""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import duckdb

from ipubench_gui.domain.import_spec import Preview
from ipubench_gui.store.db import Params, one_row
from ipubench_gui.store.user.import_csv import (
    CsvUnreadable,
    read_error,
    shorten,
    sniff,
    why_unreadable,
)

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
    """Nothing was stored; ``problems`` says why, row by row where it can, and
    ``kind`` which way the file failed: one of import_csv.KINDS for a file
    that cannot be read, else one of FAILURES."""

    def __init__(
        self,
        message: str,
        problems: list[Problem] | None = None,
        more: int = 0,
        kind: str = "rows",
    ):
        super().__init__(message)
        self.problems = problems or []
        self.more = more
        self.kind = kind

    def __str__(self) -> str:
        lines = [self.args[0]]
        lines += [f"  {p}" for p in self.problems]
        if self.more:
            lines.append(f"  … and {self.more} more")
        return "\n".join(lines)


# The ways an import fails other than a file unreadable as its format.
FAILURES = (
    "missing",  # no such file
    "unreadable",  # the system would not read it (permission, a device error)
    "folder",  # a folder, not a file
    "not_regular",  # a device or a pipe
    "empty",
    "no_rows",  # a header but no data rows
    "format",  # a suffix the import does not read
    "reserved",  # a column named as the app's own
    "rows",  # rows or a mapping with problems (listed)
)


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


# -- reading --
def reader(
    path: Path, encoding: str = "utf-8", types: dict[str, str] | None = None
) -> tuple[str, Params]:
    """A DuckDB table function reading ``path`` by its suffix (path bound as
    $path), and its parameters. A CSV file's columns are read as text, but
    those ``types`` names."""
    suffix = path.suffix.lower()
    if suffix in (".parquet", ".pq"):
        return "read_parquet($path)", {}
    if suffix in (".json", ".jsonl", ".ndjson"):
        return "read_json_auto($path)", {}
    if is_csv(path):
        try:
            return sniff(path, encoding).sql(types)
        except CsvUnreadable as exc:
            raise ImportFailed(f"{path.name}: {exc}", kind=exc.kind) from None
        except OSError as exc:
            raise ImportFailed(
                f"{path.name}: cannot be read: {exc.strerror or exc}",
                kind="unreadable",
            ) from None
    raise ImportFailed(
        f"{path.name}: cannot read {shorten(suffix)} files; use CSV, TSV, Parquet "
        "or JSON",
        kind="format",
    )


def is_csv(path: Path) -> bool:
    return path.suffix.lower() in (".csv", ".tsv", ".txt", "")


def _check_file(path: Path) -> None:
    try:
        str(path).encode("utf-8")
    except UnicodeEncodeError:  # bytes of a name that are not UTF-8
        shown = os.fsencode(path).decode("utf-8", "replace")
        raise ImportFailed(
            f"{shown}: its name is not UTF-8 text — rename the file (plain letters "
            "and digits) and import it again",
            kind="unreadable",
        ) from None
    try:
        st = path.stat()
    except FileNotFoundError:
        raise ImportFailed(f"{path}: no such file", kind="missing") from None
    except OSError as exc:
        raise ImportFailed(
            f"{path}: cannot be read: {exc.strerror or exc}", kind="unreadable"
        ) from None
    if path.is_dir():
        raise ImportFailed(f"{path}: is a folder, not a file", kind="folder")
    if not path.is_file():
        raise ImportFailed(
            f"{path}: is not a regular file (a device or a pipe?)", kind="not_regular"
        )
    if st.st_size == 0:
        raise ImportFailed(f"{path.name}: the file is empty", kind="empty")


# Names the staging table gives its own columns.
RESERVED = ("__row", "__name", "__value", "__none")


def describe(
    con: duckdb.DuckDBPyConnection,
    path: Path,
    encoding: str = "utf-8",
    read_as: dict[str, str] | None = None,
) -> tuple[str, Params, list[str], list[str]]:
    """The reader of ``path`` (a FROM clause, and its parameters; ``read_as``
    as ``reader``'s ``types``) and the names and types of the file's columns;
    reads no more than the header (CSV) or the schema."""
    _check_file(path)
    src, p = reader(path, encoding, read_as)
    p = {"path": str(path), **p}
    try:
        desc = con.execute(f"DESCRIBE SELECT * FROM {src}", p).fetchall()
    except duckdb.Error as exc:
        kind, why = why_unreadable(exc, encoding)
        raise ImportFailed(f"{path.name}: cannot be read: {why}", kind=kind) from None
    names = [d[0] for d in desc]
    types = [d[1] for d in desc]
    clash = [n for n in names if n.lower() in RESERVED]
    if clash:
        raise ImportFailed(
            f"{path.name}: column {shorten(clash[0])!r} has a name this app uses "
            "itself; rename it in the file",
            kind="reserved",
        )
    return src, p, names, types


def stage(
    con: duckdb.DuckDBPyConnection,
    path: Path,
    only: Sequence[str] | None = None,
    encoding: str = "utf-8",
    rows: int | None = None,
) -> tuple[list[str], list[str]]:
    """Read ``path`` into TEMP TABLE import_stage (+ __row); return the names and
    types of all the file's columns. With ``only``, just those of its columns
    are kept (a 1 GB file with a wide notes column need not sit in memory);
    with ``rows``, only the first so many rows (enough to guess from)."""
    src, p, names, types = describe(con, path, encoding)
    keep = "*"
    if only is not None:
        wanted = [c for c in dict.fromkeys(only) if c in names]
        keep = ", ".join(column_ident(c) for c in wanted) or "NULL AS __none"
    elif len(names) > PREVIEW_COLUMNS:
        # A preview of a very wide file (10,000 columns ran DuckDB out of
        # memory) reads the first columns only; an import reads what it maps.
        keep = ", ".join(column_ident(c) for c in names[:PREVIEW_COLUMNS])
        names, types = names[:PREVIEW_COLUMNS], types[:PREVIEW_COLUMNS]
    # Rows keep file order (insertion order is preserved), so rowid + 1 is the
    # data row number: no window function over the whole file. A file with a
    # column of its own called rowid hides that one: it is numbered instead.
    numbered = any(n.lower() == "rowid" for n in names)
    number = "row_number() OVER () AS __row, " if numbered else ""
    try:
        con.execute(
            "CREATE OR REPLACE TEMP TABLE import_stage_raw AS "
            f"SELECT {number}{keep} FROM {src}"
            + ("" if rows is None else f" LIMIT {int(rows)}"),
            p,
        )
        con.execute(
            "CREATE OR REPLACE TEMP VIEW import_stage AS "
            + (
                "SELECT * FROM import_stage_raw"
                if numbered
                else "SELECT rowid + 1 AS __row, * FROM import_stage_raw"
            )
        )
    except duckdb.Error as exc:
        kind, why = why_unreadable(exc, encoding)
        raise ImportFailed(f"{path.name}: cannot be read: {why}", kind=kind) from None
    n = one_row(con.execute("SELECT count(*) FROM import_stage"))[0]
    if n == 0:
        raise ImportFailed(
            f"{path.name}: has a header but no data rows", kind="no_rows"
        )
    return names, types


PREVIEW_COLUMNS = 500


def first_line(exc: Exception) -> str:
    return read_error(exc)


def guess(
    columns: Sequence[str],
    given: Mapping[str, str] | None = None,
    taken: Collection[str] = (),
) -> dict[str, str]:
    """field -> column, from header words; each column used at most once.
    A header equal to one of a field's words wins over one that only contains
    a word ('Value' over 'Throughput per chip (derived)'), and a column that
    says it is derived is never guessed as a figure: it was computed from one.

    ``given``: field -> column the user chose (kept; those columns and fields
    are not guessed again); ``taken``: fields given another way (one value
    for every row, a wide file's figures), never guessed from a column."""
    out: dict[str, str] = dict(given or {})
    used: set[str] = set(out.values())
    taken = set(taken) | set(out)
    columns = [c for c in columns if c not in used]
    lower = {c: c.lower().strip() for c in columns}

    def exact(c: str, w: str) -> bool:
        return lower[c] == w

    def within(c: str, w: str) -> bool:
        return len(w) > 2 and w in lower[c] and "derived" not in lower[c]

    for match in (exact, within):
        for fld, words in SYNONYMS.items():
            if fld in out or fld in taken:
                continue
            hit = next(
                (c for w in words for c in columns if c not in used and match(c, w)),
                None,
            )
            if hit:
                out[fld] = hit
                used.add(hit)
    return out


def left_out(
    columns: Sequence[str],
    mapping: Mapping[str, str],
    given_as: Mapping[str, str],
    guessed: bool = True,
) -> dict[str, str]:
    """column -> why the import does not read it, for each column of the
    file that ``mapping`` (field -> column) leaves out: the field its header
    suggests (``guess``) is read from another column or given as
    ``given_as[field]`` (e.g. "--unit 'images/s'"), or was not guessed
    (``guessed`` false), or its header names no field."""
    read = set(mapping.values())
    out = {}
    for col in columns:
        if col in read:
            continue
        like = next(iter(guess([col])), None)
        if like is None and "derived" in col.lower():
            out[col] = "a derived figure (computed from another), never read as one"
        elif like is None:
            out[col] = "its header names no field"
        elif like in mapping:
            out[col] = f"looks like {like}, which is read from {mapping[like]!r}"
        elif like in given_as:
            out[col] = f"looks like {like}, which is given by {given_as[like]}"
        elif not guessed:
            out[col] = f"looks like {like}; not guessed (--no-guess)"
        else:  # guess() keeps a column to one field
            out[col] = f"looks like {like}"
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


def preview(
    con: duckdb.DuckDBPyConnection, path: Path, n: int = 20, encoding: str = "utf-8"
) -> Preview:
    names, types = stage(con, path, encoding=encoding)
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
