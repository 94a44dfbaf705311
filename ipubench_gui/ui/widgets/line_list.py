"""Every line of the chart by name, one click away: a menu of the legends'
entries, each with its colour, in sections by panel (a window's legend
lists what its height holds and folds the rest into "+ N more")."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtGui import QColor, QIcon, QPixmap
from PySide6.QtWidgets import QMenu, QWidget

# (panel title or "", [(colour, name), ...]) a section
Sections = Sequence[tuple[str, Sequence[tuple[QColor, str]]]]


def swatch(color: QColor, px: int) -> QIcon:
    """A square of ``color``: the line's swatch beside its name."""
    pm = QPixmap(px, px)
    pm.fill(color)
    return QIcon(pm)


def line_menu(parent: QWidget, sections: Sections) -> QMenu:
    """A menu naming every line of ``sections``, a section a panel (titled
    when there are several); the names are not actions (disabled rows
    would be greyed: they are read, so each is an action doing nothing)."""
    menu = QMenu(parent)
    menu.setAccessibleName("Every line of the chart")
    menu.setToolTipsVisible(True)
    px = parent.fontMetrics().height()
    titled = sum(1 for _t, names in sections if names) > 1
    for title, names in sections:
        if not names:
            continue
        if titled and title:
            menu.addSection(title)
        for color, name in names:
            action = menu.addAction(swatch(color, px), name.replace("&", "&&"))
            action.setToolTip(name)
    if menu.isEmpty():
        menu.addAction("No line of this chart has a name of its own").setEnabled(False)
    return menu
