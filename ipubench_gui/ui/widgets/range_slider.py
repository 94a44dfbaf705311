"""RangeSlider: a two-handled horizontal slider drawn with the platform's style.

Written here rather than taken from superqt: superqt's package imports all of
its widgets (and qtpy, pygments) up front, a large share of start-up
(``python -X importtime``) for the one widget the app uses.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt, Signal
from PySide6.QtGui import QKeyEvent, QMouseEvent, QPainter, QPaintEvent
from PySide6.QtWidgets import QSizePolicy, QStyle, QStyleOptionSlider, QWidget


class RangeSlider(QWidget):
    """Two handles on one groove; ``value()`` is ``(low, high)`` integers.

    Mouse: drag either handle (a click on the groove moves the nearer one).
    Keyboard (Tab gives it focus): Left/Right move the active handle by 1%,
    PageUp/PageDown by 10%, Home/End to the ends; Space switches handles.
    """

    valueChanged = Signal(tuple)
    sliderReleased = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._min, self._max = 0, 100
        self._lo, self._hi = 0, 100
        self._drag: int | None = None  # 0 = low handle, 1 = high handle
        self._active = 0
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    # -- value --
    def setRange(self, lo: int, hi: int) -> None:  # noqa: N802 (Qt naming)
        self._min, self._max = int(lo), int(hi)
        self.setValue((self._lo, self._hi))

    def value(self) -> tuple[int, int]:
        return self._lo, self._hi

    def setValue(self, value: tuple[int, int]) -> None:  # noqa: N802 (Qt naming)
        lo, hi = sorted(int(v) for v in value)
        lo = min(max(lo, self._min), self._max)
        hi = min(max(hi, self._min), self._max)
        if (lo, hi) != (self._lo, self._hi):
            self._lo, self._hi = lo, hi
            self.update()
            self.valueChanged.emit((lo, hi))

    def isSliderDown(self) -> bool:  # noqa: N802 (Qt naming)
        return self._drag is not None

    # -- geometry --
    def _option(self, value: int) -> QStyleOptionSlider:
        opt = QStyleOptionSlider()
        opt.initFrom(self)
        opt.orientation = Qt.Orientation.Horizontal
        opt.minimum, opt.maximum = self._min, self._max
        opt.sliderPosition = opt.sliderValue = value
        opt.subControls = QStyle.SubControl.SC_SliderHandle
        return opt

    def _handle_rect(self, value: int) -> QRect:
        return self.style().subControlRect(
            QStyle.ComplexControl.CC_Slider,
            self._option(value),
            QStyle.SubControl.SC_SliderHandle,
            self,
        )

    def _value_at(self, x: int) -> int:
        span = self._handle_rect(self._min).width()
        usable = max(1, self.width() - span)
        return QStyle.sliderValueFromPosition(
            self._min, self._max, x - span // 2, usable
        )

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt API)
        opt = self._option(self._min)
        h = self.style().pixelMetric(QStyle.PixelMetric.PM_SliderThickness, opt, self)
        return QSize(self.fontMetrics().horizontalAdvance("M") * 10, max(h, 16))

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt API)
        return QSize(
            self.fontMetrics().horizontalAdvance("M") * 4, self.sizeHint().height()
        )

    # -- painting --
    def paintEvent(self, _e: QPaintEvent) -> None:  # noqa: N802 (Qt API)
        p = QPainter(self)
        style = self.style()
        groove = self._option(self._min)
        groove.subControls = QStyle.SubControl.SC_SliderGroove
        style.drawComplexControl(QStyle.ComplexControl.CC_Slider, groove, p, self)
        a, b = self._handle_rect(self._lo), self._handle_rect(self._hi)
        span = QRect(
            a.center().x(), a.center().y() - 2, b.center().x() - a.center().x(), 4
        )
        p.fillRect(span, self.palette().highlight())
        for i, v in enumerate((self._lo, self._hi)):
            opt = self._option(v)
            if self.hasFocus() and i == self._active:
                opt.state |= QStyle.StateFlag.State_HasFocus
            style.drawComplexControl(QStyle.ComplexControl.CC_Slider, opt, p, self)
        p.end()

    # -- mouse and keys --
    def mousePressEvent(self, e: QMouseEvent) -> None:  # noqa: N802 (Qt API)
        x = int(e.position().x())
        a, b = self._handle_rect(self._lo), self._handle_rect(self._hi)
        self._drag = 0 if abs(x - a.center().x()) <= abs(x - b.center().x()) else 1
        if a.center() == b.center():  # stacked: go the way the click points
            self._drag = 1 if x > a.center().x() else 0
        self._active = self._drag
        self._move_to(self._value_at(x))

    def mouseMoveEvent(self, e: QMouseEvent) -> None:  # noqa: N802 (Qt API)
        if self._drag is not None:
            self._move_to(self._value_at(int(e.position().x())))

    def mouseReleaseEvent(self, _e: QMouseEvent) -> None:  # noqa: N802 (Qt API)
        if self._drag is not None:
            self._drag = None
            self.sliderReleased.emit()

    def _move_to(self, v: int) -> None:
        if self._active == 0:
            self.setValue((min(v, self._hi), self._hi))
        else:
            self.setValue((self._lo, max(v, self._lo)))

    def keyPressEvent(self, e: QKeyEvent) -> None:  # noqa: N802 (Qt API)
        step = max(1, (self._max - self._min) // 100)
        page = max(1, (self._max - self._min) // 10)
        cur = self._hi if self._active else self._lo
        moves = {
            Qt.Key.Key_Left: cur - step,
            Qt.Key.Key_Down: cur - step,
            Qt.Key.Key_Right: cur + step,
            Qt.Key.Key_Up: cur + step,
            Qt.Key.Key_PageDown: cur - page,
            Qt.Key.Key_PageUp: cur + page,
            Qt.Key.Key_Home: self._min,
            Qt.Key.Key_End: self._max,
        }
        if e.key() == Qt.Key.Key_Space:
            self._active = 1 - self._active
            self.update()
        elif e.key() in moves:
            self._move_to(moves[e.key()])
        else:
            super().keyPressEvent(e)
