"""The one thing pyproject.toml cannot say: the repository's top-level ``data/``
and ``resources/`` folders go into the wheel, whole, as ``ipubench_gui/data``
and ``ipubench_gui/resources`` (where ``ipubench_gui.paths`` looks when the app
is installed), with the results store built from that data once, here, as the
standalone app carries one. They stay top-level in the repository, where the
data's reviewers, the PyInstaller spec and the tests read them."""

import shutil
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
BUNDLED = ("data", "resources")
# Never copied: stores someone built in data/ (the wheel's is built from the
# copy) and caches.
SKIP = shutil.ignore_patterns("*.duckdb", "*.duckdb.wal", "__pycache__", ".*")


class BuildPyWithData(build_py):
    def run(self):
        super().run()
        for name in BUNDLED:
            dest = Path(self.build_lib, "ipubench_gui", name)
            shutil.rmtree(dest, ignore_errors=True)
            shutil.copytree(HERE / name, dest, ignore=SKIP)
        if not getattr(self, "editable_mode", False):  # an editable install reads data/
            prebuild_store(Path(self.build_lib, "ipubench_gui", "data"))


def prebuild_store(data: Path) -> None:
    """The store an installed app attaches at its first start (the fingerprint
    of the data it was built from matches), instead of building its own in
    the user's cache folder, slowly; the data is never modified
    by the app, so the store built here stays right for it."""
    sys.path.insert(0, str(HERE))
    from ipubench_gui.store.bundled.build import STORE_NAME, build_store

    build_store(data, data / STORE_NAME)


setup(cmdclass={"build_py": BuildPyWithData})
