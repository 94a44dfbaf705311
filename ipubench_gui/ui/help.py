"""Help: the keyboard shortcuts (F1), read from the window's own actions, a
short guide (its keys read from the actions too), and About with versions and
the data's sources. "Explain this number" (Shift+F1) is domain/explain.py."""

from __future__ import annotations

import html

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QMessageBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ipubench_gui import __version__


def shortcut_rows(window: QWidget) -> list[tuple[str, str, str]]:
    """(where, action, keys) for every action under ``window`` that has a key:
    the list is the actions themselves, so it cannot drift from them."""
    out = set()
    for act in window.findChildren(QAction):
        keys = [k for k in act.shortcuts() if not k.isEmpty()]
        if not keys or not act.text():
            continue
        owner = act.parent()
        where = (
            "Window"
            if owner is window
            else (
                getattr(owner, "accessibleName", lambda: "")() or type(owner).__name__
            )
        )
        text = act.text().replace("&&", "\0").replace("&", "").replace("\0", "&")
        shown = ", ".join(
            k.toString(QKeySequence.SequenceFormat.NativeText) for k in keys
        )
        out.add((where, text.rstrip(".…"), shown))
    return sorted(out, key=lambda r: (r[0] != "Window", r[0], r[1].lower()))


def _with_close(dialog: QDialog, body: QWidget, width: int, height: int) -> None:
    """Lay out a help dialog: ``body`` over a Close button (Esc closes too)."""
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
    buttons.rejected.connect(dialog.close)
    lay = QVBoxLayout(dialog)
    lay.addWidget(body)
    lay.addWidget(buttons)
    dialog.resize(width, height)


class ShortcutsDialog(QDialog):
    def __init__(self, window: QWidget):
        super().__init__(window)
        self.setWindowTitle("Keyboard shortcuts")
        rows = shortcut_rows(window)
        self.table = QTableWidget(len(rows), 3)
        self.table.setHorizontalHeaderLabels(["Where", "Action", "Keys"])
        self.table.setAccessibleName("Keyboard shortcuts")
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        for i, row in enumerate(rows):
            for j, text in enumerate(row):
                self.table.setItem(i, j, QTableWidgetItem(text))
        h = self.table.horizontalHeader()
        h.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        for c in (0, 2):
            h.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        _with_close(self, self.table, 560, 480)

    def rows(self) -> list[tuple[str, ...]]:
        t = self.table
        return [
            tuple(t.item(i, j).text() for j in range(3)) for i in range(t.rowCount())
        ]


def about_html(sources_html: str) -> str:
    from ipubench_gui.versions import version_text  # as --version prints it

    versions = "<br>".join(html.escape(ln) for ln in version_text().splitlines())
    return (
        f"<h3>IPU Benchmark Explorer {__version__}</h3>"
        "<p>Published AI-accelerator benchmark results, filterable, with the "
        f"source of every figure.</p><p><b>Versions</b><br>{versions}</p>"
        "<p><b>Data sources</b></p>"
        + sources_html
        + "<p>Press F1 for the keyboard shortcuts.</p>"
        "<p>MLPerf is a trademark of MLCommons Association in the United States "
        "and other countries.</p>"
    )


def show_about(window: QWidget, sources_html: str) -> QMessageBox:
    box = QMessageBox(window)
    box.setWindowTitle("About IPU Benchmark Explorer")
    box.setText(about_html(sources_html))
    box.setStandardButtons(QMessageBox.StandardButton.Ok)
    box.open()
    return box


def _keys(act: QAction | None) -> str:
    if act is None or act.shortcut().isEmpty():
        return ""
    return act.shortcut().toString(QKeySequence.SequenceFormat.NativeText)


def guide_html(window: QWidget) -> str:
    """A short guide to the window; each key is read from the action it
    names, so the guide says what the keys do today."""

    def k(name: str) -> str:
        act = getattr(window, name, None)
        if act is None:  # an action a controller made: found by its text
            text = name.replace("_", " ").lower()
            act = next(
                (
                    a
                    for a in window.findChildren(QAction)
                    if a.text().replace("&", "").lower().startswith(text)
                ),
                None,
            )
        keys = _keys(act)
        return f" (<b>{html.escape(keys)}</b>)" if keys else ""

    steps = [
        (
            "Find results",
            f"Type in the search box{k('find_action')} or tick values in the "
            "filters on the left; numeric ranges are under them. Clear every "
            f"filter{k('clear_all_action')}. Every change of the filters, the "
            f"chart or the comparison can be undone{k('undo_action')} and "
            f"redone{k('redo_action')} (Edit menu), one change at a time.",
        ),
        (
            "Read a figure",
            "Select a row: Details shows where its figure comes from (the "
            "source's title, date and address, the table and row). Select a "
            f"cell and choose Help → Explain this number{k('explain_action')}: "
            "the figure as printed, how it was read and named, the value shown "
            "and every ratio built on it.",
        ),
        (
            "Compare like with like",
            f"Add selected rows to the comparison{k('add_compare_action')}. "
            "The comparator says of each pair: like for like (the same "
            "workload, and which systems it compares, chip counts first with "
            "the figures per chip), not like for like (what differs in the "
            "workload), or can't tell (what is unknown: a blank is never the "
            "same, never a difference). 'Only differences' hides the rest; "
            "Counterparts lists results that differ in exactly one thing.",
        ),
        (
            "Check the vendor's claims",
            "View → Claims audit recomputes every claim from the stored results, "
            "with the arithmetic and whose figures it rests on: confirmed or "
            "contradicted by independent figures (MLPerf logs, NVIDIA's own), "
            "consistent with the vendor's own figures only, nearest evidence "
            "only (independent figures of another setup: every difference "
            "listed, no verdict), or not checkable (with the reason).",
        ),
        (
            "Every MLPerf result, as MLCommons tabulates them",
            f"View → MLPerf results table{k('mlperf_results_table')}: a row per "
            "system and framework, a column per benchmark, minutes (chip-minutes "
            "per chip); it follows the filters, sorts by any column, and a cell "
            "chooses its result for Details, the comparison and Explain. Search "
            "finds systems by any name: 'dgx a100', 'pod16', 'tpu'.",
        ),
        (
            "Charts for slides",
            f"Choose a chart above the table; export it{k('export_chart_action')}. "
            f"Figures per accelerator chip{k('per_chip_action')} are derived "
            "here, never published, and say so.",
        ),
        (
            "Your own results",
            f"File → Import results{k('import_results')}: CSV, Parquet or JSON. "
            "Rows already stored stop an import unless you tick 'Skip rows "
            "already stored'.",
        ),
        (
            "Keep what you found",
            f"Save a view{k('save_view_action')} and open it later"
            f"{k('open_view_action')}: filters, chart and comparison come back.",
        ),
    ]
    body = "".join(
        f"<h4>{i}. {html.escape(title)}</h4><p>{text}</p>"
        for i, (title, text) in enumerate(steps, 1)
    )
    return (
        "<h3>Guide</h3>"
        + body
        + f"<p>All keys: Help → Keyboard shortcuts{k('shortcuts_action')}.</p>"
    )


class GuideDialog(QDialog):
    """Help → Guide: the guide, readable with the keyboard (Esc closes)."""

    def __init__(self, window: QWidget):
        from PySide6.QtWidgets import QTextBrowser

        super().__init__(window)
        self.setWindowTitle("Guide")
        self.text = QTextBrowser()
        self.text.setAccessibleName("Guide")
        self.text.setHtml(guide_html(window))
        _with_close(self, self.text, 620, 560)
