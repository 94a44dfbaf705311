"""ChipBar: the active filters as removable chips, and a "Clear all" button."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QPushButton, QToolButton, QWidget

from ipubench_gui.domain.filters import FilterState, Names
from ipubench_gui.ui.state import AppState
from ipubench_gui.ui.widgets.note_label import NoteLabel


class ChipBar(QWidget):
    def __init__(self, state: AppState, parent=None):
        super().__init__(parent)
        self._state = state
        self._names: Names = {}
        self._lay = QHBoxLayout(self)
        self._lay.setContentsMargins(0, 0, 0, 0)
        self.hint = NoteLabel("No filters: showing every result.")
        self.clear_all = QPushButton("Clear all")
        self.clear_all.setToolTip("Clear every filter (Ctrl+Shift+Backspace)")
        self.clear_all.clicked.connect(lambda: state.set_filters(FilterState()))
        self.chips: list[QToolButton] = []
        # As tall with chips as without (a chip's "✕" may come from a taller
        # fallback font), so applying a filter never shifts the chart and table
        # below, which would also repaint the whole centre of the window.
        sample = QToolButton(text="Filter  ✕")
        self.setFixedHeight(
            max(sample.sizeHint().height(), self.clear_all.sizeHint().height())
        )
        sample.deleteLater()
        state.filtersChanged.connect(self.render)
        self.render(state.filters)

    def set_names(self, names: Names) -> None:
        """How values are named (a source by its title): the chips say it."""
        self._names = names
        self.render(self._state.filters)

    def render(self, f: FilterState) -> None:
        for chip in self.chips:
            self._lay.removeWidget(chip)
            chip.deleteLater()
        self.chips = []
        while self._lay.count():
            self._lay.takeAt(0)
        for dim, label in f.chips(self._names):
            chip = QToolButton(text=f"{label}  ✕")
            chip.setToolTip(f"Remove this filter ({label})")
            chip.setAccessibleName(f"Remove filter {label}")
            chip.setProperty("dim", dim)
            chip.clicked.connect(
                lambda _=False, d=dim: self._state.set_filters(
                    self._state.filters.cleared(d)
                )
            )
            self.chips.append(chip)
            self._lay.addWidget(chip)
        self._lay.addWidget(self.hint)
        self.hint.setVisible(not self.chips)
        self._lay.addStretch(1)
        self._lay.addWidget(self.clear_all)
        self.clear_all.setEnabled(bool(self.chips))
