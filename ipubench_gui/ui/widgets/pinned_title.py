"""The panels' y title kept in sight while they scroll."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter
from PySide6.QtWidgets import QScrollArea, QWidget

from ipubench_gui.domain.text import elide_words


class PinnedTitle(QWidget):
    """The y axis' title of a grid of panels, turned, in a margin left of
    the scroll area's view, centred on the part of the grid in view.

    Written in the grid, once for every row (as an export shows it), it was
    centred on the grid's whole height; on screen, panels taller than the
    window scroll, and that title was cut at the top of the view (the
    scaling chart at 1280x720 read "ces/s) — higher is better"). Here it is
    cut by whole words to the view's height (the whole title as a tooltip).

    Beside the view, not over it: over it, every scroll step painted the
    whole view again (Qt moves the view's pixels only if no sibling covers
    it), several times the pixels of the rows that scrolled in."""

    def __init__(self, area: QScrollArea) -> None:
        super().__init__(area)
        self._area = area
        self._text = ""
        self._ink = QColor("black")
        self._ground = QColor("white")
        self._shown = ""
        area.viewport().installEventFilter(self)  # the area's size or margins

    def text(self) -> str:
        """The title as drawn (cut to the view's height)."""
        return self._shown

    def pin(self, text: str, px: int, ink: str, ground: str) -> None:
        """``text`` at ``px`` pixels, in ``ink`` over ``ground``."""
        self._text = text
        self._ink, self._ground = QColor(ink), QColor(ground)
        if self.font().pixelSize() != px:
            font = QFont(self.font())
            font.setPixelSize(px)
            self.setFont(font)
        self.place()

    def place(self) -> None:
        """In the view's left margin, as tall as the view, the title cut to it."""
        fm = QFontMetricsF(self.font())
        margin = round(fm.height() * 1.3)
        area, port = self._area, self._area.viewport()
        if area.viewportMargins().left() != margin:
            area.setViewportMargins(margin, 0, 0, 0)
        rect = port.geometry()
        rect.setLeft(rect.left() - margin)
        rect.setWidth(margin)
        self.setGeometry(rect)
        room = rect.height() - 2 * fm.height()
        self._shown = elide_words(self._text, room, fm.horizontalAdvance, "right")
        self.setToolTip(self._text if self._shown != self._text else "")
        self.update()

    def eventFilter(self, watched: QObject, e: QEvent) -> bool:  # noqa: N802 (Qt API)
        if e.type() == QEvent.Type.Resize:
            self.place()
        return False

    def paintEvent(self, _e) -> None:  # noqa: N802 (Qt API)
        p = QPainter(self)
        p.fillRect(self.rect(), self._ground)
        p.setPen(self._ink)
        p.translate(0, self.height())
        p.rotate(-90)
        box = QRectF(0, 0, self.height(), self.width())
        p.drawText(box, Qt.AlignmentFlag.AlignCenter, self._shown)
        p.end()
