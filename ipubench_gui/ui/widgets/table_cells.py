"""TableCells: the results table's cells painted straight from the model's
display strings.

Qt's delegate asks the model for seven roles of every painted cell (font,
alignment, colours, check state, icon, text, background), each a call into
Python ``data()``, then lays the text out with a QTextLayout. A filter change
repaints every visible cell, so that was most of the table's repaint, several
times a bare QTableView's over a QStandardItemModel. Here an ordinary cell is
one Python call that reads the model's strings and draws the text where Qt's
delegate would draw it, cut by whole words as ``WordElideDelegate`` cuts it
(numbers at their right, as Qt elides them). Selected and focused cells, few at
a time, are still painted by Qt's own delegate, so selection and the focus frame
look as before; tooltips and size hints are the word delegate's.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QModelIndex, QPersistentModelIndex, QPointF, Qt
from PySide6.QtGui import QColor, QPainter, QPalette, QStaticText, QTransform
from PySide6.QtWidgets import (
    QAbstractItemView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
)

from ipubench_gui.ui.models.results_model import ResultsModel
from ipubench_gui.ui.widgets.word_elide import WordElideDelegate

_Index = QModelIndex | QPersistentModelIndex

_State = QStyle.StateFlag
# As plain ints: paint() runs for every visible cell, and enum arithmetic is
# Python-level.
_ENABLED = _State.State_Enabled.value
_ACTIVE = _State.State_Active.value
_OWN_LOOK = (_State.State_Selected | _State.State_HasFocus).value


class FastCells(WordElideDelegate):
    """What painting an item's text without Qt's delegate needs, per view:
    its text colours, Qt's text margin and each text shaped once."""

    def __init__(self, view: QAbstractItemView, **kw):
        super().__init__(view, **kw)
        self._view = view
        self._colours: dict[int, QColor] = {}  # enabled/active bits -> text colour
        self._margin: int | None = None  # text inset from each side of a cell
        self._glyphs: dict[str, QStaticText] = {}  # text shown -> laid out
        self._line = 0  # the font's line height

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 (Qt API)
        if event.type() in (
            QEvent.Type.FontChange,
            QEvent.Type.StyleChange,
            QEvent.Type.PaletteChange,
        ):
            self._forget()
        return super().eventFilter(watched, event)

    def _forget(self) -> None:
        self._colours.clear()
        self._margin = None
        self._glyphs.clear()

    def _draw(
        self,
        painter: QPainter,
        text: str,
        x: float,
        y: int,
        height: int,
        colour: QColor,
        option: QStyleOptionViewItem,
    ) -> None:
        """``text`` from ``x``, centred in the ``height`` from ``y``, as Qt's
        text layout places it."""
        glyphs = self._glyphs.get(text)
        if glyphs is None:
            glyphs = self._glyphs[text] = self._laid_out(text, option)
        painter.setPen(colour)
        painter.drawStaticText(QPointF(x, y + (height - self._line) // 2), glyphs)

    def _laid_out(self, text: str, option: QStyleOptionViewItem) -> QStaticText:
        """``text`` shaped once in the view's font (drawing it is then a copy
        of glyphs, not a text layout per cell)."""
        if len(self._glyphs) > 20000:
            self._glyphs.clear()
        self._line = option.fontMetrics.height()
        st = QStaticText(text)
        st.setTextFormat(Qt.TextFormat.PlainText)
        st.prepare(QTransform(), option.font)
        return st

    def _colour(self, option: QStyleOptionViewItem, state: int) -> QColor:
        """The text colour Qt's style picks for an item in ``state``."""
        colour = self._colours.get(state & (_ENABLED | _ACTIVE))
        if colour is not None:
            return colour
        group = QPalette.ColorGroup
        cg = group.Normal if state & _ENABLED else group.Disabled
        if cg == group.Normal and not state & _ACTIVE:
            cg = group.Inactive
        colour = option.palette.color(cg, QPalette.ColorRole.Text)
        self._colours[state & (_ENABLED | _ACTIVE)] = colour
        return colour

    def _text_margin(self) -> int:
        """Qt's inset of an item's text: the focus frame's margin + 1."""
        style = self._view.style()
        return (
            style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, self._view)
            + 1
        )


class TableCells(FastCells):
    """Paints ``model``'s cells in ``view`` (see the module's docstring)."""

    def __init__(self, view: QTableView, model: ResultsModel):
        super().__init__(view)
        self._model = model
        self._numeric = [f.numeric for f in model.fields]
        self._numbers: dict[tuple[str, int], str] = {}  # (text, width) -> shown

    def _forget(self) -> None:
        super()._forget()
        self._numbers.clear()

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index):
        state = option.state.value
        if state & _OWN_LOOK:
            super().paint(painter, option, index)
            return
        c = index.column()
        text = self._model.display(index.row(), c)
        if not text:
            return
        colour = self._colour(option, state)
        x, y, cell, height = option.rect.getRect()
        m = self._margin
        if m is None:
            m = self._margin = self._text_margin()
        width = cell - 2 * m
        numeric = self._numeric[c]
        w = self._widths.get(text)
        if w is None or w > width:
            text = self._fitted(text, width, numeric, option)
        x += m
        if numeric:  # where Qt's text layout puts it: fractional pixels
            glyphs = self._glyphs.get(text)
            if glyphs is None:
                glyphs = self._glyphs[text] = self._laid_out(text, option)
            x += width - glyphs.size().width()
        self._draw(painter, text, x, y, height, colour, option)

    def _fitted(self, text: str, width: int, numeric: bool, option) -> str:
        """``text`` as it fits ``width``: whole words (the word delegate's
        cut), a number cut at its right as Qt cuts it."""
        w = self._widths.get(text)
        if w is None:
            w = self._widths[text] = option.fontMetrics.horizontalAdvance(text)
        if w <= width:
            return text
        if numeric:
            return self._number(text, width, option.fontMetrics)
        cut = self._cuts.get((text, option.rect.width()))
        if cut is None:
            opt = QStyleOptionViewItem(option)
            opt.text = text
            cut = self.cut(opt)
        return cut

    def _number(self, text: str, width: int, fm) -> str:
        key = (text, width)
        cut = self._numbers.get(key)
        if cut is None:
            cut = self._numbers[key] = fm.elidedText(
                text, Qt.TextElideMode.ElideRight, width
            )
        return cut

    def initStyleOption(  # noqa: N802 (Qt API)
        self, option: QStyleOptionViewItem, index: _Index
    ) -> None:
        """As painted (tooltips and Qt's painting of selected cells ask)."""
        if not self._model.fields[index.column()].numeric:
            super().initStyleOption(option, index)
            return
        QStyledItemDelegate.initStyleOption(self, option, index)
        if self._sizing or not option.text:
            return
        if self._margin is None:
            self._margin = self._text_margin()
        width = option.rect.width() - 2 * self._margin
        option.text = self._fitted(option.text, width, True, option)
