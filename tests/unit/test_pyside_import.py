"""ipubench_gui.startup.import_pyside: no source scan per import, features still work.

Each case runs in a fresh interpreter: what is measured is what importing
PySide6 does to every later import.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap


def _run(code: str, tmp_path) -> str:
    (tmp_path / "uses_feature.py").write_text(
        textwrap.dedent("""
            from __feature__ import snake_case
            from PySide6.QtCore import QObject

            o = QObject()
            o.set_object_name("renamed")
            NAME = o.object_name()
        """)
    )
    p = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert p.returncode == 0, p.stderr[-2000:]
    return p.stdout.strip().splitlines()[-1]


PROBE = """
    import inspect, sys
    sys.path.insert(0, ".")
    {setup}
    read = []
    real = inspect.getsource
    inspect.getsource = lambda m: (read.append(m.__name__), real(m))[1]
    import json, csv, zipfile, email.parser  # modules not loaded yet
    print(len(read), [m for m in read if m.startswith(("json", "csv"))][:2])
"""


def test_plain_pyside_reads_the_source_of_every_later_module(tmp_path):
    # The control: the scan the replacement avoids does happen without it.
    out = _run(PROBE.format(setup="import PySide6.QtCore"), tmp_path)
    assert int(out.split()[0]) >= 4, out


def test_after_import_pyside_no_module_source_is_read(tmp_path):
    setup = "from ipubench_gui.startup import import_pyside; import_pyside()"
    out = _run(PROBE.format(setup=setup), tmp_path)
    assert out.split()[0] == "0", out


def test_feature_imports_still_work_after_it(tmp_path):
    out = _run(
        """
        import sys
        sys.path.insert(0, ".")
        from ipubench_gui.startup import import_pyside
        assert import_pyside()
        import uses_feature
        print(uses_feature.NAME)
        """,
        tmp_path,
    )
    assert out == "renamed"
