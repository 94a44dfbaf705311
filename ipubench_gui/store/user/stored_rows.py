"""Rows of a file being imported that are already stored: repeats of an earlier
row of the same file, or figures an earlier import stored.

Without "skip rows already stored" (``import --skip-existing``) each such row
is a problem and nothing is imported; with it they are left out and counted.
Two rows are the same figure when every column of ``FIGURE_COLUMNS`` is equal
(blank equal to blank), compared as they would be stored.
"""

from __future__ import annotations

import duckdb

from ipubench_gui.store.db import one_row
from ipubench_gui.store.user.import_checks import FIGURE_COLUMNS
from ipubench_gui.store.user.import_read import Problem
from ipubench_gui.store.user.user_tables import USER_COLUMNS, all_rows

# What makes two imported rows the same figure (import_checks says it once).
FIGURE = FIGURE_COLUMNS
HINT = (
    "Choose 'Skip rows already stored' (import --skip-existing) to import "
    "only the others."
)


def _stored_form(landed: dict[str, str]) -> str:
    """import_norm's figures as they would be stored (``landed``: importer.LANDED).
    TRY_CAST: a row with a problem (a batch size past INTEGER) is reported by
    the checks, not by a conversion error here."""
    cols = ", ".join(
        f"{landed[c].replace('CAST(', 'TRY_CAST(')} AS {c}" for c in FIGURE
    )
    return (
        f"SELECT n.__rid, n.__row, {cols} FROM import_norm n WHERE n.value IS NOT NULL"
    )


def _has_imports(con: duckdb.DuckDBPyConnection) -> bool:
    return bool(one_row(con.execute("SELECT count(*) > 0 FROM u.imports"))[0])


def _key(alias: str) -> str:
    """SQL: one hash of a figure's FIGURE columns, each in its stored type."""
    typed = ", ".join(
        f"CAST({alias}.{c} AS {USER_COLUMNS[c].split()[0]})" for c in FIGURE
    )
    return f"hash({typed})"


def _any_stored(landed: dict[str, str], con: duckdb.DuckDBPyConnection) -> bool:
    """Whether any new figure may be stored already: equal hashes, one BIGINT
    a figure (the exact join over fifteen columns is dear over large imports;
    this rules most imports out)."""
    if not _has_imports(con):
        return False
    sql = (
        f"SELECT count(*) > 0 FROM (SELECT {_key('n')} AS h FROM "
        f"({_stored_form(landed)}) n) a SEMI JOIN (SELECT {_key('s')} AS h FROM "
        f"({all_rows(con)}) s) b USING (h)"
    )
    return bool(one_row(con.execute(sql))[0])


def _matches_sql(landed: dict[str, str], con: duckdb.DuckDBPyConnection) -> str:
    """SQL: (__rid, __row, source label, stored row) of each new figure an
    earlier import stored (the first such, when several)."""
    on = " AND ".join(f"s.{c} IS NOT DISTINCT FROM n.{c}" for c in FIGURE)
    return f"""
        SELECT n.__rid, n.__row, arg_min(i.label, s.source_id) AS label,
               arg_min(s.row, s.source_id) AS stored_row
        FROM ({_stored_form(landed)}) n
        JOIN ({all_rows(con)}) s ON {on}
        JOIN u.imports i ON i.source_id = s.source_id
        GROUP BY n.__rid, n.__row"""


def already_stored(
    con: duckdb.DuckDBPyConnection, landed: dict[str, str], most: int
) -> tuple[list[Problem], int]:
    """Figures of import_norm an earlier import stored: the first ``most`` as
    problems, and how many more."""
    if not _any_stored(landed, con):
        return [], 0
    rows = con.execute(
        f"SELECT __row, label, stored_row FROM ({_matches_sql(landed, con)}) "
        "ORDER BY __row"
    ).fetchall()
    probs = [
        Problem(
            int(r),
            None,
            f"already stored by the import {label!r}"
            + (f" (its row {row})" if row is not None else ""),
        )
        for r, label, row in rows[:most]
    ]
    return probs, max(0, len(rows) - most)


def skip(con: duckdb.DuckDBPyConnection, landed: dict[str, str]) -> int:
    """Leave out of import_norm (a view over import_norm_t, whose rowid is its
    __rid) every figure that repeats an earlier one of the file or that an
    earlier import stored; return how many were left out."""
    form = _stored_form(landed)
    before = one_row(con.execute("SELECT count(*) FROM import_norm_t"))[0]
    con.execute(
        f"DELETE FROM import_norm_t WHERE rowid IN (SELECT __rid FROM ({form}) "
        f"WHERE __rid NOT IN (SELECT min(__rid) FROM ({form}) "
        f"GROUP BY {', '.join(FIGURE)}))"
    )
    if _any_stored(landed, con):
        con.execute(
            "DELETE FROM import_norm_t WHERE rowid IN "
            f"(SELECT __rid FROM ({_matches_sql(landed, con)}))"
        )
    after = one_row(con.execute("SELECT count(*) FROM import_norm_t"))[0]
    return int(before - after)
