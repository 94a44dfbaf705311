"""A window's legend folds what its height does not hold ("+ N more"); the
full list of the chart's lines is one click (or Ctrl+Shift+L) away."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMenu

from ipubench_gui.charts.legend import folded
from ipubench_gui.charts.theme import LIGHT

# A popup menu asks the window system to raise it and grab the keyboard, which
# the offscreen platform cannot do (and says so).
pytestmark = pytest.mark.qt_log_ignore("does not support (raise|grabbing)", extend=True)


def _menus() -> list[QMenu]:
    return [
        w
        for w in QApplication.topLevelWidgets()
        if isinstance(w, QMenu) and w.isVisible()
    ]


def _names(menu: QMenu) -> list[tuple[str, str]]:
    """(section, name) of each row of ``menu``."""
    out, section = [], ""
    for a in menu.actions():
        if a.isSeparator():
            section = a.text()
        elif a.isEnabled():
            out.append((section, a.text().replace("&&", "&")))
    return out


@pytest.mark.scale
def test_a_click_on_more_lists_every_line(qtbot, session):
    """The MLPerf chart in a 1280x720 window: its legend beside the plot
    lists what its height holds and folds the rest ("+ N more"); a click
    on that row opens the list of every line, in the Plot's order, each
    beside its own colour."""
    w = session.window
    w.resize(1280, 720)
    session.state.set_chart(session.state.chart.with_(kind="mlperf"))
    canvas = w.canvas
    canvas.finish()
    QApplication.processEvents()
    plot = canvas.current
    named = [s for s in plot.series if s.in_legend and s.points]
    row = folded(canvas.legend)
    assert row is not None, "the legend names all at this size"
    listed_rows = len(canvas.legend.items) - 1
    assert listed_rows < len(named)
    assert row.text.startswith(f"+ {len(named) - listed_rows} more — click")
    view = canvas.plot
    at = view.mapFromScene(row.sceneBoundingRect().center())
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=at)
    qtbot.waitUntil(lambda: bool(_menus()), timeout=3000)
    (menu,) = _menus()
    assert [n for _s, n in _names(menu)] == [s.name for s in named]
    for a, s in zip((a for a in menu.actions() if a.isEnabled()), named):
        colour = a.icon().pixmap(8, 8).toImage().pixelColor(4, 4)
        assert colour.name() == LIGHT.series(s.color).lower(), s.name
    menu.close()


def test_ctrl_shift_l_lists_every_line_by_panel(qtbot, session):
    """From the keyboard: the latency chart of every model, each panel's
    lines under its title, as the Plot names them."""
    session.state.set_chart(session.state.chart.with_(kind="latency-throughput"))
    w = session.window
    plot = w.canvas.current
    assert len(plot.panels) > 1
    w.activateWindow()
    mods = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    qtbot.keyClick(w, Qt.Key.Key_L, mods)
    qtbot.waitUntil(lambda: bool(_menus()), timeout=3000)
    (menu,) = _menus()
    expected = [
        (title, s.name)
        for title in plot.panels
        for s in plot.panel(title).series
        if s.in_legend and s.points
    ]
    assert _names(menu) == expected
    menu.close()
