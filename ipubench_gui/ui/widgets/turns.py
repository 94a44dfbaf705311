"""TurnSteps: work given as steps, run over turns of the event loop."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QWidget


class TurnSteps(QObject):
    """Runs an iterator of steps for about ``budget_ms`` a turn of the event
    loop, the rest on the next turn (a 0 ms timer), so that the GUI thread
    answers input and timers in between. A turn runs one step at least, and
    ends before a step that, taken to cost as much as the last, would take it
    over the budget: the chart's cheap steps (a new cell) come before dear
    ones (a panel's drawing), and a turn that ran both held the thread for
    both.

    Until the last step ``widget`` is not repainted (its updates are held):
    the user sees what it showed before, not half of the new content over
    the old; it is repainted once, as a whole, after the last step. Work that
    fits the budget is done within ``start``.

    Held from ``start`` by default, not from the end of the first turn: a
    child shown or hidden in the first step (the chart's panels for its one
    plot) left a strip of the window's background where a scroll bar was to
    come, until the last step (Xvfb, 1920x1080). ``start(hold=False)``: held
    from the end of the first turn, if the steps go past it (see ``start``)."""

    def __init__(self, widget: QWidget, budget_ms: float):
        super().__init__(widget)
        self.widget = widget
        self.budget_ms = budget_ms
        self._steps: Iterator[object] | None = None
        self._on_step: Callable[[object], object] = lambda _value: None
        self._on_done: Callable[[], object] = lambda: None
        self.timer = QTimer(self, singleShot=True, interval=0)
        self.timer.timeout.connect(self._run)

    def start(
        self,
        steps: Iterator[object],
        on_step: Callable[[object], object],
        on_done: Callable[[], object],
        hold: bool = True,
    ) -> None:
        """Run ``steps`` (those of the last start dropped), each step's value
        given to ``on_step``; ``on_done`` once the last is run, then the
        widget's updates resumed. Not ``hold``: the widget's updates held only
        once the steps go past this turn, before the event loop can paint
        what they left half done (the one plot, drawn a look a step), so work
        done within ``start`` is painted as any change, not by a repaint of
        the whole widget (which painted a filter change's chart twice)."""
        self.cancel()
        self._steps, self._on_step, self._on_done = steps, on_step, on_done
        if hold and self.widget.updatesEnabled():
            self.widget.setUpdatesEnabled(False)
        self._run()

    def running(self) -> bool:
        """Whether steps remain."""
        return self._steps is not None

    def cancel(self) -> None:
        """Drop the steps that remain (``on_done`` is not called) and resume
        the widget's updates (what replaces the steps is done before the
        event loop paints, or holds them again)."""
        self.timer.stop()
        if self._steps is not None:
            close = getattr(self._steps, "close", None)
            if close is not None:
                close()  # a generator's ``finally`` runs now
            self._steps = None
        self._resume()

    def _resume(self) -> None:
        if not self.widget.updatesEnabled():
            self.widget.setUpdatesEnabled(True)  # one paint of the whole

    def finish(self) -> None:
        """Run the steps that remain now."""
        self._run(budget_ms=float("inf"))

    def _run(self, budget_ms: float | None = None) -> None:
        self.timer.stop()
        steps = self._steps
        if steps is None:
            return
        budget = self.budget_ms if budget_ms is None else budget_ms
        t0 = last = time.perf_counter()
        for value in steps:
            self._on_step(value)
            now = time.perf_counter()
            if (now - t0 + now - last) * 1000 >= budget:
                if self.widget.updatesEnabled():
                    self.widget.setUpdatesEnabled(False)
                self.timer.start()
                return
            last = now
        self._steps = None
        # Done before the updates resume: what ``on_done`` changes is painted
        # with the rest, in the one paint. Resumed whatever it raises: left
        # held, the widget would show its last picture for good.
        try:
            self._on_done()
        finally:
            if self._steps is None:  # ``on_done`` started no steps of its own
                self._resume()
