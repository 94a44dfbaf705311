"""ChartSpec data -> pyqtgraph items. Pure: no widgets shown, no SQL."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pyqtgraph as pg
from pyqtgraph import QtCore

from ipubench_gui.charts.theme import Theme
from ipubench_gui.domain.chartspec import BarData
from ipubench_gui.domain.format import format_compact, format_number

MAX_LABEL_CHARS = 56
BAR_THICKNESS = 0.72


class ValueLabels(pg.GraphicsObject):
    """All bar-end value labels in one item, drawn in device pixels.

    One ``TextItem`` per bar costs ~0.5 ms each to create and lay out; this item
    paints only the labels in view, so a redraw costs the same for 10 or 5000.
    """

    def __init__(self, points: list[tuple[float, float, str]], color: str):
        super().__init__()
        self._points = points
        self._color = pg.mkColor(color)
        xs = [p[0] for p in points] or [0.0]
        ys = [p[1] for p in points] or [0.0]
        self._rect = QtCore.QRectF(
            0, min(ys) - 0.5, max(xs) * 1.2 or 1, max(ys) - min(ys) + 1
        )

    def boundingRect(self) -> QtCore.QRectF:  # noqa: N802 (Qt API)
        return self._rect

    def paint(self, p, *args) -> None:
        view = self.getViewBox()
        if view is None:
            return
        (_, _), (y0, y1) = view.viewRange()
        lo, hi = min(y0, y1), max(y0, y1)
        tr = p.transform()
        p.save()
        p.resetTransform()
        p.setPen(self._color)
        fm = p.fontMetrics()
        dy = fm.ascent() / 2 - fm.descent() / 2
        for x, y, text in self._points:
            if lo - 1 <= y <= hi + 1:
                pt = tr.map(QtCore.QPointF(x, y))
                p.drawText(QtCore.QPointF(pt.x() + 4, pt.y() + dy), text)
        p.restore()


@dataclass
class BarChartItems:
    """Everything the canvas adds for a bar chart, plus the index -> id mapping."""

    bars: list[pg.BarGraphItem] = field(default_factory=list)
    legend: list[tuple[pg.BarGraphItem, str]] = field(default_factory=list)
    labels: ValueLabels | None = None
    ticks: list[tuple[float, str]] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    values: list[float] = field(default_factory=list)
    x_title: str = ""
    notes: list[str] = field(default_factory=list)


class NumberAxis(pg.AxisItem):
    """An axis that writes 1.5M and 250k, never 1e+06."""

    def tickStrings(self, values, scale, spacing):  # noqa: N802 (pyqtgraph API)
        return [format_compact(v * scale) for v in values]


def short(text: str, limit: int = MAX_LABEL_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def build_bars(data: BarData, theme: Theme) -> BarChartItems:
    """Horizontal bars, best at the top (row 0), one item per colour group so the
    legend can list and toggle groups."""
    out = BarChartItems(x_title=data.axis_title, notes=data.notes())
    out.ids = [b.result_id for b in data.bars]
    out.values = [b.value for b in data.bars]
    out.ticks = [(float(i), b.label) for i, b in enumerate(data.bars)]
    for group, color in data.groups:
        idx = [i for i, b in enumerate(data.bars) if b.group == group]
        item = pg.BarGraphItem(
            x0=np.zeros(len(idx)),
            y=np.array(idx, dtype=float),
            width=np.array([data.bars[i].value for i in idx]),
            height=BAR_THICKNESS,
            brush=pg.mkBrush(color),
            pen=pg.mkPen(theme.background or "#FFFFFF", width=0.5),
        )
        item.setToolTip(group)
        out.bars.append(item)
        out.legend.append((item, group))
    out.labels = ValueLabels(
        [(b.value, float(i), format_number(b.value)) for i, b in enumerate(data.bars)],
        theme.foreground,
    )
    return out


def highlight_item(
    values: list[float], rows: list[int], theme: Theme
) -> pg.BarGraphItem:
    """Outlines drawn over the selected bars."""
    return pg.BarGraphItem(
        x0=np.zeros(len(rows)),
        y=np.array(rows, dtype=float),
        width=np.array([values[r] for r in rows]),
        height=BAR_THICKNESS + 0.16,
        brush=None,
        pen=pg.mkPen(theme.highlight, width=3),
    )
