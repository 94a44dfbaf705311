"""MainWindow: docks, central table and chart, menus and shortcuts. No logic."""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QEvent, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMenu,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from ipubench_gui.domain.filters import FilterState
from ipubench_gui.ui import appearance
from ipubench_gui.ui import settings_store as ss
from ipubench_gui.ui.keyboard import AppShortcuts, FocusRing, PanelFocus
from ipubench_gui.ui.models.results_model import ResultsModel
from ipubench_gui.ui.one_paint import paint_now
from ipubench_gui.ui.state import AppState
from ipubench_gui.ui.undo_actions import add_undo_actions
from ipubench_gui.ui.widgets.chart_canvas import ChartCanvas
from ipubench_gui.ui.widgets.chart_options import ChartOptions
from ipubench_gui.ui.widgets.chips import ChipBar
from ipubench_gui.ui.widgets.claims_view import ClaimsView
from ipubench_gui.ui.widgets.comparator import Comparator
from ipubench_gui.ui.widgets.detail_pane import DetailPane
from ipubench_gui.ui.widgets.empty_state import EmptyState
from ipubench_gui.ui.widgets.facet_panel import FacetPanel
from ipubench_gui.ui.widgets.mlperf_table_view import MLPerfTableView
from ipubench_gui.ui.widgets.results_view import ResultsView

SEARCH_DEBOUNCE_MS = 250


LOADING = "Loading results…"
CHART_MIN_HEIGHT = 300  # px, the chart's plot: room to read it on a small screen


class MainWindow(QMainWindow):
    def __init__(self, state: AppState, parent=None):
        super().__init__(parent)
        self.state = state
        self.setWindowTitle("IPU Benchmark Explorer")
        self.setObjectName("MainWindow")
        self.model = ResultsModel(parent=self)

        # centre: search + chips, chart over table (or the empty state)
        self.search = QLineEdit(
            placeholderText="Search model, dataset, system, accelerator, submitter"
            "  (Ctrl+F)",
            clearButtonEnabled=True,
        )
        self.search.setAccessibleName("Search")
        self._debounce = QTimer(self, singleShot=True, interval=SEARCH_DEBOUNCE_MS)
        self._debounce.timeout.connect(
            lambda: state.set_filters(state.filters.with_text(self.search.text()))
        )
        self.search.textEdited.connect(lambda _: self._debounce.start())
        self.chips = ChipBar(state)
        self.table = ResultsView(self.model, state)
        self.canvas = ChartCanvas()
        self.chart_options = ChartOptions()
        self.chart_title = QLabel()
        self.chart_title.setWordWrap(True)
        chart_box = QWidget()
        cl = QVBoxLayout(chart_box)
        cl.setContentsMargins(0, 0, 0, 0)
        cl.addWidget(self.chart_options)
        cl.addWidget(self.chart_title)
        cl.addWidget(self.canvas, 1)
        # The chart keeps room to be read whatever the docks take (on a small
        # screen the comparison squashed it to a strip): docks shrink first.
        self.canvas.setMinimumHeight(CHART_MIN_HEIGHT)
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.setObjectName("CentreSplitter")
        self.splitter.addWidget(chart_box)
        self.splitter.addWidget(self.table)
        self.splitter.setStretchFactor(0, 2)
        self.splitter.setStretchFactor(1, 3)
        self.splitter.setCollapsible(0, False)
        self.empty = EmptyState()
        self.empty.clear_button.clicked.connect(self.clear_all)
        self.chips.clear_all.clicked.connect(self.clear_all)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.splitter)
        self.stack.addWidget(self.empty)
        centre = QWidget()
        v = QVBoxLayout(centre)
        v.setContentsMargins(4, 4, 4, 0)
        v.addWidget(self.search)
        v.addWidget(self.chips)
        v.addWidget(self.stack, 1)
        self.setCentralWidget(centre)

        # docks
        self.facets = FacetPanel(state)
        self.facet_dock = self._dock(
            "Filters", "FiltersDock", self.facets, Qt.DockWidgetArea.LeftDockWidgetArea
        )
        self.details = DetailPane()
        self.detail_dock = self._dock(
            "Details",
            "DetailsDock",
            self.details,
            Qt.DockWidgetArea.RightDockWidgetArea,
        )
        self.comparator = Comparator()
        self.compare_dock = self._dock(
            "Compare",
            "CompareDock",
            self.comparator,
            Qt.DockWidgetArea.BottomDockWidgetArea,
        )
        self.compare_dock.hide()  # shown when something is first added
        self.claims = ClaimsView()
        self.claims_dock = self._dock(
            "Claims", "ClaimsDock", self.claims, Qt.DockWidgetArea.BottomDockWidgetArea
        )
        self.claims_dock.hide()  # audited when first shown (View → Claims)
        self.mlperf_table = MLPerfTableView()
        self.mlperf_dock = self._dock(
            "MLPerf table",
            "MLPerfTableDock",
            self.mlperf_table,
            Qt.DockWidgetArea.BottomDockWidgetArea,
        )
        self.mlperf_dock.hide()  # made when first shown (View → MLPerf table)
        # All want the window's width: tabs, not side by side, when all show.
        self.tabifyDockWidget(self.compare_dock, self.claims_dock)
        self.tabifyDockWidget(self.claims_dock, self.mlperf_dock)
        self.add_compare_action = QAction("Add to comparison", self)
        self.add_compare_action.setShortcut(QKeySequence("Ctrl+Shift+A"))
        self.table.addAction(self.add_compare_action)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.statusBar().showMessage(LOADING)
        self.count_label = QLabel()
        self.statusBar().addPermanentWidget(self.count_label)
        self._build_menus()
        self._keyboard()
        self._first_run_size()
        self._default_state = self.saveState()
        self._sized_docks = False

    def _first_run_size(self) -> None:
        """Most of the screen on first run (saved geometry wins afterwards)."""
        screen = self.screen().availableGeometry() if self.screen() else None
        self.resize(self.first_run_size(screen.size() if screen else None))

    def first_run_size(self, screen: QSize | None) -> QSize:
        """The window's size on first run on a screen of ``screen`` pixels
        (None: unknown): 85% of it, up to a size that needs no more."""
        em = self.fontMetrics().horizontalAdvance("M")
        if screen is None or screen.width() < 200:
            return QSize(em * 120, em * 72)
        return QSize(
            min(int(screen.width() * 0.85), em * 170),
            min(int(screen.height() * 0.85), em * 100),
        )

    def showEvent(self, e) -> None:
        super().showEvent(e)
        if not self._sized_docks and ss.load_bytes(ss.WINDOW_STATE) is None:
            # Dock sizes only take once the window has a size; first run only.
            self._size_docks()
        self._sized_docks = True

    def _size_docks(self) -> None:
        em = self.fontMetrics().horizontalAdvance("M")
        self.resizeDocks(
            [self.facet_dock, self.detail_dock],
            [em * 25, em * 20],
            Qt.Orientation.Horizontal,
        )

    def _on_claims_dock_shown(self, visible: bool) -> None:
        """Tall enough for ten claims and the chosen one's explanation, as far
        as the window allows (the chart keeps its minimum)."""
        want = self.claims.preferred_height()
        if visible and self.claims.height() < want:
            dock = self.claims_dock
            extra = dock.height() - self.claims.height()  # its title bar
            self.resizeDocks([dock], [want + extra], Qt.Orientation.Vertical)

    def _dock(
        self, title: str, name: str, widget: QWidget, area: Qt.DockWidgetArea
    ) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    def _action(self, menu, text: str, slot, shortcut=None) -> QAction:
        act = QAction(text, self)
        if shortcut is not None:
            act.setShortcut(QKeySequence(shortcut))
        if slot is not None:  # else the controller that owns it connects it
            act.triggered.connect(slot)
        menu.addAction(act)
        return act

    def _build_menus(self) -> None:
        mb = self.menuBar()
        file = mb.addMenu("&File")
        self.file_menu = file
        self.open_view_action = self._action(
            file, "&Open view…", None, QKeySequence.StandardKey.Open
        )
        self.save_view_action = self._action(
            file, "&Save view…", None, QKeySequence.StandardKey.Save
        )
        self.recent_menu = file.addMenu("Recent views")
        file.addSeparator()
        self.export_chart_action = self._action(file, "&Export chart…", None, "Ctrl+E")
        self.copy_chart_action = self._action(
            file, "Copy chart as image", None, "Ctrl+Shift+C"
        )
        file.addSeparator()
        self.quit_action = self._action(
            file, "&Quit", self.close, QKeySequence.StandardKey.Quit
        )
        edit = mb.addMenu("&Edit")
        edit.addAction(self.table.copy_action)
        # filters, chart and comparison: each change a step (AppState)
        self.undo_action, self.redo_action = add_undo_actions(self, self.state, edit)
        edit.addAction(self.add_compare_action)
        self.find_action = self._action(
            edit, "&Find…", self.focus_search, QKeySequence.StandardKey.Find
        )
        self.clear_search_action = QAction("Clear search", self)
        self.clear_search_action.setShortcut(QKeySequence(Qt.Key.Key_Escape))
        self.clear_search_action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.clear_search_action.triggered.connect(self.clear_search)
        self.search.addAction(self.clear_search_action)
        self.clear_all_action = self._action(
            edit,
            "Clear &all filters",
            self.clear_all,
            "Ctrl+Shift+Backspace",
        )
        view = mb.addMenu("&View")
        self.view_menu = view
        view.addAction(self.facet_dock.toggleViewAction())
        view.addAction(self.detail_dock.toggleViewAction())
        view.addAction(self.compare_dock.toggleViewAction())
        claims = self.claims_dock.toggleViewAction()
        claims.setText("&Claims audit")
        claims.setShortcut(QKeySequence("Ctrl+Shift+K"))
        # opened by the user: tall enough (a restored layout is left as saved)
        claims.triggered.connect(self._on_claims_dock_shown)
        view.addAction(claims)
        mlperf = self.mlperf_dock.toggleViewAction()
        mlperf.setText("&MLPerf results table")
        mlperf.setShortcut(QKeySequence("Ctrl+Shift+M"))
        view.addAction(mlperf)
        # The three share one tabbed area: a dock opened from the menu or its
        # key comes to the front (Qt adds it as a tab behind the current one).
        for dock in (self.compare_dock, self.claims_dock, self.mlperf_dock):
            dock.toggleViewAction().triggered.connect(
                lambda on, d=dock: on and d.raise_()
            )
        view.addSeparator()
        self.reset_zoom_action = self._action(
            view, "Reset chart &zoom", self.canvas.reset_view, "Ctrl+0"
        )
        self.legend_action = self._action(view, "Chart &legend", None, "Ctrl+L")
        self.legend_action.setCheckable(True)
        self.legend_action.setChecked(True)
        # toggled, not triggered: restoring the setting shows or hides it too
        self.legend_action.toggled.connect(self.canvas.set_legend_visible)
        # a legend folds what its height does not hold ("+ N more"): all of
        # them, by name (also a click on that row)
        self.every_line_action = self._action(
            view,
            "Every line's &name…",
            lambda: self.canvas.show_every_line(),
            "Ctrl+Shift+L",
        )
        # Per-chip figures: the chart options' "Per chip" box, from the menu.
        self.per_chip_action = self._action(
            view, "Figures &per accelerator chip (derived)", None, "Ctrl+Shift+P"
        )
        self.per_chip_action.setCheckable(True)
        self.per_chip_action.toggled.connect(self.chart_options.per_chip.setChecked)
        self.chart_options.per_chip.toggled.connect(self.per_chip_action.setChecked)
        view.addSeparator()
        self._theme_menu(view)
        self.reset_layout_action = self._action(
            view, "&Reset layout", self.reset_layout
        )
        # Right-click on the chart: its own actions, with their shortcuts shown.
        self.chart_menu = QMenu(self)
        # The point under the pointer, explained (CompareController); only
        # offered over a point or bar (``_on_canvas_contextMenuRequested``).
        self.explain_point_action = QAction("Explain this point", self)
        self.chart_menu_point: str | None = None  # its result id
        self.chart_menu.addAction(self.explain_point_action)
        self.chart_menu.addSeparator()
        self.chart_menu.addAction(self.reset_zoom_action)
        self.chart_menu.addSeparator()
        self.chart_menu.addAction(self.export_chart_action)
        self.chart_menu.addAction(self.copy_chart_action)
        self.chart_menu.addSeparator()
        self.chart_menu.addAction(self.legend_action)
        self.chart_menu.addAction(self.every_line_action)
        self.chart_menu.addAction(self.per_chip_action)
        self.canvas.contextMenuRequested.connect(self._on_canvas_contextMenuRequested)
        helpm = mb.addMenu("&Help")
        self.shortcuts_action = self._action(
            helpm, "&Keyboard shortcuts", self.show_shortcuts, "F1"
        )
        self.guide_action = self._action(helpm, "&Guide", self.show_guide)
        # Explains the current table or comparator cell (CompareController).
        self.explain_action = self._action(
            helpm, "&Explain this number", None, "Shift+F1"
        )
        self.about_action = self._action(
            helpm, "&About IPU Benchmark Explorer", self.show_about
        )
        # ... and on the right-click menus of the table and the comparison
        self.table.addAction(self.explain_action)
        cells = self.comparator.view
        cells.insertAction(
            cells.actions()[0] if cells.actions() else None, self.explain_action
        )
        # Which of the two a right-click menu was opened on: the focus may be
        # nowhere by the time its action runs (the menu had it).
        self._cells = self.table
        for view in (self.table, cells):
            view.installEventFilter(self)
            view.viewport().installEventFilter(self)
        self.sources_text = ""

    def _theme_menu(self, view: QMenu) -> None:
        """View > Theme: follow the system, light or dark (remembered)."""
        menu = view.addMenu("&Theme")
        group = QActionGroup(self)
        self.theme_actions: dict[str, QAction] = {}
        for mode, label in appearance.MODES.items():
            act = menu.addAction(label)
            act.setCheckable(True)
            act.setChecked(mode == appearance.current_mode())
            act.triggered.connect(lambda _=False, m=mode: appearance.apply(m))
            group.addAction(act)
            self.theme_actions[mode] = act

    def _keyboard(self) -> None:
        """Tab order by panel, F6 between panels, a focus ring, and the app's
        shortcuts from text fields too (see ui/keyboard.py)."""
        self.panels = PanelFocus(
            self,
            (
                ("search", (self.search, self.chips)),
                ("filters", (self.facets,)),
                ("chart controls", (self.chart_options,)),
                ("chart", (self.canvas,)),
                ("table", (self.table, self.empty)),
                ("details", (self.details,)),
                ("comparison", (self.comparator,)),
                ("claims", (self.claims,)),
                ("MLPerf table", (self.mlperf_table,)),
            ),
        )
        self.next_panel_action = self._action(
            self.view_menu, "Next panel", lambda: self.panels.cycle(True), "F6"
        )
        self.prev_panel_action = self._action(
            self.view_menu,
            "Previous panel",
            lambda: self.panels.cycle(False),
            "Shift+F6",
        )
        self.focus_ring = FocusRing(self)
        self.app_shortcuts = AppShortcuts(lambda: self.findChildren(QAction), self)
        self.app_shortcuts.watch(self)

    def focusNextPrevChild(self, forward: bool) -> bool:  # noqa: N802 (Qt API)
        return self.panels.tab(forward) or super().focusNextPrevChild(forward)

    def eventFilter(self, obj, e) -> bool:  # noqa: N802 (Qt API)
        if e.type() in (QEvent.Type.FocusIn, QEvent.Type.ContextMenu):
            cmp = self.comparator.view
            self._cells = cmp if obj in (cmp, cmp.viewport()) else self.table
        return False

    def cells_in_use(self) -> QWidget:
        """The table or the comparison: whichever has the focus, else the one
        last focused or right-clicked (what Explain explains)."""
        focus = QApplication.focusWidget()
        return focus if focus in (self.table, self.comparator.view) else self._cells

    def _on_canvas_contextMenuRequested(self, pos) -> None:  # noqa: N802
        hit = self.canvas.hit_at_global(pos)
        self.chart_menu_point = hit.result_id if hit is not None else None
        self.explain_point_action.setVisible(bool(self.chart_menu_point))
        self.chart_menu.popup(pos)

    # -- behaviour that is purely about widgets --------------------------------
    def focus_search(self) -> None:
        self.search.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search.selectAll()

    def clear_search(self) -> None:
        self.search.clear()
        self._debounce.stop()
        self.state.set_filters(self.state.filters.with_text(""))

    def clear_all(self) -> None:
        """Every filter, and every box one is typed into: the search, each
        facet's search, the ranges' text (Details follow: ``Controller``)."""
        self._debounce.stop()
        self.search.clear()
        self.state.set_filters(FilterState())
        self.facets.clear_inputs()

    def show_empty(self, empty: bool, description: str = "") -> None:
        self.stack.setCurrentWidget(self.empty if empty else self.splitter)
        self.empty.set_description(description)

    def reset_layout(self) -> None:
        ss.clear_layout()
        self.restoreState(self._default_state)
        for dock in (self.facet_dock, self.detail_dock):
            dock.show()
        self.table.reset_columns()
        self._size_docks()
        h = self.splitter.height() or 600
        self.splitter.setSizes([h * 2 // 5, h * 3 // 5])

    def show_about(self) -> None:
        from ipubench_gui.ui import help as helpui

        self.about_box = helpui.show_about(self, self.sources_text)

    def show_guide(self) -> None:
        from ipubench_gui.ui.help import GuideDialog

        self.guide_dialog = GuideDialog(self)
        self.guide_dialog.show()

    def show_shortcuts(self) -> None:
        from ipubench_gui.ui.help import ShortcutsDialog

        self.shortcuts_dialog = ShortcutsDialog(self)
        self.shortcuts_dialog.show()

    # -- persistence -------------------------------------------------------------
    def save_settings(self) -> None:
        with ss.batch():  # one write of the settings file
            ss.save_bytes(ss.WINDOW_GEOMETRY, self.saveGeometry())
            ss.save_bytes(ss.WINDOW_STATE, self.saveState())
            ss.save_bytes(ss.SPLITTER, self.splitter.saveState())
            ss.save_bytes(ss.TABLE_HEADER, self.table.horizontalHeader().saveState())
            ss.save_filters(self.state.filters)
            ss.save_chart(self.state.chart)
            legend = "1" if self.legend_action.isChecked() else "0"
            ss.save_text(ss.CHART_LEGEND, legend)

    def paint_update(self, drawn: bool = False) -> None:
        """Lay out and paint what an update changed now, in one pass with
        the chart (``drawn``: just drawn; see ``one_paint.paint_now``)."""
        views = (self.canvas.plot, self.canvas.panels_view)
        paint_now(self.table, views, drawn)

    def loaded(self) -> None:
        """The store has answered: "Loading results…" goes (other news stays)."""
        if self.statusBar().currentMessage() == LOADING:
            self.statusBar().clearMessage()

    def restore_settings(self) -> None:
        for key, restore in (
            (ss.WINDOW_GEOMETRY, self.restoreGeometry),
            (ss.WINDOW_STATE, self.restoreState),
            (ss.SPLITTER, self.splitter.restoreState),
            (ss.TABLE_HEADER, self.table.horizontalHeader().restoreState),
        ):
            data = ss.load_bytes(key)
            if isinstance(data, QByteArray):
                restore(data)
        self.legend_action.setChecked(ss.load_text(ss.CHART_LEGEND, "1") != "0")
        dropped: list[str] = []
        self.state.set_chart(ss.load_chart(dropped))
        for note in ss.notes():  # the file itself: unusable, too large
            self.statusBar().showMessage(note, 20000)
        self.state.set_filters(ss.load_filters(dropped))
        if dropped:  # said, not only logged: the user sees why a filter is gone
            self.statusBar().showMessage(
                "Some saved settings could not be used and were dropped: "
                + "; ".join(dropped),
                20000,
            )

    def closeEvent(self, e) -> None:
        self.save_settings()
        super().closeEvent(e)
