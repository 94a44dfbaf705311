"""ChartCanvas: a pyqtgraph plot of the current rows, linked to the selection."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QLabel, QToolTip, QVBoxLayout, QWidget

from ipubench_gui.charts.builders import (
    BarChartItems,
    NumberAxis,
    build_bars,
    highlight_item,
)
from ipubench_gui.charts.theme import DARK, LIGHT, Theme
from ipubench_gui.domain.chartspec import BarData
from ipubench_gui.domain.format import format_number, provenance_lines


def palette_theme(widget: QWidget) -> Theme:
    """Dark chart in a dark app, light otherwise (exports are always light)."""
    return (
        DARK
        if widget.palette().color(QPalette.ColorRole.Window).lightness() < 128
        else LIGHT
    )


class ChartCanvas(QWidget):
    """Renders BarData; reports clicked bars by result id."""

    barClicked = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.plot = pg.PlotWidget(axisItems={"bottom": NumberAxis("bottom")})
        self.plot.setAccessibleName("Chart")
        self.plot.setMenuEnabled(False)
        self.item = self.plot.getPlotItem()
        self.item.getViewBox().invertY(True)
        self.item.getViewBox().setMouseEnabled(x=True, y=True)
        # Bars are sorted best first and start at the top, so the bottom right
        # is where the bars are shortest: the legend goes there.
        self.legend = self.item.addLegend(offset=(-10, -10))
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        self.caption.setEnabled(False)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.plot, 1)
        lay.addWidget(self.caption)
        self.theme = LIGHT
        self.data: BarData | None = None
        self.items = BarChartItems()
        self._highlight: pg.BarGraphItem | None = None
        self._rows: dict[str, int] = {}
        self.plot.scene().sigMouseClicked.connect(self._on_scene_clicked)
        self.plot.scene().sigMouseMoved.connect(self._on_scene_moved)
        self.apply_theme()

    def apply_theme(self) -> None:
        self.theme = palette_theme(self)
        self.plot.setBackground(self.theme.background)
        for ax in ("left", "bottom"):
            axis = self.item.getAxis(ax)
            axis.setPen(self.theme.foreground)
            axis.setTextPen(self.theme.foreground)
        self.item.showGrid(x=True, y=False, alpha=self.theme.grid_alpha)
        self.legend.setLabelTextColor(self.theme.foreground)
        if self.data is not None:
            self.render(self.data)

    def changeEvent(self, e) -> None:
        if e.type() == e.Type.PaletteChange:
            self.apply_theme()
        super().changeEvent(e)

    def render(self, data: BarData, selection: tuple[str, ...] = ()) -> None:
        self.data = data
        self.item.clear()
        self.legend.clear()
        self._highlight = None
        items = build_bars(data, self.theme)
        self.items = items
        self._rows = {rid: i for i, rid in enumerate(items.ids)}
        for bar in items.bars:
            self.item.addItem(bar)
        for bar, name in items.legend:
            self.legend.addItem(bar, name)
        if items.labels is not None:
            self.item.addItem(items.labels)
        self._layout_labels()
        self.item.setLabel("bottom", items.x_title, color=self.theme.foreground)
        n = len(items.ids)
        top = max(items.values, default=1.0)
        self.item.getViewBox().setLimits(xMin=0, yMin=-1, yMax=max(n, 1))
        self.item.setXRange(0, top * 1.18, padding=0)
        self.item.setYRange(-0.6, min(n, self.rows_that_fit()) - 0.4, padding=0)
        self.caption.setText("; ".join(items.notes))
        self.caption.setVisible(bool(items.notes))
        self.set_selection(selection)

    def rows_that_fit(self) -> int:
        """How many bars can show with readable labels at the current height."""
        row = self.fontMetrics().height() * 1.5
        height = self.plot.height() - 3 * self.fontMetrics().height()
        return max(5, int(height / row))

    def _layout_labels(self) -> None:
        """Give the bar labels the room they need, up to 45% of the width, and
        elide the rest (pyqtgraph silently drops tick text that does not fit)."""
        left = self.item.getAxis("left")
        fm = self.fontMetrics()
        left.setStyle(tickFont=self.font())
        room = max(120, int(self.width() * 0.45))
        widest = max((fm.horizontalAdvance(t) for _, t in self.items.ticks), default=40)
        width = min(widest + 14, room)
        left.setWidth(width)
        ticks = [
            (pos, fm.elidedText(text, Qt.TextElideMode.ElideMiddle, width - 14))
            for pos, text in self.items.ticks
        ]
        left.setTicks([ticks, []])

    def resizeEvent(self, e) -> None:
        super().resizeEvent(e)
        if self.items.ticks:
            self._layout_labels()
            lo = self.item.getViewBox().targetRange()[1][0]
            self.item.setYRange(
                lo, lo + min(len(self.items.ids), self.rows_that_fit()), padding=0
            )

    def set_selection(self, ids: tuple[str, ...]) -> None:
        if self._highlight is not None:
            self.item.removeItem(self._highlight)
            self._highlight = None
        rows = [self._rows[i] for i in ids if i in self._rows]
        if rows:
            self._highlight = highlight_item(self.items.values, rows, self.theme)
            self.item.addItem(self._highlight)
            # targetRange: what was last asked for; viewRange lags until layout.
            lo, hi = self.item.getViewBox().targetRange()[1]
            if not any(lo <= r <= hi for r in rows):
                span = hi - lo
                self.item.setYRange(rows[0] - span / 2, rows[0] + span / 2, padding=0)

    def bar_at(self, scene_pos: QPointF) -> int | None:
        vb = self.item.getViewBox()
        if not vb.sceneBoundingRect().contains(scene_pos) or not self.items.ids:
            return None
        p = vb.mapSceneToView(scene_pos)
        i = round(p.y())
        return i if 0 <= i < len(self.items.ids) and abs(p.y() - i) <= 0.45 else None

    def _on_scene_clicked(self, ev) -> None:
        if ev.button() != Qt.MouseButton.LeftButton:
            return
        i = self.bar_at(ev.scenePos())
        if i is not None:
            self.barClicked.emit(self.items.ids[i])

    def _on_scene_moved(self, pos: QPointF) -> None:
        i = self.bar_at(pos)
        if i is None or self.data is None:
            QToolTip.hideText()
            return
        bar = self.data.bars[i]
        text = "\n".join(
            [
                bar.label,
                f"{format_number(bar.value)} {self.data.unit}",
                *provenance_lines(dict(bar.row)),
            ]
        )
        QToolTip.showText(
            self.plot.mapToGlobal(self.plot.mapFromScene(pos)), text, self.plot
        )
