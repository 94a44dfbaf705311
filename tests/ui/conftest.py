"""UI fixtures: a real window over the real store, queries run inline."""

from __future__ import annotations

import pytest


@pytest.fixture
def session(db, qtbot):
    from ipubench_gui.app import Session, ensure_app

    ensure_app()
    s = Session(db, synchronous=True)
    qtbot.addWidget(s.window)
    s.start(restore=False)
    s.window.resize(1400, 900)
    s.window.show()
    qtbot.waitExposed(s.window)
    yield s
    s.close()


_COLS = (
    "result_id, task, model, variant, dataset, platform, framework, precision, "
    "batch_size, metric, value, unit, source_file"
)
# Every stored figure, from the base tables: the vendor's results and NVIDIA's
# published figures that are measurements (a latency figure is also the row's
# latency, as data/README.md says).
STORED = (
    f"(SELECT {_COLS}, latency_ms FROM results UNION ALL SELECT {_COLS}, "
    "coalesce(latency_ms, CASE WHEN metric = 'latency' THEN value END) "
    "FROM gpu_reference WHERE value IS NOT NULL "
    "AND metric IN (SELECT metric FROM metrics))"
)


def sql_ids(db, where: str = "TRUE", params: dict | None = None) -> set[str]:
    """Result ids by an independent SQL query on the store's base tables."""
    rows = (
        db.cursor()
        .execute(
            f"SELECT r.result_id FROM {STORED} r "
            f"JOIN platforms p USING (platform) WHERE {where}",
            params or {},
        )
        .fetchall()
    )
    return {r[0] for r in rows}


def table_ids(session) -> set[str]:
    m = session.window.model
    return {m.result_id(r) for r in range(m.rowCount())}
