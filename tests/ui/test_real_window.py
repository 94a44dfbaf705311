"""The app as a user starts it: a real window under X (Xvfb in CI), and the CLI."""

from __future__ import annotations

import os

import numpy as np
import pytest
from PySide6.QtGui import QImage

from ipubench_gui import __version__
from tests.conftest import REPO, run_cli

ARTIFACTS = REPO / "tests" / "artifacts"


def _run(*args, env_extra=None, home):
    return run_cli(*args, home=home, env=env_extra)


def test_version_and_help(_isolated_home):
    p = _run("--version", home=_isolated_home)
    assert p.returncode == 0 and p.stdout.strip() == f"ipubench-gui {__version__}"
    p = _run("--help", home=_isolated_home)
    assert p.returncode == 0
    assert "export-results" in p.stdout and "--screenshot" in p.stdout


@pytest.mark.xvfb
@pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs an X display (Xvfb)")
def test_app_starts_in_a_real_window_and_shows_results(_isolated_home):
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "main_window.png"
    shot.unlink(missing_ok=True)
    p = _run(
        "--screenshot",
        str(shot),
        env_extra={"QT_QPA_PLATFORM": "xcb"},
        home=_isolated_home,
    )
    assert p.returncode == 0, p.stderr[-3000:]
    img = QImage(str(shot))
    assert img.width() >= 800 and img.height() >= 500
    # Not a blank window: many distinct colours (bars, text, table).
    img = img.convertToFormat(QImage.Format.Format_RGB32)
    arr = np.frombuffer(img.constBits(), np.uint8).reshape(img.height(), -1)[
        :, : img.width() * 4
    ]
    colours = np.unique(arr.reshape(-1, 4)[:, :3], axis=0)
    assert len(colours) > 50
    assert "leaked" not in p.stderr  # the app closes its store before exiting
