"""The window's own drawing: the table painted with the
word-boundary delegate (ui/widgets/word_elide.py) and with the app's own cell
painter (ui/widgets/table_cells.py) against Qt's own delegate,
interleaved in the same run, at 1920x1080 over the bundled store."""

from __future__ import annotations

import statistics
from pathlib import Path

from tests.bench.harness import REPO_DATA, Row, case, median_ms


@case("window")
def bench_window(args, tmp: Path) -> list[Row]:
    from PySide6.QtWidgets import QStyledItemDelegate

    from ipubench_gui.app import Session, ensure_app
    from ipubench_gui.store.bundled.build import build_store
    from ipubench_gui.store.db import Database
    from ipubench_gui.ui.widgets.word_elide import WordElideDelegate

    app = ensure_app()
    store = build_store(REPO_DATA, tmp / "window.duckdb")
    s = Session(Database.open(store), synchronous=True)
    s.start(restore=False)
    s.window.resize(1920, 1080)
    s.window.show()
    app.processEvents()
    table = s.window.table
    fields = s.window.model.fields
    words, qt = WordElideDelegate(table), QStyledItemDelegate(table)
    # per column: the delegate (None: the view's own, TableCells)
    delegates = {
        "words": [qt if f.numeric else words for f in fields],  # before fast cells
        "qt": [qt for _ in fields],
        "cells": [None for _ in fields],
    }
    got: dict[str, list[float]] = {k: [] for k in delegates}
    for _ in range(6):  # rounds, interleaved: the box's load sways all alike
        for name, per_column in delegates.items():
            for c, d in enumerate(per_column):
                table.setItemDelegateForColumn(c, d)
            app.processEvents()
            got[name].append(median_ms(table.viewport().repaint, runs=21, warmup=3))
    s.window.close()
    s.close()
    qt = statistics.median(got["qt"])
    rows = table.rowAt(table.viewport().height() - 1)
    return [
        Row(
            f"window: table repaint, word-boundary cells ({rows} rows)",
            "bundled, 1920x1080",
            statistics.median(got["words"]),
            "Qt's own delegate",
            qt,
            "<= 1.2x",
        ),
        Row(
            f"window: table repaint, the app's cells ({rows} rows)",
            "bundled, 1920x1080",
            statistics.median(got["cells"]),
            "Qt's own delegate",
            qt,
            "<= 1.2x",
        ),
    ]
