"""NoteLabel: secondary text (a chart's notes, a hint) muted, yet readable.

A disabled QLabel was used for these; its colour on Fusion's light window is
#BEBEBE on #EFEFEF, 1.6:1, which a first-time user cannot read (and the chart's
note says why rows are missing). This one mixes the window's text and
background colours, at least 4.5:1 in the light and dark themes, and follows
theme changes.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QLabel

TEXT_SHARE = 0.7  # of the text colour in the mix, the rest the background's


def muted(text: QColor, ground: QColor, share: float = TEXT_SHARE) -> QColor:
    return QColor(
        *(
            round(a * share + b * (1 - share))
            for a, b in zip(text.getRgb()[:3], ground.getRgb()[:3])
        )
    )


class NoteLabel(QLabel):
    def __init__(self, text: str = "", parent=None):
        super().__init__(text, parent)
        self._restyling = False
        self._restyle()

    def changeEvent(self, e) -> None:  # noqa: N802 (Qt API)
        if not self._restyling and e.type() in (
            QEvent.Type.PaletteChange,
            QEvent.Type.ApplicationPaletteChange,
        ):
            self._restyle()
        super().changeEvent(e)

    def _restyle(self) -> None:
        app = QApplication.palette()
        role = QPalette.ColorRole
        p = self.palette()
        colour = muted(app.color(role.WindowText), app.color(role.Window))
        p.setColor(role.WindowText, colour)
        self._restyling = True
        try:
            self.setPalette(p)
        finally:
            self._restyling = False
