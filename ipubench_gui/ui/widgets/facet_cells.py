"""FacetCells: a facet list's rows painted straight from its FacetModel.

As the table's cells (``table_cells``): Qt's delegate asked the model for
seven roles of every painted row, through the list's filter proxy, and laid
the text out; a filter change repaints the visible rows of every list whose
counts changed. Here an ordinary row is one Python call: the check box drawn
by the style where Qt's delegate draws it, the text ("value  (count)", greyed
at no count) cut by whole words as ``WordElideDelegate`` cuts it and drawn
where Qt draws it. Selected and focused rows are Qt's own.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, QSortFilterProxyModel
from PySide6.QtGui import QColor, QPainter, QPalette
from PySide6.QtWidgets import QListView, QStyle, QStyleOptionViewItem

from ipubench_gui.ui.models.facet_model import FacetModel
from ipubench_gui.ui.widgets.table_cells import (
    _ACTIVE,
    _ENABLED,
    _OWN_LOOK,
    FastCells,
    _Index,
)

_State = QStyle.StateFlag
_ON, _OFF = _State.State_On.value, _State.State_Off.value
_FOCUS = _State.State_HasFocus.value
_CHECK = QStyle.PrimitiveElement.PE_IndicatorItemViewItemCheck
_LOOKS = _ENABLED | _ACTIVE


class FacetCells(FastCells):
    """Paints ``model``'s rows, shown in ``view`` through ``proxy``."""

    def __init__(
        self,
        view: QListView,
        proxy: QSortFilterProxyModel,
        model: FacetModel,
        **kw,
    ):
        super().__init__(view, **kw)
        self._proxy, self._model = proxy, model
        # cell size -> (check box rect, text rect), relative to the cell
        self._places: dict[tuple[int, int], tuple[QRect, QRect]] = {}
        # (enabled/active bits, greyed) -> the check box's option, with the
        # palette Qt's delegate gives it (a greyed row's check mark is grey)
        self._boxes: dict[tuple[int, bool], QStyleOptionViewItem] = {}
        self._grey: QColor | None = None  # text of a value no row matches
        self._row_size: QSize | None = None  # every row's (uniform) size hint

    def _forget(self) -> None:
        super()._forget()
        self._places.clear()
        self._boxes.clear()
        self._grey = None
        self._row_size = None

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index):
        state = option.state.value
        if state & _OWN_LOOK:
            super().paint(painter, option, index)
            return
        text, checked, matched = self._model.look(self._proxy.mapToSource(index).row())
        x, y, w, h = option.rect.getRect()
        places = self._places.get((w, h))
        if places is None:
            places = self._place(option, index)
        box, room = places
        # the check box, as Qt's delegate draws it
        opt = self._boxes.get((state & _LOOKS, matched))
        if opt is None:
            opt = self._box(option, index, state, matched)
        opt.rect = box.translated(x, y)
        opt.state = _State((state & ~_FOCUS) | (_ON if checked else _OFF))
        self._view.style().drawPrimitive(_CHECK, opt, painter, self._view)
        # the text: grey (its ForegroundRole) whatever the state, else the style's
        colour = self._colour(option, state) if matched else self._grey
        m = self._margin
        if m is None:
            m = self._margin = self._text_margin()
        fits = self._widths.get(text)
        if self._pad is None or fits is None or fits > w - self._pad:
            cut = self._cuts.get((text, w))
            text = cut if cut is not None else self._shown(option, index)
        x += room.x() + m
        self._draw(painter, text, x, y + room.y(), room.height(), colour, option)

    def sizeHint(self, option: QStyleOptionViewItem, index: _Index) -> QSize:  # noqa: N802
        """Rows as wide as the list and one line tall, whatever their text
        (the list asks on every relayout of the filter panel; its items are
        of uniform size anyway): Qt's answer for the first asked, kept."""
        if not self._fit_width:
            return super().sizeHint(option, index)
        if self._row_size is None:
            self._row_size = super().sizeHint(option, index)
        return QSize(self._row_size)

    def _shown(self, option: QStyleOptionViewItem, index: _Index) -> str:
        """The row's text as the word delegate cuts it (Qt's own option: once
        per text and width, then from the delegate's cache)."""
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        return opt.text

    def _place(
        self, option: QStyleOptionViewItem, index: _Index
    ) -> tuple[QRect, QRect]:
        """Where Qt's style puts the check box and the text in a cell of
        ``option``'s size (asked once per size)."""
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        style = self._view.style()
        element = QStyle.SubElement
        origin = option.rect.topLeft()
        box = style.subElementRect(
            element.SE_ItemViewItemCheckIndicator, opt, self._view
        )
        room = style.subElementRect(element.SE_ItemViewItemText, opt, self._view)
        places = (box.translated(-origin), room.translated(-origin))
        self._places[(option.rect.width(), option.rect.height())] = places
        return places

    def _box(
        self, option: QStyleOptionViewItem, index: _Index, state: int, matched: bool
    ) -> QStyleOptionViewItem:
        """The check box's option for rows in ``state``, greyed or not, as
        Qt's delegate makes it (its palette is the one the text is drawn in)."""
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        if self._grey is None:
            self._grey = self._model.grey()
        text = self._colour(option, state) if matched else self._grey
        opt.palette.setColor(QPalette.ColorRole.Text, text)
        self._boxes[(state & _LOOKS, matched)] = opt
        return opt
