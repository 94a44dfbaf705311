"""Build the one-folder app with PyInstaller and run its --self-test as a user would.

Slow (about a minute); it runs in CI (.ci/run) like every other test.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, STORE_ROWS

pytestmark = pytest.mark.slow


def _snapshot(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in root.rglob("*")
        if p.is_file() and not p.is_symlink()
    }


def _run(app: Path, *args: str, env: dict) -> subprocess.CompletedProcess:
    """The installed executable with ``args`` and only ``env`` (no Python)."""
    return subprocess.run(
        [str(app / "ipubench-gui"), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture(scope="module")
def built_app(tmp_path_factory) -> Path:
    pytest.importorskip("PyInstaller")
    # built under a temporary folder: the repository's build/ and dist/ (a
    # developer's own `make package`) are left as they are
    out = tmp_path_factory.mktemp("package")
    env = dict(
        os.environ,
        PYTHON=sys.executable,
        ONEFOLDER_ONLY="1",
        BUILD_DIR=str(out / "build"),
        DIST_DIR=str(out / "dist"),
    )
    p = subprocess.run(
        ["bash", "packaging/build.sh"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    assert "MiB in" in p.stdout  # the size report
    # Install a copy, as a user would, somewhere else.
    dest = tmp_path_factory.mktemp("install") / "ipubench-gui"
    shutil.copytree(out / "dist" / "ipubench-gui", dest, symlinks=True)
    return dest


def test_frozen_self_test_without_python_or_network(built_app, tmp_path):
    before = _snapshot(built_app)
    env = {
        "HOME": str(tmp_path),
        "PATH": "/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "QT_QPA_PLATFORM": "offscreen",
    }  # no Python, no venv, nothing else
    p = _run(built_app, "--self-test", env=env)
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.startswith(f"self-test ok: {STORE_ROWS} results")
    # The install folder is never written (it may be read-only); user state
    # goes to the user's folders.
    assert _snapshot(built_app) == before
    assert (tmp_path / ".cache").exists() or (tmp_path / ".local").exists()


def test_frozen_command_line_works(built_app, tmp_path):
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
    p = _run(
        built_app,
        "export-chart",
        "--kind",
        "mlperf",
        "--out",
        str(tmp_path / "m.png"),
        env=env,
    )
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "m.png").stat().st_size > 10_000
    p = _run(built_app, "--version", env=env)
    assert p.stdout.startswith("ipubench-gui ")


def test_frozen_app_imports_qt_through_the_start_up_hooks(built_app, tmp_path):
    # startup.prepare() wraps the loader of pyqtgraph.Qt (frozen, PyInstaller's)
    # and patches PySide6's own support module: check both took
    # effect in the frozen app too (their trace lines).
    env = {
        "HOME": str(tmp_path),
        "PATH": "/usr/bin:/bin",
        "QT_QPA_PLATFORM": "offscreen",
        "IPUBENCH_GUI_TRACE": "1",
    }
    p = _run(built_app, "--self-test", env=env)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "lazy Qt mirrors: QtCore, QtGui, QtWidgets" in p.stderr, p.stderr
    assert "PySide6 imported; per-module source scan replaced" in p.stderr


def test_frozen_app_carries_the_whole_data_folder(built_app, tmp_path):
    # Every file of data/ (new tables and subfolders too), plus the prebuilt
    # store, whose build date --version reports.
    bundled = built_app / "_internal" / "data"
    want = {
        str(p.relative_to(REPO / "data"))
        for p in (REPO / "data").rglob("*")
        if p.is_file() and ".duckdb" not in p.name
    }
    got = {str(p.relative_to(bundled)) for p in bundled.rglob("*") if p.is_file()}
    assert got == want | {"results.duckdb"}
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
    line = _run(built_app, "--version", env=env).stdout.splitlines()[1]
    assert line.startswith("data: built 20") and line.endswith(" UTC"), line
