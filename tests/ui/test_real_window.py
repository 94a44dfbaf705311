"""The app as a user starts it: a real window under X (Xvfb in CI), and the CLI."""

from __future__ import annotations

import os
from datetime import UTC, datetime

import numpy as np
import pytest
from PySide6.QtGui import QImage

from ipubench_gui import __version__
from tests.conftest import REPO, run_cli

ARTIFACTS = REPO / "tests" / "artifacts"


def _run(*args, env_extra=None, home):
    return run_cli(*args, home=home, env=env_extra)


def test_version_and_help(_isolated_home):
    import duckdb
    import pyqtgraph
    import PySide6
    from PySide6.QtCore import qVersion

    libs = (
        f"Qt {qVersion()} (PySide6 {PySide6.__version__}), "
        f"pyqtgraph {pyqtgraph.__version__}, DuckDB {duckdb.__version__}"
    )
    p = _run("--version", home=_isolated_home)
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines() == [
        f"ipubench-gui {__version__}",
        "data: not built yet (it is built on first start)",
        libs,
    ]
    assert not list(_isolated_home.rglob("*.duckdb"))  # --version built nothing
    out = str(_isolated_home / "all.csv")
    assert _run("export-results", out, home=_isolated_home).returncode == 0
    (store,) = (_isolated_home / "cache").glob("results-*.duckdb")
    with duckdb.connect(str(store), read_only=True) as con:
        q = "SELECT value FROM meta WHERE key = 'built_at'"
        (built,) = con.execute(q).fetchall()[0]
    p = _run("--version", home=_isolated_home)
    assert p.stdout.splitlines()[1] == f"data: built {built}"
    assert built.startswith(datetime.now(UTC).strftime("%Y-%m-%d"))
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
