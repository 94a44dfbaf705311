"""Identifier whitelist and quoting: the only way a column name reaches SQL."""

from __future__ import annotations

from ipubench_gui.domain.fields import (
    FACETS,
    MLPERF_COLUMNS,
    PROVENANCE,
    RANGES,
    TABLE_COLUMNS,
)

# The facet cube's columns (views.sql's ``facet_cube``): every facet, batch
# size and what the text search reads. A filter on these alone is counted on
# the cube, never on every row.
CUBE_COLUMNS: tuple[str, ...] = (
    *(f.name for f in FACETS),
    "batch_size",
    "other_names",
    "search_text",
)

# Columns of results_v that may appear in generated SQL.
VIEW_COLUMNS: frozenset[str] = frozenset(
    [f.name for f in (*FACETS, *RANGES, *TABLE_COLUMNS)]
    + list(PROVENANCE)
    + list(MLPERF_COLUMNS)
    + [
        "higher_is_better",
        "vendor",
        "accelerator",
        "activation_bits",
        "weight_bits",
        "sdk_sort",
        "throughput",
        "value",
        "ord",
        "other_names",
        "search_text",
    ]
)


def quote_ident(name: str) -> str:
    """Quote a whitelisted identifier; raise ``ValueError`` for anything else.

    DuckDB treats a bound parameter as a value, never as a column, so column
    names cannot be parameters: they come only from this whitelist.
    """
    if name not in VIEW_COLUMNS:
        raise ValueError(f"column {name!r} is not allowed in queries")
    return '"' + name.replace('"', '""') + '"'
