"""Is an attached DuckDB file whole, laid out as expected, and why could it not
be opened? Damage (a file cut short, a view where a table should be, a missing
column) is told apart from a permission problem and from a lock held by
another process, since each calls for a different answer."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import duckdb

# A DuckDB file: three 4 KiB headers, then its blocks.
HEADER_BYTES = 3 * 4096
_PERMISSION = (
    "Permission denied",
    "Read-only file system",
    "Operation not permitted",
    "read-only",
)


def cut_short(con: duckdb.DuckDBPyConnection, alias: str, path: Path) -> str | None:
    """Why the database attached as ``alias`` from ``path`` is damaged (shorter
    than the blocks it uses: queries would fail later, one by one), or None.
    Cheap: no data is read. Used blocks, not all: DuckDB gives free blocks at
    the end of the file back to the disk but still counts them in its total
    (a whole file measured 1,323,008 bytes with 9 blocks of 256 KiB, 4 free)."""
    rows = con.execute(
        "SELECT used_blocks, block_size FROM pragma_database_size() "
        "WHERE database_name = $a",
        {"a": alias},
    ).fetchall()
    if not rows:
        return None
    blocks, size = rows[0]
    need = HEADER_BYTES + int(blocks) * int(size)
    have = path.stat().st_size
    if have < need:
        return f"the file is cut short ({have:,} of {need:,} bytes)"
    return None


def layout_problem(
    con: duckdb.DuckDBPyConnection, alias: str, tables: Mapping[str, tuple[str, ...]]
) -> str | None:
    """What in ``alias`` differs from ``tables`` (name -> columns it needs): a
    view in place of a table, a missing column; None when it is as expected
    (a table not there at all is fine: it is created)."""
    kinds = dict(
        con.execute(
            "SELECT table_name, 'table' FROM duckdb_tables() WHERE database_name = $a "
            "UNION ALL SELECT view_name, 'view' FROM duckdb_views() "
            "WHERE database_name = $a",
            {"a": alias},
        ).fetchall()
    )
    for table, needed in tables.items():
        kind = kinds.get(table)
        if kind is None:
            continue
        if kind != "table":
            return f"{table} is a {kind}, not a table"
        have = {
            r[0]
            for r in con.execute(
                "SELECT column_name FROM duckdb_columns() WHERE database_name = $a "
                "AND table_name = $t",
                {"a": alias, "t": table},
            ).fetchall()
        }
        missing = [c for c in needed if c not in have]
        if missing:
            return f"{table} lacks column(s) {', '.join(missing)}"
    return None


def is_permission(exc: BaseException) -> bool:
    """The error says the file or folder may not be written, not that it is
    damaged."""
    return any(p in str(exc) for p in _PERMISSION)


def lock_holder(exc: BaseException) -> str | None:
    """``"process 1234"`` when the error is another process's lock, else None."""
    text = str(exc)
    if "lock" not in text.lower():
        return None
    pid = re.search(r"PID (\d+)", text)
    return f"process {pid[1]}" if pid else "another process"


def reason(exc: BaseException) -> str:
    """An error's first line without DuckDB's class prefix."""
    first = str(exc).strip().split("\n", 1)[0]
    return re.sub(r"^[A-Za-z ]*Error: ", "", first)[:200]
