"""pyqtgraph imported after ``ipubench_gui.startup.prepare()``: Qt classes made on use.

Each case runs in a fresh interpreter, since what is measured is what the first
import of pyqtgraph does to PySide6's modules.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

# Classes the app never uses: whether PySide6 has made them yet tells whether
# pyqtgraph's import copied every name.
UNUSED = [("QtWidgets", "QUndoView"), ("QtGui", "QPdfWriter"), ("QtCore", "QLockFile")]


def _probe(first_import: str) -> dict:
    code = textwrap.dedent(f"""
        import json, sys
        {first_import}
        import pyqtgraph as pg
        import PySide6
        made = {{f"{{m}}.{{c}}": c in vars(getattr(PySide6, m)) for m, c in {UNUSED!r}}}
        def same(m, c):
            return getattr(getattr(pg.Qt, m), c) is getattr(getattr(PySide6, m), c)
        mirrors = {{f"{{m}}.{{c}}": same(m, c) for m, c in {UNUSED!r}}}
        try:
            pg.Qt.QtCore.NoSuchName
            missing = "no error"
        except AttributeError as exc:
            missing = str(exc)
        print(json.dumps({{
            "made_by_import": made,
            "mirrors_forward": mirrors,
            "missing": missing,
            "shim": pg.Qt.QtGui.QFileSystemModel is PySide6.QtWidgets.QFileSystemModel,
            "hook_left": any(type(f).__name__ == "_Finder" for f in sys.meta_path),
        }}))
    """)
    p = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
    )
    assert p.returncode == 0, p.stderr[-2000:]
    return json.loads(p.stdout.strip().splitlines()[-1])


def test_plain_pyqtgraph_import_makes_every_class():
    # The control: without the hook the probe does see the eager copy.
    r = _probe("pass")
    assert all(r["made_by_import"].values()), r


def test_start_up_hook_leaves_unused_classes_unmade_and_mirrors_still_work():
    r = _probe("from ipubench_gui import startup; startup.prepare()")
    assert not any(r["made_by_import"].values()), r
    assert all(r["mirrors_forward"].values()), r
    assert r["missing"] == "module 'pyqtgraph.Qt.QtCore' has no attribute 'NoSuchName'"
    assert r["shim"] is True  # pyqtgraph's own Qt5-era shims still ran
    assert r["hook_left"] is False  # it removes itself after the one import


def test_importing_the_package_patches_nothing():
    # Only the GUI entry point (and --self-test) installs the start-up hooks:
    # importing any module of the package, even the charts that import
    # pyqtgraph, leaves the import system and PySide6 as they were.
    code = textwrap.dedent("""
        import json, sys
        import PySide6.QtCore
        feature = sys.modules["shibokensupport.feature"]
        before = (list(sys.meta_path), feature._mod_uses_pyside)
        import ipubench_gui, ipubench_gui.cli, ipubench_gui.store.db
        meta_path_same = list(sys.meta_path) == before[0]
        import ipubench_gui.charts.export
        import PySide6
        print(json.dumps({
            "meta_path_same": meta_path_same,
            "scan_same": feature._mod_uses_pyside is before[1],
            "startup_loaded": "ipubench_gui.startup" in sys.modules,
            "eager_copy": "QUndoView" in vars(PySide6.QtWidgets),
        }))
    """)
    p = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
    )
    assert p.returncode == 0, p.stderr[-2000:]
    r = json.loads(p.stdout.strip().splitlines()[-1])
    assert r == {
        "meta_path_same": True,
        "scan_same": True,
        "startup_loaded": False,
        "eager_copy": True,  # pyqtgraph's own import, unpatched
    }
