"""The app's colours: follow the system, or light, or dark (View > Theme)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette, QPen
from PySide6.QtWidgets import QApplication, QProxyStyle, QStyle

from ipubench_gui.ui import settings_store as ss

MODES = {"system": "Follow system", "light": "Light", "dark": "Dark"}

# A dark palette in the spirit of Fusion's own (Qt picks one only when the
# platform reports a dark scheme, which a plain X session or a theme switch
# inside the app cannot do). Text on these backgrounds is at least 7:1,
# placeholder and disabled text at least 4.5:1 (WCAG 1.4.3: a greyed "Clear"
# must still read), and control edges (PlaceholderText, see DarkStyle) at
# least 3:1 against every background they sit on (WCAG 1.4.11).
DARK_COLORS = {
    "Window": "#2B2B2B",
    "WindowText": "#E6E6E6",
    "Base": "#1E1E1E",
    "AlternateBase": "#262626",
    "ToolTipBase": "#3A3A3A",
    "ToolTipText": "#E6E6E6",
    "PlaceholderText": "#A0A0A0",
    "Text": "#E6E6E6",
    "Button": "#353535",
    "ButtonText": "#E6E6E6",
    "BrightText": "#FF6B6B",
    "Light": "#474747",
    "Midlight": "#3C3C3C",
    "Mid": "#2F2F2F",
    "Dark": "#1A1A1A",
    "Shadow": "#0D0D0D",
    "Highlight": "#2F6BC4",
    "HighlightedText": "#FFFFFF",
    "Link": "#7FB4FF",
    "LinkVisited": "#C3A0FF",
}
DARK_DISABLED = {"WindowText": "#A0A0A0", "Text": "#A0A0A0", "ButtonText": "#A0A0A0"}


def dark_palette() -> QPalette:
    p = QPalette()
    for role, color in DARK_COLORS.items():
        p.setColor(getattr(QPalette.ColorRole, role), QColor(color))
    for role, color in DARK_DISABLED.items():
        p.setColor(
            QPalette.ColorGroup.Disabled,
            getattr(QPalette.ColorRole, role),
            QColor(color),
        )
    return p


class DarkStyle(QProxyStyle):
    """Fusion, with a visible edge on check boxes, radio buttons, text boxes,
    buttons and combo boxes: Fusion outlines them in the window colour made
    darker, which on a dark palette is about the colour behind them (1.2:1:
    unticked facet values showed no box, the range boxes no edge). Installed
    only while the dark theme is on."""

    EDGED = (
        QStyle.PrimitiveElement.PE_IndicatorCheckBox,
        QStyle.PrimitiveElement.PE_IndicatorRadioButton,
        QStyle.PrimitiveElement.PE_FrameLineEdit,
        # push buttons, and combo boxes, which Fusion draws as one
        QStyle.PrimitiveElement.PE_PanelButtonCommand,
    )

    def drawPrimitive(self, element, option, painter, widget=None) -> None:  # noqa: N802 (Qt API)
        super().drawPrimitive(element, option, painter, widget)
        if element in self.EDGED:
            painter.save()
            painter.setPen(
                QPen(option.palette.color(QPalette.ColorRole.PlaceholderText))
            )
            painter.setBrush(QColor(0, 0, 0, 0))
            r = option.rect.adjusted(0, 0, -1, -1)
            if element == QStyle.PrimitiveElement.PE_IndicatorRadioButton:
                painter.drawEllipse(r)
            else:
                painter.drawRect(r)
            painter.restore()


def light_palette() -> QPalette:
    return QApplication.style().standardPalette()


def saved_mode() -> str:
    mode = ss.load_text(ss.THEME, "system")
    return mode if mode in MODES else "system"


def current_mode() -> str:
    app = QGuiApplication.instance()
    mode = app.property("ipubench_theme") if app is not None else None
    return mode if mode in MODES else "system"


def apply(mode: str, save: bool = True) -> None:
    """Set the app's palette for ``mode``; every widget (the chart too) follows
    through its PaletteChange. ``save``: remember it for the next start."""
    if mode not in MODES:
        mode = "system"
    app = QApplication.instance()
    _follow_the_desktop()
    app.setProperty("ipubench_theme", mode)
    _set_palette(app, mode, QGuiApplication.styleHints().colorScheme())
    if save:
        ss.save_text(ss.THEME, mode)


def _set_palette(app: QApplication, mode: str, scheme: Qt.ColorScheme) -> None:
    if mode == "system":
        # An empty palette resets to the platform's, and keeps following it.
        app.setPalette(QPalette())
        # A desktop that says it is dark while the style's palette stays light
        # (Fusion under a plain X session or some Linux desktops): ours.
        light = app.palette().color(QPalette.ColorRole.Window).lightness() > 128
        dark = scheme == Qt.ColorScheme.Dark and light
    else:
        dark = mode == "dark"
    _use_style(app, dark=dark)
    if dark:
        app.setPalette(dark_palette())
    elif mode == "light":
        app.setPalette(light_palette())


def _follow_the_desktop() -> None:
    """ "Follow system" follows the desktop switching light/dark while the app
    runs (Qt reports it; connected once)."""
    hints = QGuiApplication.styleHints()
    if hints.property("ipubench_follows") is None:
        hints.colorSchemeChanged.connect(_on_scheme_changed)
        hints.setProperty("ipubench_follows", True)


def _on_scheme_changed(scheme: Qt.ColorScheme) -> None:
    app = QApplication.instance()
    if app is not None and current_mode() == "system":
        _set_palette(app, "system", scheme)


def _use_style(app: QApplication, dark: bool) -> None:
    if dark == isinstance(app.style(), DarkStyle):
        return
    if dark:
        app.setStyle(DarkStyle(app.style().name()))
    else:
        app.setStyle(app.style().baseStyle().name())  # type: ignore[attr-defined]
