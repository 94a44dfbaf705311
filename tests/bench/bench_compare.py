"""Comparator benchmark: the comparison table of six results, each
attribute judged same / differs / unknown over every pair, against fetching
those six rows from the store (same run); and one undo step of the filters."""

from __future__ import annotations

import argparse
from pathlib import Path

from ipubench_gui.domain import compare
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.service import browse
from ipubench_gui.store.bundled.build import build_store
from ipubench_gui.store.db import Database
from tests.bench.harness import REPO_DATA, Row, case, median_ms


@case("compare")
def compare_cases(args: argparse.Namespace, tmp: Path) -> list[Row]:
    db = Database.open(build_store(REPO_DATA, tmp / "compare.duckdb"))
    try:
        ids = [
            r[0]
            for r in db.cursor()
            .execute(
                "SELECT result_id FROM results_v WHERE model = 'BERT-Large' "
                "ORDER BY result_id LIMIT 6"
            )
            .fetchall()
        ]
        rows = browse.rows_by_ids(db, ids)
        fetched = median_ms(lambda: browse.rows_by_ids(db, ids), 15)
        table = median_ms(lambda: compare.table(rows, 0), 15)
    finally:
        db.close()
    from ipubench_gui.app import ensure_app
    from ipubench_gui.ui.state import AppState

    ensure_app()
    state = AppState()
    a = FilterState().with_values("framework", ["PopART"])

    def set_and_undo() -> None:
        state.set_filters(a)
        state.undo_stack.undo()

    def set_twice() -> None:  # the same two changes, no history kept
        state._put("filters", a)
        state._put("filters", FilterState())

    step = median_ms(set_and_undo, 51)
    bare = median_ms(set_twice, 51)
    state.deleteLater()
    return [
        Row(
            "comparison table, 6 columns (same/differs/unknown)",
            "bundled store",
            table,
            "fetch the 6 rows",
            fetched,
            "< 16 ms: on the GUI thread",
        ),
        Row(
            "a filter change kept as an undo step, then undone",
            "no listeners",
            step,
            "the same two changes without history",
            bare,
            "a fraction of a frame",
        ),
    ]
