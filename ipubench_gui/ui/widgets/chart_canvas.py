"""ChartCanvas: draws a Plot, linked both ways to the selection."""

from __future__ import annotations

from collections.abc import Generator

import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QEvent, QPoint, QPointF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QCursor, QPalette
from PySide6.QtWidgets import (
    QFrame,
    QGraphicsItem,
    QGraphicsTextItem,
    QHBoxLayout,
    QLabel,
    QMenu,
    QScrollArea,
    QScrollBar,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from ipubench_gui.charts.axes import prepare_paint
from ipubench_gui.charts.builders import (
    Drawn,
    Hit,
    NumberAxis,
    draw_steps,
    from_view,
    highlight_items,
)
from ipubench_gui.charts.labels import PointLabels
from ipubench_gui.charts.legend import entry_color, every_entry, folded
from ipubench_gui.charts.legend_layout import (
    PlotLegend,
    bar_names_px,
    panel_legend_rows,
    settle,
)
from ipubench_gui.charts.panels import Y_TITLE_EM, Panel, panel_steps, rows_of
from ipubench_gui.charts.theme import DARK, LIGHT, Theme
from ipubench_gui.domain.plots import Plot
from ipubench_gui.domain.text import elide_parts, part_sets
from ipubench_gui.ui.one_paint import ViewsApplied, send_scene_calls
from ipubench_gui.ui.widgets.line_list import line_menu
from ipubench_gui.ui.widgets.note_label import NoteLabel
from ipubench_gui.ui.widgets.pinned_title import PinnedTitle
from ipubench_gui.ui.widgets.turns import TurnSteps

HIT_RADIUS_PX = 12
PANEL_MIN_HEIGHT_EM = 28  # a panel's least height, in chart text heights
# Panels are laid out again this long after the canvas was last resized (not
# at every step of a drag: a redraw of many panels over a large store takes
# several frames).
RELAYOUT_MS = 120
# A chart that takes longer to draw is drawn over several turns of the event
# loop, this long each (plus the step under way): many panels drawn anew over
# a large store, in one go, held the GUI thread for a long stall.
STEP_BUDGET_MS = 10.0
EMPTY_CHART = (
    "<h3>Nothing to draw for this chart kind</h3><p>The filtered results "
    "hold no figures this kind plots (for example, no inference latencies "
    "or no system sizes to scale across). Try another chart kind, or widen "
    "the filters.</p>"
)


# On screen, texts are painted from Qt's device-coordinate cache: a repaint
# that leaves them as they are (a tooltip, another window, a chart scrolled
# sideways) copies their pixels rather than drawing each glyph again; a text
# changed or moved other than sideways is drawn into its cache anew.
CACHED = QGraphicsItem.CacheMode.DeviceCoordinateCache
UNCACHED = QGraphicsItem.CacheMode.NoCache


def _rows(root: QGraphicsItem) -> Generator[QGraphicsItem, None, None]:
    """What a legend's rows paint: their names' text items and swatches."""
    for item in root.childItems():
        if isinstance(item, (QGraphicsTextItem, pg.ItemSample)):
            yield item
        yield from _rows(item)


def palette_theme(widget: QWidget) -> Theme:
    """Dark chart in a dark app, light otherwise (exports are always light)."""
    dark = widget.palette().color(QPalette.ColorRole.Window).lightness() < 128
    return DARK if dark else LIGHT


def _ready_to_paint(
    view: pg.GraphicsView, items: list[pg.PlotItem], value: object
) -> Generator[object, None, None]:
    """Steps doing, for ``items`` laid out in ``view``, the work of the paint
    that is not drawing (``prepare_paint``), three plot items a step
    (``value``: what each step yields): otherwise the paint of many panels
    was one stall after the steps that drew them. Each plot's view transform
    is applied in its own step (``prepare_paint``): applied to all panels at
    once, it dropped all their items' bounds, which the scene then worked out
    again for all in one event."""
    if not view.isVisible():  # not laid out: its paint will work them out
        return
    view.centralWidget.layout.activate()  # the cells' final sizes
    yield value  # the panels laid out, a step apart from preparing them
    for k in range(0, len(items), 3):
        for pi in items[k : k + 3]:
            prepare_paint(pi)
        yield value


class ChartCanvas(QWidget):
    """Renders a Plot; reports clicked items by id and a dragged latency budget."""

    itemClicked = Signal(str)
    budgetChanged = Signal(float)
    contextMenuRequested = Signal(QPoint)  # global position
    # The chart of the last ``render`` is drawn whole (once a render; never
    # for a render a newer one replaced before it was whole).
    rendered = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        # Not pyqtgraph's own menus: their plot options (log, FFT, dy/dx, alpha)
        # would transform data this canvas has already mapped, and their export
        # duplicates ours. The window offers the chart's actions instead
        # (contextMenuRequested); skipping those menus also saves start-up time.
        self._relayout = QTimer(self, singleShot=True, interval=RELAYOUT_MS)
        self._relayout.timeout.connect(self._relayout_panels)
        # Panels drawn in steps over turns of the event loop, the canvas not
        # repainted until they are whole.
        self.steps = TurnSteps(self, STEP_BUDGET_MS)
        self.plot = pg.PlotWidget(
            enableMenu=False,
            axisItems={"bottom": NumberAxis("bottom"), "left": NumberAxis("left")},
        )
        self.plot.setAccessibleName("Chart")
        self.plot.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.plot.customContextMenuRequested.connect(
            lambda p: self.contextMenuRequested.emit(self.plot.mapToGlobal(p))
        )
        self.item = self.plot.getPlotItem()
        # The hidden top and right axes' SI prefix off, as in exports' plots
        # (``axes.add_plot``): on, every range change of a filter change (two
        # or three) set each one's unseen label's HTML again, for nothing.
        for side in ("top", "right"):
            self.item.getAxis(side).enableAutoSIPrefix(False)
        # The plots' new ranges and sizes applied before their paint, which
        # then paints them once (``ViewsApplied``).
        self.views_applied = ViewsApplied(self, held=self.drawing)
        self.views_applied.watch(self.item.getViewBox())
        # Inside the plot in a corner no point, line or label is under, else
        # beside it (charts/legend_layout.py, as exports); it can be hidden
        # (View > Chart legend).
        self.plot_legend = PlotLegend(self.item)
        self.caption = NoteLabel()
        self.caption.setWordWrap(True)
        self.caption.setAlignment(
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop
        )
        self.empty_label = QLabel(EMPTY_CHART)
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setWordWrap(True)
        self.empty_label.hide()
        # Bar charts hold more rows than fit: a scroll bar reaches each of them
        # (the wheel over the bars scrolls too; zoom is on the value axis only,
        # so row labels are never squashed).
        self.rows_bar = QScrollBar(Qt.Orientation.Vertical)
        self.rows_bar.setAccessibleName("Scroll bars of the chart")
        self.rows_bar.hide()
        self.rows_bar.valueChanged.connect(self._on_rows_bar_valueChanged)
        self.item.getViewBox().sigYRangeChanged.connect(self._on_view_yrange_changed)
        self.plot.viewport().installEventFilter(self)
        # Small multiples (Plot.panels: more lines than one plot reads) are
        # drawn here instead, one plot item a panel, axes linked.
        self.panels_view = pg.GraphicsLayoutWidget()
        self.panels_view.setAccessibleName("Chart panels")
        # The panels of the last whole drawing (``panels``), and those the
        # grid holds now (the same, or some redrawn while a drawing runs).
        self._panels: list[Panel] = []
        self._cells: list[Panel] = []
        # Kept for the next chart while it is drawn elsewhere: the panels
        # while one plot shows, and that plot's own items while panels show
        # (redrawn in place rather than built anew).
        self._spare_panels: list[Panel] = []
        # Every panel made (for this theme), the grid's first: a chart of
        # fewer panels leaves the rest out of the grid, kept for a chart of
        # more (making a panel was most of switching to a chart of many).
        self._made_panels: list[Panel] = []
        self._plot_drawn: Drawn | None = None
        self.panels_view.scene().sigMouseClicked.connect(self._on_scene_clicked)
        self.panels_view.scene().sigMouseMoved.connect(self._on_scene_moved)
        self.panels_view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.panels_view.customContextMenuRequested.connect(
            lambda p: self.contextMenuRequested.emit(self.panels_view.mapToGlobal(p))
        )
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(0)
        row.addWidget(self.plot, 1)
        # panels keep a readable height; more than fit scroll
        self.panels_scroll = QScrollArea()
        self.panels_scroll.setWidgetResizable(True)
        self.panels_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.panels_scroll.setWidget(self.panels_view)
        self.panels_scroll.hide()
        # their y title in sight while they scroll
        self.y_title = PinnedTitle(self.panels_scroll)
        row.addWidget(self.panels_scroll, 1)
        row.addWidget(self.rows_bar)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addLayout(row, 1)
        lay.addWidget(self.empty_label, 1)
        lay.addWidget(self.caption)
        self.theme = LIGHT
        self.current: Plot | None = None
        self._drawn = Drawn()
        self._measures: dict[object, object] = {}
        self._measured_font = ""
        self._selection: set[str] = set()
        self._highlights: list = []
        self.plot.scene().sigMouseClicked.connect(self._on_scene_clicked)
        self.plot.scene().sigMouseMoved.connect(self._on_scene_moved)
        self.apply_theme()

    # -- drawing -----------------------------------------------------------------
    def apply_theme(self) -> None:
        self.theme = palette_theme(self)
        self.plot.setBackground(self.theme.background)
        self.panels_view.setBackground(self.theme.background)
        self.steps.cancel()
        # drawn again in the new colours
        self._panels = self._cells = self._spare_panels = self._made_panels = []
        for name in ("bottom", "left"):
            axis = self.item.getAxis(name)
            axis.opaque_on = QColor(self.theme.background)
            axis.picture = None
        if self.current is not None:
            self.render(self.current, tuple(self._selection))

    def changeEvent(self, e) -> None:
        if e.type() == e.Type.PaletteChange:
            self.apply_theme()
        super().changeEvent(e)

    def render(
        self, plot: Plot, selection: tuple[str, ...] = (), afresh: bool = False
    ) -> None:
        """Draw ``plot``, reusing what the last drawing made; ``afresh``:
        panels laid out again for a new width (see ``panel_steps``).

        A chart that takes longer than ``STEP_BUDGET_MS`` is drawn over
        several turns of the event loop, then made ready to paint; the canvas
        is not repainted until it is whole (the last chart stays on screen
        meanwhile); a newer render drops what remains. ``rendered`` says when
        the chart is whole; ``panels``, ``drawn``, ``item_ids`` and ``hit_at``
        draw what remains first."""
        self.steps.cancel()
        self.current = plot
        self._selection = set(selection)
        # The caption first: its lines decide the room left for bars.
        self.caption.setText("; ".join(plot.notes))
        self.caption.setVisible(bool(plot.notes))
        # Room for two lines whether it takes one or two: a filter whose notes
        # took a line less resized the plot, so the whole chart was laid out
        # and repainted again.
        self.caption.setMinimumHeight(2 * self.caption.fontMetrics().lineSpacing())
        if self.layout() is not None:
            self.layout().activate()
        for pi, it in self._highlights:
            pi.removeItem(it)
        self._highlights = []
        font_px = self._font_px()
        if plot.panels:
            self.steps.start(
                self._panel_steps(plot, font_px, afresh),
                self._on_steps_step,
                lambda: self._whole(self.panels_view),
            )
            return
        self.steps.start(
            self._plot_steps(plot, font_px),
            lambda _value: None,
            lambda: self._whole(self.plot),
            hold=False,
        )

    def _plot_steps(self, plot: Plot, font_px: float) -> Generator[None, None, None]:
        """``plot`` in the one plot: drawn (``draw_steps``), then made ready
        to paint. Shown from the first step; in place of panels, once drawn
        (the panels hidden in the first step left the window's background
        in their place until the last, Xvfb, 1M rows)."""
        from_panels = not self.panels_scroll.isHidden()
        if not from_panels:
            self._show_plot(plot)
        self._spare_panels = self._cells or self._spare_panels
        self._panels = self._cells = []
        for drawn in draw_steps(
            self.item,
            plot,
            self.theme,
            font_px=font_px,
            previous=self._plot_drawn,
        ):
            self._drawn = self._plot_drawn = drawn  # what the plot holds
            yield
        self._budget_movable(self._drawn)
        if not plot.horizontal_bars:
            self.item.getAxis("left").setWidth(None)  # back to automatic
        vb = self.item.getViewBox()
        vb.setMouseEnabled(x=True, y=not plot.horizontal_bars)
        if plot.horizontal_bars:
            self._layout_categories()
            self._show_rows(0)
        else:
            vb.setLimits(minYRange=None, maxYRange=None)
            self.rows_bar.hide()
        if from_panels:
            self._show_plot(plot)
        if self.layout() is not None:
            self.layout().activate()  # the plot's size now, not in its paint
        self._place_legend()
        # A bar chart's row names are its left axis (no grid there: the
        # cache holds their pixels only); section headers are texts too.
        left = self.item.getAxis("left")
        left.setCacheMode(CACHED if plot.horizontal_bars else UNCACHED)
        for extra in self._drawn.extras:
            if isinstance(extra, pg.TextItem):
                extra.textItem.setCacheMode(CACHED)
            elif isinstance(extra, PointLabels):
                extra.setCacheMode(CACHED)
        yield
        yield from _ready_to_paint(self.plot, [self.item], None)

    def _show_plot(self, plot: Plot) -> None:
        """The one plot shown (or that it is empty), not the panels."""
        self.panels_scroll.hide()
        self.empty_label.setVisible(plot.empty)
        self.plot.setVisible(not plot.empty)

    def _whole(self, view: pg.GraphicsView) -> None:
        """The chart is drawn: selection shown, said."""
        self.set_selection(tuple(self._selection))
        # The view's new range applied now (pyqtgraph does it at the start of
        # the paint): applied there, it marked every item in view dirty again,
        # so the value labels were painted in a second pass.
        view.scene().prepareForPaint()
        self._settle_scenes()
        self.rendered.emit()

    def _settle_scenes(self) -> None:
        """Both views' scenes' queued handling of their changed items run now,
        while the canvas's updates are held (panels, or a chart drawn over
        turns), so that the paint when they resume is the chart's only one.
        Left queued, the hidden view's scene painted the window at once (it
        dispatches the window's pending update), then the shown one's painted
        its chart again, two paints in one stall. A chart drawn
        within ``render`` is painted once by the window (``paint_update``)."""
        if self.updatesEnabled():  # drawn within ``render``: painted as any change
            return
        send_scene_calls((self.plot, self.panels_view))

    def drawing(self) -> bool:
        """Whether the chart of the last ``render`` is not yet whole."""
        return self.steps.running()

    def finish(self) -> None:
        """Draw what remains of the chart now."""
        self.steps.finish()

    def _on_steps_step(self, cells: list[Panel]) -> None:
        self._cells = cells  # what the grid holds, for the next drawing
        for p in cells:
            self.views_applied.watch(p.pi.getViewBox())

    def _panel_steps(
        self, plot: Plot, font_px: float, afresh: bool
    ) -> Generator[list[Panel], None, None]:
        """``plot`` as small multiples, in steps (``panel_steps``); ``drawn``
        then holds every panel's hits."""
        self.plot.hide()
        self.rows_bar.hide()
        self.empty_label.hide()
        # a panel's plot: its share of the view (or its least height), less
        # its title; its legend beside it (never over a point or its label),
        # as tall as the plot, in 0.45 of the panel's width
        # Measured shown and laid out: hidden (before the first panels), its
        # viewport kept a stale size, so the first panels' legends were cut
        # to another width than every later drawing of the same chart.
        rows = rows_of(len(plot.panels))
        # before measuring: a scroll bar it brings narrows the viewport
        self.panels_view.setMinimumHeight(rows * PANEL_MIN_HEIGHT_EM * font_px)
        # the y title beside the grid, not in it: in sight while it scrolls
        title_px = round(font_px * Y_TITLE_EM)
        fg, bg = self.theme.foreground, self.theme.background
        self.y_title.pin(plot.y_title, title_px, fg, bg)
        self.panels_scroll.show()
        if self.layout() is not None:
            self.layout().activate()
        # The scroll bar the new height brings (or drops) shown now: the
        # scroll area lays its widget out again in a queued call, which left
        # the view 14 px wider than the panels drawn for it until their
        # paint, so every axis worked its specs out twice (4 panels).
        viewport = self.panels_scroll.viewport()
        QCoreApplication.sendPostedEvents(viewport, QEvent.Type.LayoutRequest)
        QCoreApplication.sendPostedEvents(self.panels_scroll, QEvent.Type.MetaCall)
        cell = max(
            viewport.height() / rows,
            PANEL_MIN_HEIGHT_EM * font_px,
        )
        legend_rows = panel_legend_rows(cell, font_px)
        width = viewport.width()
        panels = yield from panel_steps(
            self.panels_view.ci,
            plot,
            self.theme,
            font_px,
            legend_beside=True,
            legend_rows=legend_rows,
            previous=self._and_made(self._cells or self._spare_panels),
            width=width,
            afresh=afresh,
            y_title=False,
        )
        for p in panels:
            p.legend.setVisible(self.plot_legend.visible)
            self._budget_movable(p.drawn)
        first = panels[0].drawn
        self._panels = self._cells = panels
        self._made_panels = self._and_made(panels)
        self._drawn = Drawn(
            hits=[h for p in panels for h in p.drawn.hits],
            series_items=[it for p in panels for it in p.drawn.series_items],
            x_mode=first.x_mode,
            y_mode=first.y_mode,
        )
        yield from _ready_to_paint(self.panels_view, [p.pi for p in panels], panels)

    def _and_made(self, panels: list[Panel]) -> list[Panel]:
        """``panels``, then every other panel made so far."""
        taken = {id(p.pi) for p in panels}
        return panels + [p for p in self._made_panels if id(p.pi) not in taken]

    @property
    def panels(self) -> list[Panel]:
        """The panels drawn (none: one plot), the chart drawn whole first."""
        self.finish()
        return self._panels

    @property
    def drawn(self) -> Drawn:
        """What was drawn, with every hit; the chart drawn whole first."""
        self.finish()
        return self._drawn

    def _budget_movable(self, drawn: Drawn) -> None:
        """The latency budget's line is dragged to set the budget."""
        if drawn.budget_line is not None:
            drawn.budget_line.setMovable(True)
            drawn.budget_line.sigPositionChangeFinished.connect(self._on_budget_dragged)

    def _font_px(self) -> float:
        """The chart's text size, in pixels."""
        return self.fontMetrics().height() * 0.8

    @property
    def legend(self) -> pg.LegendItem:
        """The one plot's legend shown (inside the plot or beside it)."""
        return self.plot_legend.item

    def _place_legend(self) -> None:
        """The one plot's legend where the layout rule puts it, the plot laid
        out (a legend moved beside it or back lays it out again)."""
        if self.current is None or self.current.panels or not self.plot.isVisible():
            return
        # the view's size now (pyqtgraph lays the plot out in a posted event:
        # work its paint would do anyway)
        self.item.layout.activate()
        was = self.plot_legend.where == "beside"
        settle(
            self.plot_legend,
            self._drawn,
            self.current,
            self.theme,
            self._font_px(),
            self.plot.width(),
        )
        if was != (self.plot_legend.where == "beside"):
            self.item.layout.activate()
        for part in _rows(self.plot_legend.item):  # rows made or refilled
            part.setCacheMode(CACHED)
            if isinstance(part, pg.ItemSample):
                # its series' look may have changed with the entries kept
                # (no refill): drawn again, not copied from its cache
                part.update()

    def reset_view(self) -> None:
        """Back to the chart's own ranges after panning or zooming."""
        if self.current is not None:
            self.render(self.current, tuple(self._selection))

    def item_ids(self) -> list[str]:
        """Ids of what is drawn: bars top to bottom, else points in series order."""
        hits = self.drawn.hits
        if self.current is not None and self.current.horizontal_bars:
            hits = sorted(hits, key=lambda h: h.y)
        return [h.result_id for h in hits]

    def rows_that_fit(self) -> int:
        """How many bars can show with readable labels at the current height."""
        row = self.fontMetrics().height() * 1.5
        height = self.plot.height() - 3 * self.fontMetrics().height()
        return max(5, int(height / row))

    def set_legend_visible(self, visible: bool) -> None:
        self.plot_legend.set_visible(visible)
        for p in self._cells:  # a drawing under way shows its own likewise
            p.legend.setVisible(visible)

    def _layout_categories(self) -> None:
        """Room for bar labels (``bar_names_px``), whole words left out in
        the middle beyond that (pyqtgraph silently drops tick text that does not
        fit)."""
        left = self.item.getAxis("left")
        cats = self._drawn.categories
        font = self.font().key()
        if font != self._measured_font or len(self._measures) > 20000:
            self._measures.clear()
            self._measured_font = font
        room = max(120, int(bar_names_px(self.width())))
        width = min(max(map(self._text_width, cats), default=40) + 14, room)
        left.setWidth(width)
        left.setStyle(tickFont=self.font())
        # a grouped chart's header rows have no label (the plot names them)
        among = part_sets(cats)  # a name keeps what tells it from the others
        key = hash(tuple(cats))
        ticks = [
            (float(i), self._elided(t, width - 14, among, key))
            for i, t in enumerate(cats)
            if t
        ]
        left.setTicks([ticks, []])

    # Bar labels repeat from one filter to the next: their measures are kept
    # (for the current font) rather than asked of Qt again on every redraw.
    def _text_width(self, text: str) -> int:
        if text not in self._measures:
            self._measures[text] = self.fontMetrics().horizontalAdvance(text)
        return self._measures[text]

    def _elided(
        self, text: str, width: int, among: list[frozenset[str]], cats: int
    ) -> str:
        if self._text_width(text) <= width:
            return text
        key = (text, width, cats)
        if key not in self._measures:
            # whole parts kept, those that tell it from the other bars
            # (``among``) first: "… · DGX-A100 · … · Offline", not
            # "BERT-Large · … · TensorRT · Offline" nine times
            self._measures[key] = elide_parts(text, width, self._text_width, among)
        return self._measures[key]

    def resizeEvent(self, e) -> None:
        super().resizeEvent(e)
        if self._cells and e.oldSize().width() != e.size().width():
            self._relayout.start()  # names wrapped and cut to the new width
        if self.current is not None and self.current.horizontal_bars:
            self._layout_categories()
            lo = self.item.getViewBox().targetRange()[1][0]
            self._show_rows(round(lo + 0.6))
        if self.current is not None and not self.drawing():
            self._place_legend()  # the plot's new size

    def _relayout_panels(self) -> None:
        if self._cells and self.current is not None and self.current.panels:
            self.render(self.current, tuple(self._selection), afresh=True)

    # -- rows of a bar chart -------------------------------------------------------
    def _show_rows(self, first: int) -> None:
        """Bars ``first``.. as many as fit; the scroll bar reaches the rest.
        The view may not be zoomed out past what fits (labels would squash)."""
        n = len(self.current.categories) if self.current is not None else 0
        fit = min(n, self.rows_that_fit())
        vb = self.item.getViewBox()
        span = max(fit, 1) + 0.2  # rows -0.6 .. fit - 0.4: a margin above and below
        vb.setLimits(minYRange=min(3.2, span), maxYRange=span)
        first = max(0, min(first, n - fit))
        self.rows_bar.blockSignals(True)
        self.rows_bar.setRange(0, max(0, n - fit))
        self.rows_bar.setPageStep(max(1, fit))
        self.rows_bar.setValue(first)
        self.rows_bar.blockSignals(False)
        self.rows_bar.setVisible(n > fit)
        self.item.setYRange(first - 0.6, first + fit - 0.4, padding=0)

    def _on_rows_bar_valueChanged(self, value: int) -> None:  # noqa: N802
        self._show_rows(value)

    def _on_view_yrange_changed(self, _vb, rng) -> None:
        if self.current is None or not self.current.horizontal_bars:
            return
        self.rows_bar.blockSignals(True)
        self.rows_bar.setValue(round(rng[0] + 0.6))
        self.rows_bar.blockSignals(False)

    def eventFilter(self, obj, e) -> bool:  # noqa: N802 (Qt API)
        """Over a bar chart the wheel scrolls its rows, as in a list (with
        Ctrl it zooms the value axis, as pyqtgraph does)."""
        if (
            e.type() == QEvent.Type.Wheel
            and self.rows_bar.isVisible()
            and not e.modifiers() & Qt.KeyboardModifier.ControlModifier
        ):
            steps = -e.angleDelta().y() / 120
            self.rows_bar.setValue(self.rows_bar.value() + round(steps * 3))
            return True
        return super().eventFilter(obj, e)

    def _views(self) -> list[tuple[pg.PlotItem, Drawn]]:
        """Each plot item shown with what was drawn in it."""
        if self._panels:
            return [(p.pi, p.drawn) for p in self._panels]
        return [(self.item, self._drawn)]

    def set_selection(self, ids: tuple[str, ...]) -> None:
        self._selection = set(ids)
        if self.drawing():
            return  # shown once the chart is whole
        for pi, it in self._highlights:
            pi.removeItem(it)
        self._highlights = [
            (pi, it)
            for pi, drawn in self._views()
            for it in highlight_items(drawn, self._selection, self.theme)
        ]
        for pi, it in self._highlights:
            pi.addItem(it)
        bars = [
            h.y
            for h in self._drawn.hits
            if h.result_id in self._selection and h.bar_end is not None
        ]
        if bars:
            # targetRange: what was last asked for; viewRange lags until layout.
            lo, hi = self.item.getViewBox().targetRange()[1]
            if not any(lo <= y <= hi for y in bars):
                span = hi - lo
                self.item.setYRange(bars[0] - span / 2, bars[0] + span / 2, padding=0)

    # -- mouse -------------------------------------------------------------------
    def hit_at(self, scene_pos: QPointF) -> Hit | None:
        self.finish()
        for pi, drawn in self._views():
            vb = pi.getViewBox()
            if vb.sceneBoundingRect().contains(scene_pos):
                return self._hit_in(vb, drawn, scene_pos)
        return None

    def hit_at_global(self, pos: QPoint) -> Hit | None:
        """The point or bar at ``pos`` (screen coordinates), if any."""
        view = self.panels_view if self._panels else self.plot
        return self.hit_at(view.mapToScene(view.viewport().mapFromGlobal(pos)))

    def _hit_in(self, vb: pg.ViewBox, drawn: Drawn, scene_pos: QPointF) -> Hit | None:
        p = vb.mapSceneToView(scene_pos)
        best, best_d = None, float(HIT_RADIUS_PX)
        for h in drawn.hits:
            if h.bar_end is not None:
                if abs(p.y() - h.y) <= 0.45:
                    return h
                continue
            q = vb.mapViewToScene(QPointF(h.x, h.y))
            d = ((q.x() - scene_pos.x()) ** 2 + (q.y() - scene_pos.y()) ** 2) ** 0.5
            if d <= best_d:
                best, best_d = h, d
        return best

    def every_line(self) -> list[tuple[str, list[tuple[QColor, str]]]]:
        """Every line the legends name (folded or not), with its colour, by
        panel (title, names); the one plot's under ""."""
        self.finish()
        legends = [(p.title, p.legend) for p in self._panels] or [
            ("", self.plot_legend.item)
        ]
        return [
            (title, [(entry_color(it), n) for it, n in every_entry(legend)])
            for title, legend in legends
        ]

    def show_every_line(self, at: QPoint | None = None) -> QMenu:
        """The menu of every line's name (``every_line``) at ``at`` (screen
        coordinates; not given, at the pointer if it is over the chart, else
        at the chart's top left: opened from the keyboard)."""
        menu = line_menu(self, self.every_line())
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        if at is None:
            at = QCursor.pos()
            if not self.rect().contains(self.mapFromGlobal(at)):
                at = self.mapToGlobal(QPoint(0, 0))
        menu.popup(at)
        return menu

    def _folded_at(self, scene_pos: QPointF) -> bool:
        """Whether ``scene_pos`` is on a legend's "+ N more" row."""
        legends = [p.legend for p in self._panels] or [self.plot_legend.item]
        for legend in legends:
            row = folded(legend)
            if row is not None and legend.isVisible():
                if row.sceneBoundingRect().contains(scene_pos):
                    return True
        return False

    def _on_scene_clicked(self, ev) -> None:
        if ev.button() != Qt.MouseButton.LeftButton:
            return
        if not self.drawing() and self._folded_at(ev.scenePos()):
            view = self.panels_view if self._panels else self.plot
            pos = view.mapToGlobal(view.mapFromScene(ev.scenePos()))
            self.show_every_line(pos)
            return
        h = self.hit_at(ev.scenePos())
        if h is not None and h.result_id:
            self.itemClicked.emit(h.result_id)

    def _on_scene_moved(self, pos: QPointF) -> None:
        # nothing to point at while a chart is drawn (not drawn at once)
        h = None if self.drawing() else self.hit_at(pos)
        if h is None or not h.tooltip:
            QToolTip.hideText()
            return
        view = self.panels_view if self._panels else self.plot
        QToolTip.showText(view.mapToGlobal(view.mapFromScene(pos)), h.tooltip, view)

    def _on_budget_dragged(self, line: pg.InfiniteLine) -> None:
        v = from_view(line.value(), self._drawn.x_mode)
        self.budgetChanged.emit(float(f"{v:.3g}"))
