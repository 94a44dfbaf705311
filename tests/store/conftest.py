"""Fixtures of the store tests."""

from __future__ import annotations

import os

import pytest

from ipubench_gui.store.user.userdb import open_combined
from tests.conftest import DATA


def open_test_combined(folder, store_path):
    """The test store (linked as the cached one: same fingerprint) with a user
    database under ``folder``."""
    from ipubench_gui.store.bundled.build import fingerprint

    cache = folder / "cache"
    cache.mkdir()
    os.link(store_path, cache / f"results-{fingerprint(DATA)[:16]}.duckdb")
    db, status = open_combined(DATA, cache, folder / "user" / "user.duckdb")
    assert status.writable, status.message
    return db


@pytest.fixture
def combined(tmp_path, store_path):
    """The test store with a user database of the test's own (closed after)."""
    db = open_test_combined(tmp_path, store_path)
    yield db
    db.close()
