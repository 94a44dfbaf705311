"""View > Theme: the window and every chart kind on a dark palette."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtWidgets import QApplication, QWidget

from ipubench_gui.charts.theme import DARK, MIN_CONTRAST, contrast_ratio
from ipubench_gui.domain.kinds import KINDS


@pytest.fixture
def dark(session, qtbot):
    from ipubench_gui.ui import appearance

    session.window.theme_actions["dark"].trigger()  # as View > Theme > Dark
    # Widgets take a new app palette from a posted event.
    qtbot.waitUntil(lambda: session.window.canvas.theme == DARK)
    yield session
    appearance.apply("system", save=False)
    QApplication.processEvents()  # deliver the posted palette change
    assert session.window.canvas.theme != DARK  # later tests start light


def drawn_colours(canvas) -> list[str]:
    """The colour of every series item on the canvas, as painted."""
    out = []
    for item in canvas.drawn.series_items:
        if isinstance(item, pg.BarGraphItem):
            out.append(pg.mkBrush(item.opts["brush"]).color().name())
        else:
            out.append(pg.mkPen(item.opts["pen"]).color().name())
            if item.opts.get("symbol") is not None:
                out.append(pg.mkBrush(item.opts["symbolBrush"]).color().name())
    return out


def test_dark_theme_is_applied_and_remembered(dark, qtbot):
    from ipubench_gui.ui import appearance
    from ipubench_gui.ui import settings_store as ss

    w = dark.window
    window_bg = QApplication.palette().color(QPalette.ColorRole.Window)
    assert window_bg.lightness() < 80
    assert w.canvas.theme == DARK
    assert w.canvas.plot.backgroundBrush().color().name().upper() == DARK.background
    assert ss.load_text(ss.THEME) == "dark"
    assert appearance.saved_mode() == "dark"
    assert w.theme_actions["dark"].isChecked()
    w.theme_actions["system"].trigger()
    qtbot.waitUntil(lambda: w.canvas.theme != DARK)
    assert w.palette().color(QPalette.ColorRole.Window).lightness() > 128
    assert appearance.saved_mode() == "system"


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_series_colour_stands_out_on_the_dark_chart(dark, kind):
    w = dark.window
    dark.state.set_chart(dark.state.chart.with_(kind=kind))
    assert dark.controller.plot.kind == kind
    colours = drawn_colours(w.canvas)
    assert colours, f"{kind}: nothing drawn"
    bg = w.canvas.plot.backgroundBrush().color().name()
    low = {c: round(contrast_ratio(c, bg), 2) for c in colours}
    low = {c: r for c, r in low.items() if r < MIN_CONTRAST}
    assert not low, f"{kind}: below {MIN_CONTRAST}:1 on {bg}: {low}"


def test_colours_too_dark_for_the_dark_chart_are_lightened(dark):
    """The issue's case: framework colours such as black (TensorFlow1) or navy
    (TensorFlow2) nearly vanished on #1E1E1E."""
    from ipubench_gui.domain.chartspec import COLOR_CHOICES

    # Colours follow the universe's order of values, which new data shifts:
    # take the first colouring that gives a series a colour too dark to see.
    for by in COLOR_CHOICES:
        dark.state.set_chart(dark.state.chart.with_(color_by=by))
        plot = dark.controller.plot
        faint = [s for s in plot.series if contrast_ratio(s.color, DARK.background) < 2]
        if faint:
            break
    assert faint, [s.color for s in plot.series]  # the domain's choice, unchanged
    shown = drawn_colours(dark.window.canvas)
    for s in faint:
        drawn = DARK.series(s.color)
        assert contrast_ratio(drawn, DARK.background) >= MIN_CONTRAST
        assert drawn.lower() in shown


@pytest.mark.scale
def test_exports_keep_their_own_background_in_the_dark_theme(dark, tmp_path):
    dlg = dark.controller.export_dialog()
    out = dlg.save_to(tmp_path / "c.png")
    dlg.deleteLater()
    img = QImage(str(out)).convertToFormat(QImage.Format.Format_RGB32)
    arr = np.frombuffer(img.constBits(), np.uint8).reshape(img.height(), -1, 4)
    corners = [arr[2, 2], arr[2, -3], arr[-3, 2], arr[-3, -3]]
    assert all(tuple(c[:3]) == (255, 255, 255) for c in corners)


def test_follow_system_follows_the_desktop_turning_dark_and_back(session, qtbot):
    """In "Follow system", the desktop switching to dark while the app runs
    turns the window and the chart dark (this platform's own palette stays
    light, so the app's dark palette is used), and back; a chosen Light stays."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication

    from ipubench_gui.ui import appearance

    w = session.window
    hints = QGuiApplication.styleHints()
    w.theme_actions["system"].trigger()
    qtbot.waitUntil(lambda: w.canvas.theme != DARK)
    try:
        hints.colorSchemeChanged.emit(Qt.ColorScheme.Dark)  # as the desktop does
        qtbot.waitUntil(lambda: w.canvas.theme == DARK)
        assert w.palette().color(QPalette.ColorRole.Window).lightness() < 80
        assert appearance.saved_mode() == "system"  # still following
        assert w.theme_actions["system"].isChecked()
        hints.colorSchemeChanged.emit(Qt.ColorScheme.Light)
        qtbot.waitUntil(lambda: w.canvas.theme != DARK)
        assert w.palette().color(QPalette.ColorRole.Window).lightness() > 128
        w.theme_actions["light"].trigger()
        hints.colorSchemeChanged.emit(Qt.ColorScheme.Dark)
        QApplication.processEvents()
        assert w.canvas.theme != DARK  # Light was chosen: the desktop is ignored
        assert w.palette().color(QPalette.ColorRole.Window).lightness() > 128
    finally:
        appearance.apply("system", save=False)
        QApplication.processEvents()


@pytest.mark.parametrize("mode", ["light", "dark"])
def test_chart_notes_and_hints_read_in_both_themes(session, qtbot, mode):
    """The chart's notes (why rows are not plotted) and the "No filters" hint
    are muted but >= 4.5:1 on the window (they were disabled labels: 1.6:1 on
    the light theme)."""
    from ipubench_gui.ui import appearance

    w = session.window
    w.theme_actions[mode].trigger()
    dark = mode == "dark"
    qtbot.waitUntil(lambda: (w.canvas.theme == DARK) == dark)
    try:
        for label in (w.canvas.caption, w.chips.hint):
            pal = label.palette()
            text = pal.color(label.foregroundRole()).name()
            ground = QApplication.palette().color(QPalette.ColorRole.Window).name()
            assert contrast_ratio(text, ground) >= 4.5, (label.text(), text, ground)
            assert label.isEnabled()
            # muted: not the body text's colour
            assert (
                text
                != QApplication.palette().color(QPalette.ColorRole.WindowText).name()
            )
        assert w.canvas.caption.text()  # the default chart has notes
    finally:
        appearance.apply("system", save=False)
        QApplication.processEvents()


def _luminance(c: QColor) -> float:
    """WCAG 2 relative luminance, worked out here (not the app's function)."""

    def lin(v: int) -> float:
        v = v / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * lin(c.red()) + 0.7152 * lin(c.green()) + 0.0722 * lin(c.blue())


def _ratio(a: QColor, b: QColor) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_dark_palette_text_reads_on_every_ground():
    """Every text colour of the dark palette, enabled or greyed out (the
    disabled "Clear" and "log" were 3.5:1), 4.5:1 on every ground it is drawn
    on; selected text on the selection; links on the page."""
    from ipubench_gui.ui.appearance import dark_palette

    pal = dark_palette()
    R, G = QPalette.ColorRole, QPalette.ColorGroup
    texts = (R.WindowText, R.Text, R.ButtonText, R.PlaceholderText)
    grounds = (R.Window, R.Base, R.AlternateBase, R.Button)
    pairs = [(t, g) for t in texts for g in grounds] + [
        (R.HighlightedText, R.Highlight),
        (R.ToolTipText, R.ToolTipBase),
        (R.Link, R.Base),
        (R.LinkVisited, R.Base),
        (R.Link, R.Window),
    ]
    low = [
        (group.name, t.name, g.name, round(r, 2))
        for group in (G.Active, G.Inactive, G.Disabled)
        for t, g in pairs
        if (r := _ratio(pal.color(group, t), pal.color(group, g))) < 4.5
    ]
    assert low == []


def _edges(img: QImage, rect, ground: QColor) -> list[float]:
    """For each side of ``rect`` (in the widget's logical pixels), at its
    middle, the most contrast any of its 3 outermost pixels has against
    ``ground``; read from ``img`` at its device pixel ratio (2 in the
    high-DPI pass), so 3 logical pixels are 3 x ratio image pixels."""
    dpr = round(img.devicePixelRatio())
    left, top = rect.left() * dpr, rect.top() * dpr
    right, bottom = (rect.right() + 1) * dpr - 1, (rect.bottom() + 1) * dpr - 1
    cx, cy = rect.center().x() * dpr, rect.center().y() * dpr
    depth = range(3 * dpr)
    sides = (
        [(left + k, cy) for k in depth],
        [(right - k, cy) for k in depth],
        [(cx, top + k) for k in depth],
        [(cx, bottom - k) for k in depth],
    )
    return [max(_ratio(img.pixelColor(x, y), ground) for x, y in s) for s in sides]


@pytest.mark.scale
def test_dark_theme_controls_show_their_edges(dark):
    """WCAG 1.4.11: every text box, button, combo box and check box of the
    window shows its edge at 3:1 or more against what is around it, measured
    on the window as painted (Fusion's edges were the window colour made
    darker: 1.2:1)."""
    from PySide6.QtCore import QPoint, QRect
    from PySide6.QtWidgets import (
        QCheckBox,
        QComboBox,
        QLineEdit,
        QPushButton,
        QStyle,
        QStyleOptionButton,
        QToolButton,
    )

    w = dark.window
    dark.state.set_chart(dark.state.chart.with_(kind="scaling"))  # "Log axes" shown
    img = w.grab().toImage()
    kinds = (QLineEdit, QPushButton, QComboBox, QToolButton, QCheckBox)
    seen, low = set(), []
    for c in w.findChildren(QWidget):
        if not isinstance(c, kinds) or not c.isVisible() or c.width() < 8:
            continue
        if c.visibleRegion().boundingRect() != c.rect():
            continue  # partly scrolled out of view
        if isinstance(c, QPushButton) and c.isFlat():
            continue  # a text-only button: no edge to see
        if isinstance(c, QToolButton) and c.autoRaise():
            continue
        if isinstance(c, QLineEdit) and not c.hasFrame():
            continue
        rect = QRect(c.mapTo(w, QPoint(0, 0)), c.size())
        if isinstance(c, QCheckBox):
            opt = QStyleOptionButton()
            opt.initFrom(c)
            box = c.style().subElementRect(
                QStyle.SubElement.SE_CheckBoxIndicator, opt, c
            )
            rect = box.translated(rect.topLeft())
        parent = c.parentWidget()
        ground = parent.palette().color(parent.backgroundRole())
        seen.add(type(c).__name__)
        ratios = _edges(img, rect, ground)
        if min(ratios) < 3:
            low.append(
                (
                    type(c).__name__,
                    c.objectName() or c.accessibleName(),
                    [round(r, 2) for r in ratios],
                )
            )
    assert {"QLineEdit", "QPushButton", "QComboBox", "QCheckBox"} <= seen
    assert low == []
