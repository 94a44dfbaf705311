"""The runner's workers yield to the window's thread once the window is
painted (issue 18): Linux, where a thread has a nice value of its own."""

from __future__ import annotations

import os
import sys
import threading

import pytest

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="per-thread nice values are Linux's"
)


def nice(tid: int) -> int:
    return os.getpriority(os.PRIO_PROCESS, tid)


def whose(_db) -> tuple[int, int]:
    """A job: the worker thread it ran on and that thread's nice value."""
    tid = threading.get_native_id()
    return tid, nice(tid)


def ask(qtbot, runner) -> tuple[int, int]:
    with qtbot.waitSignal(runner.finished, timeout=10_000) as got:
        runner.submit("whose", whose)
    return got.args[2]


def test_workers_run_after_the_window_thread_once_it_is_painted(qtbot, fresh_db):
    from ipubench_gui.ui.runner import NICE, QueryRunner

    gui = threading.get_native_id()
    base = nice(gui)
    runner = QueryRunner(fresh_db)
    try:
        # Start-up queries, which the first window waits for, at its priority.
        worker, worker_nice = ask(qtbot, runner)
        assert worker != gui and worker_nice == base
        runner.yield_to_window()
        # Every job from now on, on either worker thread, runs lowered.
        for _ in range(4):
            worker, worker_nice = ask(qtbot, runner)
            assert worker != gui and worker_nice == min(19, base + NICE)
        assert nice(gui) == base  # the window's thread keeps its own
    finally:
        runner.shutdown()
