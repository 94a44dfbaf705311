"""The settings file is read only when it is a regular file of sensible size,
and written beside it and renamed into place: never through a link, never
into a pipe or a device, never so large that the start waits on it."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


@pytest.fixture
def ini(_isolated_home):
    folder = _isolated_home / "config"
    folder.mkdir(exist_ok=True)
    return folder / "settings.ini"


def test_closing_the_window_replaces_a_link_never_its_target(
    make_session, ini, tmp_path
):
    target = tmp_path / "dotfile.txt"
    target.write_text("not to be touched\n")
    os.symlink(target, ini)
    s = make_session()
    s.window.close()  # closeEvent saves the window's settings
    assert target.read_text() == "not to be touched\n"
    assert not ini.is_symlink() and ini.is_file()
    assert "[window]" in ini.read_text()


def test_a_pipe_in_place_of_the_settings_blocks_nothing_and_is_named(make_session, ini):
    os.mkfifo(ini)
    s = make_session()  # reading a pipe would wait for a writer forever
    s.window.restore_settings()
    s.window.close()  # nor is anything written into it
    from ipubench_gui.ui import settings_store as ss

    (note,) = ss.notes()
    assert "is a named pipe (FIFO)" in note and str(ini) in note
    assert s.window.statusBar().currentMessage() == note
    assert ini.exists() and not ini.is_file()


def test_a_huge_list_is_set_aside_and_recent_views_stay_few(ini):
    from ipubench_gui.ui import settings_store as ss

    views = ", ".join(f"/tmp/view{i}.json" for i in range(200_000))
    ini.write_text(f"[views]\nrecent={views}\n")
    assert ss.recent_views() == []
    (note,) = ss.notes()
    assert "too large" in note
    (aside,) = ini.parent.glob("settings.ini.too-large-*")
    assert aside.stat().st_size > ss.MAX_FILE_BYTES


def test_a_long_list_within_bounds_is_cut_when_read_and_written(ini):
    from ipubench_gui.ui import settings_store as ss

    views = ", ".join(f"/tmp/v{i}.json" for i in range(5_000))
    ini.write_text(f"[views]\nrecent={views}\n")
    assert ss.recent_views() == [f"/tmp/v{i}.json" for i in range(ss.MAX_RECENT)]
    ss.add_recent_view("/tmp/new.json")
    assert "/tmp/v4000.json" not in ini.read_text()
    assert ini.read_text().count(".json") == ss.MAX_RECENT


def test_another_process_keeps_its_settings(ini):
    """Each write merges into the file as it is then, as Qt's own writer does."""
    from ipubench_gui.ui import settings_store as ss

    ss.save_text(ss.THEME, "dark")
    code = (
        "from ipubench_gui.ui import settings_store as ss; "
        "ss.save_text(ss.LAST_EXPORT_DIR, '/elsewhere')"
    )
    subprocess.run([sys.executable, "-c", code], check=True, env=os.environ.copy())
    ss.save_text(ss.CHART_LEGEND, "0")
    text = ini.read_text()
    assert "theme=dark" in text and "last_dir=/elsewhere" in text
    assert "legend_visible=0" in text
