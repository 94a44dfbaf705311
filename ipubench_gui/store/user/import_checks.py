"""What makes an imported row a problem, checked in SQL over ``import_norm``.

Usually there is no problem at all: one aggregate scan says so, together with
the counts the import needs (``summary``). Only then are the problems named,
row by row (``problems``), with the cell's text in the message.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import duckdb

from ipubench_gui.domain.metrics import NAMES, sql_list
from ipubench_gui.domain.result_rules import FIGURE_MAX, INT_MAX
from ipubench_gui.store.db import one_row
from ipubench_gui.store.user.import_csv import MAX_SHOWN, shorten
from ipubench_gui.store.user.import_read import MAX_PROBLEMS, ImportFailed, Problem
from ipubench_gui.store.user.import_sql import blank, num

# The rules of domain/result_rules (one place for every import path), in SQL:
# a count is whole, from 1 to INT_MAX; a figure finite, positive, <= FIGURE_MAX.
_WHOLE = (
    "{x} IS NULL OR NOT isfinite({x}) OR {x} < 1 OR {x} > " + str(INT_MAX) + " "
    "OR {x} <> floor({x})"
)
_POSITIVE = "{x} IS NULL OR NOT isfinite({x}) OR {x} <= 0 OR {x} > " + repr(FIGURE_MAX)
PROBLEM_CHECKS: tuple[tuple[str, str, str], ...] = (
    # (column shown, condition that is a problem, reason)
    (
        "value",
        "NOT {blank_value} AND value IS NULL",
        "not a number: ' || quote(value_raw) || '",
    ),
    (
        "value",
        "value IS NOT NULL AND (" + _POSITIVE.format(x="value") + ")",
        "must be a positive finite number below 1e15, got ' || quote(value_raw) || '",
    ),
    (
        "latency_ms",
        "NOT {blank_lat} AND (" + _POSITIVE.format(x="latency_ms") + ")",
        "not a positive latency: ' || quote(latency_raw) || '",
    ),
    (
        "batch_size",
        "NOT {blank_bs} AND (" + _WHOLE.format(x="batch_size") + ")",
        "not a batch size (a whole number from 1 to "
        f"{INT_MAX:,}): ' || quote(batch_raw) || '",
    ),
    (
        "accelerators",
        "NOT {blank_acc} AND (" + _WHOLE.format(x="accelerators") + ")",
        "not a number of accelerators (a whole number from 1 to "
        f"{INT_MAX:,}): ' || quote(accel_raw) || '",
    ),
    ("model", "NOT {blank_value} AND (model IS NULL OR model = '')", "no model named"),
    (
        "metric",
        "NOT {blank_value} AND metric IS NULL",
        "no metric: map a metric or unit column, or set the metric",
    ),
    (
        "metric",
        f"metric IS NOT NULL AND metric NOT IN {sql_list(NAMES)}",
        "unknown metric ' || quote(metric) || ' (use "
        f"{', '.join(NAMES[:-1])} or {NAMES[-1]})",
    ),
    (
        "unit",
        "NOT {blank_value} AND unit IS NULL",
        "no unit: map a unit column, or set the unit",
    ),
)
# A blank cell: no number read from it, and blank text. (The text is kept
# only where it is not a plain number, so a NULL text alone says nothing.)
_BLANKS = {
    k: f"({v} IS NULL AND {blank(raw)})"
    for k, v, raw in (
        ("blank_value", "value", "value_raw"),
        ("blank_lat", "latency_ms", "latency_raw"),
        ("blank_bs", "batch_size", "batch_raw"),
        ("blank_acc", "accelerators", "accel_raw"),
    )
}
# Fields whose value given for every row must be a number, and its rule.
_CONSTANT_RULES = {
    "batch_size": _WHOLE,
    "accelerators": _WHOLE,
    "nodes": _WHOLE,
    "latency_ms": _POSITIVE,
    "value": _POSITIVE,
}
# What makes two imported rows the same figure.
FIGURE_COLUMNS = (
    "model",
    "variant",
    "platform",
    "sdk_version",
    "framework",
    "dataset",
    "precision",
    "metric",
    "unit",
    "value",
    "latency_ms",
    "batch_size",
    "accelerators",
    "mlperf_id",
    "task",
)


def check_constants(constants: dict[str, str]) -> None:
    """A number given for every row is checked once, by the rule its column's
    cells meet (the same SQL), not reported again for each row."""
    bad = []
    x = f"({num('$v')})"
    con = duckdb.connect()
    try:
        for f, rule in _CONSTANT_RULES.items():
            if (
                f in constants
                and one_row(
                    con.execute(f"SELECT {rule.format(x=x)}", {"v": constants[f]})
                )[0]
            ):
                bad.append(f"{f} = {shorten(constants[f])!r}")
    finally:
        con.close()
    if bad:
        raise ImportFailed(
            f"not a valid value for every row: {', '.join(bad)} (batch_size, "
            f"accelerators and nodes: whole numbers from 1 to {INT_MAX:,}; "
            "latency_ms and value: positive numbers)"
        )


@dataclass(frozen=True)
class Summary:
    rows: int  # the file's data rows (unpivoted: cells)
    flagged: int  # rows with a problem (0: none)
    repeats: bool  # whether some row may repeat another exactly
    landed: int  # rows with a figure
    skipped: int  # rows without one
    extra: tuple[object, ...]  # the values of ``summary``'s ``extra``


def summary(
    con: duckdb.DuckDBPyConnection,
    extra: Mapping[str, str],
    varying: Sequence[str] = FIGURE_COLUMNS,
) -> Summary:
    """Counts over import_norm (as ``n``) in one scan, plus ``extra``
    aggregates. Whether any row may repeat another: equal hashes of the
    figure columns that vary (``varying``: the others are the same on every
    row), first of its numbers only (two rows that differ there differ;
    hashing three numbers costs about half of six columns with text), and
    only where those repeat, of them all. ``problems`` then says which."""
    conds = " OR ".join(f"({c.format(**_BLANKS)})" for _, c, _ in PROBLEM_CHECKS)
    more = "".join(f", {e}" for e in extra.values())
    numbers = [c for c in varying if c in _NUMBERS] or list(varying)
    row = one_row(
        con.execute(
            f"SELECT count(*), count(*) FILTER (WHERE {conds}), "
            f"({_repeats_sql(numbers)}), count(*) FILTER (WHERE n.value IS NOT NULL), "
            f"count(*) FILTER (WHERE {_BLANKS['blank_value']}){more} "
            "FROM import_norm n"
        )
    )
    repeats = bool(row[2])
    if repeats and len(numbers) < len(varying):
        repeats = bool(one_row(con.execute(_repeats_sql(varying)))[0])
    return Summary(
        int(row[0]),
        int(row[1]),
        repeats,
        int(row[3]),
        int(row[4]),
        extra=tuple(row[5:]),
    )


_NUMBERS = ("value", "latency_ms", "batch_size", "accelerators")


def _repeats_sql(columns: Sequence[str]) -> str:
    """SQL: whether two figures of import_norm share a hash of ``columns``."""
    return (
        "SELECT count(*) > 0 FROM (SELECT 1 FROM import_norm WHERE value IS NOT "
        f"NULL GROUP BY hash({', '.join(columns)}) HAVING count(*) > 1)"
    )


def problems(
    con: duckdb.DuckDBPyConnection, column_of: dict[str, str]
) -> tuple[list[Problem], int]:
    """The first MAX_PROBLEMS problems of import_norm, row by row, and how
    many more there are."""
    # Cell text inside quotes in messages; a temp macro is per connection.
    con.execute(
        "CREATE OR REPLACE TEMP MACRO quote(x) AS '''' || CASE WHEN "
        f"length(CAST(x AS VARCHAR)) > {MAX_SHOWN} "
        f"THEN left(CAST(x AS VARCHAR), {MAX_SHOWN - 1}) || '…' "
        "ELSE coalesce(CAST(x AS VARCHAR), '') END || ''''"
    )
    parts = [
        f"SELECT __row, '{col}' AS col, '{reason}' AS reason "
        f"FROM import_norm WHERE {cond.format(**_BLANKS)}"
        for col, cond, reason in PROBLEM_CHECKS
    ]
    # Exact duplicates by hash aggregation (a window over 15 columns of a
    # million rows costs several times more).
    dup_sql = (
        "SELECT unnest(rows[2:]) AS __row, 'row', 'repeats row ' || rows[1] || "
        "' exactly' FROM (SELECT list(__row ORDER BY __row) AS rows FROM import_norm "
        f"WHERE value IS NOT NULL GROUP BY {', '.join(FIGURE_COLUMNS)} "
        "HAVING count(*) > 1)"
    )
    # Once into a table, then the first few and the count from it.
    con.execute(
        "CREATE OR REPLACE TEMP TABLE import_problems AS "
        f"{' UNION ALL '.join(parts)} UNION ALL {dup_sql}"
    )
    rows = con.execute(
        f"SELECT * FROM import_problems ORDER BY 1, 2 LIMIT {MAX_PROBLEMS + 1}"
    ).fetchall()
    total = one_row(con.execute("SELECT count(*) FROM import_problems"))[0]
    probs = [
        Problem(int(r), column_of.get(c, c) if c != "row" else None, reason)
        for r, c, reason in rows[:MAX_PROBLEMS]
    ]
    return probs, max(0, total - MAX_PROBLEMS)
