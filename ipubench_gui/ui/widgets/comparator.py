"""Comparator: configurations side by side, counterparts, and the vendor's claims."""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import TYPE_CHECKING

from PySide6.QtCore import QSignalBlocker, Qt, QVariantAnimation, Signal
from PySide6.QtGui import QAction, QColor, QKeySequence, QPalette
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QScrollArea,
    QSplitter,
    QTableView,
    QTabWidget,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ipubench_gui.domain import compare
from ipubench_gui.domain.chartrows import config_label
from ipubench_gui.domain.format import format_number, source_name
from ipubench_gui.domain.likeness import CANT_TELL, LIKE, NOT_LIKE
from ipubench_gui.ui.models.compare_model import CompareModel
from ipubench_gui.ui.widgets.word_columns import WordColumns

if TYPE_CHECKING:
    from ipubench_gui.domain.claims import Audit

HINT = (
    "Select results in the table and press Ctrl+Shift+A (or right-click → Add to "
    "comparison) to compare up to six side by side."
)

# A verdict's mark beside its sentence: like for like, not, can't tell.
MARKS = {LIKE: "✓", NOT_LIKE: "⚠", CANT_TELL: "?"}

FLASH_MS = 1500  # how long a column just added stays highlighted


# (key, text, tooltip) of the buttons over the comparison.
BUTTONS = (
    ("add", "Add…", "Find results and add them (any text)"),
    ("left", "◀", "Move the selected column left"),
    ("right", "▶", "Move the selected column right"),
    ("baseline", "★ Baseline", "Make the selected column the baseline"),
    ("remove", "Remove", "Remove the selected column"),
    ("tsv", "Copy TSV", "Copy the comparison for a spreadsheet"),
    ("csv", "CSV…", "Save as CSV"),
    ("md", "Markdown…", "Save as Markdown"),
    ("png", "PNG…", "Save as a picture for slides"),
)


class Comparator(QTabWidget):
    """Thin: shows tables it is given; reports what the user asks for by signal."""

    removeRequested = Signal(str)
    moveRequested = Signal(str, int)
    baselineRequested = Signal(str)
    addRequested = Signal(str)
    exportRequested = Signal(str)  # csv | md | png | tsv | mdcopy
    pickerRequested = Signal()
    focusChosen = Signal(object)  # attribute name, or None for automatic
    onlyDifferencesChosen = Signal(bool)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.model = CompareModel(self)
        self._build_table()
        self.hint = QLabel(HINT)
        self.hint.setWordWrap(True)
        self.verdicts = QLabel()
        self.verdicts.setWordWrap(True)
        self.verdicts.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
        )
        page = QWidget()
        lay = QVBoxLayout(page)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addLayout(self._build_bar())
        lay.addWidget(self.hint)
        # the verdicts scroll beside the table, never squeezing it: each names
        # every difference, so several of them run long on a laptop's screen
        scroll = QScrollArea(widgetResizable=True, frameShape=QFrame.Shape.NoFrame)
        scroll.setWidget(self.verdicts)
        # a line at least: the dock's own minimum stays what it was (1280x720)
        scroll.setMinimumHeight(self.fontMetrics().lineSpacing())
        self.verdicts.setAlignment(Qt.AlignmentFlag.AlignTop)
        split = QSplitter(Qt.Orientation.Vertical, childrenCollapsible=False)
        split.addWidget(self.view)
        split.addWidget(scroll)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 1)
        lay.addWidget(split, 1)
        self.addTab(page, "Comparison")
        self.addTab(self._build_counterparts(), "Counterparts")
        self.claims = QTreeWidget()
        self.claims.setHeaderLabels(["Claim", "Stated", "Recomputed", "Caveats"])
        self.claims.setAccessibleName("Vendor claims")
        self.claims.setWordWrap(True)
        self.addTab(self.claims, "Vendor claims")
        # A column just added flashes (Ctrl+Shift+A): strong, then fading.
        self._flash = QVariantAnimation(self)
        self._flash.setStartValue(160)
        self._flash.setEndValue(0)
        self._flash.setDuration(FLASH_MS)
        self._flash.valueChanged.connect(self._on_flash_valueChanged)
        self._flash_column = 0

    def _build_table(self) -> None:
        """The comparison table, with its keys: Delete removes a column, Ctrl+C
        and Ctrl+Alt+C copy what is shown (also on the right-click menu)."""
        self.view = QTableView()
        self.view.setModel(self.model)
        self.view.setWordWrap(True)
        self.view.setTabKeyNavigation(False)  # Tab leaves; arrows move inside
        self.view.setAccessibleName("Comparison")
        # each column as wide as its words need (WordColumns), rows as tall
        # as their wrapped text
        self.columns = WordColumns(self.view)
        self.view.verticalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents
        )
        delete = QAction("Remove column", self.view)
        delete.setShortcut(QKeySequence(QKeySequence.StandardKey.Delete))
        delete.triggered.connect(lambda: self._with_current(self.removeRequested.emit))
        self.view.addAction(delete)
        for text, keys, kind in (
            ("Copy comparison as TSV", "Ctrl+C", "tsv"),
            ("Copy comparison as Markdown", "Ctrl+Alt+C", "mdcopy"),
        ):
            act = QAction(text, self.view)
            act.setShortcut(QKeySequence(keys))
            act.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            act.triggered.connect(lambda _=False, k=kind: self.exportRequested.emit(k))
            self.view.addAction(act)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)

    def _build_bar(self) -> QHBoxLayout:
        """Buttons over the table, the "Comparing:" choice and "Only differences"."""
        bar = QHBoxLayout()
        self.buttons: dict[str, QToolButton] = {}
        for key, text, tip in BUTTONS:
            b = QToolButton(text=text, autoRaise=True)
            b.setToolTip(tip)
            b.setAccessibleName(tip)
            self.buttons[key] = b
            bar.addWidget(b)
        bar.addStretch(1)
        self.buttons["add"].clicked.connect(self.pickerRequested.emit)
        self.buttons["left"].clicked.connect(lambda: self._move(-1))
        self.buttons["right"].clicked.connect(lambda: self._move(1))
        self.buttons["baseline"].clicked.connect(
            lambda: self._with_current(self.baselineRequested.emit)
        )
        self.buttons["remove"].clicked.connect(
            lambda: self._with_current(self.removeRequested.emit)
        )
        for key in ("tsv", "csv", "md", "png"):
            self.buttons[key].clicked.connect(
                lambda _=False, k=key: self.exportRequested.emit(k)
            )
        self.focus = QComboBox()
        self.focus.addItem("Comparing: (automatic)", None)
        for key in compare.FOCUS_ORDER:
            self.focus.addItem(f"Comparing: {compare.NAMES[key]}", key)
        self.focus.setToolTip(
            "The attribute the comparison is about: named first after the chip "
            "counts. Whether it is like for like does not depend on it: a "
            "difference in what was run (the workload) is never like for like"
        )
        self.focus.currentIndexChanged.connect(
            lambda _: self.focusChosen.emit(self.focus.currentData())
        )
        # The choice is part of the comparison (saved in views): it goes to
        # the state, which shows it (show_comparison).
        self.only_diff = QCheckBox("Only differences")
        self.only_diff.toggled.connect(self.onlyDifferencesChosen)
        bar.addWidget(self.focus)
        bar.addWidget(self.only_diff)
        return bar

    def _build_counterparts(self) -> QWidget:
        self.counter_title = QLabel("Select a result to see its counterparts.")
        self.counter_title.setWordWrap(True)
        self.counterparts = QTreeWidget()
        self.counterparts.setHeaderLabels(
            ["Differs in", "Result", "Figure", "Against it", "Note"]
        )
        self.counterparts.setAccessibleName("Counterparts")
        self.counterparts.itemActivated.connect(self._on_counterpart_activated)
        cp = QWidget()
        cl = QVBoxLayout(cp)
        cl.setContentsMargins(2, 2, 2, 2)
        cl.addWidget(self.counter_title)
        cl.addWidget(self.counterparts, 1)
        cl.addWidget(
            QLabel("Double-click or press Enter to add one to the comparison.")
        )
        return cp

    def show_only_differences(self, on: bool) -> None:
        """Show only the rows that differ (the comparison's own choice)."""
        with QSignalBlocker(self.only_diff):
            self.only_diff.setChecked(on)
        if self.model.only_differences != on:
            self.model.set_only_differences(on)

    # -- rendering ---------------------------------------------------------------
    def show_comparison(
        self, rows: list[dict], baseline: int, focus: str | None = None, note: str = ""
    ) -> None:
        ids = [r["result_id"] for r in rows]
        self.model.set_table(
            compare.table(rows, baseline, focus) if rows else [],
            ids,
            baseline,
            compare.column_names(rows),
        )
        self.hint.setVisible(len(rows) < 2)
        lines = []
        if rows:
            base = rows[baseline]
            names = compare.column_names(rows)
            for i, r in enumerate(rows):
                if i != baseline:
                    v = compare.verdict(r, base, focus)
                    mark = MARKS[v.verdict]
                    # the baseline is its header's ★: named there, not here
                    lines.append(
                        f"{mark} <b>{html.escape(names[i])}</b> against the "
                        f"baseline: {html.escape(v.text())}"
                    )
        if note:  # e.g. that the figures are per chip, derived here
            lines.append(f"<i>{note}</i>")
        self.verdicts.setText("<br>".join(lines))
        for key, b in self.buttons.items():
            b.setEnabled(bool(rows) or key == "add")
        with QSignalBlocker(self.focus):
            self.focus.setCurrentIndex(max(self.focus.findData(focus), 0))

    def show_counterparts(
        self,
        row: dict | None,
        groups: dict[str, list[compare.Counterpart]],
        note: str = "",
    ) -> None:
        self.counterparts.clear()
        if row is None:
            self.counter_title.setText("Select a result to see its counterparts.")
            return
        self.counter_title.setText(
            f"<b>{config_label(row)}</b> — {compare.show(row, 'value')}. Results that "
            "differ from it in exactly one attribute:"
            if groups
            else f"<b>{config_label(row)}</b>: no stored result differs from it "
            "in exactly "
            "one attribute."
        )
        if note:
            self.counter_title.setText(f"{self.counter_title.text()}<br><i>{note}</i>")
        for attr, items in groups.items():
            top = QTreeWidgetItem([compare.NAMES[attr], f"{len(items)}"])
            self.counterparts.addTopLevelItem(top)
            for cp in items:
                r = cp.row
                child = QTreeWidgetItem(
                    [
                        compare.show(r, attr),
                        r["result_id"],
                        compare.show(r, "value"),
                        compare.ratio_text(r, row),
                        cp.note,
                    ]
                )
                child.setData(0, Qt.ItemDataRole.UserRole, r["result_id"])
                child.setToolTip(0, config_label(r))
                top.addChild(child)
            top.setExpanded(True)
        for c in range(5):
            self.counterparts.resizeColumnToContents(c)

    def show_claims(self, claims: list[dict], audits: Mapping[str, Audit]) -> None:
        """The stated comparisons, with the claims audit's figures and verdict
        (the same Audit the Claims view and ``claims`` show)."""
        self.claims.clear()
        for c in claims:
            a = audits.get(c["comparison_id"])
            q = c.get("ratio_qualifier") or ""
            stated = (
                f"{q}{format_number(c['ratio_stated'])}×"
                if c.get("ratio_stated")
                else "not stated"
            )
            rec = (a.recomputed_text or "—") + f" · {a.verdict}" if a else "—"
            caveats = c.get("caveats") or ""
            if c.get("assumptions"):
                caveats += f"; {c['assumptions']}"
            item = QTreeWidgetItem(
                [
                    f"{c['model']} {c['task']}: {c['ipu_system']} vs {c['gpu_system']}",
                    stated,
                    rec,
                    caveats,
                ]
            )
            tip = (
                f"{c.get('chart')} ({source_name(c)})\n"
                f"IPU: {c.get('ipu_framework')}, {c.get('ipu_precision')}, batch "
                f"{c.get('ipu_batch')}\nGPU: {c.get('gpu_framework')}, "
                f"{c.get('gpu_precision')}, batch {c.get('gpu_batch')}\n"
                f"GPU figure: {c.get('gpu_source')}\n"
                + (f"Values: {c.get('values_note')}\n" if c.get("values_note") else "")
                + (f"Claims audit: {a.verdict} — {a.reason}" if a else "")
            )
            for col in range(4):
                item.setToolTip(col, tip)
            item.setData(0, Qt.ItemDataRole.UserRole, c["comparison_id"])
            self.claims.addTopLevelItem(item)
        for col in range(3):
            self.claims.resizeColumnToContents(col)

    def flash_column(self, rid: str) -> None:
        """Show the Comparison tab, make ``rid``'s column the current one and
        flash it: the highlight colour fading out over ``FLASH_MS``."""
        self.setCurrentIndex(0)
        ids = self.model.ids()
        if rid not in ids:
            return
        col = ids.index(rid)
        self.view.setCurrentIndex(self.model.index(0, col))
        self.view.scrollTo(self.model.index(0, col))
        self._flash.stop()
        self._flash_column = col
        self._on_flash_valueChanged(self._flash.startValue())  # now, not a tick on
        self._flash.start()

    def _on_flash_valueChanged(self, alpha: int) -> None:  # noqa: N802
        if alpha <= 0:
            self.model.set_flash(None)
            return
        c = QColor(self.palette().color(QPalette.ColorRole.Highlight))
        c.setAlpha(alpha)
        self.model.set_flash(self._flash_column, c)

    # -- helpers -------------------------------------------------------------------
    def current_id(self) -> str | None:
        ix = self.view.currentIndex()
        ids = self.model.ids()
        col = ix.column() if ix.isValid() else (len(ids) - 1 if ids else -1)
        return ids[col] if 0 <= col < len(ids) else None

    def _with_current(self, fn) -> None:
        rid = self.current_id()
        if rid:
            fn(rid)

    def _move(self, step: int) -> None:
        rid = self.current_id()
        if rid:
            self.moveRequested.emit(rid, step)

    def _on_counterpart_activated(self, item: QTreeWidgetItem, _col: int) -> None:
        rid = item.data(0, Qt.ItemDataRole.UserRole)
        if rid:
            self.addRequested.emit(rid)
