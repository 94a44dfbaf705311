"""One version, in one place (ipubench_gui/__init__.py); the packaging reads it."""

from __future__ import annotations

import ast
import re
import sys

from ipubench_gui import __version__
from tests.conftest import REPO

sys.path.insert(0, str(REPO / "packaging"))
from spec_common import app_version, windows_version_info  # noqa: E402


def test_the_spec_reads_the_version_from_its_one_place():
    assert app_version(REPO) == __version__
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__)


def test_windows_version_resource_carries_it():
    text = windows_version_info(REPO / "packaging" / "version_info.txt", __version__)
    nums = tuple(int(n) for n in __version__.split(".")) + (0,)
    assert f"filevers={nums!r}, prodvers={nums!r}" in text
    assert f"StringStruct('ProductVersion', '{__version__}')" in text
    assert "{version" not in text
    ast.parse(text, mode="eval")  # PyInstaller eval()s it


def test_no_other_file_spells_the_version():
    places = [
        REPO / "pyproject.toml",
        REPO / "setup.py",
        REPO / "README.md",
        *(REPO / "packaging").iterdir(),
        *(REPO / "resources").glob("*.desktop"),
        *(p for p in (REPO / "ipubench_gui").rglob("*.py") if p.name != "__init__.py"),
    ]
    spelled = [
        str(p.relative_to(REPO))
        for p in places
        if p.is_file() and __version__ in p.read_text("utf-8", errors="replace")
    ]
    assert spelled == []
