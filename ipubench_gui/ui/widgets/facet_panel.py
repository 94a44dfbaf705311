"""FacetPanel: one checkable value list per facet, plus numeric range filters."""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ipubench_gui.domain.fields import FACETS, RANGES, Field
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.ranges import counted_unit
from ipubench_gui.ui.models.facet_model import NAME_ROLE, SORTS, VALUE_ROLE, FacetModel
from ipubench_gui.ui.state import AppState
from ipubench_gui.ui.widgets.facet_cells import FacetCells
from ipubench_gui.ui.widgets.range_filter import RangeFilter
from ipubench_gui.ui.widgets.wheel_guard import WheelGuard

SEARCH_THRESHOLD = 8  # facets with more values than this get a search field
MAX_VISIBLE_ROWS = 8


class _FacetList(QListView):
    """A list whose items toggle on click, Space or Enter."""

    toggled = Signal(object)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setUniformItemSizes(True)
        # Long names are elided (the tooltip has them whole) rather than
        # scrolled: a scroll bar that came and went with the counts' widths
        # resized the list, and relaid the panel out, on filter changes.
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setEditTriggers(QListView.EditTrigger.NoEditTriggers)
        self.clicked.connect(lambda ix: self.toggled.emit(ix.data(VALUE_ROLE)))

    def keyPressEvent(self, e: QKeyEvent) -> None:
        if e.key() in (Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter):
            ix = self.currentIndex()
            if ix.isValid():
                self.toggled.emit(ix.data(VALUE_ROLE))
                return
        super().keyPressEvent(e)


class FacetBox(QWidget):
    """Title with a clear button, an optional search field, and the value list."""

    def __init__(self, fld: Field, state: AppState, parent=None):
        super().__init__(parent)
        self.field = fld
        self._state = state
        self.model = FacetModel(self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.proxy.setFilterRole(NAME_ROLE)  # the names, not their counts

        self.title = QLabel(f"<b>{fld.label}</b>")
        self.title.setWordWrap(True)
        self.clear_button = QToolButton(text="Clear", autoRaise=True)
        self.clear_button.setToolTip(f"Clear the {fld.label} filter")
        self.clear_button.clicked.connect(
            lambda: state.set_filters(state.filters.cleared(fld.name))
        )
        self.search = QLineEdit(
            placeholderText=f"Search {fld.label.lower()}…", clearButtonEnabled=True
        )
        self.search.textChanged.connect(self.proxy.setFilterFixedString)
        self.search.hide()
        self.list = _FacetList()
        self.list.setModel(self.proxy)
        # whole words, the count kept at the end (the tooltip names it whole)
        self.delegate = FacetCells(
            self.list, self.proxy, self.model, fit_width=True, tip_names_it=True
        )
        self.list.setItemDelegate(self.delegate)
        self.list.setAccessibleName(f"{fld.label} values")
        self.list.toggled.connect(
            lambda v: state.set_filters(state.filters.toggled(fld.name, v))
        )

        head = QHBoxLayout()
        head.setContentsMargins(0, 0, 0, 0)
        head.addWidget(self.title, 1)
        head.addWidget(self.clear_button)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.setSpacing(2)
        lay.addLayout(head)
        lay.addWidget(self.search)
        lay.addWidget(self.list)

    def set_universe(
        self,
        values: list[object],
        totals: dict[object, int] | None = None,
        labels: Mapping[object, str] | None = None,
        tips: Mapping[object, str] | None = None,
    ) -> None:
        self.model.set_universe(values, totals, labels, tips)
        # Titles (a source's) tell apart by their start ("MLPerf Training
        # v2.0 …"); other values by their last word too ("… Packed").
        self.delegate.set_where("head" if labels else "middle")
        self.search.setVisible(len(values) > SEARCH_THRESHOLD)
        rows = max(1, min(len(values), MAX_VISIBLE_ROWS))
        # sizeHintForRow is not reliable before the view is shown; the check box
        # indicator makes rows a little taller than the text.
        h = max(self.list.sizeHintForRow(0), self.fontMetrics().height() + 6)
        self.list.setFixedHeight(rows * h + 2 * self.list.frameWidth() + 2)

    def set_counts(self, counts: dict[object, int], checked: frozenset) -> None:
        self.model.set_counts(counts, checked)
        # Laid out now, as the counts change: Qt's delayed layout (a timer
        # per list) ran after the change's paint and painted the list again.
        self.list.executeDelayedItemsLayout()
        self.clear_button.setEnabled(bool(checked))


class FacetPanel(QScrollArea):
    """All facets and ranges, top to bottom, in a scroll area (a dock's content)."""

    def __init__(self, state: AppState, parent=None):
        super().__init__(parent)
        self._state = state
        self.boxes = {f.name: FacetBox(f, state) for f in FACETS}
        self.ranges = {f.name: RangeFilter(f, state) for f in RANGES}
        self.sort = QComboBox()
        for key, label in SORTS.items():
            self.sort.addItem(label, key)
        self.sort.setToolTip(
            "Order of each facet's values. By count: most results in the whole "
            "store first. Either way the order stays put while you filter; "
            "values no result matches are greyed."
        )
        self.sort.setAccessibleName("Order facet values")
        self.sort.currentIndexChanged.connect(
            lambda _i: self.set_sort(self.sort.currentData())
        )
        sort_label = QLabel("&Order values:")
        sort_label.setBuddy(self.sort)
        inner = QWidget()
        lay = QVBoxLayout(inner)
        lay.setContentsMargins(2, 2, 2, 2)
        head = QHBoxLayout()
        head.addWidget(sort_label)
        head.addWidget(self.sort, 1)
        lay.addLayout(head)
        for f in RANGES:
            lay.addWidget(self.ranges[f.name])
        for f in FACETS:
            lay.addWidget(self.boxes[f.name])
        lay.addStretch(1)
        self.setWidget(inner)
        self.setWidgetResizable(True)
        # Not a stop itself: Tab goes to the filters inside (the window scrolls
        # each into view).
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setMinimumWidth(self.fontMetrics().horizontalAdvance("M") * 22)
        # The wheel scrolls this panel, not a list or box it passes over.
        self.wheel = WheelGuard(self)
        self.wheel.guard(self.sort, rest=False)
        for box in self.boxes.values():
            self.wheel.guard(box.list.viewport(), box.list)
        state.filtersChanged.connect(self._on_state_filters_changed)

    def set_universe(
        self,
        universe: dict[str, list[object]],
        bounds: dict[str, tuple[float, float]],
        totals: dict[str, dict[object, int]] | None = None,
        labels: Mapping[str, Mapping[object, str]] | None = None,
        tips: Mapping[str, Mapping[object, str]] | None = None,
    ) -> None:
        """Every facet's values; ``totals``: per facet, rows per value in the
        whole store (the "by count" order); ``labels``, ``tips``: per facet,
        how its values are listed and named in full, where that is not the
        value (FacetModel)."""
        for name, box in self.boxes.items():
            box.set_universe(
                universe.get(name, []),
                (totals or {}).get(name),
                (labels or {}).get(name),
                (tips or {}).get(name),
            )
        for name, rng in self.ranges.items():
            lo, hi = bounds.get(name, (None, None))
            rng.set_bounds(lo, hi)
            rng.render(self._state.filters.range(name))

    def set_sort(self, sort: str) -> None:
        """Every facet's values by ``"count"`` or ``"name"`` (see FacetModel)."""
        for box in self.boxes.values():
            box.model.set_sort(sort)
        i = self.sort.findData(sort)
        if i != self.sort.currentIndex():
            self.sort.setCurrentIndex(i)

    def set_counts(self, counts: dict[str, dict[object, int]]) -> None:
        f = self._state.filters
        for name, box in self.boxes.items():
            box.set_counts(counts.get(name, {}), f.values(name))
        # throughput is in images/s for some rows, sequences/s for others
        self.ranges["throughput"].set_unit(
            counted_unit(counts.get("unit_family", {}), f.values("unit_family"))
        )

    def clear_inputs(self) -> None:
        """Every facet's search text gone, and every range shows the state's
        range again (text typed but not applied included): Clear all."""
        for box in self.boxes.values():
            box.search.clear()
        for name, rng in self.ranges.items():
            rng.render(self._state.filters.range(name))

    def _on_state_filters_changed(self, f: FilterState) -> None:
        # Check marks follow the filter at once; counts follow when they arrive.
        for name, box in self.boxes.items():
            box.model.set_checked(f.values(name))
            box.clear_button.setEnabled(bool(f.values(name)))
        for name, rng in self.ranges.items():
            rng.render(f.range(name))
