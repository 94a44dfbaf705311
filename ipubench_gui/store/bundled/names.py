"""Canonical names in the store: the SQL that gives every row its canonical
names (views.sql for the bundled rows, the user's views for imported ones),
names as printed resolved into rows of a names table (``entity_names``, built
by store/bundled/entity_tables.py; ``u.user_names`` for imports) and the user's
aliases on top. ``other_names`` is every spelling of the same entity,
lowered: the text search looks in it, so "rn50" finds ResNet-50 v1.5.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import duckdb

from ipubench_gui.domain.entities import Catalogue
from ipubench_gui.domain.fields import AS_PRINTED, TEXT_SEARCH
from ipubench_gui.store.bundled.sources import NAMED_COLUMNS

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


_REPLACE = """REPLACE (
        coalesce(vm.canonical, r.model) AS model,
        coalesce(vf.canonical, r.framework) AS framework,
        coalesce(vd.canonical, r.dataset) AS dataset,
        coalesce(vs.canonical, r.platform) AS platform,
        coalesce(vu.canonical, r.unit) AS unit
    )"""
# The select list's canonical names (after ``r.*``) and the names as printed.
CANONICAL_NAMES = _REPLACE + "".join(
    f",\n    r.{c} AS {c}_as_printed" for c in AS_PRINTED
)
# An official MLPerf row (mlperf_rows.sql) shows the official names, canonical,
# and keeps as printed the words printed_* give (NULL for every other row): the
# system file's framework text, and where it shares its row with a vendor-page
# figure, the page's own words.
PRINTED = tuple(f"printed_{c}" for c in AS_PRINTED)


def official_names(exclude: tuple[str, ...] = ()) -> str:
    """CANONICAL_NAMES for rows that may hold PRINTED (after ``r.*``, which
    loses those and ``exclude``)."""
    return f"EXCLUDE ({', '.join((*exclude, *PRINTED))}) {_REPLACE}" + "".join(
        f",\n    coalesce(r.printed_{c}, r.{c}) AS {c}_as_printed" for c in AS_PRINTED
    )


_OTHER_NAMES = "concat_ws(' | ', vm.other_names, vd.other_names)"
# The text a search term must occur in (store/query/clauses.py), worked out once per
# row: the searched columns (domain.fields.TEXT_SEARCH), lowered, joined by a
# space. Stored, not computed per query: computing it made a search over a
# large store several times slower than reading it (tests/bench names).
_SEARCHED = {
    "model": "coalesce(vm.canonical, r.model)",
    "variant": "r.variant",
    "dataset": "coalesce(vd.canonical, r.dataset)",
    "other_names": _OTHER_NAMES,
}
# Beyond those, a search finds a row by its system: canonical, as printed and
# every spelling the tables list ("pod16" finds Bow Pod16 and IPU-POD16), its
# accelerator and generation ("bow", "a100").
_SYSTEM_WORDS = (
    "coalesce(vs.other_names, r.platform)",  # its spellings, canonical and printed
    "es.accelerator",
    "ea.generation",
)
# ... and, where the rows carry them (official MLPerf results; the vendor's
# rows carry their platform's accelerator), the submitter, the system's name
# and folder, the accelerator as printed and its chip ("dgx a100", "tpu").
OFFICIAL_WORDS = (
    "r.vendor",
    "r.accelerator",
    "r.generation",
    "r.submitter",
    "r.system_name",
    "r.system_id",
    "r.accelerator_model",
    "r.accelerator_type",
)


def search_text(extra: tuple[str, ...] = ()) -> str:
    """SQL of a row's search text: TEXT_SEARCH's columns, then the system's
    words and ``extra`` (SQL of columns the rows have), lowered."""
    # each word once: the haystack every search term is looked for in stays
    # short (a system's name is often its folder's, its chip its generation)
    words = ", ".join(f"lower({w})" for w in (*_SYSTEM_WORDS, *extra))
    return (
        " || ' ' || ".join(f"coalesce(lower({_SEARCHED[c]}), '')" for c in TEXT_SEARCH)
        + f" || ' ' || array_to_string(list_distinct([{words}]), ' ')"
    )


def unit_family_and_other_names(extra: tuple[str, ...] = ()) -> str:
    """The select list's unit family, other names and search text."""
    return f"""
    unit_family(eu.quantity, eu.item, em.item) AS unit_family,
    {_OTHER_NAMES} AS other_names,
    {search_text(extra)} AS search_text"""


SEARCH_TEXT = search_text()
UNIT_FAMILY_AND_OTHER_NAMES = unit_family_and_other_names()


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


def renamer(cat: Catalogue) -> Callable[[str, object], object]:
    """``rename(dim, value)``: a facet value's canonical name (values of other
    dimensions, and names no table knows, unchanged)."""

    def rename(dim: str, value: object) -> object:
        kind = NAMED_COLUMNS.get(dim)
        if kind is None or not isinstance(value, str):
            return value
        return cat.canonical(kind, value)

    return rename
