"""One paint per update: the window laid out and painted with its chart at
the end of an update, not in two passes."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable

import pyqtgraph as pg
import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractScrollArea, QGraphicsView

# Widget levels from a changed widget up to the window, laid out one send
# each (a chart label is 5 below the window); more sends cost nothing.
LAYOUT_LEVELS = 8
# A chart view's new range or size to apply (``ViewsApplied``).
_APPLY = QEvent.Type(QEvent.registerEventType())


def paint_now(
    table: QAbstractScrollArea, views: Iterable[QGraphicsView], drawn: bool = False
) -> None:
    """Lay out what an update changed and paint the window now, once.

    The chart's scene processes its changed items in a queued call, which
    paints the window at once (QGraphicsScene dispatches the view's pending
    update request); queued after the window's own update, it painted the
    chart in a second pass, with what the layouts that ran in between moved
    (chips, count, scroll bars) painted twice. So the layouts run first, then
    the ``views``' scenes' changes, whose paint is then the window's only one.

    The ``table``'s queued calls first: a new row count shows or hides its
    scroll bars in one (QAbstractScrollArea), which laid the table out after
    the paint. Then the layouts, level by level: a layout request posted
    while posted ones are sent waits for the next send (Qt's guard against
    live-lock), and each layout asks its parent's, up to the window (a
    label's new text in the chart's box: box, splitter, stack, centre,
    window); one send left the upper levels to after the paint, which relaid
    the window out and painted the centre again.

    ``drawn``: a chart was just drawn in ``views``. Their scenes' queued
    calls run first, their viewports not painted: the first shows and
    polishes the legend's new entries, which asks the legend for a layout;
    run after the layouts, they painted the chart, and the legend's layout
    then painted it again (a chart the worker delivered: 2 paints; before the
    chart's own paint here, 3)."""
    QCoreApplication.sendPostedEvents(table, QEvent.Type.MetaCall)
    views = list(views)
    if drawn:
        ports = [v.viewport() for v in views if v.viewport().updatesEnabled()]
        for port in ports:
            port.setUpdatesEnabled(False)
        send_scene_calls(views)
        for port in ports:
            port.setUpdatesEnabled(True)  # each painted whole, below
    for _ in range(LAYOUT_LEVELS):
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
    # the views' new sizes applied before their paint (``ViewsApplied``)
    QCoreApplication.sendPostedEvents(None, _APPLY)
    # A widget shown (a chip, the bar's hint) posts itself an update of its
    # whole rect (QWidget's show_sys); delivered after the paint, it painted
    # that widget and the window behind it in a second pass.
    QCoreApplication.sendPostedEvents(None, QEvent.Type.UpdateLater)
    send_scene_calls(views)


def send_scene_calls(views: Iterable[QGraphicsView]) -> None:
    """Run the ``views``' scenes' queued calls now: their handling of changed
    items, which dispatches the window's pending paint."""
    for view in views:
        QCoreApplication.sendPostedEvents(view.scene(), QEvent.Type.MetaCall)


class ViewsApplied(QObject):
    """Applies a watched view's new range or size (pyqtgraph's
    ``ViewBox.prepareForPaint``) once the event that changed it returns,
    ahead of the events already queued: among them the scene's queued
    update, which paints the window at once. pyqtgraph applies it at the
    start of the view's paint, which marks every item in the view changed
    again, so each window resize, pan or zoom painted the chart twice;
    applied ahead, it paints once.

    Not while ``held()``: a chart drawn over turns applies its plots' views
    in steps of their own (``charts.axes.prepare_paint``); applied at once,
    a panel's bounds were dropped and worked out again between the steps."""

    def __init__(self, parent: QObject, held: Callable[[], bool]) -> None:
        super().__init__(parent)
        self._held = held
        self._watched: weakref.WeakSet[pg.ViewBox] = weakref.WeakSet()
        self._changed: list[pg.ViewBox] = []

    def watch(self, vb: pg.ViewBox) -> None:
        if vb not in self._watched:
            self._watched.add(vb)
            vb.sigRangeChanged.connect(self._on_changed)
            vb.sigResized.connect(self._on_changed)

    def _on_changed(self, vb: pg.ViewBox, *_args: object) -> None:
        if not self._changed:  # one event for what changes before it
            QCoreApplication.postEvent(
                self, QEvent(_APPLY), Qt.EventPriority.HighEventPriority.value
            )
        if vb not in self._changed:
            self._changed.append(vb)

    def event(self, e: QEvent) -> bool:
        if e.type() != _APPLY:
            return super().event(e)
        changed, self._changed = self._changed, []
        if self._held():
            return True
        for vb in changed:
            if shiboken6.isValid(vb):  # not a panel deleted meanwhile
                vb.prepareForPaint()
        return True
