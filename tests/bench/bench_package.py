"""Packaging benchmarks: app size and frozen start against a minimal app.

Slow (two PyInstaller builds): run with ``--only package``.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
from pathlib import Path

from tests.bench.bench_ui import _cold_start_ms
from tests.bench.harness import Row, case

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "packaging"))


@case("package")
def bench_package(args, tmp: Path) -> list[Row]:
    from report import size

    env = dict(os.environ, PYTHON=sys.executable, ONEFOLDER_ONLY="1")
    subprocess.run(
        ["bash", "packaging/build.sh"],
        cwd=REPO,
        env=env,
        check=True,
        capture_output=True,
    )
    subprocess.run(
        [
            sys.executable,
            "-m",
            "PyInstaller",
            "--noconfirm",
            "--log-level",
            "WARN",
            "--distpath",
            str(tmp / "mdist"),
            "--workpath",
            str(tmp / "mbuild"),
            "tests/bench/minimal.spec",
        ],
        cwd=REPO,
        check=True,
        capture_output=True,
    )
    app_dir, min_dir = REPO / "dist" / "ipubench-gui", tmp / "mdist" / "minimal"
    rows = [
        Row(
            "one-folder app size (MiB)",
            "frozen",
            size(app_dir) / 2**20,
            "minimal PySide6+pyqtgraph+duckdb+numpy app",
            size(min_dir) / 2**20,
            "<= 1.15x",
        )
    ]
    env = {
        "HOME": str(tmp / "home"),
        "PATH": "/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "QT_QPA_PLATFORM": "offscreen",
        "IPUBENCH_GUI_EXIT_WHEN_READY": "1",
    }
    # Warm the user cache folder creation once; then interleave the runs.
    subprocess.run(
        [str(app_dir / "ipubench-gui"), "--version"],
        env=env,
        check=True,
        capture_output=True,
    )
    a, m = [], []
    for _ in range(7):
        m.append(_cold_start_ms([str(min_dir / "minimal")], env))
        a.append(_cold_start_ms([str(app_dir / "ipubench-gui")], env))
    rows.append(
        Row(
            "frozen cold start to painted window with data",
            "frozen",
            statistics.median(a),
            "minimal app showing a plot",
            statistics.median(m),
            "<= 1.2x",
        )
    )
    return rows
