"""Baseline for packaging budgets: the stack alone (PySide6, pyqtgraph, DuckDB,
NumPy) showing a plot, frozen the same way as the app."""

import os
import time

import duckdb
import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

app = QApplication([])
w = pg.PlotWidget()
x = np.arange(100)
w.plot(x, duckdb.sql("SELECT range * 2 AS y FROM range(100)").fetchnumpy()["y"])
w.resize(1200, 800)
w.show()
w.repaint()
if os.environ.get("IPUBENCH_GUI_EXIT_WHEN_READY"):
    print(f"ready {time.time():.6f}", flush=True)
    QTimer.singleShot(0, app.quit)
app.exec()
