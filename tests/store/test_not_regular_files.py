"""Only regular files are opened as stores: a pipe or a device link where the
user's database or the cached store goes is moved aside (kept) and named,
never opened (a pipe blocked every start until killed)."""

from __future__ import annotations

import os

import pytest

from ipubench_gui.store.bundled.build import store_places
from tests.conftest import DATA, STORE_ROWS, run_cli


@pytest.mark.parametrize("kind", ["fifo", "device-link", "folder"])
def test_the_user_database_as_a_pipe_or_device_is_set_aside(tmp_path, kind):
    home = tmp_path / "home"
    user = home / "data" / "user.duckdb"
    user.parent.mkdir(parents=True)
    if kind == "fifo":
        os.mkfifo(user)
    elif kind == "device-link":
        os.symlink("/dev/zero", user)
    else:
        user.mkdir()
    p = run_cli("export-results", str(tmp_path / "o.csv"), home=home)
    assert p.returncode == 0, p.stderr
    assert p.stdout == f"wrote {STORE_ROWS} results to {tmp_path / 'o.csv'}\n"
    what = {"fifo": "a named pipe (FIFO)", "device-link": "a device"}.get(
        kind, "a folder"
    )
    assert f"cannot be used (it is {what}, not a regular file), so" in p.stderr
    (aside,) = user.parent.glob("user.damaged-*.duckdb")
    assert aside.is_symlink() if kind == "device-link" else aside.exists()
    assert user.is_file()  # a new one, imports work
    src = tmp_path / "a.csv"
    src.write_text("model,throughput,unit\nm,1,images/s\n")
    assert run_cli("import", str(src), home=home).returncode == 0


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_the_cached_store_as_a_pipe_or_folder_is_moved_aside_and_built(tmp_path, kind):
    home = tmp_path / "home"
    _, cached = store_places(DATA, home / "cache")
    cached.parent.mkdir(parents=True)
    if kind == "fifo":
        os.mkfifo(cached)
    else:
        cached.mkdir()
    p = run_cli("export-results", str(tmp_path / "o.csv"), home=home)
    assert p.returncode == 0, p.stderr
    assert "Free some space" not in p.stderr
    assert cached.is_file()
    (aside,) = cached.parent.glob(cached.name + ".not-a-store-*")
    assert aside.is_dir() if kind == "folder" else not aside.is_file()
