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


def sql_ids(db, where: str = "TRUE", params: dict | None = None) -> set[str]:
    """Result ids by an independent SQL query on the store's base tables."""
    rows = (
        db.cursor()
        .execute(
            "SELECT r.result_id FROM results r JOIN platforms p USING (platform) "
            f"WHERE {where}",
            params or {},
        )
        .fetchall()
    )
    return {r[0] for r in rows}


def table_ids(session) -> set[str]:
    m = session.window.model
    return {m.result_id(r) for r in range(m.rowCount())}
