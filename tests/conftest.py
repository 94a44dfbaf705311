"""Shared fixtures: headless Qt, isolated user state, one real store per session."""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
from pathlib import Path

# Before any Qt import: offscreen unless a test starts its own real window, on a
# laptop-sized screen (the offscreen default, 800x600, is 400x300 at 2x scale).
# A plain QT_QPA_PLATFORM=offscreen gets that screen too: on the default one a
# restored 1280x720 window is clamped to the screen, and layout tests fail.
os.environ["QT_QPA_PLATFORM"] = (
    "offscreen:configfile=" + str(Path(__file__).with_name("offscreen-screen.json"))
    if os.environ.get("QT_QPA_PLATFORM", "offscreen") == "offscreen"
    else os.environ["QT_QPA_PLATFORM"]
)

import pytest
from hypothesis import settings

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "data"
SEEDS = REPO.parent / "shared" / "seeds"


sys.path.insert(0, str(Path(__file__).parent))

# Property tests run at full size in CI (CI=true: .ci/run sets it), and at a
# tenth of it on a contributor's machine, where the suite runs often; a seed
# that once failed is replayed from .hypothesis/ either way. No deadline: an
# example's time is not what a property test checks (speed is the bench's),
# and on a shared or loaded machine hypothesis's 200 ms failed sound code.
CI = os.environ.get("CI", "").lower() == "true"
settings.register_profile("ci", max_examples=100, deadline=None)
settings.register_profile("dev", max_examples=20, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if CI else "dev"))


def pytest_collection_modifyitems(config, items):
    """On several workers (pytest-xdist), the tests that start real windows on
    the one Xvfb display run on one of them, in turn: two at once would take
    each other's focus and keys. The tests of a packaging module stay on one
    worker too: its fixture builds the app (or the wheel) once per worker."""
    if not config.pluginmanager.hasplugin("xdist"):
        return
    for item in items:
        if item.get_closest_marker("xvfb"):
            item.add_marker(pytest.mark.xdist_group("xvfb"))
        elif item.path.parent.name == "frozen":
            item.add_marker(pytest.mark.xdist_group(item.path.stem))


def examples(full: int) -> int:
    """A property test's number of examples: ``full`` in CI, a tenth (at
    least 20) elsewhere."""
    return full if CI else max(20, full // 10)


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory, monkeypatch):
    """All user state (settings, cache, imports) goes to a fresh folder per test."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("IPUBENCH_GUI_HOME", str(home))
    yield home


@pytest.fixture(scope="session")
def store_path(tmp_path_factory) -> Path:
    from ipubench_gui.store.bundled.build import build_store

    return build_store(DATA, tmp_path_factory.mktemp("store") / "results.duckdb")


@pytest.fixture(scope="session")
def db(store_path):
    from ipubench_gui.store.db import Database

    d = Database.open(store_path)
    yield d
    d.close()


@pytest.fixture
def fresh_db(store_path):
    """A connection of this test's own to the test store (read-only): for tests
    that change what a Database holds (its in-memory copy, caches)."""
    from ipubench_gui.store.db import Database

    d = Database.open(store_path)
    yield d
    d.close()


@pytest.fixture
def data_copy(tmp_path) -> Path:
    """A writable copy of data/ for tests that damage it."""
    dst = tmp_path / "data"
    shutil.copytree(DATA, dst, ignore=shutil.ignore_patterns("*.duckdb*"))
    return dst


@pytest.fixture(scope="session")
def csv_rows():
    """data/results.csv read with the stdlib, independently of DuckDB."""
    import csv

    with open(DATA / "results.csv", newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _csv(name: str) -> list[dict]:
    import csv

    with open(DATA / name, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


# Rows of results_v, counted from the CSV files with the stdlib: the vendor's
# figures plus NVIDIA's published figures that are measurements (a value; not
# the training-scheme step counts), plus the official MLPerf results.
GPU_STORED = [
    r
    for r in _csv("gpu_reference.csv")
    if r["value"] and r["metric"] != "training_steps"
]
VENDOR_ROWS = len(_csv("results.csv"))
GPU_ROWS = len(GPU_STORED)
# Every official MLPerf result is a row too; a vendor figure citing one shares
# the official result's row.
MLPERF_ROWS = len(_csv("mlperf_training.csv"))
INFERENCE_ROWS = len(_csv("mlperf_inference.csv"))
CITED = sum(
    1 for r in _csv("results.csv") if r["mlperf_id"] and r["metric"] == "time_to_train"
)
STORE_ROWS = VENDOR_ROWS + GPU_ROWS + MLPERF_ROWS + INFERENCE_ROWS - CITED


def seeds_or_skip() -> Path:
    if not (SEEDS / "000_74c88246ac92525e.txt").exists():
        pytest.skip(f"source documents not found at {SEEDS}; verification needs them")
    return SEEDS


# The command line run by ``python -c``, printing its peak RSS ("peak-kb N")
# before it exits with the command's code: a memory bound read from the
# kernel's own high-water mark.
CLI_WITH_PEAK_RSS = (
    "import sys\n"
    "from ipubench_gui.cli import main\n"
    "rc = main(sys.argv[1:])\n"
    "hwm = [ln for ln in open('/proc/self/status') if ln.startswith('VmHWM')]\n"
    "print('peak-kb', hwm[0].split()[1])\n"
    "sys.exit(rc)\n"
)


def shown_canvas(plot, size: tuple[int, int], qtbot=None):
    """``plot`` drawn whole in a shown chart canvas of ``size`` (past its
    budget a chart is drawn over several turns of the event loop)."""
    from PySide6.QtWidgets import QApplication

    from ipubench_gui.ui.widgets.chart_canvas import ChartCanvas

    canvas = ChartCanvas()
    if qtbot is not None:
        qtbot.addWidget(canvas)
    canvas.resize(*size)
    canvas.show()
    QApplication.processEvents()
    canvas.render(plot)
    canvas.finish()
    QApplication.processEvents()
    return canvas


def run_cli(*args: str, home: Path, env: dict | None = None, drop=()):
    """Run ``python -m ipubench_gui ARGS`` as a user would, with its own home."""
    import subprocess

    e = dict(os.environ, IPUBENCH_GUI_HOME=str(home), **(env or {}))
    for k in drop:
        e.pop(k, None)
    return subprocess.run(
        [sys.executable, "-m", "ipubench_gui", *args],
        cwd=REPO,
        env=e,
        capture_output=True,
        text=True,
        timeout=120,
    )


def write_csv(path: Path, select_sql: str) -> Path:
    """A CSV with a header, written by DuckDB from ``select_sql`` (for files of
    millions of rows, made in a second)."""
    import duckdb

    with duckdb.connect() as con:
        con.execute(f"COPY ({select_sql}) TO '{path}' (HEADER)")
    return path


@contextlib.contextmanager
def small_disk(folder: Path, size: str = "2m"):
    """A tmpfs of ``size`` mounted on ``folder`` (root only; else the test is
    skipped): a full disk, or with ``mount -o remount,ro``, a read-only one."""
    import subprocess

    folder.mkdir(parents=True, exist_ok=True)
    p = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
        capture_output=True,
    )
    if p.returncode:
        pytest.skip("cannot mount a small tmpfs here (needs root)")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)
