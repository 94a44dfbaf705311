"""Shared benchmark helpers: rows, medians and the case registry."""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

REPO_DATA = Path(__file__).resolve().parents[2] / "data"


@dataclass
class Row:
    case: str
    scale: str
    median_ms: float
    baseline: str = ""
    baseline_ms: float | None = None
    target: str = ""

    @property
    def ratio(self) -> str:
        if not self.baseline_ms:
            return ""
        return f"{self.median_ms / self.baseline_ms:.2f}x"


def times_ms(
    fn: Callable[[], object],
    runs: int,
    warmup: int = 1,
    clock: Callable[[], float] = time.perf_counter,
) -> list[float]:
    """Each of ``runs`` calls of ``fn`` (after ``warmup``), in ms of ``clock``
    (``time.thread_time``: the calling thread's CPU time)."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(runs):
        t = clock()
        fn()
        times.append((clock() - t) * 1000)
    return times


def median_ms(fn: Callable[[], object], runs: int, warmup: int = 1) -> float:
    return statistics.median(times_ms(fn, runs, warmup))


CASES: dict[str, Callable[[argparse.Namespace, Path], list[Row]]] = {}


def case(name: str):
    def deco(fn):
        CASES[name] = fn
        return fn

    return deco


def print_table(rows: list[Row]) -> None:
    head = ("case", "scale", "median ms", "baseline", "baseline ms", "ratio", "target")
    cells = [head] + [
        (
            r.case,
            r.scale,
            f"{r.median_ms:.2f}",
            r.baseline,
            "" if r.baseline_ms is None else f"{r.baseline_ms:.2f}",
            r.ratio,
            r.target,
        )
        for r in rows
    ]
    widths = [max(len(c[i]) for c in cells) for i in range(len(head))]
    for j, c in enumerate(cells):
        print(" | ".join(x.ljust(w) for x, w in zip(c, widths)))
        if j == 0:
            print("-+-".join("-" * w for w in widths))


class StallMeter:
    """The GUI thread's longest gap between timer ticks while work runs elsewhere.

    A QTimer ticks every ``interval`` ms; a tick that arrives late means the
    event loop was blocked for that long. Use as a context manager around the
    code that pumps events.

    ``worst_ms`` is wall time: on a loaded machine it also counts the time the
    thread waited for a core. ``worst_cpu_ms`` is the GUI thread's own CPU time
    between two ticks (``time.thread_time``): the work that blocked the loop,
    whatever the load (it misses waits on the GIL or a lock, which
    ``worst_ms`` shows).
    """

    def __init__(self, interval: int = 1):
        from PySide6.QtCore import QElapsedTimer, QTimer

        self.gaps: list[float] = []
        self.cpu_gaps: list[float] = []
        self._clock = QElapsedTimer()
        self._timer = QTimer(interval=interval)
        self._timer.timeout.connect(self._tick)
        self._last = 0
        self._last_cpu = 0
        self._marks: list[int] = []  # gap indices where a new change began

    def _tick(self) -> None:
        now = self._clock.nsecsElapsed()
        cpu = time.thread_time_ns()
        self.gaps.append((now - self._last) / 1e6)
        self.cpu_gaps.append((cpu - self._last_cpu) / 1e6)
        self._last = now
        self._last_cpu = cpu

    def __enter__(self) -> StallMeter:
        self._clock.start()
        self._last = self._clock.nsecsElapsed()
        self._last_cpu = time.thread_time_ns()
        self._timer.start()
        return self

    def __exit__(self, *exc) -> None:
        self._timer.stop()

    @property
    def worst_ms(self) -> float:
        return max(self.gaps[1:], default=0.0)

    @property
    def worst_cpu_ms(self) -> float:
        return max(self.cpu_gaps[1:], default=0.0)

    def mark(self) -> None:
        """A new change begins: ``worst_cpu_per_mark`` splits the gaps here."""
        self._marks.append(len(self.cpu_gaps))

    def worst_cpu_per_mark(self) -> list[float]:
        """The longest CPU gap of each change (from one mark to the next)."""
        ends = [*self._marks[1:], len(self.cpu_gaps)]
        return [
            max(self.cpu_gaps[max(a, 1) : b], default=0.0)
            for a, b in zip(self._marks, ends)
        ]


def wait_for(signal, done: Callable[[], bool], limit_s: float = 300) -> None:
    """The event loop as the app runs it (``QEventLoop.exec``, asleep between
    events) until ``done()``, asked each time ``signal`` fires (or until
    ``limit_s``).

    Not a loop of ``processEvents(WaitForMoreEvents, 5)``: that flag has no
    effect with a time limit, so the GUI thread spun, taking the GIL from the
    workers every switch interval, and an import on a worker took markedly
    longer. Nor a timer
    asking every ms: its ticks ran inside the changes measured."""
    from PySide6.QtCore import QEventLoop, QTimer

    if done():
        return
    loop = QEventLoop()

    def check(*_) -> None:
        if done():
            loop.quit()

    limit = QTimer(singleShot=True, interval=int(limit_s * 1000))
    limit.timeout.connect(loop.quit)
    signal.connect(check)
    limit.start()
    loop.exec()
    limit.stop()
    signal.disconnect(check)


def run_until(runner, done: list[str], slots: set[str], since: int = 0, limit_s=300):
    """``wait_for`` until ``slots`` are among the answers ``done[since:]``
    (``done``: the slot of each ``runner.finished``, appended by the caller)."""
    wait_for(runner.finished, lambda: slots <= set(done[since:]), limit_s)
