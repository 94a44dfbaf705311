"""The one thing pyproject.toml cannot say: the repository's top-level ``data/``
and ``resources/`` folders go into the wheel, whole, as ``ipubench_gui/data``
and ``ipubench_gui/resources`` (where ``ipubench_gui.paths`` looks when the app
is installed). They stay top-level in the repository, where the data's
reviewers, the PyInstaller spec and the tests read them."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
BUNDLED = ("data", "resources")
# Never shipped: stores built from the data (the app builds its own) and caches.
SKIP = shutil.ignore_patterns("*.duckdb", "*.duckdb.wal", "__pycache__", ".*")


class BuildPyWithData(build_py):
    def run(self):
        super().run()
        for name in BUNDLED:
            dest = Path(self.build_lib, "ipubench_gui", name)
            shutil.rmtree(dest, ignore_errors=True)
            shutil.copytree(HERE / name, dest, ignore=SKIP)


setup(cmdclass={"build_py": BuildPyWithData})
