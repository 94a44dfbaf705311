"""The Linux menu entry and MIME type: valid for Debian 12's desktop-file-utils,
installed and removed with the desktop's caches refreshed."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import REPO

DESKTOP = REPO / "resources" / "ipubench-gui.desktop"
VIEW_TYPE = "application/x-ipubench-view"


def _validator() -> str:
    """desktop-file-validate; .ci/xvfb-pytest installs it (apt) when missing."""
    exe = shutil.which("desktop-file-validate")
    if exe is None:
        if os.geteuid() == 0 and shutil.which("apt-get"):
            pytest.fail("desktop-file-validate missing: .ci/xvfb-pytest installs it")
        pytest.skip("desktop-file-validate not installed and apt-get not usable")
    return exe


def _validate(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [_validator(), str(path)], capture_output=True, text=True, timeout=60
    )


def test_desktop_entry_validates():
    p = _validate(DESKTOP)
    # No errors, and no hints either (several main categories is one).
    assert p.returncode == 0 and not p.stdout.strip(), p.stdout + p.stderr
    entry = DESKTOP.read_text(encoding="utf-8")
    assert f"MimeType={VIEW_TYPE};" in entry
    assert "Exec=ipubench-gui %F" in entry  # files the desktop passes to cli.main


def _fake_build(root: Path) -> Path:
    """A stand-in for dist/ipubench-gui: an executable and the bundled resources."""
    app = root / "dist" / "ipubench-gui"
    shutil.copytree(REPO / "resources", app / "_internal" / "resources")
    exe = app / "ipubench-gui"
    exe.write_text("#!/bin/sh\nexit 0\n")
    exe.chmod(0o755)
    return app


def _run(script: str, *args: str, home: Path) -> None:
    env = dict(os.environ, HOME=str(home), XDG_DATA_HOME=str(home / "share"))
    p = subprocess.run(
        ["bash", str(REPO / "packaging" / script), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode == 0, p.stdout + p.stderr


def test_install_registers_views_and_uninstall_refreshes_caches(tmp_path):
    for tool in ("update-desktop-database", "update-mime-database"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} not installed")
    home = tmp_path / "home"
    data = home / "share"
    _run("install-linux.sh", str(_fake_build(tmp_path)), home=home)
    installed = data / "applications" / "ipubench-gui.desktop"
    p = _validate(installed)
    assert p.returncode == 0 and not p.stdout.strip(), p.stdout
    assert f'Exec="{data}/ipubench-gui/app/ipubench-gui" %F' in installed.read_text()
    mimeinfo = data / "applications" / "mimeinfo.cache"
    assert f"{VIEW_TYPE}=ipubench-gui.desktop" in mimeinfo.read_text()
    globs = (data / "mime" / "globs2").read_text()
    assert f"{VIEW_TYPE}:*.ipubench-view.json" in globs
    icon_cache = data / "icons" / "hicolor" / "icon-theme.cache"
    if shutil.which("gtk-update-icon-cache"):
        assert b"ipubench-gui" in icon_cache.read_bytes()

    _run("uninstall-linux.sh", home=home)
    assert not installed.exists()
    assert VIEW_TYPE not in mimeinfo.read_text()
    assert VIEW_TYPE not in (data / "mime" / "globs2").read_text()
    if icon_cache.exists():
        assert b"ipubench-gui" not in icon_cache.read_bytes()
