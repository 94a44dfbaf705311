"""Build the wheel, install it into a fresh virtual environment (as pip and pipx
do) and run the installed app from another folder.

Offline: the wheel is built without build isolation (setuptools comes with the
test extras) and installed with ``--no-deps``; the fresh environment sees this
environment's dependencies (PySide6, DuckDB, ...) through a path file, never
its editable install of the app, so only the wheel's copy can answer.
"""

from __future__ import annotations

import csv
import shutil
import struct
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tests.conftest import REPO, STORE_ROWS

pytestmark = pytest.mark.slow

# What a source distribution or a clone holds that the build reads.
SOURCES = (
    "ipubench_gui",
    "data",
    "resources",
    "pyproject.toml",
    "setup.py",
    "MANIFEST.in",
    "README.md",
)


def _pip(*args: str, cwd: Path) -> None:
    p = subprocess.run(
        [sys.executable, "-m", "pip", "--disable-pip-version-check", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The ``bin`` folder of a fresh venv with only the built wheel installed."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"  # a copy, so the build writes nothing into the repository
    for name in SOURCES:
        p = REPO / name
        if p.is_dir():
            ignore = shutil.ignore_patterns("__pycache__", "*.duckdb*", "*.egg-info")
            shutil.copytree(p, src / name, ignore=ignore)
        else:
            shutil.copy2(p, src / name)
    _pip(
        "wheel",
        "--no-deps",
        "--no-build-isolation",
        "--no-index",
        "-w",
        str(tmp / "dist"),
        str(src),
        cwd=tmp,
    )
    (wheel,) = (tmp / "dist").glob("ipubench_gui-*.whl")
    venv = tmp / "venv"
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(venv)],
        check=True,
        timeout=120,
    )
    purelib = Path(
        subprocess.run(
            [
                str(venv / "bin" / "python"),
                "-c",
                "import sysconfig; print(sysconfig.get_paths()['purelib'])",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    # The dependencies, from here; listed after the venv's own site-packages,
    # and a path file in that folder is not read, so the editable install of
    # the app here stays invisible.
    (purelib / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    _pip(
        "--python",
        str(venv / "bin" / "python"),
        "install",
        "--no-deps",
        "--no-index",
        str(wheel),
        cwd=tmp,
    )
    shutil.rmtree(src)  # nothing may still read the sources
    return venv / "bin"


def _run(bin_dir: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {
        "HOME": str(cwd / "home"),
        "PATH": f"{bin_dir}:/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "QT_QPA_PLATFORM": "offscreen",
    }
    return subprocess.run(
        [str(bin_dir / "ipubench-gui"), *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_wheel_carries_the_whole_data_and_resources_folders(installed):
    pkg = Path(
        subprocess.run(
            [
                str(installed / "python"),
                "-c",
                "import os, ipubench_gui as m; print(os.path.dirname(m.__file__))",
            ],
            capture_output=True,
            text=True,
            check=True,
            cwd="/",
        ).stdout.strip()
    )
    assert pkg.is_relative_to(installed.parent), pkg  # the wheel's copy, not ours
    for folder in ("data", "resources"):
        shipped = {
            str(p.relative_to(REPO / folder))
            for p in (REPO / folder).rglob("*")
            if p.is_file() and not p.name.endswith((".duckdb", ".wal"))
        }
        got = {
            str(p.relative_to(pkg / folder))
            for p in (pkg / folder).rglob("*")
            if p.is_file() and p.name != "results.duckdb"  # built from them
        }
        assert got == shipped, folder


def test_wheel_carries_a_store_built_from_its_data(installed, tmp_path):
    """The store the wheel's build made matches the data it carries (its
    fingerprint), so an installed app's first start attaches it and builds
    none of its own in the user's cache folder."""
    p = subprocess.run(
        [
            str(installed / "python"),
            "-c",
            "import sys; from pathlib import Path; import ipubench_gui as m\n"
            "from ipubench_gui.store.bundled.build import built_at, store_places\n"
            "data = Path(m.__file__).parent / 'data'\n"
            "print(store_places(data, Path(sys.argv[1]))[0])\n"
            "print(built_at(data, Path(sys.argv[1])))",
            str(tmp_path / "no-cache"),
        ],
        capture_output=True,
        text=True,
        cwd="/",
    )
    assert p.returncode == 0, p.stderr
    store, when = p.stdout.splitlines()
    assert Path(store).is_file() and Path(store).is_relative_to(installed.parent)
    assert when != "None"  # built, and from this very data
    assert not (tmp_path / "no-cache").exists()
    p = _run(installed, "export-results", "all.csv", cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    assert not list((tmp_path / "home").rglob("results-*.duckdb")), "built at start"


def test_installed_app_self_tests_and_exports_from_another_folder(installed, tmp_path):
    expected = STORE_ROWS  # vendor rows, NVIDIA reference figures, MLPerf results
    p = _run(installed, "--self-test", cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.startswith(f"self-test ok: {expected} results"), p.stdout

    p = _run(installed, "export-results", "all.csv", cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    with open(tmp_path / "all.csv", newline="", encoding="utf-8") as f:
        assert sum(1 for _ in csv.DictReader(f)) == expected

    p = _run(
        installed,
        "export-chart",
        "--kind",
        "throughput",
        "--size",
        "800x600",
        "--out",
        "t.png",
        cwd=tmp_path,
    )
    assert p.returncode == 0, p.stdout + p.stderr
    head = (tmp_path / "t.png").read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", head[16:24]) == (800, 600)

    from ipubench_gui import __version__

    p = _run(installed, "--version", cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.startswith(f"ipubench-gui {__version__}\n"), p.stdout
