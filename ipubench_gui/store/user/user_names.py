"""Names of imported rows: given canonical names in a user database from before
them, and told back after an import ("ResNet50 → ResNet-50 v1.5 (alias)").

Apart from ``store/user/aliases.py``, which ``store/user/user_tables.py`` (the
views over imported rows) reads: these read both.
"""

from __future__ import annotations

import duckdb

from ipubench_gui.store.bundled.sources import NAMED_COLUMNS
from ipubench_gui.store.db import one_row
from ipubench_gui.store.user import aliases
from ipubench_gui.store.user.user_cube import held_columns, recount_user_cube
from ipubench_gui.store.user.user_tables import KEY, all_rows, held, rows_of


def upgrade_user_names(con: duckdb.DuckDBPyConnection) -> bool:
    """A user database from before canonical names: resolve its names and
    recount its facets (the cube held names as printed, and lacked the
    columns added since). Returns whether it had to. Cheap when there is
    nothing to do (one count)."""
    have = held_columns(con)
    added = ("other_names", "search_text", "unit_family")
    todo = not set(added) <= have
    for column in added:
        if column not in have:
            con.execute(f"ALTER TABLE u.user_cube ADD COLUMN {column} VARCHAR")
    if (
        not todo
        and one_row(
            con.execute(
                "SELECT (SELECT count(*) FROM u.user_names) = 0 "
                "AND EXISTS (SELECT 1 FROM u.imports)"
            )
        )[0]
    ):
        todo = True
    if todo:
        cat = aliases.user_catalogue(con)
        aliases.refresh_user_names(con, cat, all_rows(con))
        aliases.refresh_user_names(con, cat, aliases.USER_MLPERF)
        aliases.refresh_user_names(con, cat, aliases.USER_INFERENCE)
        aliases.refresh_name_rows(con)
        recount_user_cube(con)
        aliases.define_combined_views(con)  # the facet counts' table
    return todo


def import_labels(
    con: duckdb.DuckDBPyConnection, source_id: int, most: int | None = None
) -> list[tuple[str, str]]:
    """(kind, "ResNet50 → ResNet-50 v1.5 (alias)") for every name of one
    import that is not already canonical; "X (not recognised)" for unknowns.
    With ``most``, at most that many per kind, then (kind, "… and N more:
    R renamed, U not recognised"): a million distinct names are summed up,
    not listed (nor held in memory)."""
    keyed = KEY in held(con).get(int(source_id), {KEY})
    # The import's name sets: a few rows, not its figures.
    rows = (
        f"SELECT * FROM u.user_name_sets WHERE source_id = {int(source_id)}"
        if keyed
        else rows_of(int(source_id), keyed=False)
    )
    out = []
    for col, kind in NAMED_COLUMNS.items():
        shown = (
            f"FROM u.user_names n WHERE n.kind = '{kind}' AND n.spelling IN "
            f'(SELECT DISTINCT CAST("{col}" AS VARCHAR) FROM ({rows})) '
            "AND (n.how = 'not recognised' OR n.spelling <> n.canonical)"
        )
        limit = "" if most is None else f" LIMIT {int(most)}"
        got = con.execute(
            f"SELECT n.spelling, n.canonical, n.how {shown} ORDER BY 1{limit}"
        ).fetchall()
        for spelling, canonical, how in got:
            if how == "not recognised":
                out.append((kind, f"{spelling} (not recognised)"))
            else:
                out.append((kind, f"{spelling} → {canonical} ({how})"))
        if most is not None and len(got) == most:
            total, unknown = one_row(
                con.execute(
                    "SELECT count(*), count(*) FILTER (WHERE n.how = "
                    f"'not recognised') {shown}"
                )
            )
            if total > most:
                out.append(
                    (
                        kind,
                        f"… and {total - most:,} more: {total - unknown:,} "
                        f"renamed, {unknown:,} not recognised in all",
                    )
                )
    return out
