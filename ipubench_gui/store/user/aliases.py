"""The names of imported rows and the user's aliases: ``u.user_names`` (each
name as printed resolved), ``u.user_aliases`` ("treat RN-50 as ResNet-50"),
the store's catalogue with those aliases on top, and the views combining the
bundled rows with the imported ones (whose search text follows the aliases).
How a name is resolved, and the SQL that gives a row its canonical names,
is ``store/bundled/names.py``'s, shared with the bundled rows.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import duckdb

from ipubench_gui.domain.entities import KINDS, Catalogue, EntityError
from ipubench_gui.store.bundled.names import (
    catalogue_of,
    insert,
    name_rows,
    resolved_sql,
)
from ipubench_gui.store.bundled.sources import NAMED_COLUMNS
from ipubench_gui.store.db import Database, one_row
from ipubench_gui.store.query.cache import cache_of
from ipubench_gui.store.user.user_cube import recount_user_cube

# Every import's name sets (u.user_name_sets: one row per distinct combination
# of names as printed) with their names resolved, in the connection's own
# in-memory catalog: made again whenever what they are resolved by may have
# changed (opening, an import, an alias), so never stale, and nothing new in
# the user's file. The view of imported figures joins it, not the ten joins
# of ``resolved_sql``: planned and built for every query, those made a filter
# change over many imported figures markedly slower (tests/bench: import).
NAME_ROWS = "user_name_rows"


def refresh_name_rows(con: duckdb.DuckDBPyConnection) -> None:
    """(Re)make NAME_ROWS from u.user_name_sets (none in a read-only user
    database from before them, which has no keyed imports either)."""
    has_sets = one_row(
        con.execute(
            "SELECT count(*) FROM duckdb_tables() WHERE database_name = 'u' "
            "AND table_name = 'user_name_sets'"
        )
    )[0]
    if not has_sets:
        con.execute(f"DROP TABLE IF EXISTS {NAME_ROWS}")
        return
    rows = resolved_sql("SELECT * FROM u.user_name_sets")
    con.execute(f"CREATE OR REPLACE TABLE {NAME_ROWS} AS {rows}")


USER_NAMES = """
CREATE TABLE IF NOT EXISTS u.user_names (
    kind        VARCHAR NOT NULL,
    spelling    VARCHAR NOT NULL,
    canonical   VARCHAR NOT NULL,
    how         VARCHAR NOT NULL,
    other_names VARCHAR NOT NULL,
    PRIMARY KEY (kind, spelling)
);
CREATE TABLE IF NOT EXISTS u.user_aliases (
    kind       VARCHAR NOT NULL,
    alias      VARCHAR NOT NULL,
    canonical  VARCHAR NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (kind, alias)
);
"""


def of(db: Database) -> Catalogue:
    """The catalogue of ``db``, with the user's aliases when a user database
    is attached; kept in its StoreCache until the data changes."""
    cache = cache_of(db)
    with cache.lock:
        cat, generation = cache.catalogue, cache.generation
    if cat is None:
        status = db.user_status
        cat = user_catalogue(db.cursor(), user=bool(status and status.path))
        cache.keep_catalogue(cat, generation)
    return cat


def user_catalogue(
    con: duckdb.DuckDBPyConnection, user: bool = True, schema: str = ""
) -> Catalogue:
    """The store's catalogue with the user's aliases (``u.user_aliases``) on
    top; an alias whose target no longer exists is left out."""
    cat = catalogue_of(con, schema)
    if not user:
        return cat
    for kind, alias, canon in con.execute(
        "SELECT kind, alias, canonical FROM u.user_aliases ORDER BY created_at"
    ).fetchall():
        try:
            cat = cat.with_aliases([(kind, alias, canon)])
        except EntityError:
            continue
    return cat


# The user's aliases as search text of the bundled rows (whose other_names the
# store built without them): "treat RN-50 (ours) as ResNet-50 v1.5" makes a
# search for "rn-50 (ours)" find every ResNet-50 v1.5 row, as it finds the
# imported ones (their other_names are resolved with the user's aliases).
USER_ALIAS_NAMES = """
CREATE OR REPLACE VIEW user_alias_names AS
SELECT kind, canonical,
       string_agg(DISTINCT lower(alias), ' | ' ORDER BY lower(alias)) AS names
FROM u.user_aliases
GROUP BY kind, canonical
"""


def with_user_aliases(table: str) -> str:
    """SQL giving ``table`` (a bundled table of rows named by model and
    dataset: b.results_v, b.facet_cube) with the user's aliases of their model
    and dataset in its search text (``other_names``, and ``search_text``
    which ends with it)."""
    return f"""
SELECT r.* REPLACE (
    concat_ws(' | ', r.other_names, am.names, ad.names) AS other_names,
    concat_ws(' | ', r.search_text, am.names, ad.names) AS search_text
)
FROM {table} r
LEFT JOIN user_alias_names am ON am.kind = 'model' AND am.canonical = r.model
LEFT JOIN user_alias_names ad ON ad.kind = 'dataset' AND ad.canonical = r.dataset
"""


# The facet counts of bundled and imported rows in one table of the
# connection's own in-memory catalog, ``facet_cube`` itself (not a view over
# it), made again with the views (after every change to the user's cube or
# aliases): a few thousand rows, where the union of two tables cost a filter
# change's facet counts twice the planning and scanning of one.


def define_combined_views(con: duckdb.DuckDBPyConnection) -> None:
    """``results_v`` and ``facet_cube`` of a connection with a user database:
    the bundled rows, then the imported ones. The bundled rows' search text
    takes the user's aliases (a join) only while there are any: the join made
    a filter change with a search term markedly slower (tests/bench: names).
    Imported MLPerf results are in only while there are any: planning their
    view cost every query over results_v more than a whole query over the
    bundled rows. Defined again when the aliases, the
    imports or their facet counts change."""
    aliases = one_row(con.execute("SELECT count(*) FROM u.user_aliases"))[0]
    mlperf = one_row(con.execute("SELECT count(*) FROM u.user_mlperf"))[0]
    inference = one_row(con.execute("SELECT count(*) FROM u.user_mlperf_inference"))[0]

    def bundled(table: str) -> str:
        return with_user_aliases(table) if aliases else f"SELECT * FROM {table}"

    con.execute(USER_ALIAS_NAMES)
    imported = [
        "user_results_v",
        *(["user_mlperf_v"] if mlperf else []),
        *(["user_inference_v"] if inference else []),
    ]
    con.execute(
        f"CREATE OR REPLACE VIEW results_v AS {bundled('b.results_v')} "
        + "".join(
            f"UNION ALL BY NAME SELECT * EXCLUDE (source_id) FROM {v} "
            for v in imported
        )
    )
    con.execute(
        f"CREATE OR REPLACE TABLE facet_cube AS {bundled('b.facet_cube')} "
        "UNION ALL BY NAME SELECT * EXCLUDE (source_id) FROM u.user_cube"
    )


def add_user_alias(
    con: duckdb.DuckDBPyConnection, kind: str, alias: str, canonical: str
) -> str:
    """Save "treat ``alias`` as ``canonical``" in the user database; returns the
    canonical name; raises ``EntityError`` when it cannot mean that."""
    cat = user_catalogue(con).with_aliases([(kind, alias, canonical)])
    name = cat.canonical(kind, canonical) or canonical
    con.execute(
        "INSERT OR REPLACE INTO u.user_aliases VALUES ($k, $a, $c, current_timestamp)",
        {"k": kind, "a": alias, "c": name},
    )
    return name


def refresh_user_names(
    con: duckdb.DuckDBPyConnection, cat: Catalogue, rows: str
) -> int:
    """Resolve the names of imported rows (``rows``: SQL giving them, names as
    printed) that ``u.user_names`` does not hold yet; returns how many it
    added. Usually a few thousand distinct names, whatever the number of
    rows; a file of a million distinct names is resolved NAMES_CHUNK at a
    time (held whole in Python, they took the import's memory past what a
    laptop can spare)."""
    selects = " UNION ".join(
        f"SELECT '{kind}' AS kind, CAST(r.\"{col}\" AS VARCHAR) AS spelling "
        f'FROM ({rows}) r WHERE r."{col}" IS NOT NULL'
        for col, kind in NAMED_COLUMNS.items()
    )
    # a temp table (allowed inside the import's transaction), read in pieces
    con.execute(
        "CREATE OR REPLACE TEMP TABLE new_names AS SELECT *, row_number() OVER "
        f"(ORDER BY kind, spelling) AS i FROM ({selects}) x "
        "WHERE NOT EXISTS (SELECT 1 FROM u.user_names n WHERE n.kind = x.kind "
        "AND n.spelling = x.spelling)"
    )  # numbered: rows of a transaction not yet committed have no small rowid
    added = 0
    try:
        total = one_row(con.execute("SELECT count(*) FROM new_names"))[0]
        for start in range(0, total, NAMES_CHUNK):
            got = con.execute(
                "SELECT kind, spelling FROM new_names WHERE i > $a AND i <= $b",
                {"a": start, "b": start + NAMES_CHUNK},
            ).fetchall()
            by_kind: dict[str, list[str]] = defaultdict(list)
            for kind, spelling in got:
                by_kind[kind].append(spelling)
            out = name_rows(cat, {k: set(v) for k, v in by_kind.items()})
            insert(con, "u.user_names", out, 5)
            added += len(out)
    finally:
        con.execute("DROP TABLE IF EXISTS new_names")
    return added


NAMES_CHUNK = 50_000


def rename_user_rows(con: duckdb.DuckDBPyConnection, cat: Catalogue) -> None:
    """Resolve every name of imported rows again (after a user alias changed):
    ``u.user_names`` is rewritten, and NAME_ROWS made again from it; the rows
    are not touched, and the facet counts of imports are recounted."""
    _rewrite_user_names(con, cat)
    renamed_after_commit(con)


def _rewrite_user_names(con: duckdb.DuckDBPyConnection, cat: Catalogue) -> None:
    """``u.user_names`` resolved again by ``cat`` (writes the user database
    only: may run inside a transaction of it)."""
    kinds: dict[str, set[str]] = defaultdict(set)
    for kind, spelling in con.execute(
        "SELECT kind, spelling FROM u.user_names"
    ).fetchall():
        kinds[kind].add(spelling)
    con.execute("DELETE FROM u.user_names")
    insert(con, "u.user_names", name_rows(cat, kinds), 5)


def save_aliases(
    con: duckdb.DuckDBPyConnection, wanted: Sequence[tuple[str, str, str]]
) -> list[tuple[str, str, str]]:
    """Save each (kind, alias, canonical) of ``wanted`` (kind "": the kind
    that knows the canonical name, else model) and resolve the imported
    rows' names again; writes the user database only, so it can be part of
    an import's transaction (all or nothing). Returns (alias, canonical,
    kind) as saved; raises EntityError when one cannot mean that. The caller
    runs ``renamed_after_commit`` once the transaction is committed."""
    saved = []
    for kind, alias, canonical in wanted:
        if not kind:
            cat = user_catalogue(con)
            kind = next(
                (k for k in KINDS if cat.resolve(k, canonical).recognised), "model"
            )
        saved.append((alias, add_user_alias(con, kind, alias, canonical), kind))
    _rewrite_user_names(con, user_catalogue(con))
    return saved


def check_aliases(
    con: duckdb.DuckDBPyConnection, wanted: Sequence[tuple[str, str, str]]
) -> None:
    """Raise EntityError for the first of ``wanted`` that cannot mean what it
    says (as :func:`save_aliases` would), writing nothing: a wrong alias is
    said before an import is read."""
    cat = user_catalogue(con)
    for kind, alias, canonical in wanted:
        if not kind:
            kind = next(
                (k for k in KINDS if cat.resolve(k, canonical).recognised), "model"
            )
        cat = cat.with_aliases([(kind, alias, canonical)])


def renamed_after_commit(con: duckdb.DuckDBPyConnection) -> None:
    """What follows the imported rows' names outside the user database: the
    in-memory name rows, and the facet counts and views built on them."""
    refresh_name_rows(con)
    recount_user_cube(con)
    define_combined_views(con)  # the bundled rows' search text follows too


CUBE_COLUMNS = (
    "task, metric, unit_family, model, variant, platform, generation, "
    "accelerators, sdk_version, framework, dataset, precision, source_file, "
    "batch_size, other_names, search_text"
)
# Imported MLPerf results' names as printed, as NAMED_COLUMNS reads them (as
# mlperf_rows.sql shows them; columns an older version did not write: NULL).
USER_MLPERF = (
    "SELECT model, coalesce(framework, framework_as_printed) AS framework, "
    "dataset, coalesce(system_name, system_id) AS platform, unit FROM ("
    "SELECT * FROM b.mlperf_training WHERE false "
    "UNION ALL BY NAME SELECT * FROM u.user_mlperf)"
)
USER_INFERENCE = USER_MLPERF.replace("u.user_mlperf", "u.user_mlperf_inference")
