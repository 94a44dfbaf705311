"""Claims audit benchmark (issues 15 and 21): every claim and comparison audited
from the bundled store, against reading the store's rows once (same run)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.service import browse
from ipubench_gui.store.bundled.build import build_store
from ipubench_gui.store.db import Database
from ipubench_gui.store.query import queries
from ipubench_gui.store.query.cache import cache_of
from ipubench_gui.store.query.claims import audit_store
from tests.bench.harness import REPO_DATA, Row, case, median_ms


@case("claims")
def claims_cases(args: argparse.Namespace, tmp: Path) -> list[Row]:
    db = Database.open(build_store(REPO_DATA, tmp / "claims.duckdb"))
    try:
        base = median_ms(
            lambda: db.cursor().execute("SELECT * FROM results_v").fetchall(), 7
        )
        audit = median_ms(lambda: audit_store(db, REPO_DATA), 7)
        # The vendor chart's rows: each comparison with its Audit, worked out
        # once per store (service.claims.audits_of) and then taken as kept.
        spec, none = ChartSpec(kind="vendor"), FilterState()

        def first() -> object:
            cache_of(db).forget_rows()
            return browse.chart_data(db, none, spec)

        vendor_first = median_ms(first, 7)
        vendor_kept = median_ms(lambda: browse.chart_data(db, none, spec), 7)
        stated = median_ms(lambda: db.run(queries.comparisons()).dicts(), 7)
    finally:
        db.close()
    return [
        Row(
            "vendor chart rows with verdicts, audit kept",
            "bundled store",
            vendor_kept,
            "the stated comparisons alone (the chart's rows before verdicts)",
            stated,
            "within a frame",
        ),
        Row(
            "vendor chart rows with verdicts, first (audits)",
            "bundled store",
            vendor_first,
            "the stated comparisons alone",
            stated,
            "> 50 ms: runs on a worker thread",
        ),
        Row(
            "claims audit (all claims + comparisons)",
            "bundled store",
            audit,
            "read every row of results_v",
            base,
            "> 50 ms: runs on a worker thread",
        ),
    ]
