"""The two verified traps of this stack, kept as tests so a bump cannot hide them.

PySide6 6.12.0 leaks a reference to ``True`` per signal emit and aborts after a
few thousand; pyqtgraph 0.14.0's SVG export raises with PySide6 6.11 and 6.12.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET

import PySide6
from packaging.version import Version


def test_pyside6_is_in_the_tested_range():
    v = Version(PySide6.__version__)
    assert Version("6.10") <= v < Version("6.11"), PySide6.__version__


def test_many_signal_emits_do_not_abort_the_process():
    # In a child process: the failure mode is a fatal abort, not an exception.
    code = textwrap.dedent("""
        from PySide6.QtCore import QObject, Signal, QCoreApplication
        app = QCoreApplication([])
        class E(QObject):
            fired = Signal(bool)
        e = E(); seen = []
        e.fired.connect(seen.append)
        for i in range(50_000):
            e.fired.emit(True)
        print(len(seen))
    """)
    p = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
    )
    assert p.returncode == 0, p.stderr[-2000:]
    assert p.stdout.strip() == "50000"


def test_pyqtgraph_svg_export_works(qtbot):
    import pyqtgraph as pg
    from pyqtgraph.exporters import SVGExporter

    w = pg.PlotWidget(title="trap check")
    qtbot.addWidget(w)
    w.plot([1, 2, 3], [3, 1, 2])
    data = SVGExporter(w.plotItem).export(toBytes=True)
    root = ET.fromstring(data)
    texts = " ".join(t.text or "" for t in root.iter() if t.tag.endswith("text"))
    assert "trap check" in texts
