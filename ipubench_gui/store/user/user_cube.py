"""The facet counts of the user's imported rows (``u.user_cube``), counted from
the views that give those rows their canonical names."""

from __future__ import annotations

import duckdb

# The views of imported rows, each giving them their canonical names: figures
# of files (user_tables.py) and MLPerf results (userdb.USER_MLPERF_V,
# userdb.USER_INFERENCE_V).
USER_VIEWS = ("user_results_v", "user_mlperf_v", "user_inference_v")


def count_user_cube(
    con: duckdb.DuckDBPyConnection, view: str, source_id: int | None = None
) -> None:
    """Add the facet counts of the imported rows of ``view`` (one of
    USER_VIEWS), of one import or of all."""
    if view not in USER_VIEWS:
        raise ValueError(view)
    where = "" if source_id is None else "WHERE source_id = $id"
    params = {} if source_id is None else {"id": source_id}
    con.execute(
        f"INSERT INTO u.user_cube BY NAME SELECT {_cube_columns(con, view)}, "
        f"count(*) AS n, source_id FROM {view} {where} GROUP BY ALL",
        params,
    )


def held_columns(con: duckdb.DuckDBPyConnection) -> set[str]:
    """The columns the user's facet cube has (an older one lacks some)."""
    return {
        r[0]
        for r in con.execute(
            "SELECT column_name FROM duckdb_columns() WHERE database_name = 'u' "
            "AND table_name = 'user_cube'"
        ).fetchall()
    }


def _cube_columns(con: duckdb.DuckDBPyConnection, view: str) -> str:
    """The columns of the user's facet cube that ``view`` gives (an imported
    file's rows have no MLPerf facets; an older cube lacks some)."""
    have = held_columns(con)
    given = [d[0] for d in con.execute(f"SELECT * FROM {view} LIMIT 0").description]
    return ", ".join(f'"{c}"' for c in given if c in have - {"n", "source_id"})


def recount_user_cube(con: duckdb.DuckDBPyConnection) -> None:
    """The facet counts of every imported row (files and MLPerf results) from
    the views that give them their canonical names."""
    con.execute("DELETE FROM u.user_cube")
    for view in USER_VIEWS:
        count_user_cube(con, view)
