"""The SQL that turns a file's text cells into figures (one normalised row each).

Numbers lose thousands separators and trailing units ("1,260,000",
"0.58 ms"), "23h 43m" becomes minutes, names are trimmed, blanks become NULL.
Identifiers are the file's own column names, always quoted; values given for
every row are parameters. A million rows never pass through Python.
"""

from __future__ import annotations

from dataclasses import dataclass

from ipubench_gui.domain.import_spec import FIELDS, ImportSpec
from ipubench_gui.store.db import Params
from ipubench_gui.store.user.import_csv import shorten
from ipubench_gui.store.user.import_read import (
    ImportFailed,
    column_ident,
    delimiter_hint,
)

# A number (optionally with thousands separators and exponent), then a unit.
NUM_RE = (
    r"^\s*([-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?)"
    r"\s*([A-Za-z/%µ]*)\s*$"
)
HM_RE = r"^\s*(\d+)\s*h\s*(\d+)\s*m\s*$"


def num(expr: str) -> str:
    """SQL: a number from text with separators and an optional unit; NULL if not.

    A plain cast first: most cells are plain numbers, and the regex (for
    "1,260,000" or "0.58 ms") then runs only on the rest (coalesce evaluates
    an argument only for the rows still NULL).
    """
    x = f"CAST({expr} AS VARCHAR)"
    return (
        f"coalesce(TRY_CAST({x} AS DOUBLE), TRY_CAST(replace(regexp_extract("
        f"{x}, '{NUM_RE}', 1), ',', '') AS DOUBLE))"
    )


def blank(expr: str) -> str:
    return f"({expr} IS NULL OR trim(CAST({expr} AS VARCHAR)) = '')"


def _suffix(expr: str) -> str:
    return f"regexp_extract(CAST({expr} AS VARCHAR), '{NUM_RE}', 2)"


def _metric_from_unit(unit: str) -> str:
    return (
        f"CASE WHEN lower({unit}) LIKE '%latency%' OR lower({unit}) IN ('ms', 's') "
        f"THEN 'latency' WHEN {unit} LIKE '%/s%' OR lower({unit}) LIKE '%per s%' "
        "THEN 'throughput' END"
    )


def some(names: list[str], most: int = 12) -> str:
    """Up to ``most`` column names, for a message."""
    shown = ", ".join(repr(shorten(n, 40)) for n in names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most else "")


def check_mapping(spec: ImportSpec, names: list[str]) -> None:
    """Every mapped column is one of the file's, every field one we know."""
    unknown = [c for c in [*spec.columns.values(), *spec.unpivot] if c not in names]
    if unknown:
        raise ImportFailed(
            f"{spec.path.name}: no column called "
            f"{', '.join(repr(shorten(c)) for c in unknown[:5])}; the file has "
            f"{some(names)}{delimiter_hint(names)}"
        )
    bad = [f for f in [*spec.columns, *spec.constants] if f not in FIELDS]
    if bad:
        raise ImportFailed(
            f"unknown field {', '.join(shorten(b) for b in bad[:5])}; use one of "
            f"{', '.join(FIELDS)}"
        )
    if spec.unpivot and spec.unpivot_into not in FIELDS:
        raise ImportFailed(f"cannot unpivot into {spec.unpivot_into!r}")


def unpivot_source(spec: ImportSpec) -> str:
    """FROM clause: the staged file (import_stage) with one row per cell of
    ``spec.unpivot``, its column name in __name and its text in __value."""
    mapped = dict.fromkeys(spec.columns.values())
    keep = ", ".join(column_ident(c) for c in mapped if c not in spec.unpivot)
    on = ", ".join(
        f"CAST({column_ident(c)} AS VARCHAR) AS {column_ident(c)}" for c in spec.unpivot
    )
    return (
        f"(UNPIVOT (SELECT __row, {keep + ', ' if keep else ''}{on} "
        f"FROM import_stage) ON {', '.join(column_ident(c) for c in spec.unpivot)} "
        f"INTO NAME __name VALUE __value)"
    )


# Fields that hold numbers.
NUMBER_FIELDS = ("value", "latency_ms", "batch_size", "accelerators", "nodes")
# Types whose values are numbers as they are (a FLOAT is not: its text,
# "0.1", is what the file meant).
NUMBER_TYPES = ("DOUBLE", "BIGINT", "INTEGER", "SMALLINT", "TINYINT", "HUGEINT")


class _Cells:
    """SQL for each field's cells: its column's, its constant, or NULL."""

    def __init__(self, spec: ImportSpec, types: dict[str, str], full: bool) -> None:
        self.cols = dict(spec.columns)
        if spec.unpivot:
            self.cols["value"] = "__value"
            self.cols[spec.unpivot_into] = "__name"
        self.constants = spec.constants
        self.types = types
        self.full = full
        self.params: Params = {}

    def given(self, f: str) -> bool:
        return f in self.cols or f in self.constants

    def is_number(self, f: str) -> bool:
        """Whether the field's column is read as numbers, not text."""
        return f in self.cols and self.types.get(self.cols[f]) in NUMBER_TYPES

    def number(self, f: str) -> str:
        """The field as a number (NULL where its text is not one)."""
        if self.is_number(f):
            return f"CAST({column_ident(self.cols[f])} AS DOUBLE)"
        return num(self(f))

    def raw(self, f: str) -> str:
        """The field's text as kept for problem reports and value_as_printed:
        all of it (``full``), or only where it is not a plain number (the rest
        is NULL: most cells, and nothing to keep)."""
        if self.full:
            return self(f)
        if self.is_number(f):
            return "CAST(NULL AS VARCHAR)"
        return f"CASE WHEN TRY_CAST({self(f)} AS DOUBLE) IS NULL THEN {self(f)} END"

    def __call__(self, f: str) -> str:
        """The field's text."""
        if f in self.cols:
            c = self.cols[f]
            if self.types.get(c) == "JSON":
                # JSON columns mixing numbers and strings arrive as JSON text
                # ('"x"'); only those need unquoting.
                return (
                    f"regexp_replace(CAST({column_ident(c)} AS VARCHAR), "
                    "'^\"(.*)\"$', '\\1')"
                )
            return f"CAST({column_ident(c)} AS VARCHAR)"
        if f in self.constants:
            self.params[f"c_{f}"] = self.constants[f]
            return f"CAST($c_{f} AS VARCHAR)"
        return "CAST(NULL AS VARCHAR)"


def _value(cell: _Cells) -> str:
    """SQL: the figure from its text: a number, "23h 43m" in minutes, or a
    number with separators and a unit."""
    if cell.is_number("value"):
        return cell.number("value")
    v = cell("value")
    return (
        f"coalesce(TRY_CAST({v} AS DOUBLE), CASE WHEN regexp_full_match("
        f"coalesce({v}, ''), '{HM_RE}') THEN CAST(regexp_extract({v}, '{HM_RE}', 1) "
        f"AS DOUBLE) * 60 + CAST(regexp_extract({v}, '{HM_RE}', 2) AS DOUBLE) "
        f"END, {num(v)})"
    )


def _trim(text: str) -> str:
    """SQL: ``text`` without spaces at either end; trims only the cells that
    have them (trim() copies every string, a cost per column of a large file)."""
    return (
        f"CASE WHEN starts_with({text}, ' ') OR ends_with({text}, ' ') "
        f"THEN trim({text}) ELSE {text} END"
    )


def _columns(cell: _Cells) -> dict[str, str]:
    """Each normalised column, as SQL over the source's cells."""
    # A unit read from the cells ("0.58 ms") or a metric inferred from the unit
    # only when the user gave neither: these regexes are the dearest part of
    # reading a large file.
    unit = f"nullif({_trim(cell('unit'))}, '')"
    if not cell.given("unit") and not cell.is_number("value"):
        unit = f"coalesce({unit}, nullif({_suffix(cell('value'))}, ''))"
    metric = f"nullif(lower(trim({cell('metric')})), '')"
    if not cell.given("metric"):
        metric = f"coalesce({metric}, {_metric_from_unit(unit)})"
    accel = cell.number("accelerators")
    if "nodes" in cell.cols:  # MLPerf: accelerators are per node
        accel = f"({accel}) * coalesce({cell.number('nodes')}, 1)"
    texts = {
        f: f"nullif({_trim(cell(f))}, '')"
        for f in (
            "variant",
            "platform",
            "sdk_version",
            "framework",
            "dataset",
            "precision",
            "mlperf_id",
            "division",
        )
    }
    return {
        "model": _trim(cell("model")),
        **texts,
        "task": f"nullif(lower(trim({cell('task')})), '')",
        "metric": metric,
        "unit": unit,
        "value": _value(cell),
        "value_raw": cell.raw("value"),
        "latency_ms": cell.number("latency_ms"),
        "latency_raw": cell.raw("latency_ms"),
        "batch_size": cell.number("batch_size"),
        "batch_raw": cell.raw("batch_size"),
        "accelerators": accel,
        "accel_raw": cell.raw("accelerators"),
    }


@dataclass(frozen=True)
class Normalised:
    """The SQL of the normalised rows, in two parts: ``rows`` (a SELECT over
    the file, one row per figure) has the columns read from the file's cells,
    ``shared`` (a SELECT of one row) those that are the same for every row
    (from values given for the whole file, or NULL)."""

    rows: str
    shared: str
    params: Params
    varies: frozenset[str]

    def bound(self, sql: str) -> Params:
        """The parameters ``sql`` (one of the two) uses."""
        return {k: v for k, v in self.params.items() if f"${k}" in sql}


def normalised_sql(
    spec: ImportSpec,
    names: list[str],
    types: dict[str, str] | None = None,
    src: str | None = None,
    full: bool = True,
) -> Normalised:
    """The normalised rows of ``spec``'s file, with the cells' text kept for
    problem reports (``full``: all of it; else only where not a plain
    number). Over ``src``, a FROM clause giving the file's columns (a reader:
    the rows are numbered by the table this lands in), or by default over
    import_stage and its __row."""
    check_mapping(spec, names)
    row = "__row" if src is None or spec.unpivot else None
    if spec.unpivot:
        src = unpivot_source(spec)
    cell = _Cells(spec, types or {}, full)
    sel = _columns(cell)
    # A column is read from the cells when its SQL names one of them.
    idents = [column_ident(c) for c in cell.cols.values()]
    varies = {k for k, e in sel.items() if any(i in e for i in idents)}
    rows = ", ".join(f"{e} AS {column_ident(k)}" for k, e in sel.items() if k in varies)
    shared = ", ".join(
        f"{e} AS {column_ident(k)}" for k, e in sel.items() if k not in varies
    )
    return Normalised(
        f"SELECT {(row + ', ') if row else ''}{rows or 'NULL AS __none'} "
        f"FROM {src or 'import_stage'}",
        f"SELECT {shared or 'NULL AS __nothing_shared'}",
        cell.params,
        frozenset(varies),
    )
