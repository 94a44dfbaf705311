"""A user folder that cannot be used (a file in its place, a read-only disk)
is named with what to do, once, and the app goes on with what it can: the
bundled results, no imports. Standard output that cannot be written ends a
command with one line, not a traceback."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import REPO, STORE_ROWS, run_cli, small_disk


@pytest.mark.parametrize("bad", ["home", "data", "cache", "config"])
def test_a_file_in_place_of_a_folder_is_named_and_the_results_still_export(
    tmp_path, bad
):
    home = tmp_path / "home"
    if bad == "home":
        home.write_text("not a folder")
    else:
        home.mkdir()
        (home / bad).write_text("not a folder")
    out = tmp_path / "all.csv"
    p = run_cli("export-results", str(out), home=home)
    assert p.returncode == 0, p.stderr
    assert p.stdout == f"wrote {STORE_ROWS} results to {out}\n"
    assert "Traceback" not in p.stderr
    blocker = home if bad == "home" else home / bad
    if bad == "config":  # settings are a window's business
        assert p.stderr == ""
        return
    (note,) = p.stderr.splitlines()
    assert note.startswith("note: ")
    assert f"{blocker} is a file, not a folder: move or rename it" in note
    imp = run_cli("import", str(out), home=home)
    if bad == "cache":  # the store is built elsewhere; imports go on
        assert "Meanwhile the results store is built in" in imp.stderr
    else:
        assert imp.returncode == 1 and "mporting is off" in imp.stderr
        assert "Traceback" not in imp.stderr


def test_a_read_only_home_is_read_and_explained(tmp_path):
    with small_disk(tmp_path / "disk", "8m") as disk:
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        home = disk / "home"  # cannot even be made
        p = run_cli("export-results", str(tmp_path / "all.csv"), home=home)
        assert p.returncode == 0, p.stderr
        (note,) = p.stderr.splitlines()
        assert note == (
            f"note: {disk} cannot be written (Read-only file system): make it "
            "writable, or set IPUBENCH_GUI_HOME to a folder that is. Meanwhile "
            "importing is off and the results store is built in "
            f"{note.rsplit(' in ', 1)[1]}"
        )


def test_the_window_starts_on_a_home_that_is_a_file(tmp_path):
    """It used to end in "FATAL: exception not rethrown" (rc -6)."""
    home = tmp_path / "home"
    home.write_text("not a folder")
    shot = tmp_path / "shot.png"
    p = subprocess.run(
        [sys.executable, "-m", "ipubench_gui", "--screenshot", str(shot)],
        cwd=REPO,
        env=dict(os.environ, IPUBENCH_GUI_HOME=str(home)),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode == 0, p.stderr
    assert shot.stat().st_size > 0
    assert f"{home} is a file, not a folder" in p.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["claims"],
        ["claims", "--format", "csv"],
        ["compare", "bowtr-536574", "bowtr-aeb672"],
        ["counterparts", "bowtr-536574"],
        ["--help"],
    ],
)
def test_a_full_stdout_ends_with_one_line(tmp_path, args):
    with open("/dev/full", "w") as full:
        p = subprocess.run(
            [sys.executable, "-m", "ipubench_gui", *args],
            cwd=REPO,
            env=dict(os.environ, IPUBENCH_GUI_HOME=str(tmp_path / "home")),
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    assert p.returncode == 1
    assert p.stderr == "error: cannot write the output: No space left on device\n"


# (export-results -: the CSV written to standard output, not a file named '-')
@pytest.mark.parametrize(
    "command", [("claims", "--format", "csv"), ("export-results", "-")]
)
def test_a_reader_that_goes_away_ends_with_one_line(tmp_path, command):
    read, write = os.pipe()
    os.close(read)  # the reader is gone before anything is written (| head)
    p = subprocess.run(
        [sys.executable, "-m", "ipubench_gui", *command],
        cwd=REPO,
        env=dict(os.environ, IPUBENCH_GUI_HOME=str(tmp_path / "home")),
        stdout=write,
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
    )
    os.close(write)
    assert p.returncode == 1
    assert p.stderr == (
        "error: the output was closed before everything was written (broken pipe)\n"
    )
