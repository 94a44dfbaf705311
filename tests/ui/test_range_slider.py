"""The two-handled range slider, driven by mouse and keyboard."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt

from ipubench_gui.ui.widgets.range_slider import RangeSlider


def _slider(qtbot) -> RangeSlider:
    s = RangeSlider()
    qtbot.addWidget(s)
    s.setRange(0, 1000)
    s.setValue((0, 1000))
    s.resize(400, s.sizeHint().height())
    s.show()
    qtbot.waitExposed(s)
    return s


@pytest.mark.scale
def test_drag_the_high_handle_and_release(qtbot):
    s = _slider(qtbot)
    released = []
    s.sliderReleased.connect(lambda: released.append(s.value()))
    y = s.height() // 2
    hi = s._handle_rect(1000).center()
    qtbot.mousePress(s, Qt.MouseButton.LeftButton, pos=hi)
    assert s.isSliderDown()
    qtbot.mouseMove(s, QPoint(s.width() // 2, y))
    qtbot.mouseRelease(s, Qt.MouseButton.LeftButton, pos=QPoint(s.width() // 2, y))
    lo, hi_v = s.value()
    assert lo == 0 and 400 < hi_v < 600 and not s.isSliderDown()
    assert released == [(lo, hi_v)]


@pytest.mark.scale
def test_click_near_low_handle_moves_it_and_handles_never_cross(qtbot):
    s = _slider(qtbot)
    qtbot.mouseClick(
        s, Qt.MouseButton.LeftButton, pos=QPoint(s.width() // 4, s.height() // 2)
    )
    lo, hi = s.value()
    assert 150 < lo < 350 and hi == 1000
    s.setValue((900, 100))  # given reversed: kept in order
    assert s.value() == (100, 900)


def test_keyboard_moves_the_active_handle(qtbot):
    s = _slider(qtbot)
    seen = []
    s.valueChanged.connect(seen.append)
    s.setFocus()
    qtbot.keyClick(s, Qt.Key.Key_PageUp)  # low handle up by a tenth
    assert s.value() == (100, 1000)
    qtbot.keyClick(s, Qt.Key.Key_Space)  # switch to the high handle
    qtbot.keyClick(s, Qt.Key.Key_Left)
    assert s.value() == (100, 990)
    qtbot.keyClick(s, Qt.Key.Key_Home)  # cannot pass the low handle
    assert s.value() == (100, 100)
    assert seen[-1] == (100, 100)
