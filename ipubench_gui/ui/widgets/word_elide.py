"""Item text shortened by whole words, with the full text in the tooltip.

Qt's views elide a cell wherever its width runs out ("Ph1 Pre-Training (SL1…"),
which hides what tells rows apart ("Packed", a framework's suffix, a facet's
count at the end). This delegate draws ``domain.text.elide_words`` instead
(whole words, from the middle, the last word kept), and when it had to shorten
a cell, the cell's tooltip starts with its full text (then the model's own
tooltip, if any). In a table, size hints stay those of the full text, so
"resize to contents" still fits it.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QModelIndex, QPersistentModelIndex, QSize, Qt
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QToolTip,
    QWidget,
)

from ipubench_gui.domain.text import elide_words

_Index = QModelIndex | QPersistentModelIndex
_TOOLTIP = int(Qt.ItemDataRole.ToolTipRole)


class WordElideDelegate(QStyledItemDelegate):
    """Paints the display text elided at word boundaries (``where``: "middle",
    "head" or "right", as ``elide_words``).

    ``fit_width``: for a list, rows as wide as the view. A QListView otherwise
    makes every row as wide as its longest text and scrolls sideways, so a long
    value was cut at the view's edge, inside a word and with no ellipsis.
    ``tip_names_it``: the model's tooltip already holds the whole text (the
    facet lists'), so it is shown as it is.
    """

    def __init__(
        self,
        parent: QWidget | None = None,
        where: str = "middle",
        fit_width: bool = False,
        tip_names_it: bool = False,
    ):
        super().__init__(parent)
        self._where = where
        self._fit_width = fit_width
        self._tip_names_it = tip_names_it
        self._pad: int | None = None  # cell width minus text width, once known
        self._widths: dict[str, int] = {}  # text -> width in the view's font
        self._cuts: dict[tuple[str, int], str] = {}  # (text, cell width) -> shown
        self._sizing = False  # in sizeHint: the full text
        if parent is not None:  # both are per font
            parent.installEventFilter(self)

    def set_where(self, where: str) -> None:
        """Shorten from ``where`` from now on (as ``elide_words``)."""
        if where != self._where:
            self._where = where
            self._cuts.clear()

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 (Qt API)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._pad = None
            self._widths.clear()
            self._cuts.clear()
        return False

    def initStyleOption(  # noqa: N802 (Qt API)
        self, option: QStyleOptionViewItem, index: _Index
    ) -> None:
        """Qt's option for ``index``, its text shortened to the cell (when
        painting: size hints measure the full text)."""
        super().initStyleOption(option, index)
        if self._sizing or not option.text:
            return
        option.text = self.cut(option)

    def cut(self, option: QStyleOptionViewItem) -> str:
        """``option``'s text as drawn in its rect: whole, or shortened."""
        text = option.text
        # This runs for every visible cell: most fit, known from one lookup.
        w = self._widths.get(text)
        if w is None:  # measuring is the slow part: once per text
            w = self._widths[text] = option.fontMetrics.horizontalAdvance(text)
        cell = option.rect.width()
        if self._pad is not None and w <= cell - self._pad:
            return text
        key = (text, cell)
        cut = self._cuts.get(key)
        if cut is None:  # a column's cut texts, kept while it keeps its width
            if len(self._cuts) > 4096:
                self._cuts.clear()
            cut = self._cuts[key] = self._elided(option)
        return cut

    def sizeHint(self, option: QStyleOptionViewItem, index: _Index) -> QSize:  # noqa: N802
        self._sizing = True
        try:
            size = super().sizeHint(option, index)
        finally:
            self._sizing = False
        return QSize(1, size.height()) if self._fit_width else size

    def _elided(self, option: QStyleOptionViewItem) -> str:
        """``option``'s text as it fits its text rectangle."""
        widget = option.widget
        style = widget.style() if widget is not None else QApplication.style()
        rect = style.subElementRect(
            QStyle.SubElement.SE_ItemViewItemText, option, widget
        )
        # QCommonStyle draws the text inside a margin of focus-frame width + 1
        margin = style.pixelMetric(
            QStyle.PixelMetric.PM_FocusFrameHMargin, None, widget
        )
        width = rect.width() - 2 * (margin + 1)
        # What a cell's width leaves for text is the same for every cell of a
        # view (check box, margins): kept for the quick "it fits" test.
        self._pad = option.rect.width() - width
        return elide_words(
            option.text, width, option.fontMetrics.horizontalAdvance, self._where
        )

    def shown_text(self, option: QStyleOptionViewItem, index: _Index) -> str:
        """The text this delegate draws for ``index`` in ``option``'s rect."""
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        return opt.text

    def _full_text(self, option: QStyleOptionViewItem, index: _Index) -> str:
        opt = QStyleOptionViewItem(option)
        self._sizing = True
        try:
            self.initStyleOption(opt, index)
        finally:
            self._sizing = False
        return opt.text

    def helpEvent(  # noqa: N802 (Qt API)
        self,
        event: QHelpEvent,
        view: QAbstractItemView,
        option: QStyleOptionViewItem,
        index: _Index,
    ) -> bool:
        if event.type() != QEvent.Type.ToolTip or not index.isValid():
            return super().helpEvent(event, view, option, index)
        tip = self.tooltip(option, index)
        if not tip:
            QToolTip.hideText()
            return False
        QToolTip.showText(event.globalPos(), tip, view, option.rect)
        return True

    def tooltip(self, option: QStyleOptionViewItem, index: _Index) -> str:
        """The model's tooltip, with the full text first when it is shortened."""
        own = index.data(_TOOLTIP)
        own = str(own) if own else ""
        if self._tip_names_it:
            return own
        full = self._full_text(option, index)
        if full and self.shown_text(option, index) != full:
            return f"{full}\n{own}" if own else full
        return own
