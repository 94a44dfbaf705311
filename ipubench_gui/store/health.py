"""Is an attached DuckDB file whole, laid out as expected, and why could it not
be opened? Damage (a file cut short, a view where a table should be, a missing
column) is told apart from a permission problem and from a lock held by
another process, since each calls for a different answer."""

from __future__ import annotations

import os
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
    (a whole file can be shorter than its total of blocks times their size)."""
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


# DuckDB's own words for a file another process holds (its lock error); a
# word like "lock" alone is no sign: it is inside "block" of a checksum error.
_LOCK_ERROR = "Could not set lock on file"
# ...and for a file that is damaged, at opening or when a block is read.
_DAMAGE = (
    "Corrupt database file",
    "not a valid DuckDB database file",
    "checksum",
    "Failed to read database header",
    "database file is truncated",
)


def lock_pid(exc: BaseException) -> int | None:
    """The process id DuckDB's lock error names (0: it names none); None when
    the error is not another process's lock."""
    text = str(exc)
    if _LOCK_ERROR not in text:
        return None
    pid = re.search(r"\(PID (\d+)\)", text)
    return int(pid[1]) if pid else 0


def lock_holder(exc: BaseException) -> str | None:
    """``"process 1234 (ipubench-gui import a.csv)"`` when the error is another
    process's lock (DuckDB's lock error itself), else None."""
    pid = lock_pid(exc)
    if pid is None:
        return None
    return describe_process(pid) if pid else "another process"


def describe_process(pid: int) -> str:
    """``process 1234``, with what it runs where the system says (Linux)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            argv = [a.decode("utf-8", "replace") for a in f.read(4096).split(b"\0")]
    except OSError:
        return f"process {pid}"
    argv = [a for a in argv if a]
    # "python -m ipubench_gui import a.csv" reads as "ipubench-gui import a.csv"
    for i, a in enumerate(argv):
        if a.split(".")[0] == "ipubench_gui" or a.endswith("ipubench-gui"):
            rest = [Path(x).name if "/" in x else x for x in argv[i + 1 :]]
            what = (
                " ".join(["ipubench-gui", *rest]) if rest else "the ipubench-gui window"
            )
            return f"process {pid}: {what[:80]}"
    return f"process {pid}: {Path(argv[0]).name if argv else 'unknown'}"


def is_damage(exc: BaseException) -> bool:
    """DuckDB says the file is damaged (a bad checksum, a bad header)."""
    text = str(exc)
    return any(d in text for d in _DAMAGE)


def reason(exc: BaseException) -> str:
    """An error's first line without DuckDB's class prefix."""
    first = str(exc).strip().split("\n", 1)[0]
    return re.sub(r"^[A-Za-z ]*Error: ", "", first)[:200]


def damage_mark(path: Path) -> Path:
    """The note left beside a database found damaged while in use."""
    return path.with_name(path.name + ".damaged")


def mark_damaged(path: Path, exc: BaseException) -> None:
    """Leave a note that ``path`` was found damaged (a block that failed its
    checksum during a query): the next start sets the file aside, as it does
    a file that cannot be opened. Best effort: a folder that cannot be
    written leaves the file as it is."""
    try:
        damage_mark(path).write_text(reason(exc) + "\n", encoding="utf-8")
    except OSError:
        pass


def marked_damaged(path: Path) -> str | None:
    """Why ``path`` was marked damaged, or None when it was not."""
    mark = damage_mark(path)
    try:
        if not mark.is_file() or mark.stat().st_size > 4096:
            return None
        return mark.read_text(encoding="utf-8", errors="replace").strip() or "damaged"
    except OSError:
        return None


def file_stamp(path: Path) -> tuple[int, ...] | None:
    """What tells one state of a DuckDB file (and its WAL) from another;
    None when there is no file."""
    out: list[int] = []
    for p in (path, path.with_name(path.name + ".wal")):
        try:
            st = os.stat(p)
        except OSError:
            out += [0, 0, 0]
            continue
        out += [st.st_ino, st.st_size, st.st_mtime_ns]
    return tuple(out) if out[:3] != [0, 0, 0] else None
