"""AppState: the current filter, sort, chart spec and selection; one signal each;
and the undo history of filters, chart and comparison (Qt's QUndoStack)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.compare import Comparison
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.history import MERGE_SECONDS, Change, change


class AppState(QObject):
    """Holds the UI's values. Widgets write here and render from the signals.

    Every change of the filters, the chart or the comparison is one step of
    ``undo_stack`` (a pair of values: undo puts the old one back through the
    same signal); ``step()`` makes several changes one step. The selection and
    the sort are not steps."""

    filtersChanged = Signal(object)  # FilterState
    sortChanged = Signal(object)  # (column | None, descending)
    chartChanged = Signal(object)  # ChartSpec
    selectionChanged = Signal(object)  # tuple[str, ...] of result ids
    comparisonChanged = Signal(object)  # domain.compare.Comparison
    # a step that dropped much at once (cleared filters, a claim chosen): what
    # happened, in words, so the window can say it and how to go back
    stepAnnounced = Signal(str)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._filters = FilterState()
        self._sort: tuple[str | None, bool] = (None, False)
        self._chart = ChartSpec()
        self._selection: tuple[str, ...] = ()
        self._comparison = Comparison()
        self.undo_stack = QUndoStack(self)
        self._applying = False  # inside a step's redo/undo: no new step
        self._group: _Steps | None = None  # the open step(), if any

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
            self._record("comparison", self._comparison, value)

    def set_filters(self, value: FilterState) -> None:
        if value != self._filters:
            self._record("filters", self._filters, value)

    def set_sort(self, column: str | None, descending: bool = False) -> None:
        if (column, descending) != self._sort:
            self._sort = (column, descending)
            self.sortChanged.emit(self._sort)

    def set_chart(self, spec: ChartSpec) -> None:
        if spec != self._chart:
            self._record("chart", self._chart, spec)

    def set_selection(self, ids: tuple[str, ...]) -> None:
        if ids != self._selection:
            self._selection = ids
            self.selectionChanged.emit(ids)

    # -- undo and redo ---------------------------------------------------------
    @contextmanager
    def step(self, text: str, announce: str = "") -> Iterator[None]:
        """Every change made inside is one undo step called ``text`` (none when
        nothing changed); ``announce``: what the window then says happened
        (and how to go back), else what its changes say."""
        if self._group is not None:  # already inside one: part of it
            yield
            return
        group = _Steps(self, text)
        self._group = group
        try:
            yield
        finally:
            self._group = None
            if group.changes:
                self.undo_stack.push(group)  # its redo: values it already has
                said = announce or "; ".join(
                    a for c, o, n in group.changes if (a := change(c, o, n).announce)
                )
                if said:
                    self.stepAnnounced.emit(said)

    def forget_history(self) -> None:
        """Start the history here (the values restored at start are no step)."""
        self.undo_stack.clear()

    def _record(self, concept: str, old: Any, new: Any) -> None:
        if self._applying:  # a widget echoing an undo: part of that step
            self._put(concept, new)
            return
        what = change(concept, old, new)
        if self._group is not None:
            self._group.changes.append((concept, old, new))
            self._put(concept, new)
            return
        self.undo_stack.push(_Step(self, concept, old, new, what))
        if what.announce:
            self.stepAnnounced.emit(what.announce)

    def _put(self, concept: str, value: Any) -> None:
        if concept == "filters" and value != self._filters:
            self._filters = value
            self.filtersChanged.emit(value)
        elif concept == "chart" and value != self._chart:
            self._chart = value
            self.chartChanged.emit(value)
        elif concept == "comparison" and value != self._comparison:
            self._comparison = value
            self.comparisonChanged.emit(value)


_RUNS = 1  # the id of steps that may run into the next (QUndoCommand.id)


class _Step(QUndoCommand):
    """One change: ``concept`` from ``old`` to ``new``. Consecutive changes with
    one ``Change.key`` (a search typed, a range dragged) run into one step."""

    def __init__(self, state: AppState, concept: str, old: Any, new: Any, what: Change):
        super().__init__(what.text)
        self.state, self.concept, self.old, self.new = state, concept, old, new
        self.key = what.key
        self.when = time.monotonic()

    def id(self) -> int:
        return _RUNS if self.key else -1

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 (Qt API)
        if not (
            isinstance(other, _Step)
            and (other.concept, other.key) == (self.concept, self.key)
            and other.when - self.when <= MERGE_SECONDS
        ):
            return False
        self.new, self.when = other.new, other.when
        self.setText(other.text())
        self.setObsolete(self.new == self.old)  # back where it started: no step
        return True

    def redo(self) -> None:
        _apply(self.state, [(self.concept, self.new)])

    def undo(self) -> None:
        _apply(self.state, [(self.concept, self.old)])


class _Steps(QUndoCommand):
    """Several changes as one step (``AppState.step``). Not Qt's child
    commands: a child made from Python is deleted under Qt's parent."""

    def __init__(self, state: AppState, text: str):
        super().__init__(text)
        self.state = state
        self.changes: list[tuple[str, Any, Any]] = []

    def redo(self) -> None:
        _apply(self.state, [(c, new) for c, _, new in self.changes])

    def undo(self) -> None:
        _apply(self.state, [(c, old) for c, old, _ in reversed(self.changes)])


def _apply(state: AppState, values: list[tuple[str, Any]]) -> None:
    """Put values back as an undo or redo does: a widget echoing them while
    they are put is part of this step, not a new one."""
    state._applying = True
    try:
        for concept, value in values:
            state._put(concept, value)
    finally:
        state._applying = False
