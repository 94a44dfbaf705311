"""NamesPanel: how the names in an import's first rows read against the entity
tables ("ResNet50 → ResNet-50 v1.5 (alias)", "Foo (not recognised)"), and
"Treat as alias of…" for a name no table knows (saved as a user alias)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ipubench_gui.domain.entities import Catalogue

# Import field -> kind of entity its names are.
KIND_OF_FIELD = {
    "model": "model",
    "platform": "system",
    "framework": "framework",
    "dataset": "dataset",
    "unit": "unit",
}


class NamesPanel(QWidget):
    """Emits ``aliasChosen(kind, alias, canonical)`` when the user says what an
    unknown name means; ``show_names`` renders the names of the preview."""

    aliasChosen = Signal(str, str, str)

    def __init__(self, catalogue: Catalogue | None, parent=None):
        super().__init__(parent)
        self.catalogue = catalogue
        self.list = QListWidget()
        self.list.setAccessibleName("Names in the file and what they mean")
        self.list.setMaximumHeight(self.fontMetrics().height() * 6)
        self.alias_button = QPushButton("Treat as alias of…")
        self.alias_button.setToolTip(
            "Say which known name this one means; saved in your user data"
        )
        self.alias_button.setEnabled(False)
        self.alias_button.clicked.connect(self.choose_alias)
        self.list.currentItemChanged.connect(lambda *_: self._update_button())
        head = QHBoxLayout()
        head.addWidget(QLabel("Names (first rows):"))
        head.addStretch(1)
        head.addWidget(self.alias_button)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addLayout(head)
        lay.addWidget(self.list)

    def show_names(self, values: Mapping[str, Sequence[str]]) -> None:
        """``values``: import field -> the names its column holds."""
        self.list.clear()
        if self.catalogue is None:
            return
        for field, names in values.items():
            kind = KIND_OF_FIELD.get(field)
            if kind is None:
                continue
            for name in dict.fromkeys(n for n in names if n):
                res = self.catalogue.resolve(kind, name)
                it = QListWidgetItem(f"{field}: {res.label}")
                it.setData(Qt.ItemDataRole.UserRole, (kind, name, res.recognised))
                self.list.addItem(it)
        self._update_button()

    def _update_button(self) -> None:
        it = self.list.currentItem()
        data = it.data(Qt.ItemDataRole.UserRole) if it else None
        self.alias_button.setEnabled(bool(data) and not data[2])

    def choose_alias(self) -> None:
        it = self.list.currentItem()
        if it is None or self.catalogue is None:
            return
        kind, name, _known = it.data(Qt.ItemDataRole.UserRole)
        choices = list(self.catalogue.names(kind))
        canon, ok = QInputDialog.getItem(
            self, "Treat as alias of…", f"'{name}' is the {kind}:", choices, 0, False
        )
        if ok and canon:
            self.aliasChosen.emit(kind, name, canon)
