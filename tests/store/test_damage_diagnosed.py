"""Damage is diagnosed from what DuckDB says, not guessed: a lock is told by
DuckDB's lock error itself (its "block" once read as a lock); a damaged
header is set aside at opening; a block that fails its checksum later, while
a command reads it, is said in words (no traceback) and set aside at the
next start. Nothing is deleted."""

from __future__ import annotations

import duckdb
import pytest

from ipubench_gui.store.health import is_damage, lock_holder, lock_pid
from tests.conftest import STORE_ROWS, run_cli


def _home_with_an_import(tmp_path, n: int = 50_000):
    home = tmp_path / "home"
    src = tmp_path / "a.csv"
    src.write_text(
        "model,throughput,unit\n"
        + "".join(f"m{i},{i + 1},images/s\n" for i in range(n))
    )
    p = run_cli("import", str(src), home=home)
    assert p.returncode == 0, p.stderr
    return home, home / "data" / "user.duckdb"


def _flip(path, offset: int) -> None:
    with open(path, "r+b") as f:
        f.seek(offset)
        b = f.read(1)
        f.seek(offset)
        f.write(bytes([b[0] ^ 0xFF]))


def test_a_checksum_error_is_damage_not_a_lock():
    said = (
        "Corrupt database file: computed checksum 1 does not match stored "
        "checksum 2 in block at location 4096"
    )
    assert lock_holder(duckdb.Error(said)) is None and is_damage(duckdb.Error(said))
    lock = (
        'IO Error: Could not set lock on file "/x/user.duckdb": Conflicting lock '
        "is held in /usr/bin/python3 (PID 4242). See also https://duckdb.org/"
    )
    assert lock_pid(duckdb.Error(lock)) == 4242 and not is_damage(duckdb.Error(lock))


@pytest.mark.parametrize("offset", [100, 4096 + 10, 8192 + 10])
def test_a_flipped_header_is_set_aside_not_called_a_lock(tmp_path, offset):
    home, user = _home_with_an_import(tmp_path, 2)
    kept = bytearray(user.read_bytes())
    _flip(user, offset)
    kept[offset] ^= 0xFF
    p = run_cli("export-results", str(tmp_path / "o.csv"), home=home)
    assert p.returncode == 0, p.stderr
    assert "in use" not in p.stderr and "another" not in p.stderr
    (aside,) = user.parent.glob("user.damaged-*.duckdb")
    assert aside.read_bytes() == bytes(kept)  # kept as it was
    # one line: what was done and the fix in words, the engine's text once after
    assert p.stderr.startswith(
        f"note: Your imported results file {user} is damaged, so it was set aside "
        f"as {aside} and a new, empty one was started (the bundled results are "
        "all here): import your files again to have yours back. (DuckDB said: "
        "Corrupt database file"
    )
    assert p.stderr.count("\n") == 1 and p.stderr.count("Corrupt database") == 1
    assert p.stdout == f"wrote {STORE_ROWS} results to {tmp_path / 'o.csv'}\n"
    # imports work again at once
    p = run_cli("import", str(tmp_path / "a.csv"), home=home)
    assert p.returncode == 0, p.stderr


def test_a_damaged_block_found_later_is_said_then_set_aside(tmp_path):
    home, user = _home_with_an_import(tmp_path)
    # a block of the figures, past the headers and the catalog
    size = user.stat().st_size
    _flip(user, size // 2)
    p = run_cli("export-results", str(tmp_path / "o.csv"), home=home)
    assert p.returncode == 1
    assert "Traceback" not in p.stderr
    assert p.stderr.startswith(f"error: Your imported results file {user} is damaged")
    assert "set aside (kept, not deleted) at the next start" in p.stderr
    assert not (tmp_path / "o.csv").exists()
    damaged = user.read_bytes()
    # the next start sets it aside and says so; the bundled results are whole
    p = run_cli("export-results", str(tmp_path / "o.csv"), home=home)
    assert p.returncode == 0, p.stderr
    (aside,) = user.parent.glob("user.damaged-*.duckdb")
    assert aside.read_bytes() == damaged
    assert "found while read" in p.stderr and f"set aside as {aside}" in p.stderr
    assert p.stdout == f"wrote {STORE_ROWS} results to {tmp_path / 'o.csv'}\n"
    assert not list(user.parent.glob("*.duckdb.damaged"))


def test_a_damaged_store_that_cannot_be_removed_is_never_said_removed(tmp_path):
    """A store built from the bundled data, damaged, on a read-only disk (an
    installed app's folder): the message says it could not be removed and
    what to do, and the file is still there."""
    import subprocess

    from ipubench_gui.store.user.userdb import damage_found
    from tests.conftest import small_disk

    with small_disk(tmp_path / "ro", "64m") as folder:
        store = folder / "results.duckdb"
        con = duckdb.connect(str(store))
        con.execute("CREATE TABLE t AS SELECT range AS i FROM range(2_000_000)")
        con.close()
        _flip(store, store.stat().st_size // 2)
        ro = ["mount", "-o", "remount,ro", str(folder)]
        assert subprocess.run(ro, capture_output=True).returncode == 0
        said = damage_found(duckdb.Error("checksum"), None, [store])
        assert said.startswith(f"The results store {store} is damaged and could not")
        assert "Read-only file system" in said and "it was removed" not in said
        assert store.exists()
