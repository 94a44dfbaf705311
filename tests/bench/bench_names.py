"""Canonical names: what the longer search text and the user's
aliases cost a filter change.

A filter change with a search term (the table's page and every facet count),
on the combined connection the app opens (bundled store + a user database),
three ways in the same run:

* with one user alias: the bundled rows pass through the user-alias join
  (``aliases.with_user_aliases``), and the haystack holds ``other_names``
  (every spelling of the model and dataset);
* as shipped, no user alias: no join (``aliases.define_combined_views``);
* without ``other_names`` in the haystack either (before canonical names).

At the seed and at the largest store held in memory the answer comes from
the in-memory copy (the haystack is loaded with it); at 1M rows from SQL.
"""

from __future__ import annotations

import os
from pathlib import Path

from ipubench_gui.domain.fields import TEXT_SEARCH
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.service import browse
from ipubench_gui.store.query import clauses, snapshot
from ipubench_gui.store.query.cache import cache_of
from ipubench_gui.store.schema import quote_ident
from ipubench_gui.store.user import aliases
from ipubench_gui.store.user.userdb import open_combined
from tests.bench.bench_store import FILTER
from tests.bench.harness import REPO_DATA, Row, case, median_ms
from tests.bench.synthetic import make_data

TERM = FILTER.with_text("resnet")
SHORT_HAY = " || ' ' || ".join(
    f"coalesce(lower({quote_ident(c)}), '')" for c in TEXT_SEARCH if c != "other_names"
)


def _hay(sql: str) -> None:
    # the term's SQL and the in-memory copy's haystack read it at call time
    clauses.HAY_SQL = sql
    snapshot.HAY_SQL = sql


def _filter_change(data: Path, tmp: Path, label: str, runs: int) -> list[Row]:
    cache = tmp / f"names-cache-{label}"
    cache.mkdir(exist_ok=True)
    db, status = open_combined(data, cache, tmp / f"names-user-{label}.duckdb")
    assert status.writable, status.message

    def ask(state: FilterState = TERM) -> None:
        browse.page(db, state, ("value", True))
        browse.facet_counts(db, state)

    def measure() -> float:
        cache_of(db).snapshot = None  # reloaded, with this haystack
        cache_of(db).cube_pays = None
        ask()  # loads the in-memory copy when it is held
        return median_ms(ask, runs)

    full = clauses.HAY_SQL
    try:
        no_join = measure()
        with db.writing() as cur:
            aliases.add_user_alias(cur, "model", "Our RN-50", "ResNet-50 v1.5")
            aliases.rename_user_rows(cur, aliases.user_catalogue(cur))
        aliased = measure()
        with db.writing() as cur:
            cur.execute("DELETE FROM u.user_aliases")
            aliases.rename_user_rows(cur, aliases.user_catalogue(cur))
        _hay(SHORT_HAY)
        before = measure()
        no_term = median_ms(lambda: ask(FILTER), runs)
    finally:
        _hay(full)
        db.close()
    case_ = "filter change + search term (page, facets)"
    return [
        Row(
            f"{case_}, a user alias", label, aliased, "no alias, no other_names", before
        ),
        Row(f"{case_}, no user alias", label, no_join, "no other_names", before),
        Row("filter change, no search term", label, no_term),
    ]


@case("names")
def bench_names(args, tmp: Path) -> list[Row]:
    from ipubench_gui.store.query.snapshot import MAX_ROWS

    os.environ.setdefault("IPUBENCH_GUI_HOME", str(tmp / "home"))
    rows = _filter_change(REPO_DATA, tmp, "seed", runs=30)
    held = make_data(tmp / "names-held", MAX_ROWS - 1000)
    rows += _filter_change(held, tmp, f"~{MAX_ROWS:,} rows (held)", runs=15)
    n = 100_000 if args.quick else 1_000_000
    rows += _filter_change(make_data(tmp / "names-big", n), tmp, f"{n:,} rows", runs=7)
    return rows
