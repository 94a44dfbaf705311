"""Point labels: many short texts in one item, painted in device pixels."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets


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
        # How far a label's text (and halo) may reach from its point, in
        # pixels: at most its characters at the font's widest (not each
        # label laid out here: only those in view are, when painted).
        fm = QtGui.QFontMetricsF(self._font)
        longest = max((len(p[2]) for p in self._points), default=0)
        self._pad = (abs(dx) + longest * fm.maxWidth() + 2, abs(dy) + fm.height() + 2)
        self.update()

    def dataBounds(self, ax, frac=1.0, orthoRange=None):  # noqa: N802, N803
        """The points' extent (view units), for the view's auto range: the
        labels' text beyond it is in pixels (``boundingRect``)."""
        r = self._rect
        return (r.left(), r.right()) if ax == 0 else (r.top(), r.bottom())

    def boundingRect(self) -> QtCore.QRectF:  # noqa: N802 (Qt API)
        """The points' extent and, around it, the labels' text (pixels
        turned into view units): what the paint covers, so that Qt repaints
        and caches all of it (painted outside its bounds, a label beyond the
        points was cut off or left behind)."""
        pw, ph = self.pixelWidth(), self.pixelHeight()
        dx, dy = self._pad
        return self._rect.adjusted(-dx * pw, -dy * ph, dx * pw, dy * ph)

    def viewTransformChanged(self) -> None:  # noqa: N802 (pyqtgraph API)
        self.prepareGeometryChange()  # the pixels' size in view units changed
        super().viewTransformChanged()

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


# How far from its mark's edge a count may go looking for free room (px),
# in steps; beyond the first few it is joined to its mark by a leader line.
COUNT_STEPS = (2, 5, 9, 14, 20, 28, 38, 50, 65, 85, 110, 140, 180, 230, 300)
LEADER_FROM_PX = 6  # a count further than this from its mark gets a leader
CLEAR_PX = 1.5  # least gap between a count and any mark
SETTLE_MS = 150  # a zoom's pause after which counts are placed anew
# the ways from a mark: right, left, up, down, the diagonals, then between
WAYS = (
    (1, 0), (-1, 0), (0, -1), (0, 1), (1, -1), (-1, -1), (1, 1), (-1, 1),
    (1, -0.5), (-1, -0.5), (1, 0.5), (-1, 0.5), (0.5, -1), (-0.5, -1), (0.5, 1),
    (-0.5, 1),
)  # fmt: skip


class CountLabels(pg.GraphicsObject):
    """Counts beside marks that stand for several points ("×27"), painted in
    device pixels, each where its box covers no mark and no other count and
    stays in the view: beside its mark if there is room, else the nearest
    free place, joined to its mark by a thin line in its colour. Placed at
    paint time from the marks' pixel boxes, so the window, a resized window
    and every export follow the same rule; placed again only when the view's
    transform changes."""

    def __init__(
        self,
        counts: Sequence[tuple[float, float, str, str, float, int]],
        marks: tuple,
        font_px: float,
        halo: str | None = None,
    ):
        """``counts``: (x, y in view units, text, colour, its mark's size in
        px, its series), placed in this order; ``marks``: every mark to keep
        clear of, as arrays (x, y in view units, size in px, series); a
        count's line to its mark crosses no mark of another series."""
        super().__init__()
        self.counts = list(counts)
        self._mx, self._my, self._ms = (np.asarray(a, dtype=float) for a in marks[:3])
        self._of = np.asarray(marks[3])
        self._font = QtGui.QFont()
        self._font.setPixelSize(max(1, round(font_px)))
        self._halo = None if halo is None else pg.mkColor(halo)
        xs = [c[0] for c in self.counts] or [0.0]
        ys = [c[1] for c in self.counts] or [0.0]
        self._rect = QtCore.QRectF(
            min(xs), min(ys), max(xs) - min(xs) or 1e-9, max(ys) - min(ys) or 1e-9
        )
        # How far a count (and its leader) may sit from its mark, in pixels:
        # the furthest step out, the mark's radius, the widest count.
        fm = QtGui.QFontMetricsF(self._font)
        wide = max((fm.horizontalAdvance(c[2]) for c in self.counts), default=0.0)
        reach = COUNT_STEPS[-1] + max((c[4] for c in self.counts), default=0.0) / 2
        self._pad = (reach + wide + 2, reach + fm.height() + 2)
        # (key, placed, the transform's translation they were placed at)
        self._placed: tuple = ((), [], QtCore.QPointF())
        # On screen, a zoom moves the counts with their marks and places them
        # anew once it pauses: placing is too slow for every wheel step.
        self._settle = QtCore.QTimer(self)
        self._settle.setSingleShot(True)
        self._settle.setInterval(SETTLE_MS)
        self._settle.timeout.connect(self._place_again)
        self._held: QtGui.QTransform | None = None  # the placement moved, not made
        # what the last paint drew: (boxes and leaders, placed for its view)
        self.painted: tuple[list, bool] = ([], True)

    def dataBounds(self, ax, frac=1.0, orthoRange=None):  # noqa: N802, N803
        """The marks' extent (view units), for the view's auto range."""
        r = self._rect
        return (r.left(), r.right()) if ax == 0 else (r.top(), r.bottom())

    def boundingRect(self) -> QtCore.QRectF:  # noqa: N802 (Qt API)
        """The marks' extent and, around it, as far as a count may be placed
        (pixels turned into view units): Qt repaints only within it, so a
        count placed again, or under a repaint of its part of the view, is
        drawn whole and never left behind."""
        pw, ph = self.pixelWidth(), self.pixelHeight()
        dx, dy = self._pad
        return self._rect.adjusted(-dx * pw, -dy * ph, dx * pw, dy * ph)

    def viewTransformChanged(self) -> None:  # noqa: N802 (pyqtgraph API)
        self.prepareGeometryChange()  # the pixels' size in view units changed
        super().viewTransformChanged()

    def placed(
        self, tr: QtGui.QTransform, bounds: QtCore.QRectF, live: bool = False
    ) -> list[tuple[QtCore.QRectF, QtCore.QLineF | None]]:
        """Each count's box and leader line (or None) in the pixels ``tr``
        maps view units to, kept inside ``bounds`` (the view, in those
        pixels): the rule of the class's text. Placed again only when the
        scale or the view's size changes: moved with the marks otherwise (a
        pan, or the view's place on the page), so that no paint of a pan
        places them anew and the counts keep their places beside the marks."""
        key = (
            tr.m11(), tr.m12(), tr.m21(), tr.m22(),
            round(bounds.width(), 3), round(bounds.height(), 3),
        )  # fmt: skip
        if self._placed[0] == key:
            d = QtCore.QPointF(tr.dx(), tr.dy()) - self._placed[2]
            if d.isNull():
                return self._placed[1]
            return [
                (box.translated(d), None if ln is None else ln.translated(d))
                for box, ln in self._placed[1]
            ]
        if live and self._placed[1] and self._placed[0][4:] == key[4:]:
            # zooming on screen (the view's size kept): each count keeps its
            # place beside its mark
            self._settle.start()
            return self._moved(tr)
        fm = QtGui.QFontMetricsF(self._font)
        px = tr.m11() * self._mx + tr.m21() * self._my + tr.dx()
        py = tr.m12() * self._mx + tr.m22() * self._my + tr.dy()
        half = self._ms / 2 + CLEAR_PX
        marks = np.column_stack((px - half, py - half, px + half, py + half))
        labels = np.empty((0, 4))
        at = [tr.map(QtCore.QPointF(c[0], c[1])) for c in self.counts]
        anchors = np.array([[a.x(), a.y()] for a in at])
        out = []
        for k, (_x, _y, text, _ink, size, series) in enumerate(self.counts):
            w, h = fm.horizontalAdvance(text) + 2, fm.height()
            others = np.vstack((marks[self._of != series], labels))
            box, leader = _free_box(
                at[k],
                size / 2,
                (w, h),
                np.vstack((marks, labels)),
                others,
                np.delete(anchors, k, axis=0),
                bounds,
            )
            out.append((box, leader))
            edges = [box.left(), box.top(), box.right(), box.bottom()]
            labels = np.vstack((labels, edges))
        self._placed = (key, out, QtCore.QPointF(tr.dx(), tr.dy()))
        self._held = QtGui.QTransform(tr)
        return out

    def _moved(
        self, tr: QtGui.QTransform
    ) -> list[tuple[QtCore.QRectF, QtCore.QLineF | None]]:
        """The last placement with each count (and its leader) moved as its
        mark moved from the transform it was placed at to ``tr``."""
        assert self._held is not None
        out = []
        for (box, ln), c in zip(self._placed[1], self.counts):
            at = QtCore.QPointF(c[0], c[1])
            d = tr.map(at) - self._held.map(at)
            out.append((box.translated(d), None if ln is None else ln.translated(d)))
        return out

    def _place_again(self) -> None:
        self._placed = ((), [], QtCore.QPointF())
        self.update()

    def paint(self, p, *args) -> None:
        view = self.getViewBox()
        if view is None:
            return
        tr = p.transform()
        bounds = tr.mapRect(view.viewRect())
        live = isinstance(p.device(), QtWidgets.QWidget)  # not an export
        placed = self.placed(tr, bounds, live)
        self.painted = (placed, not self._settle.isActive())
        p.save()
        p.resetTransform()
        p.setFont(self._font)
        for (box, leader), (_x, _y, text, ink, *_) in zip(placed, self.counts):
            colour = pg.mkColor(ink)
            if leader is not None:
                p.setPen(pg.mkPen(colour, width=1))
                p.drawLine(leader)
            flags = QtCore.Qt.AlignmentFlag.AlignCenter
            if self._halo is not None:
                p.setPen(self._halo)
                for ox, oy in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                    p.drawText(box.translated(ox, oy), flags, text)
            p.setPen(colour)
            p.drawText(box, flags, text)
        p.restore()

    def boxes(self) -> list[tuple[float, float, QtCore.QRectF]]:
        """Each count's mark (view units) and its box around that mark
        (pixels), as ``paint`` draws them in the view as laid out now (a
        legend keeps clear of them, as of ``PointLabels.boxes``)."""
        view = self.getViewBox()
        if view is None:
            return []
        tr = view.childTransform()  # view units to the view's own pixels
        out = []
        for (box, _leader), (x, y, *_rest) in zip(
            self.placed(tr, view.rect()), self.counts
        ):
            at = tr.map(QtCore.QPointF(x, y))
            out.append((x, y, box.translated(-at.x(), -at.y())))
        return out


def _free_box(
    at: QtCore.QPointF,
    r: float,
    size: tuple[float, float],
    taken: np.ndarray,
    crossed: np.ndarray,
    rivals: np.ndarray,
    bounds: QtCore.QRectF,
) -> tuple[QtCore.QRectF, QtCore.QLineF | None]:
    """A box of ``size`` (w, h) near a mark of radius ``r`` at ``at`` that meets
    none of ``taken`` (boxes x0, y0, x1, y1) and lies in ``bounds``: tried
    beside the mark, then further out (``COUNT_STEPS``), each step in the
    eight ways; with a leader line from the mark's edge when not beside it,
    that meets none of ``crossed``; nearer its own mark than another
    count's (``rivals``, x, y) where there is such room.
    None free within the furthest step: the first that stays in bounds."""
    cx, cy = at.x(), at.y()
    w, h = size
    cands = []
    for d in COUNT_STEPS:
        for ux, uy in WAYS:
            # the box's centre, its near edge d px from the mark's edge
            bx = cx + ux * (r + d + w / 2)
            by = cy + uy * (r + d + h / 2)
            cands.append((bx - w / 2, by - h / 2, bx + w / 2, by + h / 2, d))
    c = np.array(cands)
    inside = (
        (c[:, 0] >= bounds.left())
        & (c[:, 1] >= bounds.top())
        & (c[:, 2] <= bounds.right())
        & (c[:, 3] <= bounds.bottom())
    )
    meets = (
        (c[:, None, 0] < taken[None, :, 2])
        & (c[:, None, 2] > taken[None, :, 0])
        & (c[:, None, 1] < taken[None, :, 3])
        & (c[:, None, 3] > taken[None, :, 1])
    ).any(axis=1)

    # a box's distance from a point: from its nearest edge
    def gap(px: np.ndarray, py: np.ndarray) -> np.ndarray:
        gx = np.maximum(np.maximum(c[:, None, 0] - px, px - c[:, None, 2]), 0)
        gy = np.maximum(np.maximum(c[:, None, 1] - py, py - c[:, None, 3]), 0)
        return np.hypot(gx, gy)

    own = gap(np.array([cx]), np.array([cy]))[:, 0]
    rival = np.zeros(len(c), dtype=bool)
    if len(rivals):
        rival = (gap(rivals[:, 0], rivals[:, 1]) < own[:, None]).any(axis=1)
    free = inside & ~meets
    # nearer its own mark than any other count's first; else (a crowded
    # part of the chart) its leader line says whose it is
    order = [*np.flatnonzero(free & ~rival), *np.flatnonzero(free & rival)]
    grid = None
    for k in order:
        x0, y0, x1, y1, d = c[k]
        box = QtCore.QRectF(x0, y0, x1 - x0, y1 - y0)
        if d <= LEADER_FROM_PX:
            return box, None
        leader = _leader(cx, cy, r, box)
        if grid is None:
            grid = _Raster(crossed, bounds)
        if not grid.meets(leader):
            return box, leader
    if order:
        x0, y0, x1, y1, _d = c[order[0]]
    else:
        x0, y0, x1, y1, _d = c[int(np.argmax(inside))]
    box = QtCore.QRectF(x0, y0, x1 - x0, y1 - y0)
    return box, _leader(cx, cy, r, box)


def _leader(cx: float, cy: float, r: float, box: QtCore.QRectF) -> QtCore.QLineF:
    """From the edge of a mark of radius ``r`` at (cx, cy) to the nearest
    point of ``box``."""
    nx = min(max(cx, box.left()), box.right())
    ny = min(max(cy, box.top()), box.bottom())
    dist = math.hypot(nx - cx, ny - cy) or 1.0
    start = QtCore.QPointF(cx + (nx - cx) * r / dist, cy + (ny - cy) * r / dist)
    return QtCore.QLineF(start, QtCore.QPointF(nx, ny))


class _Raster:
    """Boxes (x0, y0, x1, y1, in pixels) as a raster of the area ``bounds``,
    for lines to be looked up pixel by pixel (testing each line against
    every box was too slow for a chart of many marks)."""

    def __init__(self, boxes: np.ndarray, bounds: QtCore.QRectF):
        self.ox, self.oy = math.floor(bounds.left()), math.floor(bounds.top())
        w = math.ceil(bounds.right()) - self.ox + 1
        h = math.ceil(bounds.bottom()) - self.oy + 1
        self.grid = np.zeros((max(h, 1), max(w, 1)), dtype=bool)
        for x0, y0, x1, y1 in boxes[:, :4]:  # each box's inside, whole pixels
            self.grid[
                max(math.ceil(y0 - self.oy), 0) : max(math.floor(y1 - self.oy), 0),
                max(math.ceil(x0 - self.ox), 0) : max(math.floor(x1 - self.ox), 0),
            ] = True

    def meets(self, line: QtCore.QLineF) -> bool:
        """Whether ``line`` passes through a box (every pixel along it)."""
        n = max(2, math.ceil(line.length()))
        t = np.linspace(0.0, 1.0, n)
        x = (line.x1() + t * (line.x2() - line.x1()) - self.ox).astype(int)
        y = (line.y1() + t * (line.y2() - line.y1()) - self.oy).astype(int)
        h, w = self.grid.shape
        ok = (x >= 0) & (x < w) & (y >= 0) & (y < h)
        return bool(self.grid[y[ok], x[ok]].any())
