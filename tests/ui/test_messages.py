"""Declared messages (ui/messages.py): filled in, long values cut, paths and
errors whole."""

from __future__ import annotations

from pathlib import Path

from ipubench_gui.ui.compare_controller import Say
from ipubench_gui.ui.messages import MAX_VALUE, Message


def test_values_are_filled_in_and_long_ones_cut():
    m = Message("T", "{name} is {n}", "do {what}")
    got = m.with_(name="x" * 200, n=3, what="this")
    assert got.title == "T" and got.todo == "do this"
    assert got.text == "x" * (MAX_VALUE - 1) + "… is 3"


def test_a_path_and_an_error_are_said_whole():
    p = Path("/" + "folder/" * 30 + "v.json")
    err = ValueError("saved by a newer ipubench-gui " + "(view format 3) " * 8)
    got = Say.NOT_A_VIEW.with_(path=p, why=err)
    assert got.text == f"{p}: {err}"
    assert got.title == "Cannot open the view"


def test_our_own_long_text_is_said_whole():
    from ipubench_gui.ui.messages import Whole
    from ipubench_gui.ui.mlperf_import_controller import Say as MLPerfSay

    summary = "MLPerf Training v3.0, NVIDIA: " + "12 new result(s), " * 8
    got = MLPerfSay.NOTHING_NEW.with_(summary=Whole(summary))
    assert got.text == f"{summary}. Nothing to import."
    cut = MLPerfSay.NOTHING_NEW.with_(summary=summary)  # a plain value is cut
    assert len(cut.text) == MAX_VALUE + len(". Nothing to import.")
