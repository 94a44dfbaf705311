"""A full disk where the cache folder lives: the results store is built in
memory instead (said in one line), so reading commands and the window still
work; a window's copy of the imported results goes to memory too. The disk
is a real full filesystem (a tmpfs, as root; skipped otherwise)."""

from __future__ import annotations

import os
from pathlib import Path

from ipubench_gui.store.bundled.build import store_places
from ipubench_gui.store.user.userdb import IN_MEMORY, IN_MEMORY_COPY, open_combined
from tests.conftest import DATA, STORE_ROWS, run_cli, small_disk


def _fill(disk: Path) -> None:
    """Fill ``disk`` to the last block."""
    st = os.statvfs(disk)
    with open(disk / "filler", "wb") as f:
        f.write(b"\0" * (st.f_bavail * st.f_frsize))


def _import_one(tmp_path: Path, home: Path) -> None:
    src = tmp_path / "mine.csv"
    src.write_text("model,throughput,unit\nMyNet,123,images/s\n")
    p = run_cli("import", str(src), home=home)
    assert p.returncode == 0, p.stderr


def test_reading_commands_work_from_memory_with_one_line_said(tmp_path):
    home = tmp_path / "home"
    with small_disk(home / "cache", "256k") as cache:
        _fill(cache)
        out = tmp_path / "all.csv"
        p = run_cli("export-results", str(out), home=home)
        assert p.returncode == 0, p.stderr
        assert p.stdout == f"wrote {STORE_ROWS} results to {out}\n"
        assert p.stderr == (
            f"note: cannot build the results store in {cache}: No space left on "
            f"device. Free some space there. {IN_MEMORY}\n"
        )
        assert sorted(f.name for f in cache.iterdir()) == ["filler"]  # no part left
        p = run_cli("claims", "--format", "csv", home=home)
        assert p.returncode == 0, p.stderr
        assert p.stdout.startswith("claim_id,stated,recomputed,verdict,evidence")


def test_a_window_reads_the_imported_results_into_memory(tmp_path):
    home = tmp_path / "home"
    _import_one(tmp_path, home)
    user = home / "data" / "user.duckdb"
    with small_disk(home / "cache", "256k") as cache:
        _fill(cache)
        db, status = open_combined(DATA, cache, user, "snapshot")
        try:
            n = (
                db.cursor()
                .execute("SELECT count(*) FROM results_v WHERE model = 'MyNet'")
                .fetchall()
            )
            assert n == [(1,)]
            assert status.message.count("cannot build the results store") == 1
            assert status.message.endswith(IN_MEMORY)
            assert db.user_stamp is not None  # the window's watch has a stamp
        finally:
            db.close()
        assert sorted(f.name for f in cache.rglob("*") if f.is_file()) == ["filler"]


def test_a_cache_with_the_store_but_no_room_for_a_copy(tmp_path):
    home = tmp_path / "home"
    _import_one(tmp_path, home)
    user = home / "data" / "user.duckdb"
    with small_disk(home / "cache", "32m") as cache:
        # the store built there first (the usual start), then the disk fills
        p = run_cli("export-results", str(tmp_path / "o.csv"), home=home)
        assert p.returncode == 0 and p.stderr == "", p.stderr
        _, cached = store_places(DATA, cache)
        assert cached.is_file()
        _fill(cache)
        db, status = open_combined(DATA, cache, user, "snapshot")
        try:
            assert db.cursor().execute(
                "SELECT count(*) FROM results_v WHERE model = 'MyNet'"
            ).fetchall() == [(1,)]
            assert status.message == IN_MEMORY_COPY.format(folder=cache)
            # a fresh read (the window's after an import elsewhere) too
            again = db.reopen("read") if db.reopen else None
            assert again is not None
            assert again.cursor().execute(
                "SELECT count(*) FROM results_v"
            ).fetchall() == [(STORE_ROWS + 1,)]
            again.close()
        finally:
            db.close()
        assert not list((cache / "views").glob("user-*"))
