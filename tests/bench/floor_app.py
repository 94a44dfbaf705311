"""The bare floor for start-up: import the stack, show an empty window, quit."""

from __future__ import annotations

import time

import duckdb  # noqa: F401
import pyqtgraph  # noqa: F401
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMainWindow

app = QApplication([])
w = QMainWindow()
w.resize(1200, 800)
w.show()
w.repaint()
print(f"ready {time.time():.6f}", flush=True)
QTimer.singleShot(0, app.quit)
app.exec()
