"""AppState: the current filter, sort, chart spec and selection; one signal each."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.compare import Comparison
from ipubench_gui.domain.filters import FilterState


class AppState(QObject):
    """Holds the UI's values. Widgets write here and render from the signals."""

    filtersChanged = Signal(object)  # FilterState
    sortChanged = Signal(object)  # (column | None, descending)
    chartChanged = Signal(object)  # ChartSpec
    selectionChanged = Signal(object)  # tuple[str, ...] of result ids
    comparisonChanged = Signal(object)  # domain.compare.Comparison

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._filters = FilterState()
        self._sort: tuple[str | None, bool] = (None, False)
        self._chart = ChartSpec()
        self._selection: tuple[str, ...] = ()
        self._comparison = Comparison()

    @property
    def filters(self) -> FilterState:
        return self._filters

    @property
    def sort(self) -> tuple[str | None, bool]:
        return self._sort

    @property
    def chart(self) -> ChartSpec:
        return self._chart

    @property
    def selection(self) -> tuple[str, ...]:
        return self._selection

    @property
    def comparison(self) -> Comparison:
        return self._comparison

    def set_comparison(self, value: Comparison) -> None:
        if value != self._comparison:
            self._comparison = value
            self.comparisonChanged.emit(value)

    def set_filters(self, value: FilterState) -> None:
        if value != self._filters:
            self._filters = value
            self.filtersChanged.emit(value)

    def set_sort(self, column: str | None, descending: bool = False) -> None:
        if (column, descending) != self._sort:
            self._sort = (column, descending)
            self.sortChanged.emit(self._sort)

    def set_chart(self, spec: ChartSpec) -> None:
        if spec != self._chart:
            self._chart = spec
            self.chartChanged.emit(spec)

    def set_selection(self, ids: tuple[str, ...]) -> None:
        if ids != self._selection:
            self._selection = ids
            self.selectionChanged.emit(ids)
