"""Claims audit benchmark (issues 15 and 21): every claim and comparison audited
from the bundled store, against reading the store's rows once (same run)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ipubench_gui.store.bundled.build import build_store
from ipubench_gui.store.db import Database
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
    finally:
        db.close()
    return [
        Row(
            "claims audit (all claims + comparisons)",
            "bundled store",
            audit,
            "read every row of results_v",
            base,
            "> 50 ms: runs on a worker thread",
        )
    ]
