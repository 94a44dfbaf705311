"""A damaged, locked, read-only or full store never stops the app: each case
ends with a message saying what happened, and nothing is lost (a damaged file
is kept aside, a file that may not be written is read, not moved)."""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from ipubench_gui.domain.import_spec import ImportSpec
from ipubench_gui.store.bundled.build import fingerprint
from ipubench_gui.store.user import importer
from ipubench_gui.store.user.import_read import ImportFailed
from ipubench_gui.store.user.userdb import check_user, open_combined
from tests.conftest import DATA, REPO, STORE_ROWS, run_cli, small_disk

CACHE_NAME = f"results-{fingerprint(DATA)[:16]}.duckdb"


@pytest.fixture
def cache(tmp_path, store_path) -> Path:
    c = tmp_path / "cache"
    c.mkdir()
    os.link(store_path, c / CACHE_NAME)
    return c


def _user_with_import(tmp_path: Path, cache: Path) -> Path:
    """A user database holding one import of two figures."""
    user = tmp_path / "data" / "user.duckdb"
    tmp_path.mkdir(exist_ok=True)
    src = tmp_path / "a.csv"
    src.write_text("model,throughput\nm1,100\nm2,200\n")
    db, status = open_combined(DATA, cache, user)
    assert status.writable
    importer.import_file(
        db.cursor(),
        ImportSpec(
            src,
            {"model": "model", "value": "throughput"},
            {"metric": "throughput", "unit": "images/s"},
        ),
    )
    db.close()
    return user


def _big_csv(tmp_path: Path) -> Path:
    big = tmp_path / "big.csv"
    with duckdb.connect() as c:
        c.execute(
            "COPY (SELECT 'm' || i AS model, i + 1 AS throughput "
            f"FROM range(200000) t(i)) TO '{big}' (HEADER)"
        )
    return big


def _import(db, path: Path) -> None:
    importer.import_file(
        db.cursor(),
        ImportSpec(
            path,
            {"model": "model", "value": "throughput"},
            {"metric": "throughput", "unit": "x/s"},
        ),
    )


def _aside(user: Path) -> list[Path]:
    return sorted(user.parent.glob("user.damaged-*.duckdb"))


def _damaged_is_set_aside(tmp_path, cache, user, says: str) -> None:
    kept = user.read_bytes()
    db, status = open_combined(DATA, cache, user)
    try:
        assert status.writable
        assert f"{user} cannot be used ({says}), so" in status.message
        (aside,) = _aside(user)
        assert aside.read_bytes() == kept  # nothing lost
        assert f"set aside as {aside} and a new, empty one" in status.message
        assert "DuckDB said" not in status.message  # our own words only
        assert db.scalar("SELECT count(*) FROM results_v") == STORE_ROWS
    finally:
        db.close()


def test_a_truncated_user_database_is_set_aside(tmp_path, cache):
    user = _user_with_import(tmp_path, cache)
    size = user.stat().st_size
    os.truncate(user, size // 2)
    _damaged_is_set_aside(
        tmp_path,
        cache,
        user,
        f"the file is cut short ({size // 2:,} of {size:,} bytes)",
    )


def test_a_view_in_place_of_a_table_is_damage(tmp_path, cache):
    user = _user_with_import(tmp_path, cache)
    with duckdb.connect(str(user)) as c:
        c.execute("DROP TABLE imports")
        c.execute("CREATE VIEW imports AS SELECT 1 AS x")
    _damaged_is_set_aside(tmp_path, cache, user, "imports is a view, not a table")


def test_a_missing_column_is_damage(tmp_path, cache):
    user = _user_with_import(tmp_path, cache)
    with duckdb.connect(str(user)) as c:
        c.execute("ALTER TABLE user_results DROP COLUMN model")
    _damaged_is_set_aside(tmp_path, cache, user, "user_results lacks column(s) model")


def test_a_sqlite_file_is_set_aside_without_any_extension(tmp_path, cache):
    user = tmp_path / "data" / "user.duckdb"
    user.parent.mkdir()
    with contextlib.closing(sqlite3.connect(user)) as c:
        c.execute("CREATE TABLE t (x)")
        c.commit()
    _damaged_is_set_aside(
        tmp_path, cache, user, "it is a SQLite database, not this app's"
    )
    loaded = (
        duckdb.connect()
        .execute(
            "SELECT count(*) FROM duckdb_extensions() WHERE extension_name = 'sqlite' "
            "AND loaded"
        )
        .fetchall()
    )
    assert loaded == [(0,)]


def test_a_truncated_cache_is_rebuilt_not_trusted(tmp_path, store_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    cached = cache / CACHE_NAME
    shutil.copy(store_path, cached)
    whole = cached.stat().st_size
    os.truncate(cached, whole // 2)
    db, _ = open_combined(DATA, cache, None)
    try:
        assert db.scalar("SELECT count(*) FROM results_v") == STORE_ROWS
        assert db.scalar("SELECT sum(value) FROM results_v") > 0  # read whole
    finally:
        db.close()
    assert cached.stat().st_size >= whole // 2 + 1
    ok, said = check_user(tmp_path / "none.duckdb")
    assert (ok, said) == (True, "none yet")


def test_a_read_only_folder_is_read_not_set_aside(tmp_path, cache):
    user = _user_with_import(tmp_path / "w", cache)
    with small_disk(tmp_path / "ro", "8m") as ro:
        shutil.copy(user, ro / "user.duckdb")
        subprocess.run(["mount", "-o", "remount,ro", str(ro)], check=True)
        kept = (ro / "user.duckdb").read_bytes()
        db, status = open_combined(DATA, cache, ro / "user.duckdb")
        try:
            assert not status.writable and status.path == ro / "user.duckdb"
            assert status.message == (
                f"Your imported results are shown read-only: {ro} cannot be "
                "written (Read-only file system). Importing, renaming and "
                "removing imports are off until it can be."
            )
            assert db.scalar("SELECT count(*) FROM results_v") == STORE_ROWS + 2
        finally:
            db.close()
        assert (ro / "user.duckdb").read_bytes() == kept
        assert sorted(p.name for p in ro.iterdir()) == ["user.duckdb"]
        ok, said = check_user(ro / "user.duckdb")
        assert (ok, said) == (True, "1 import(s)")
        # No user database yet, and a folder it cannot be made in.
        db, status = open_combined(DATA, cache, ro / "new" / "user.duckdb")
        db.close()
        assert not status.writable and status.message.startswith(
            f"Importing is off: your user data folder {ro / 'new'} cannot be written"
        )


def test_a_full_disk_refuses_the_import_and_keeps_the_store(tmp_path, cache):
    with small_disk(tmp_path / "disk", "2m") as disk:
        user = disk / "user.duckdb"
        db, status = open_combined(DATA, cache, user)
        assert status.writable
        db.close()
        big = _big_csv(tmp_path)
        before = user.stat().st_size
        db, _ = open_combined(DATA, cache, user)
        try:
            with pytest.raises(ImportFailed) as err:
                _import(db, big)
            free = shutil.disk_usage(disk).free
            assert str(err.value) == (
                f"big.csv: nothing was imported: 200,000 figures need about 41.0 MB "
                f"free in {disk}, which has {free / 1e6:,.1f} MB; free some space "
                "and import again"
            )
            assert db.scalar("SELECT count(*) FROM u.user_results") == 0
        finally:
            db.close()
        assert user.stat().st_size == before  # nothing grew


def test_a_write_failing_midway_rolls_back_with_a_message(tmp_path, cache, monkeypatch):
    """Past the free-space estimate, DuckDB itself runs out of room."""
    monkeypatch.setattr(importer, "SPACE_FLOOR", 0)
    monkeypatch.setattr(importer, "SPACE_PER_FIGURE", 0)
    with small_disk(tmp_path / "disk", "3m") as disk:
        user = disk / "user.duckdb"
        db, _ = open_combined(DATA, cache, user)
        db.close()
        (disk / "filler").write_bytes(b"x" * (shutil.disk_usage(disk).free - 8192))
        big = _big_csv(tmp_path)
        db, _ = open_combined(DATA, cache, user)
        try:
            with pytest.raises(ImportFailed) as err:
                _import(db, big)
            assert str(err.value) == (
                "big.csv: nothing was imported: your imported results could not "
                f"be written (No space left on device) in {disk}"
            )
        finally:
            db.close()
        (disk / "filler").unlink()
        db, status = open_combined(DATA, cache, user)
        try:
            assert status.writable and not status.message
            assert db.scalar("SELECT count(*) FROM u.user_results") == 0
        finally:
            db.close()


def _holder(home: Path, mode: str, seconds: float) -> subprocess.Popen:
    """Another process with the user database open as ``mode``, for
    ``seconds``: "write" as an import holds it, "read" as a command reads it."""
    holder = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ipubench_gui.bootstrap",  # so it names itself as the app does
            mode,
            str(seconds),
        ],
        cwd=REPO,
        env=dict(os.environ, IPUBENCH_GUI_HOME=str(home)),
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout.readline().strip() == "holding"
    return holder


def test_readers_never_wait_for_each_other(tmp_path):
    home = tmp_path / "home"
    src = tmp_path / "a.csv"
    src.write_text("model,throughput,unit\nm1,100,images/s\n")
    assert run_cli("import", str(src), home=home).returncode == 0
    holder = _holder(home, "read", 60)
    try:
        p = run_cli("export-results", str(tmp_path / "o.csv"), home=home)
        assert p.returncode == 0 and p.stderr == "", p.stderr
        assert p.stdout == f"wrote {STORE_ROWS + 1} results to {tmp_path / 'o.csv'}\n"
    finally:
        holder.kill()
        holder.wait()


def test_a_writer_is_waited_for_then_named(tmp_path):
    """DuckDB lets one process write a file: an import elsewhere is waited
    for; another import is refused after a short wait, naming it; a command
    that only reads waits it out, saying what it waits for."""
    import time

    from ipubench_gui.store.user.userdb import WAIT_S, WAITING

    home = tmp_path / "home"
    src = tmp_path / "a.csv"
    src.write_text("model,throughput,unit\nm1,100,images/s\n")
    assert run_cli("import", str(src), home=home).returncode == 0
    holder = _holder(home, "write", 2)  # a short import: waited for
    p = run_cli("export-results", str(tmp_path / "o.csv"), home=home)
    holder.wait()
    assert p.returncode == 0, p.stderr
    assert all(ln.startswith("Waiting for process") for ln in p.stderr.splitlines())
    out = tmp_path / "o.csv"
    holder = _holder(home, "write", 60)  # a long one
    named = f"process {holder.pid}: ipubench-gui write 60"
    try:
        p = run_cli("import", str(src), home=home)  # a second writer: named
        assert p.returncode == 1, p.stderr
        waited, refused = p.stderr.splitlines()
        assert waited == WAITING.format(holder=named, wait=WAIT_S["write"])
        assert refused.startswith(
            f"error: Another ipubench-gui ({named}) is writing your imported "
            "results, so nothing can be imported here until it has finished"
        ), p.stderr
        reader = subprocess.Popen(
            [sys.executable, "-m", "ipubench_gui", "export-results", str(out)],
            cwd=REPO,
            env=dict(os.environ, IPUBENCH_GUI_HOME=str(home)),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert reader.stderr.readline() == (
            WAITING.format(holder=named, wait=WAIT_S["read"]) + "\n"
        )
        time.sleep(11)  # longer than a writer waits: a reader waits on
        assert reader.poll() is None
    finally:
        holder.kill()
        holder.wait()
    said, err = reader.communicate(timeout=120)
    assert reader.returncode == 0, err
    assert said == f"wrote {STORE_ROWS + 1} results to {out}\n"


def test_self_test_checks_the_user_database(tmp_path):
    home = tmp_path / "home"
    src = tmp_path / "a.csv"
    src.write_text("model,throughput,unit\nm1,100,images/s\n")
    assert run_cli("import", str(src), home=home).returncode == 0
    p = run_cli("--self-test", home=home)
    assert p.returncode == 0 and "your imported results: 1 import(s)" in p.stdout
    user = home / "data" / "user.duckdb"
    os.truncate(user, user.stat().st_size // 2)
    p = run_cli("--self-test", home=home)
    assert p.returncode == 1
    assert p.stdout.startswith(
        "self-test failed while checking your imported results: AssertionError: "
        f"{user}: the file is cut short"
    ), p.stdout
    assert not list(user.parent.glob("*.damaged-*"))  # the check changes nothing


def test_free_blocks_given_back_are_not_damage(tmp_path, cache):
    """DuckDB truncates free blocks at a file's end yet still counts them: a
    whole file must not look cut short (it was set aside once, wrongly)."""
    from ipubench_gui.store.health import cut_short

    f = tmp_path / "f.duckdb"
    with duckdb.connect(str(f)) as c:
        c.execute("CREATE TABLE keep AS SELECT range AS i FROM range(1000)")
        c.execute("CHECKPOINT")
        c.execute(
            "CREATE TABLE big AS SELECT range AS i, hash(range) h FROM range(3000000)"
        )
        c.execute("CHECKPOINT")
        c.execute("DROP TABLE big")
        c.execute("CHECKPOINT")
    with duckdb.connect() as c:
        c.execute("ATTACH $p AS u (READ_ONLY)", {"p": str(f)})
        total, used, size = c.execute(
            "SELECT total_blocks, used_blocks, block_size FROM pragma_database_size() "
            "WHERE database_name = 'u'"
        ).fetchall()[0]
        assert total > used  # free blocks are counted ...
        assert f.stat().st_size < 3 * 4096 + total * size  # ... but not on disk
        assert cut_short(c, "u", f) is None
        assert c.execute("SELECT count(*) FROM u.keep").fetchall() == [(1000,)]


def test_an_immutable_file_is_read_and_never_copied(tmp_path, cache):
    user = _user_with_import(tmp_path, cache)
    if subprocess.run(["chattr", "+i", str(user)], capture_output=True).returncode:
        pytest.skip("chattr +i is not possible here (needs root and ext4/xfs)")
    try:
        for _ in range(2):
            db, status = open_combined(DATA, cache, user)
            db.close()
            assert not status.writable and status.path == user
            assert status.message == (
                f"Your imported results are shown read-only: {user.parent} cannot "
                "be written (Operation not permitted). Importing, renaming and "
                "removing imports are off until it can be."
            )
        assert sorted(p.name for p in user.parent.iterdir()) == ["user.duckdb"]
    finally:
        subprocess.run(["chattr", "-i", str(user)], check=False)
