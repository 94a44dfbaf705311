"""WheelGuard: the wheel over a scrolling panel scrolls the panel.

A panel of filters holds lists (and a combo box) that scroll or change with
the wheel themselves: scrolling down the panel, whichever of them came under
the pointer took the wheel, and the panel stopped. Here such a child takes
the wheel only when it has the focus or the pointer has rested on it
(``REST_MS`` inside it while the panel was not being scrolled); otherwise the
panel scrolls. Browsers settle nested scrolling the same way.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QAbstractScrollArea, QApplication, QWidget

REST_MS = 500  # the pointer this long on a list: the wheel is the list's


class WheelGuard(QObject):
    """Watches children of ``panel`` given to ``guard``."""

    def __init__(self, panel: QAbstractScrollArea):
        super().__init__(panel)
        self._panel = panel
        self._entered: dict[QObject, float] = {}  # since when the pointer is on it
        self._panel_wheel = float("-inf")  # when the panel last took the wheel
        self._focus_of: dict[QObject, QWidget] = {}
        self._rests: set[QObject] = set()

    def guard(self, widget: QWidget, focus: QWidget | None = None, rest=True) -> None:
        """``widget`` takes the wheel when ``focus`` (default: itself) has the
        focus, or (``rest``) when the pointer has rested on it."""
        widget.installEventFilter(self)
        self._focus_of[widget] = focus or widget
        if rest:
            self._rests.add(widget)

    def rested(self, widget: QObject) -> bool:
        """Whether the pointer has rested on ``widget`` (see the module)."""
        since = self._entered.get(widget)
        if since is None or widget not in self._rests:
            return False
        quiet = max(since, self._panel_wheel)
        return (time.monotonic() - quiet) * 1000 >= REST_MS

    def eventFilter(self, obj: QObject, e: QEvent) -> bool:  # noqa: N802 (Qt API)
        kind = e.type()
        if kind == QEvent.Type.Enter:
            self._entered[obj] = time.monotonic()
        elif kind == QEvent.Type.Leave:
            self._entered.pop(obj, None)
        elif kind == QEvent.Type.Wheel:
            if self._focus_of[obj].hasFocus() or self.rested(obj):
                return False
            # Restarts the rest: a list that slid under the pointer while
            # the panel scrolled is not one the pointer rested on.
            self._panel_wheel = time.monotonic()
            QApplication.sendEvent(self._panel.verticalScrollBar(), e)
            return True
        return False
