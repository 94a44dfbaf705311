"""The entity tables (data/entities) built into the store: what
``store/bundled/build.py`` calls while it builds, and the views' shared parts.

``entity_names`` maps a name exactly as some source printed it to its
canonical name, for every spelling the alias tables list and every value the
rows hold (resolved in Python by :mod:`ipubench_gui.domain.entities`, so the
SQL join is a plain equality). The user's rows get theirs from the same
functions (store/bundled/names.py), in ``u.user_names``.
"""

from __future__ import annotations

from pathlib import Path

import duckdb

from ipubench_gui.domain.entities import FILES, Catalogue, read_texts
from ipubench_gui.store.bundled.names import (
    OFFICIAL_WORDS,
    UNIT_FAMILY_MACRO,
    insert,
    name_joins,
    name_rows,
    official_names,
    printed_names,
    unit_family_and_other_names,
)
from ipubench_gui.store.bundled.sources import NAMED_COLUMNS, SOURCES
from ipubench_gui.store.schema import CUBE_COLUMNS

ENTITY_DIR = "entities"


def views_sql(text: str) -> str:
    """views.sql with its shared parts filled in."""
    return (
        text.replace("{CUBE_COLUMNS}", ", ".join(CUBE_COLUMNS))
        .replace("{OFFICIAL_NAMES}", official_names(("part",)))
        .replace(
            "{UNIT_FAMILY_AND_OTHER_NAMES}",
            unit_family_and_other_names(OFFICIAL_WORDS),
        )
        .replace(
            "{NAME_JOINS}",
            name_joins(
                "r.model",
                "r.framework",
                "r.dataset",
                "r.platform",
                "r.unit",
                "entity_names",
                "",
            ),
        )
    )


def entity_dir(data_dir: Path) -> Path:
    return data_dir / ENTITY_DIR


def entity_paths(data_dir: Path) -> list[Path]:
    """Every file the names depend on (for the store's fingerprint)."""
    return sorted(entity_dir(data_dir).glob("*.csv"))


def texts(data_dir: Path) -> dict[str, str]:
    return read_texts(entity_dir(data_dir))


def create_tables(con: duckdb.DuckDBPyConnection, texts: dict[str, str]) -> None:
    """The entity tables, from the tables' texts and the values in ``results``;
    raises ``EntityError`` when the tables are inconsistent."""
    cat = Catalogue.from_texts(texts, ENTITY_DIR)
    con.execute(UNIT_FAMILY_MACRO.format(temp=""))
    con.execute("CREATE TABLE entity_files (file VARCHAR PRIMARY KEY, text VARCHAR)")
    insert(con, "entity_files", [(f, texts[f]) for f in FILES], 2)
    # every spelling the tables list, and every name the rows print
    values: dict[str, set[str]] = {
        kind: set(cat.spellings(kind)) for kind in set(NAMED_COLUMNS.values())
    }
    for table, columns in ((s.table, s.names) for s in SOURCES if s.names):
        for kind, got in printed_names(con, f"SELECT * FROM {table}", columns).items():
            values[kind] |= got
    con.execute(
        "CREATE TABLE entity_names (kind VARCHAR, spelling VARCHAR, "
        "canonical VARCHAR, how VARCHAR, other_names VARCHAR, "
        "PRIMARY KEY (kind, spelling))"
    )
    insert(con, "entity_names", name_rows(cat, values), 5)
    _table(con, cat, "model", "entity_models", ("family", "domain", "item"))
    _table(
        con,
        cat,
        "unit",
        "entity_units",
        ("quantity", "item", "factor", "base_unit"),
        {"factor": "DOUBLE"},
    )
    _table(
        con,
        cat,
        "system",
        "entity_systems",
        ("vendor", "accelerator", "chips", "machine", "chips_per_machine"),
        {"chips": "INTEGER", "chips_per_machine": "INTEGER"},
    )
    _table(con, cat, "accelerator", "entity_accelerators", ("vendor", "generation"))


def _table(
    con: duckdb.DuckDBPyConnection,
    cat: Catalogue,
    kind: str,
    table: str,
    columns: tuple[str, ...],
    types: dict[str, str] | None = None,
) -> None:
    types = types or {}
    cols = ", ".join(f"{c} {types.get(c, 'VARCHAR')}" for c in columns)
    con.execute(f"CREATE TABLE {table} ({kind} VARCHAR PRIMARY KEY, {cols})")
    rows = [(e.name, *(e.get(c) for c in columns)) for e in cat.entities[kind].values()]
    insert(con, table, rows, len(columns) + 1)
