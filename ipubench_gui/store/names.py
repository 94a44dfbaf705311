"""Canonical names in the store: the SQL that gives every row its canonical
names (views.sql for the bundled rows, the user's views for imported ones),
names as printed resolved into rows of a names table (``entity_names``, built
by store/entity_tables.py; ``u.user_names`` for imports) and the user's
aliases on top. ``other_names`` is every spelling of the same entity,
lowered: the text search looks in it, so "rn50" finds ResNet-50 v1.5.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import duckdb

from ipubench_gui.domain.entities import Catalogue, EntityError
from ipubench_gui.domain.fields import TEXT_SEARCH
from ipubench_gui.store.cache import cache_of
from ipubench_gui.store.db import Database, one_row
from ipubench_gui.store.sources import NAMED_COLUMNS
from ipubench_gui.store.user_cube import recount_user_cube

# Tables the store holds for names (shared by the bundled and the user's rows).
ENTITY_TABLES = (
    "entity_files",
    "entity_names",
    "entity_models",
    "entity_units",
    "entity_systems",
    "entity_accelerators",
)


# What a figure counts, from its unit's quantity and item and its model's item:
# "images/s" for a ResNet-50 throughput printed in items/s or samples/s, the
# unit's own item otherwise ("graphs/s"), "time" for any time unit.
UNIT_FAMILY_MACRO = """
CREATE OR REPLACE {temp} MACRO unit_family(quantity, unit_item, model_item) AS
CASE quantity
    WHEN 'time' THEN 'time'
    WHEN 'throughput' THEN coalesce(
        CASE WHEN unit_item IN ('items', 'samples') THEN model_item END, unit_item
    ) || '/s'
END
"""


def name_joins(
    model: str,
    framework: str,
    dataset: str,
    platform: str,
    unit: str,
    names: str = "u.user_names",
    entities: str = "b.",
) -> str:
    """Joins giving a row its canonical names (``names``: kind, spelling,
    canonical, other_names) and what they stand for; arguments are the SQL of
    the names as printed (``r.model``); ``entities`` the entity tables' schema."""
    return f"""
LEFT JOIN {names} vm ON vm.kind = 'model' AND vm.spelling = {model}
LEFT JOIN {names} vf ON vf.kind = 'framework' AND vf.spelling = {framework}
LEFT JOIN {names} vd ON vd.kind = 'dataset' AND vd.spelling = {dataset}
LEFT JOIN {names} vs ON vs.kind = 'system' AND vs.spelling = {platform}
LEFT JOIN {names} vu ON vu.kind = 'unit' AND vu.spelling = {unit}
LEFT JOIN {entities}entity_systems es ON es.system = coalesce(vs.canonical, {platform})
LEFT JOIN {entities}entity_accelerators ea ON ea.accelerator = es.accelerator
LEFT JOIN {entities}entity_models em ON em.model = coalesce(vm.canonical, {model})
LEFT JOIN {entities}entity_units eu ON eu.unit = coalesce(vu.canonical, {unit})
"""


# The select list's canonical names (after ``r.*``) and the names as printed.
CANONICAL_NAMES = """REPLACE (
        coalesce(vm.canonical, r.model) AS model,
        coalesce(vf.canonical, r.framework) AS framework,
        coalesce(vd.canonical, r.dataset) AS dataset,
        coalesce(vs.canonical, r.platform) AS platform,
        coalesce(vu.canonical, r.unit) AS unit
    ),
    r.model AS model_as_printed,
    r.framework AS framework_as_printed,
    r.dataset AS dataset_as_printed,
    r.platform AS platform_as_printed"""
_OTHER_NAMES = "concat_ws(' | ', vm.other_names, vd.other_names)"
# The text a search term must occur in (store/clauses.py), worked out once per
# row: the searched columns (domain.fields.TEXT_SEARCH), lowered, joined by a
# space. Stored, not computed per query: at 1M rows a search computing it took
# 260-390 ms, reading it 79 ms (measured, tests/bench names).
_SEARCHED = {
    "model": "coalesce(vm.canonical, r.model)",
    "variant": "r.variant",
    "dataset": "coalesce(vd.canonical, r.dataset)",
    "other_names": _OTHER_NAMES,
}
SEARCH_TEXT = " || ' ' || ".join(
    f"coalesce(lower({_SEARCHED[c]}), '')" for c in TEXT_SEARCH
)
UNIT_FAMILY_AND_OTHER_NAMES = f"""
    unit_family(eu.quantity, eu.item, em.item) AS unit_family,
    {_OTHER_NAMES} AS other_names,
    {SEARCH_TEXT} AS search_text"""


def resolved_sql(rows: str) -> str:
    """``rows`` (SQL giving the names as printed: model, variant, platform,
    framework, dataset, unit, and any others) with their canonical names and
    what those stand for: vendor, generation, accelerator, the platform's
    chips (``platform_chips``), unit family, other names and search text."""
    return f"""
SELECT r.* {CANONICAL_NAMES},
    es.vendor, ea.generation, es.accelerator, es.chips AS platform_chips,
    {UNIT_FAMILY_AND_OTHER_NAMES}
FROM ({rows}) r
{name_joins("r.model", "r.framework", "r.dataset", "r.platform", "r.unit")}
"""


# Every import's name sets (u.user_name_sets: one row per distinct combination
# of names as printed) with their names resolved, in the connection's own
# in-memory catalog: made again whenever what they are resolved by may have
# changed (opening, an import, an alias), so never stale, and nothing new in
# the user's file. The view of imported figures joins it, not the ten joins
# of ``resolved_sql``: planned and built for every query, those cost a filter
# change over 1M imported figures ~30% (CPU; /work/helpers/shots-h18/s4/exp2.py).
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


def catalogue_of(con: duckdb.DuckDBPyConnection, schema: str = "") -> Catalogue:
    """The catalogue a store was built with (its ``entity_files`` table): the
    store carries its own names, wherever it was built. ``schema``: "b." for
    the bundled store of a combined connection before its views exist."""
    got = dict(con.execute(f"SELECT file, text FROM {schema}entity_files").fetchall())
    return Catalogue.from_texts(got, "store")


def insert(
    con: duckdb.DuckDBPyConnection, table: str, rows: list[tuple[Any, ...]], width: int
) -> None:
    """Rows into ``table`` in one statement (columns as lists, unnested
    together; ``executemany`` costs a statement per row)."""
    if not rows:
        return
    cols = list(zip(*rows))
    params = {
        f"c{i}": [None if v is None else str(v) for v in cols[i]] for i in range(width)
    }
    sel = ", ".join(f"unnest($c{i})" for i in range(width))
    con.execute(f"INSERT INTO {table} SELECT {sel}", params)


# -- names of rows written after the store was built (imports) --
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


def renamer(cat: Catalogue) -> Callable[[str, object], object]:
    """``rename(dim, value)``: a facet value's canonical name (values of other
    dimensions, and names no table knows, unchanged)."""

    def rename(dim: str, value: object) -> object:
        kind = NAMED_COLUMNS.get(dim)
        if kind is None or not isinstance(value, str):
            return value
        return cat.canonical(kind, value)

    return rename


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
# change's facet counts twice the planning and scanning of one (over 1M
# imported figures: 18.5 against 8.8 ms CPU).


def define_combined_views(con: duckdb.DuckDBPyConnection) -> None:
    """``results_v`` and ``facet_cube`` of a connection with a user database:
    the bundled rows, then the imported ones. The bundled rows' search text
    takes the user's aliases (a join) only while there are any: the join made
    a filter change with a search term 1.4x slower at 100,000 rows (make
    bench, names). Imported MLPerf results are in only while there are any:
    their view cost every query over results_v ~4 ms of planning, more than
    a whole query over the bundled rows. Defined again when the aliases, the
    imports or their facet counts change."""
    aliases = one_row(con.execute("SELECT count(*) FROM u.user_aliases"))[0]
    mlperf = one_row(con.execute("SELECT count(*) FROM u.user_mlperf"))[0]

    def bundled(table: str) -> str:
        return with_user_aliases(table) if aliases else f"SELECT * FROM {table}"

    con.execute(USER_ALIAS_NAMES)
    imported = ["user_results_v", *(["user_mlperf_v"] if mlperf else [])]
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


def spelling_rows(
    cat: Catalogue, kind: str, values: Iterable[str]
) -> list[tuple[Any, ...]]:
    """(kind, spelling, canonical, how, other_names) of names as printed; a
    name no table knows is its own canonical name, marked not recognised."""
    others: dict[str, set[str]] = defaultdict(set)
    for s, c in cat.spellings(kind).items():
        others[c].add(s.lower())
    rows = []
    for v in values:
        r = cat.resolve(kind, v)
        canon = r.name if r.recognised and r.name else v
        names = others.get(canon, set()) | {v.lower(), canon.lower()}
        rows.append((kind, v, canon, r.how, " | ".join(sorted(names))))
    return rows


def printed_names(
    con: duckdb.DuckDBPyConnection,
    rows: str,
    columns: Mapping[str, str],
    new_only: bool = False,
) -> dict[str, set[str]]:
    """Kind -> the distinct names as printed in ``rows`` (SQL, or a table's
    name) under ``columns`` (column -> kind); with ``new_only``, only those
    ``u.user_names`` does not hold yet."""
    out: dict[str, set[str]] = defaultdict(set)
    for col, kind in columns.items():
        new = (
            f"AND NOT EXISTS (SELECT 1 FROM u.user_names n WHERE n.kind = '{kind}' "
            f'AND n.spelling = r."{col}")'
            if new_only
            else ""
        )
        got = con.execute(
            f'SELECT DISTINCT CAST(r."{col}" AS VARCHAR) FROM ({rows}) r '
            f'WHERE r."{col}" IS NOT NULL {new}'
        ).fetchall()
        out[kind] |= {v for (v,) in got}
    return out


def name_rows(cat: Catalogue, values: dict[str, set[str]]) -> list[tuple[Any, ...]]:
    """:func:`spelling_rows` of every kind's names in ``values`` (kind -> names
    as printed), kinds and names in order."""
    return [
        row
        for kind in sorted(values)
        for row in spelling_rows(cat, kind, sorted(values[kind]))
    ]


def refresh_user_names(
    con: duckdb.DuckDBPyConnection, cat: Catalogue, rows: str
) -> int:
    """Resolve the names of imported rows (``rows``: SQL giving them, names as
    printed) that ``u.user_names`` does not hold yet; returns how many it
    added. A few thousand distinct names, whatever the number of rows."""
    out = name_rows(cat, printed_names(con, rows, NAMED_COLUMNS, new_only=True))
    insert(con, "u.user_names", out, 5)
    return len(out)


def rename_user_rows(con: duckdb.DuckDBPyConnection, cat: Catalogue) -> None:
    """Resolve every name of imported rows again (after a user alias changed):
    ``u.user_names`` is rewritten, and NAME_ROWS made again from it; the rows
    are not touched, and the facet counts of imports are recounted."""
    kinds: dict[str, set[str]] = defaultdict(set)
    for kind, spelling in con.execute(
        "SELECT kind, spelling FROM u.user_names"
    ).fetchall():
        kinds[kind].add(spelling)
    con.execute("DELETE FROM u.user_names")
    insert(con, "u.user_names", name_rows(cat, kinds), 5)
    refresh_name_rows(con)
    recount_user_cube(con)
    define_combined_views(con)  # the bundled rows' search text follows too


CUBE_COLUMNS = (
    "task, metric, unit_family, model, variant, platform, generation, "
    "accelerators, sdk_version, framework, dataset, precision, source_file, "
    "batch_size, other_names, search_text"
)
# Imported MLPerf results' names as printed, as NAMED_COLUMNS reads them (the
# platform as the rows show it: mlperf_rows.sql).
USER_MLPERF = (
    "SELECT model, framework, dataset, coalesce(system_name, system_id) "
    "AS platform, unit FROM u.user_mlperf"
)
