"""ExportDialog: size, format, titles and footnote for a slide-ready chart."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from ipubench_gui.charts.export import (
    ExportOptions,
    copy_to_clipboard,
    export,
)
from ipubench_gui.domain.files import ExportError
from ipubench_gui.domain.plots import Plot
from ipubench_gui.ui import settings_store as ss
from ipubench_gui.ui.widgets.message_box import show_warning


@contextmanager
def busy_cursor():
    """A wait cursor while a large export renders on the GUI thread (Qt widgets
    cannot render elsewhere): a 4K export takes a noticeable moment (tests/bench)."""
    QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
    try:
        yield
    finally:
        QApplication.restoreOverrideCursor()


SIZES = (
    ("1920 × 1080 (Full HD slide)", (1920, 1080)),
    ("3840 × 2160 (4K slide)", (3840, 2160)),
    ("Custom", None),
)
FILTERS = {
    "png": "PNG image (*.png)",
    "svg": "SVG vector (*.svg)",
    "pdf": "PDF document (*.pdf)",
}


class ExportDialog(QDialog):
    """Fills ExportOptions; writes the file or the clipboard when asked."""

    def __init__(self, plot: Plot, subtitle: str, footnote: str, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Export chart")
        self.plot = plot
        self.size_box = QComboBox()
        for label, size in SIZES:
            self.size_box.addItem(label, size)
        self.w_box = QSpinBox(minimum=64, maximum=16384, value=1920, suffix=" px")
        self.h_box = QSpinBox(minimum=64, maximum=16384, value=1080, suffix=" px")
        custom = QWidget()
        cl = QHBoxLayout(custom)
        cl.setContentsMargins(0, 0, 0, 0)
        cl.addWidget(self.w_box)
        cl.addWidget(self.h_box)
        self.size_box.currentIndexChanged.connect(self._on_size_changed)
        self.format_box = QComboBox()
        for key, label in FILTERS.items():
            self.format_box.addItem(label, key)
        last = ss.load_text(ss.LAST_EXPORT_FORMAT, "png")
        self.format_box.setCurrentIndex(max(self.format_box.findData(last), 0))
        self.title = QLineEdit(plot.title)
        self.subtitle = QLineEdit(subtitle)
        self.footnote = QPlainTextEdit(footnote)
        self.footnote.setFixedHeight(self.fontMetrics().height() * 5)
        self.transparent = QCheckBox("Transparent background (PNG)")
        self.dark = QCheckBox("Dark background (for dark slides)")
        form = QFormLayout(self)
        form.addRow("Size:", self.size_box)
        form.addRow("", custom)
        form.addRow("Format:", self.format_box)
        form.addRow("Title:", self.title)
        form.addRow("Subtitle:", self.subtitle)
        form.addRow("Footnote:", self.footnote)
        form.addRow("", self.transparent)
        form.addRow("", self.dark)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.copy_button = QPushButton("Copy to clipboard")
        self.save_button = QPushButton("Save…")
        buttons.addButton(self.copy_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.save_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.rejected.connect(self.reject)
        self.copy_button.clicked.connect(self._on_copy)
        self.save_button.clicked.connect(self._on_save)
        form.addRow(buttons)
        # Enter saves: a default button only takes once the button belongs to
        # the dialog (set before, Cancel stayed the default).
        self.save_button.setDefault(True)
        self._on_size_changed()

    def _on_size_changed(self, *_):
        size = self.size_box.currentData()
        for box in (self.w_box, self.h_box):
            box.setEnabled(size is None)
        if size:
            self.w_box.setValue(size[0])
            self.h_box.setValue(size[1])

    def options(self) -> ExportOptions:
        return ExportOptions(
            self.w_box.value(),
            self.h_box.value(),
            self.title.text(),
            self.subtitle.text(),
            self.footnote.toPlainText(),
            self.transparent.isChecked(),
            self.dark.isChecked(),
        )

    def save_to(self, path: Path) -> Path:
        """Export to ``path``; raises ExportError with a message for users."""
        with busy_cursor():
            out = export(self.plot, path, self.options())
        ss.save_text(ss.LAST_EXPORT_DIR, str(out.parent))
        ss.save_text(ss.LAST_EXPORT_FORMAT, out.suffix.lstrip(".").lower())
        return out

    def _on_save(self) -> None:
        fmt = self.format_box.currentData()
        folder = ss.load_text(ss.LAST_EXPORT_DIR, str(Path.home()))
        name = "".join(c if c.isalnum() else "-" for c in self.title.text()).strip("-")
        path, _ = QFileDialog.getSaveFileName(
            self,
            "Export chart",
            str(Path(folder) / f"{name or 'chart'}.{fmt}"),
            ";;".join(FILTERS.values()),
            FILTERS[fmt],
        )
        if not path:
            return
        if not Path(path).suffix:
            path += f".{fmt}"
        try:
            self.save_to(Path(path))
        except ExportError as exc:
            show_warning(self, "Export failed", str(exc))
            return
        self.accept()

    def _on_copy(self) -> None:
        with busy_cursor():
            copy_to_clipboard(self.plot, self.options())
        self.accept()
