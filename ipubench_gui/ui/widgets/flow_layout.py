"""FlowLayout: widgets left to right, on as many rows as the width needs.

Qt has no flow layout of its own (it is one of its documented examples); this
is that example, skipping hidden widgets. A row of controls laid out with it
asks for the width of its widest control only, so it never widens the window.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QWidget


class FlowLayout(QLayout):
    def __init__(self, parent: QWidget | None = None, spacing: int = 4) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._gap = spacing
        self.setContentsMargins(0, 0, 0, 0)

    # -- QLayout --------------------------------------------------------------
    def addItem(self, item: QLayoutItem) -> None:  # noqa: N802 (Qt API)
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:  # noqa: N802 (Qt API)
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:  # noqa: N802 (Qt API)
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:  # noqa: N802 (Qt API)
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:  # noqa: N802 (Qt API)
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 (Qt API)
        return self._place(QRect(0, 0, width, 0), move=False)

    def setGeometry(self, rect: QRect) -> None:  # noqa: N802 (Qt API)
        super().setGeometry(rect)
        self._place(rect, move=True)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt API)
        """One row of everything shown."""
        shown = [i.sizeHint() for i in self._shown()]
        width = sum(s.width() for s in shown) + self._gap * max(len(shown) - 1, 0)
        height = max((s.height() for s in shown), default=0)
        return self._with_margins(QSize(width, height))

    def minimumSize(self) -> QSize:  # noqa: N802 (Qt API)
        """The widest control shown: the rows take any width from there."""
        size = QSize()
        for item in self._shown():
            size = size.expandedTo(item.minimumSize())
        return self._with_margins(size)

    # -- inside ---------------------------------------------------------------
    def _shown(self) -> list[QLayoutItem]:
        return [i for i in self._items if not i.isEmpty()]

    def _with_margins(self, size: QSize) -> QSize:
        m = self.contentsMargins()
        return size + QSize(m.left() + m.right(), m.top() + m.bottom())

    def _place(self, rect: QRect, move: bool) -> int:
        """Lay the shown items out in ``rect`` (only measure unless ``move``);
        the height they take."""
        m = self.contentsMargins()
        area = rect.adjusted(m.left(), m.top(), -m.right(), -m.bottom())
        x, y, row_height = area.x(), area.y(), 0
        row: list[tuple[QLayoutItem, QSize]] = []

        def close_row() -> None:
            for item, size in row:  # centred on the row, as a box layout does
                pos = QPoint(item.geometry().x(), y + (row_height - size.height()) // 2)
                item.setGeometry(QRect(pos, size))

        for item in self._shown():
            size = item.sizeHint().boundedTo(item.maximumSize())
            size = size.expandedTo(item.minimumSize())
            if row and x + size.width() > area.right() + 1:
                if move:
                    close_row()
                row.clear()
                x, y, row_height = area.x(), y + row_height + self._gap, 0
            if move:
                item.setGeometry(QRect(QPoint(x, y), size))
            row.append((item, size))
            x += size.width() + self._gap
            row_height = max(row_height, size.height())
        if move:
            close_row()
        return y + row_height - rect.y() + m.bottom()
