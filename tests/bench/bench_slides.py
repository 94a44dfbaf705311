"""Slide export benchmark: each kind's 1920x1080 PNG export
against the pyqtgraph ImageExporter floor on the same plot, in the same run."""

from __future__ import annotations

from pathlib import Path

from tests.bench.harness import REPO_DATA, Row, case, median_ms


def _floor(plot, out: Path) -> None:
    """The same series drawn by plain pyqtgraph items (no titles, legend,
    labels or styling) and written by pyqtgraph's own ImageExporter. A chart
    in panels (small multiples) gets as many plain plot items, in the same
    grid: one plot item would be a floor of less than the export must draw
    (each plot item has its view box and four axes to lay out and paint)."""
    import numpy as np
    import pyqtgraph as pg
    from pyqtgraph.exporters import ImageExporter
    from PySide6 import QtWidgets

    from ipubench_gui.charts.panels import columns

    w = pg.GraphicsLayoutWidget()
    w.setBackground("w")
    titles = plot.panels or ("",)
    for i, title in enumerate(titles):
        r, c = divmod(i, columns(len(titles)))
        pi = w.addPlot(row=r, col=c)
        for s in plot.panel(title).series if plot.panels else plot.series:
            if not s.points:
                continue
            xs = np.array([p.x for p in s.points], float)
            ys = np.array([p.y for p in s.points], float)
            if s.style == "bars":
                pi.addItem(
                    pg.BarGraphItem(x0=0, y=ys, width=xs, height=0.72, brush=s.color)
                )
            else:
                pi.addItem(pg.PlotDataItem(xs, ys, pen=s.color, symbol="o"))
    w.resize(1920, 1080)
    QtWidgets.QApplication.processEvents()
    exp = ImageExporter(w.scene())
    exp.parameters()["width"] = 1920
    exp.export(str(out))
    w.close()
    w.deleteLater()


@case("slides")
def bench_slides(args, tmp: Path) -> list[Row]:
    from ipubench_gui.app import ensure_app
    from ipubench_gui.charts.export import ExportOptions, export
    from ipubench_gui.domain.chartspec import ChartSpec
    from ipubench_gui.domain.filters import FilterState
    from ipubench_gui.domain.kinds import KINDS
    from ipubench_gui.domain.plots import build_plot
    from ipubench_gui.service import browse
    from ipubench_gui.store.bundled.build import build_store
    from ipubench_gui.store.db import Database

    ensure_app()
    db = Database.open(build_store(REPO_DATA, tmp / "slides.duckdb"))
    rows: list[Row] = []
    runs = 3 if args.quick else 7
    for kind in KINDS:
        spec = ChartSpec(kind=kind)
        plot = build_plot(spec, browse.chart_data(db, FilterState(), spec))
        opts = ExportOptions(1920, 1080)
        # interleaved: ours, then the floor, run after run (the box is noisy)
        ours, floor = [], []
        for _ in range(runs):
            ours.append(
                median_ms(lambda p=plot, o=opts: export(p, tmp / "o.png", o), 1, 0)
            )
            floor.append(median_ms(lambda p=plot: _floor(p, tmp / "f.png"), 1, 0))
        ours.sort()
        floor.sort()
        rows.append(
            Row(
                f"export {kind} PNG 1920x1080 (titles, legend, labels)",
                "seed",
                ours[len(ours) // 2],
                "pyqtgraph ImageExporter, same series, plain items",
                floor[len(floor) // 2],
                "<= 1.2x",
            )
        )
    db.close()
    return rows
