"""RangeFilter: a two-handled slider with editable min/max boxes, log when wide."""

from __future__ import annotations

import math

from PySide6.QtCore import QSignalBlocker
from PySide6.QtWidgets import QGridLayout, QLabel, QLineEdit, QToolButton, QWidget

from ipubench_gui.domain.fields import Field
from ipubench_gui.domain.filters import NumRange
from ipubench_gui.domain.format import format_number
from ipubench_gui.domain.ranges import STEPS, SliderScale
from ipubench_gui.ui.state import AppState
from ipubench_gui.ui.widgets.range_slider import RangeSlider


class RangeFilter(QWidget):
    """Writes ``NumRange`` to the state; a full-span range means no filter."""

    def __init__(self, fld: Field, state: AppState, parent=None):
        super().__init__(parent)
        self.field = fld
        self._state = state
        self.scale = SliderScale(0, 1)
        self.title = QLabel(f"<b>{fld.header}</b>")
        self.title.setWordWrap(True)  # never force the dock wider than it is
        # A tag of its own rather than more title text: a title wrapped onto a
        # second line after start-up was clipped by the dock's layout.
        self.log_tag = QLabel("log")
        self.log_tag.setEnabled(False)  # greyed: a note, not a control
        self.log_tag.setToolTip(
            "Logarithmic scale: the values span two decades or more"
        )
        self.log_tag.hide()
        self.slider = RangeSlider()
        self.slider.setRange(0, STEPS)
        self.slider.setValue((0, STEPS))
        self.slider.setAccessibleName(f"{fld.label} range")
        self.lo_box = self._box("minimum")
        self.hi_box = self._box("maximum")
        self.clear_button = QToolButton(text="Clear", autoRaise=True)
        self.clear_button.setToolTip(f"Clear the {fld.label} range")
        self.clear_button.clicked.connect(
            lambda: state.set_filters(state.filters.with_range(fld.name, None))
        )
        self.slider.sliderReleased.connect(self._on_slider_released)
        self.slider.valueChanged.connect(self._on_slider_moved)

        g = QGridLayout(self)
        g.setContentsMargins(4, 4, 4, 4)
        g.addWidget(self.title, 0, 0, 1, 2)
        g.addWidget(self.log_tag, 0, 2)
        g.addWidget(self.clear_button, 0, 3)
        g.addWidget(self.slider, 1, 0, 1, 4)
        g.addWidget(self.lo_box, 2, 0, 1, 2)
        g.addWidget(self.hi_box, 2, 2, 1, 2)

    def _box(self, which: str) -> QLineEdit:
        box = QLineEdit()
        box.setPlaceholderText(which)
        box.setAccessibleName(f"{self.field.label} {which}")
        box.editingFinished.connect(self._on_box_edited)
        return box

    def set_unit(self, unit: str) -> None:
        """Name what the figures count in the title ("images/s", "mixed
        units"), for a field whose unit varies by row."""
        text = f"{self.field.label} ({unit})" if unit else self.field.header
        self.title.setText(f"<b>{text}</b>")

    def set_bounds(self, lo: float | None, hi: float | None) -> None:
        if lo is None or hi is None:
            self.setEnabled(False)
            return
        self.setEnabled(True)
        self.scale = SliderScale(float(lo), float(hi))
        self.log_tag.setVisible(self.scale.log)
        self.slider.setToolTip(
            f"{format_number(lo)} to {format_number(hi)}"
            + (", logarithmic" if self.scale.log else "")
        )
        self.lo_box.setPlaceholderText(format_number(lo))
        self.hi_box.setPlaceholderText(format_number(hi))

    def render(self, rng: NumRange) -> None:
        """Show ``rng`` without echoing back to the state."""
        lo = self.scale.to_pos(rng.lo) if rng.lo is not None else 0
        hi = self.scale.to_pos(rng.hi) if rng.hi is not None else STEPS
        with QSignalBlocker(self.slider):
            self.slider.setValue((lo, hi))
        self.lo_box.setText("" if rng.lo is None else format_number(rng.lo))
        self.hi_box.setText("" if rng.hi is None else format_number(rng.hi))
        self.clear_button.setEnabled(not rng.is_open())

    def _on_slider_moved(self, value: tuple[int, int]) -> None:
        # Live text while dragging; the filter is applied on release (or, for
        # keyboard moves, at once, since there is no release then).
        lo, hi = value
        self.lo_box.setText("" if lo <= 0 else format_number(self.scale.to_value(lo)))
        self.hi_box.setText(
            "" if hi >= STEPS else format_number(self.scale.to_value(hi))
        )
        if not self.slider.isSliderDown():
            self._on_slider_released()

    def _on_slider_released(self) -> None:
        lo, hi = self.slider.value()
        rng = NumRange(
            None if lo <= 0 else self.scale.to_value(lo),
            None if hi >= STEPS else self.scale.to_value(hi),
        )
        self._state.set_filters(self._state.filters.with_range(self.field.name, rng))

    def _on_box_edited(self) -> None:
        bad = [
            b
            for b in (self.lo_box, self.hi_box)
            if b.text().strip() and _parse(b.text()) is None
        ]
        for b in (self.lo_box, self.hi_box):
            b.setProperty("invalid", b in bad)
            b.setToolTip(f"Not a number: {b.text()!r}" if b in bad else "")
            b.setStyleSheet("border: 1px solid #D55E00;" if b in bad else "")
        if bad:
            return
        rng = NumRange(_parse(self.lo_box.text()), _parse(self.hi_box.text()))
        if rng.lo is not None and rng.hi is not None and rng.lo > rng.hi:
            rng = NumRange(rng.hi, rng.lo)
        self._state.set_filters(self._state.filters.with_range(self.field.name, rng))


def _parse(text: str) -> float | None:
    text = text.replace(",", "").replace("\u202f", "").strip()
    if not text:
        return None
    try:
        v = float(text)
    except ValueError:
        return None
    return v if math.isfinite(v) else None
