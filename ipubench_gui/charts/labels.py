"""Point labels: many short texts in one item, painted in device pixels."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pyqtgraph as pg
from PySide6 import QtCore, QtGui


class PointLabels(pg.GraphicsObject):
    """Many short labels in one item, drawn in device pixels next to their points.

    One ``TextItem`` per label is dear to create and lay out; this paints
    only the labels in view, so redraws cost the same for 10 labels or 5,000.
    Labels are drawn in order and one that would overlap an earlier one is
    skipped.
    """

    def __init__(self, *how, **named):
        """``how``: as for ``set_points``."""
        super().__init__()
        self._font: QtGui.QFont | None = None
        self.set_points(*how, **named)

    def set_points(
        self,
        points: Sequence[
            tuple[float, float, str] | tuple[float, float, str, str | None]
        ],
        color: str,
        font_px: float,
        dx: float = 4,
        dy: float = 0,
        halo: str | None = None,
    ) -> None:
        """Other labels in this same item (a redraw after a filter change:
        removing the item from its plot and adding a new one cost more than
        painting its labels)."""
        self.prepareGeometryChange()
        self._halo = None if halo is None else pg.mkColor(halo)
        self._color = pg.mkColor(color)
        # each label in its own colour if it has one (its line's), else ``color``
        self._points = [
            (x, y, t, pg.mkColor(c[0]) if c and c[0] else self._color)
            for x, y, t, *c in points
            if t and math.isfinite(x) and math.isfinite(y)
        ]
        px = max(1, round(font_px))
        if self._font is None or self._font.pixelSize() != px:
            self._font = QtGui.QFont()
            self._font.setPixelSize(px)
            self._texts: dict[str, QtGui.QStaticText] = {}
        self._dx, self._dy = dx, dy
        xs = [p[0] for p in self._points] or [0.0]
        ys = [p[1] for p in self._points] or [0.0]
        self._rect = QtCore.QRectF(
            min(xs), min(ys) - 0.5, max(xs) - min(xs) or 1, max(ys) - min(ys) + 1
        )
        self.update()

    def boundingRect(self) -> QtCore.QRectF:  # noqa: N802 (Qt API)
        return self._rect

    def paint(self, p, *args) -> None:
        view = self.getViewBox()
        if view is None:
            return
        (x0, x1), (y0, y1) = view.viewRange()
        tr = p.transform()
        p.save()
        p.resetTransform()
        p.setFont(self._font)
        p.setPen(self._color)
        fm = QtGui.QFontMetricsF(self._font)
        corner = self._corner(fm)
        row_h = fm.height()
        taken: dict[int, list[QtCore.QRectF]] = {}  # drawn boxes by text row
        for x, y, text, ink in self._points:
            if not min(y0, y1) - 1 <= y <= max(y0, y1) + 1:
                continue
            pt = tr.map(QtCore.QPointF(x, y))
            shown = self._static(text)
            box = QtCore.QRectF(pt + corner, QtCore.QSizeF(shown.size().width(), row_h))
            # A label that would overprint one already drawn is left out; its
            # point still has its tooltip.
            row = math.floor(box.top() / row_h)
            near = (r for k in (row - 1, row, row + 1) for r in taken.get(k, ()))
            if any(box.intersects(r) for r in near):
                continue
            taken.setdefault(row, []).append(box)
            top = box.topLeft()
            if self._halo is not None:
                p.setPen(self._halo)
                for ox, oy in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                    p.drawStaticText(top + QtCore.QPointF(ox, oy), shown)
            p.setPen(ink)
            p.drawStaticText(top, shown)
        p.restore()

    def _corner(self, fm: QtGui.QFontMetricsF) -> QtCore.QPointF:
        """A label's top left from its point, in device pixels: ``dx`` right,
        its text's middle ``dy`` below the point."""
        half = (fm.ascent() - fm.descent()) / 2
        return QtCore.QPointF(self._dx, half + self._dy - fm.ascent())

    def boxes(self) -> list[tuple[float, float, QtCore.QRectF]]:
        """Each label's point (view coordinates) and the box its text takes
        around that point (device pixels), as ``paint`` draws it (a label
        left out for overprinting another included)."""
        fm = QtGui.QFontMetricsF(self._font)
        corner = self._corner(fm)
        return [
            (
                x,
                y,
                QtCore.QRectF(
                    corner, QtCore.QSizeF(self._static(t).size().width(), fm.height())
                ),
            )
            for x, y, t, _ in self._points
        ]

    def _static(self, text: str) -> QtGui.QStaticText:
        """``text`` laid out once for this item's font: the value labels of a
        bar chart repeat from one paint and one filter to the next, and each
        was laid out five times a paint (four for its halo)."""
        shown = self._texts.get(text)
        if shown is None:
            if len(self._texts) > 20000:
                self._texts.clear()
            shown = QtGui.QStaticText(text)
            shown.setTextFormat(QtCore.Qt.TextFormat.PlainText)
            shown.prepare(font=self._font)
            self._texts[text] = shown
        return shown
