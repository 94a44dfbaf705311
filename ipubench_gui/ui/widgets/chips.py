"""ChipBar: the active filters as removable chips, and a "Clear all" button."""

from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QToolButton, QWidget

from ipubench_gui.domain.filters import FilterState, Names
from ipubench_gui.domain.text import ELLIPSIS, elide_words, share_widths
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
        # what it clears (search boxes too) is the window's: MainWindow.clear_all
        self.chips: list[QToolButton] = []  # those shown, in order
        # Buttons once made are kept, hidden when not needed, rather than
        # deleted: a deleted chip stayed on screen until its deferred delete,
        # which repainted the bar and relaid the window out after the
        # change's paint; and a new one was made and polished.
        self._buttons: list[QToolButton] = []
        # As tall with chips as without (a chip's "✕" may come from a taller
        # fallback font), so applying a filter never shifts the chart and table
        # below, which would also repaint the whole centre of the window.
        sample = QToolButton(text="Filter  ✕")
        self.setFixedHeight(
            max(sample.sizeHint().height(), self.clear_all.sizeHint().height())
        )
        sample.deleteLater()
        # Chips are shortened to fit (_fit), so they never set the window's
        # minimum width.
        self.setMinimumWidth(self.fontMetrics().horizontalAdvance("M") * 20)
        self._pad: int | None = None
        self.clear_all.setEnabled(False)  # no chips yet
        self._lay.addWidget(self.hint)
        self._lay.addStretch(1)
        self._lay.addWidget(self.clear_all)
        state.filtersChanged.connect(self.render)
        self.render(state.filters)

    def set_names(self, names: Names) -> None:
        """How values are named (a source by its title): the chips say it."""
        self._names = names
        self.render(self._state.filters)

    def render(self, f: FilterState) -> None:
        """One chip per active filter. Chips whose filters stay keep their
        buttons: nothing is rebuilt or relaid out, and so nothing repainted,
        for a change that leaves the chips as they were."""
        wanted = f.chips(self._names)
        if [(c.property("dim"), c.property("label")) for c in self.chips] == wanted:
            return
        while len(self._buttons) < len(wanted):
            chip = QToolButton()
            chip.clicked.connect(
                lambda _=False, c=chip: self._state.set_filters(
                    self._state.filters.cleared(c.property("dim"))
                )
            )
            self._lay.insertWidget(len(self._buttons), chip)
            self._buttons.append(chip)
        for chip, (dim, label) in zip(self._buttons, wanted):
            chip.setToolTip(f"Remove this filter ({label})")
            chip.setAccessibleName(f"Remove filter {label}")
            chip.setProperty("dim", dim)
            chip.setProperty("label", label)
            chip.show()
        for chip in self._buttons[len(wanted) :]:
            chip.hide()
        self.chips = self._buttons[: len(wanted)]
        self._fit()
        self.hint.setVisible(not self.chips)
        self.clear_all.setEnabled(bool(self.chips))

    def changeEvent(self, e) -> None:  # noqa: N802 (Qt API)
        if e.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._pad = None  # measured again in the new font or style
        super().changeEvent(e)

    def resizeEvent(self, e) -> None:  # noqa: N802 (Qt API)
        super().resizeEvent(e)
        self._fit()

    def _fit(self) -> None:
        """Each chip's label whole when all fit the bar, else shortened by
        words to its share (its tooltip names it whole): many chips never
        make the window wider than the screen (1280x720)."""
        if not self.chips:
            return
        fm = self.fontMetrics()
        if self._pad is None:  # a chip's frame and margins: once
            sample = self.chips[0]
            self._pad = sample.sizeHint().width() - fm.horizontalAdvance(sample.text())
        pad = self._pad
        gap = self._lay.spacing()
        room = self.width() - self.clear_all.sizeHint().width() - gap
        room -= len(self.chips) * (pad + gap)
        labels = [str(c.property("label")) for c in self.chips]
        full = [fm.horizontalAdvance(_text(t)) for t in labels]
        if sum(full) <= room:  # the usual case: every label whole
            for chip, label in zip(self.chips, labels):
                chip.setText(_text(label))
            return
        least = [fm.horizontalAdvance(_text(ELLIPSIS)) for _ in labels]
        shares = share_widths(full, least, max(room, 0))
        mark = fm.horizontalAdvance(_text(""))
        spare = 0  # what a chip cut by whole words left of its share: the next's
        for chip, label, w, whole in zip(self.chips, labels, shares, full):
            text = label
            if w + spare < whole:
                text = elide_words(label, w + spare - mark, fm.horizontalAdvance)
            spare += w - fm.horizontalAdvance(_text(text))
            chip.setText(_text(text))


def _text(label: str) -> str:
    return f"{label}  ✕"
