"""ChartOptions: the chart picker and the options of the chosen kind."""

from __future__ import annotations

from PySide6.QtCore import QSignalBlocker, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QToolButton,
    QWidget,
)

from ipubench_gui.domain.chartspec import COLOR_CHOICES, GROUP_CHOICES, ChartSpec
from ipubench_gui.domain.fields import FACETS
from ipubench_gui.domain.format import counted
from ipubench_gui.domain.kinds import KINDS
from ipubench_gui.ui.widgets.flow_layout import FlowLayout


def _label(name: str | None) -> str:
    if name is None:
        return "(none)"
    return next((f.label for f in FACETS if f.name == name), name)


class ChartOptions(QWidget):
    """Emits ``specEdited(ChartSpec)``; ``render(spec)`` shows a spec silently."""

    specEdited = Signal(object)

    def __init__(self, parent=None):
        super().__init__(parent)
        self._spec = ChartSpec()
        self.kind = QComboBox()
        for key, kind in KINDS.items():
            self.kind.addItem(kind.label, key)
        self.kind.setAccessibleName("Chart kind")
        self.color_by = QComboBox()
        for name in COLOR_CHOICES:
            self.color_by.addItem(_label(name), name)
        self.color_by.setAccessibleName("Colour by")
        self.group_by = QComboBox()
        for name in GROUP_CHOICES:
            self.group_by.addItem(_label(name), name)
        self.group_by.setAccessibleName("Group by")
        self.log = QCheckBox("Log axes")
        self.per_chip = QToolButton(text="Per chip", checkable=True)
        self.per_chip.setToolTip(
            "Figures per accelerator chip (derived): throughput divided by the "
            "system's chips, time to train multiplied by them (chip-minutes). "
            "Ctrl+Shift+P"
        )
        self.per_chip.setAccessibleName("Figures per accelerator chip (derived)")
        self.family = QComboBox()
        self.family.setAccessibleName("What the bars count")
        # room for "sequences/s" on a laptop's row; the list opens wider
        self.family.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.family.setMinimumContentsLength(5)
        self.family.setToolTip(
            "What the bars count. One unit family at a time: images/s never "
            "share an axis with nodes/s"
        )
        self.benchmark = QComboBox()
        self.benchmark.setAccessibleName("MLPerf benchmark")
        self.benchmark.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.benchmark.setMinimumContentsLength(18)  # "ResNet-50 v1.5 (165)"
        self.benchmark.setToolTip(
            "The benchmark drawn: one at a time, so every point is the same "
            "work (by default the one with the most results)"
        )
        self.open_division = QCheckBox("Open division too")
        self.open_division.setToolTip(
            "Draw Open division results beside the Closed ones, in series of "
            "their own (Open results may change the model or the training)"
        )
        self.budget = QDoubleSpinBox(
            decimals=2, minimum=0.0, maximum=10_000.0, singleStep=0.5, suffix=" ms"
        )
        self.budget.setSpecialValueText("no budget")
        self.budget.setAccessibleName("Latency budget")
        self.budget.setToolTip(
            "Latency budget: the best throughput within it is "
            "starred. Drag the dashed line on the chart, too."
        )
        self.export_button = QPushButton("Export…")
        self.export_button.setToolTip("Export the chart for slides (Ctrl+E)")
        self._labels = {
            "color_by": QLabel("Colour by:"),
            "group_by": QLabel("Group:"),
            "budget": QLabel("Budget:"),
        }
        # The options flow onto a second row when the centre is narrow (a
        # 1280x720 laptop with the filters and details beside): one row of
        # them made the window ~850 px wide at least, and squeezed Details.
        options = QWidget()
        flow = FlowLayout(options, spacing=4)
        self._pairs = {"kind": self._pair(QLabel("Chart:"), self.kind)}
        for key, w in (
            ("color_by", self.color_by),
            ("group_by", self.group_by),
            ("budget", self.budget),
        ):
            self._pairs[key] = self._pair(self._labels[key], w)
        for w in (
            *self._pairs.values(),
            self.family,  # no label: it reads "images/s"
            self.benchmark,  # no label: it reads "BERT-Large (93)"
            self.open_division,
            self.log,
            self.per_chip,
        ):
            flow.addWidget(w)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(4)
        lay.addWidget(options, 1)
        lay.addWidget(self.export_button, 0, Qt.AlignmentFlag.AlignTop)
        self.kind.currentIndexChanged.connect(
            lambda _: self._edit(kind=self.kind.currentData())
        )
        self.color_by.currentIndexChanged.connect(
            lambda _: self._edit(color_by=self.color_by.currentData())
        )
        self.group_by.currentIndexChanged.connect(
            lambda _: self._edit(group_by=self.group_by.currentData())
        )
        self.log.toggled.connect(lambda on: self._edit(log=on))
        self.per_chip.toggled.connect(lambda on: self._edit(per_accelerator=on))
        self.family.activated.connect(
            lambda _: self._edit(unit_family=self.family.currentData())
        )
        self.benchmark.activated.connect(
            lambda _: self._edit(benchmark=self.benchmark.currentData())
        )
        self.open_division.toggled.connect(lambda on: self._edit(open_division=on))
        self.budget.editingFinished.connect(
            lambda: self._edit(budget_ms=self.budget.value() or None)
        )
        self.render(self._spec)

    @staticmethod
    def _pair(label: QLabel, control: QWidget) -> QWidget:
        """A label and its control, kept on one row."""
        box = QWidget()
        lay = QHBoxLayout(box)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(4)
        lay.addWidget(label)
        lay.addWidget(control)
        return box

    def _edit(self, **kw) -> None:
        self.specEdited.emit(self._spec.with_(**kw))

    def render(self, spec: ChartSpec) -> None:
        self._spec = spec
        for combo, value in (
            (self.kind, spec.kind),
            (self.color_by, spec.color_by),
            (self.group_by, spec.group_by),
        ):
            with QSignalBlocker(combo):
                combo.setCurrentIndex(max(combo.findData(value), 0))
        with QSignalBlocker(self.log):
            self.log.setChecked(spec.log)
        with QSignalBlocker(self.per_chip):
            self.per_chip.setChecked(spec.per_accelerator)
        with QSignalBlocker(self.budget):
            self.budget.setValue(spec.budget_ms or 0.0)
        with QSignalBlocker(self.open_division):
            self.open_division.setChecked(spec.open_division)
        uses = KINDS[spec.kind].uses if spec.kind in KINDS else frozenset()
        for key, widgets in (
            ("color_by", (self.color_by, self._labels["color_by"])),
            ("group_by", (self.group_by, self._labels["group_by"])),
            ("budget", (self.budget, self._labels["budget"])),
            ("family", (self.family,)),
            ("benchmark", (self.benchmark, self.open_division)),
            ("log", (self.log,)),
            ("per_chip", (self.per_chip,)),
        ):
            for w in (*widgets, *((self._pairs[key],) if key in self._pairs else ())):
                w.setVisible(key in uses)

    def set_benchmarks(self, drawn: str | None, counts) -> None:
        """The MLPerf benchmarks the filtered rows have: ``drawn`` and
        ``counts`` ((benchmark, results), most first)."""
        with QSignalBlocker(self.benchmark):
            self.benchmark.clear()
            for name, n in counts:
                self.benchmark.addItem(f"{name} ({n})", name)
            self.benchmark.setCurrentIndex(max(self.benchmark.findData(drawn), 0))
        self.benchmark.setEnabled(self.benchmark.count() > 1)

    def set_families(self, drawn: str | None, others) -> None:
        """The unit families the filtered rows have: ``drawn`` (what the bars
        count now) and ``others`` ((family, rows), largest first)."""
        items = ([(drawn, drawn)] if drawn is not None else []) + [
            (f"{fam} ({counted(n, 'row')})", fam) for fam, n in others
        ]
        box = self.family
        with QSignalBlocker(box):
            if (
                box.count() == len(items) > 0
                and box.currentIndex() == 0
                and (box.itemText(0), box.itemData(0)) == items[0]
            ):
                # The one shown is the same: only the list's other entries
                # change (their counts), which repaints nothing. Refilled at
                # every chart drawn, the box was repainted at every change.
                for i, (text, fam) in enumerate(items[1:], 1):
                    if box.itemText(i) != text or box.itemData(i) != fam:
                        box.setItemText(i, text)
                        box.setItemData(i, fam)
            else:
                box.clear()
                for text, fam in items:
                    box.addItem(text, fam)
                box.setCurrentIndex(0)
        self.family.setEnabled(self.family.count() > 1)
