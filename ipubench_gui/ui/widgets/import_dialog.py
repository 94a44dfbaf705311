"""ImportDialog: map a file's columns to fields, check it, import it (off-thread)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from ipubench_gui.domain.entities import Catalogue
from ipubench_gui.domain.format import format_cell
from ipubench_gui.domain.import_spec import ENCODINGS, FIELDS, ImportSpec, Preview
from ipubench_gui.domain.metrics import NAMES as METRICS
from ipubench_gui.ui.widgets.import_names import NamesPanel

IGNORE = "(ignore)"


class ImportDialog(QDialog):
    # Fields end in _box: a widget attribute named "metric" would shadow
    # QPaintDevice.metric(), which Qt calls while painting (a crash).
    """Thin: builds an ImportSpec from what the user sets; the controller runs it.

    Signals ask the controller to check or import a spec; ``show_*`` methods
    render what comes back.
    """

    checkRequested = Signal(object)  # ImportSpec
    aliasRequested = Signal(str, str, str)  # kind, alias, canonical
    importRequested = Signal(object)  # ImportSpec
    cancelRequested = Signal()
    encodingChosen = Signal(str)  # read the file again in this encoding

    def __init__(
        self,
        path: Path,
        preview: Preview,
        parent=None,
        encoding: str = "utf-8",
        catalogue: Catalogue | None = None,
    ):
        super().__init__(parent)
        self.setWindowTitle(f"Import {path.name}")
        self.path = path
        self.preview = preview
        self.encoding = encoding
        self._build_mapping()
        self.names = NamesPanel(catalogue)
        self.names.aliasChosen.connect(self.aliasRequested)
        for combo in self.maps:
            combo.currentTextChanged.connect(lambda _t: self.refresh_names())
        form = self._build_options()
        buttons = self._build_buttons()
        self.report = QPlainTextEdit(readOnly=True)
        self.report.setPlaceholderText("Press Check to see what would land.")
        self.report.setMaximumHeight(self.fontMetrics().height() * 8)
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)
        self.progress.hide()
        lay = QVBoxLayout(self)
        lay.addWidget(
            QLabel(
                f"<b>{path}</b> — {len(preview.columns)} columns. "
                "Choose the field each column holds:"
            )
        )
        lay.addWidget(self.table, 1)
        lay.addWidget(self.names)
        lay.addLayout(form)
        lay.addWidget(self.report)
        lay.addWidget(self.progress)
        lay.addWidget(buttons)
        self.refresh_names()
        self.resize(
            self.fontMetrics().horizontalAdvance("M") * 90,
            self.fontMetrics().height() * 45,
        )

    def _build_mapping(self) -> None:
        """The preview table, its first row a field choice per column."""
        preview = self.preview
        by_column = {c: f for f, c in preview.guessed.items()}
        self.table = QTableWidget(len(preview.rows) + 1, len(preview.columns))
        self.table.setHorizontalHeaderLabels(preview.columns)
        self.table.setVerticalHeaderLabels(
            ["maps to"] + [str(i + 1) for i in range(len(preview.rows))]
        )
        self.maps: list[QComboBox] = []
        for j, col in enumerate(preview.columns):
            combo = QComboBox()
            combo.addItems([IGNORE, *FIELDS])
            combo.setCurrentText(by_column.get(col, IGNORE))
            combo.setAccessibleName(f"Field for column {col}")
            self.table.setCellWidget(0, j, combo)
            self.maps.append(combo)
            for i, row in enumerate(preview.rows, start=1):
                self.table.setItem(i, j, QTableWidgetItem(format_cell(row[j])))

    def _build_options(self) -> QFormLayout:
        """What the file does not say (metric, unit, …), a wide file's value
        columns, and how rows already stored are treated."""
        self.metric_box = QComboBox()
        self.metric_box.addItems(["(from the file)", *METRICS])
        self.unit_box = QLineEdit(
            placeholderText="e.g. items/s (when the file has no unit)"
        )
        self.platform_box = QLineEdit(
            placeholderText="e.g. A100 80GB (when the file has no platform column)"
        )
        self.task_box = QComboBox()
        self.task_box.addItems(["(from the file)", "training", "inference"])
        if self.preview.constants.get("task"):
            self.task_box.setCurrentText(self.preview.constants["task"])
        self.label_box = QLineEdit(self.path.name)
        self.skip_existing_box = QCheckBox("Skip rows already stored")
        self.skip_existing_box.setToolTip(
            "Leave out rows that repeat an earlier row of the file or a figure "
            "an earlier import stored, and say how many (import --skip-existing); "
            "otherwise such a row stops the import"
        )
        form = QFormLayout()
        if self.path.suffix.lower() not in (".parquet", ".json", ".jsonl", ".ndjson"):
            # Text files only: the preview shows how the chosen one reads.
            self.encoding_box = QComboBox()
            self.encoding_box.addItems(list(ENCODINGS))
            self.encoding_box.setCurrentText(self.encoding)
            self.encoding_box.setAccessibleName("Text encoding of the file")
            self.encoding_box.currentTextChanged.connect(self.encodingChosen.emit)
            form.addRow("Encoding:", self.encoding_box)
        form.addRow("Metric:", self.metric_box)
        form.addRow("Unit:", self.unit_box)
        form.addRow("Platform:", self.platform_box)
        form.addRow("Task:", self.task_box)
        form.addRow("Source label:", self.label_box)
        form.addRow("Wide file: value columns", self._build_unpivot())
        form.addRow("Duplicates:", self.skip_existing_box)
        return form

    def _build_unpivot(self) -> QHBoxLayout:
        self.unpivot = QListWidget()
        self.unpivot.setMaximumHeight(self.fontMetrics().height() * 5)
        for col in self.preview.columns:
            it = QListWidgetItem(col)
            it.setFlags(it.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            it.setCheckState(Qt.CheckState.Unchecked)
            self.unpivot.addItem(it)
        self.unpivot_into = QComboBox()
        self.unpivot_into.addItems(
            ["model", "variant", "platform", "dataset", "framework"]
        )
        wide = QHBoxLayout()
        wide.addWidget(self.unpivot, 1)
        wide.addWidget(QLabel("column names become:"))
        wide.addWidget(self.unpivot_into)
        return wide

    def _build_buttons(self) -> QDialogButtonBox:
        self.check_button = QPushButton("Check")
        self.import_button = QPushButton("Import")
        self.cancel_button = QPushButton("Cancel import")
        self.cancel_button.hide()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        for b in (self.check_button, self.import_button, self.cancel_button):
            buttons.addButton(b, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        self.check_button.clicked.connect(lambda: self.checkRequested.emit(self.spec()))
        self.import_button.clicked.connect(
            lambda: self.importRequested.emit(self.spec())
        )
        self.cancel_button.clicked.connect(self.cancelRequested.emit)
        return buttons

    def refresh_names(self, catalogue: Catalogue | None = None) -> None:
        """The names of the mapped columns, as the entity tables read them."""
        if catalogue is not None:
            self.names.catalogue = catalogue
        cols = {c: i for i, c in enumerate(self.preview.columns)}
        values = {
            f: [format_cell(r[cols[c]]) for r in self.preview.rows]
            for f, c in self.spec().columns.items()
            if c in cols
        }
        self.names.show_names(values)

    def spec(self) -> ImportSpec:
        cols = {
            c.currentText(): name
            for c, name in zip(self.maps, self.preview.columns)
            if c.currentText() != IGNORE
        }
        consts = {}
        if self.metric_box.currentIndex() > 0:
            consts["metric"] = self.metric_box.currentText()
        if self.task_box.currentIndex() > 0:
            consts["task"] = self.task_box.currentText()
        for key, box in (("unit", self.unit_box), ("platform", self.platform_box)):
            if box.text().strip() and key not in cols:
                consts[key] = box.text().strip()
        unpivot = tuple(
            self.unpivot.item(i).text()
            for i in range(self.unpivot.count())
            if self.unpivot.item(i).checkState() == Qt.CheckState.Checked
        )
        if unpivot:
            cols = {f: c for f, c in cols.items() if c not in unpivot}
        return ImportSpec(
            self.path,
            cols,
            consts,
            unpivot,
            self.unpivot_into.currentText(),
            self.label_box.text().strip(),
            self.encoding,
            self.skip_existing_box.isChecked(),
        )

    def show_busy(self, busy: bool) -> None:
        self.progress.setVisible(busy)
        self.cancel_button.setVisible(busy)
        for b in (self.check_button, self.import_button):
            b.setEnabled(not busy)

    def show_report(self, text: str) -> None:
        self.report.setPlainText(text)
