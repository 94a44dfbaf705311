"""Details on a 1280x720 laptop: a readable width whatever the chart shows,
and lines that break between words, never inside one."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import QSize, Qt

from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.kinds import KINDS
from ipubench_gui.ui.widgets.detail_pane import READABLE_CHARS, ZWSP

LAPTOP = QSize(1280, 720)


def _laptop_window(qtbot, make_session, size: str):
    """The window as it first opens on a 1280x720 screen (85% of it), or
    filling it."""
    s = make_session(start=False)
    s.start(restore=False)
    w = s.window
    w.resize(LAPTOP if size == "whole screen" else w.first_run_size(LAPTOP))
    w.show()
    qtbot.waitExposed(w)
    return s


def _text_width(details) -> int:
    """The width the pane's lines are laid out in."""
    return round(details.document().textWidth())


@pytest.mark.scale
@pytest.mark.parametrize("size", ["first run", "whole screen"])
def test_details_keep_a_readable_width_at_1280x720(qtbot, make_session, size):
    s = _laptop_window(qtbot, make_session, size)
    w, d = s.window, s.window.details
    readable = READABLE_CHARS * d.fontMetrics().averageCharWidth()
    for kind in KINDS:  # each kind's chart options beside it
        s.state.set_chart(ChartSpec(kind=kind))
        assert d.isVisible() and _text_width(d) >= readable, (kind, _text_width(d))
        # the chart keeps the rest, and the whole fits the window: its
        # first-run size is not widened by what it holds
        wanted = LAPTOP if size == "whole screen" else w.first_run_size(LAPTOP)
        assert w.width() == wanted.width() and w.canvas.width() > 2 * d.width()
    # narrower it will not go: dragged to nothing, it stays readable
    w.resizeDocks([w.detail_dock], [1], Qt.Orientation.Horizontal)
    qtbot.waitUntil(lambda: d.width() <= d.minimumSizeHint().width())
    assert _text_width(d) >= readable


def _broken_inside_a_word(text: str, at: int) -> bool:
    """A line of ``text`` ends at ``at`` between two letters or digits of a
    word. Not a word: a hash (16 or more hex digits), which may break
    anywhere; a break mark alone is no break between words."""
    before = text[:at].replace(ZWSP, "")
    after = text[at:].replace(ZWSP, "")
    if not (before and after and before[-1].isalnum() and after[0].isalnum()):
        return False
    run = re.search(r"[0-9a-f]*$", before)[0] + re.match(r"[0-9a-f]*", after)[0]
    return len(run) < 16


def _breaks(details) -> list[str]:
    """Every line end inside a word, with the words around it."""
    bad = []
    block = details.document().begin()
    while block.isValid():
        layout, text = block.layout(), block.text()
        for i in range(layout.lineCount() - 1):
            line = layout.lineAt(i)
            at = line.textStart() + line.textLength()
            if _broken_inside_a_word(text, at):
                bad.append(f"{text[max(at - 15, 0) : at]}|{text[at : at + 15]}")
        block = block.next()
    return bad


@pytest.mark.scale
def test_no_line_of_any_result_breaks_inside_a_word(qtbot, make_session):
    """Every stored result's details, 20 at a time as a selection shows them,
    in the pane at its narrowest on a 1280x720 screen: no line breaks inside
    a word and nothing runs past the edge (MLPerf system names such as
    samsung_supercomputer21_dgxa100_n171_pytorch are wider than the pane)."""
    s = _laptop_window(qtbot, make_session, "first run")
    w, d = s.window, s.window.details
    w.resizeDocks([w.detail_dock], [1], Qt.Orientation.Horizontal)
    qtbot.waitUntil(lambda: d.width() <= d.minimumSizeHint().width())
    ids = [w.model.result_id(r) for r in range(w.model.rowCount())]
    assert len(ids) > 3000  # every stored result is a row of the table
    bad, wide = [], []
    for i in range(0, len(ids), 20):
        s.state.set_selection(tuple(ids[i : i + 20]))
        assert ids[i] in d.toPlainText()
        bad += _breaks(d)
        if d.horizontalScrollBar().maximum() > 0:
            wide.append(ids[i])
    assert bad == [] and wide == [], (bad[:10], wide[:10])
    # a system name copied from the pane is the name, without break marks
    assert ZWSP in d.toHtml() and ZWSP not in d.toPlainText()
    d.selectAll()
    assert ZWSP not in d.createMimeDataFromSelection().text()
