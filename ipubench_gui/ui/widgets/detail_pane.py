"""DetailPane: the selected results' configuration and provenance, with links."""

from __future__ import annotations

import html
import re

from PySide6.QtCore import QMimeData, QSize, Qt
from PySide6.QtGui import QTextOption
from PySide6.QtWidgets import QTextBrowser

from ipubench_gui.domain.chartrows import config_label
from ipubench_gui.domain.format import format_number, provenance_lines, shown_unit

# Characters of average width a line holds at least: the pane's narrowest
# (at 1280x720 it was squeezed to ~60 px and broke "throughput" in two).
READABLE_CHARS = 28
# A commit id in an address (40 hex digits, wider than the pane): shown as
# git shortens it; the link and its tooltip keep it whole.
_COMMIT = re.compile(r"(?<=/)([0-9a-f]{7})[0-9a-f]{5,}(?=/|$)")
# Where a line may break besides spaces, / and -: between the words of an
# identifier (MLPerf system names such as samsung_supercomputer21_dgxa100_n171
# are wider than the pane) and every 8 digits of a hash printed whole. Marked
# with zero-width spaces, which copying and toPlainText leave out.
ZWSP = "\u200b"
_BETWEEN_WORDS = re.compile(r"_(?=\w)")
_HASH = re.compile(r"[0-9a-f]{16,}")


def _shown(text: str) -> str:
    """``text`` as HTML, with the pane's break opportunities."""
    text = _BETWEEN_WORDS.sub("_" + ZWSP, html.escape(text))
    return _HASH.sub(lambda m: ZWSP.join(re.findall(".{1,8}", m[0])), text)


def _linked(word: str) -> str:
    """A word of a detail line, as HTML: addresses are links."""
    if word.startswith(("http://", "https://")):
        href = html.escape(word)
    elif word.startswith("www."):
        href = f"https://{html.escape(word)}"
    else:
        return _shown(word)
    shown = _shown(_COMMIT.sub(r"\1…", word))
    return f'<a href="{href}" title="{href}">{shown}</a>'


class DetailPane(QTextBrowser):
    def __init__(self, parent=None):
        super().__init__(parent)
        # Lines break between words (and after the / and - of an address),
        # never inside one: Qt's default breaks anywhere when a word is wider
        # than the pane.
        self.setWordWrapMode(QTextOption.WrapMode.WordWrap)
        self.setOpenExternalLinks(True)
        # Tab moves between panels, never between the links in here (every
        # vendor row names its page's addresses): links are for the mouse,
        # and the text is selectable to copy one.
        self.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextBrowserInteraction
            & ~Qt.TextInteractionFlag.LinksAccessibleByKeyboard
        )
        self.setAccessibleName("Result details")
        # Results a text shown here is about (a chart point, an explained
        # row): dropped with them when a filter hides them. The selected
        # rows' details follow the selection instead.
        self.about: tuple[str, ...] = ()
        self.show_rows([])

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt API)
        """Room for READABLE_CHARS characters a line, beside a scroll bar."""
        hint = super().minimumSizeHint()
        text = self.fontMetrics().averageCharWidth() * READABLE_CHARS
        edges = (
            2 * self.frameWidth()
            + 2 * round(self.document().documentMargin())
            + self.verticalScrollBar().sizeHint().width()
        )
        return QSize(max(hint.width(), text + edges), hint.height())

    def toPlainText(self) -> str:  # noqa: N802 (Qt API)
        """The text shown, without its break marks."""
        return super().toPlainText().replace(ZWSP, "")

    def createMimeDataFromSelection(self) -> QMimeData:  # noqa: N802 (Qt API)
        """What is copied: the selection without its break marks (a system
        name or a hash pasted elsewhere is the name or hash)."""
        data = super().createMimeDataFromSelection()
        out = QMimeData()
        if data.hasHtml():
            out.setHtml(data.html().replace(ZWSP, ""))
        out.setText(data.text().replace(ZWSP, ""))
        return out

    def show_rows(self, rows: list[dict]) -> None:
        self.about = ()
        if not rows:
            self.setHtml(
                "<p><i>Select a result to see where its figure comes from.</i></p>"
            )
            return
        parts = []
        for r in rows[:20]:
            lines = []
            for line in provenance_lines(r):
                label, _, value = line.partition(": ")
                v = " ".join(_linked(w) for w in value.split(" "))
                lines.append(f"<b>{_shown(label)}:</b> {v}")
            unit = shown_unit(r)
            value = f"{format_number(r.get('value'))} {unit}".strip()
            if r.get("latency_ms") is not None:
                value += f" at {format_number(r['latency_ms'])} ms"
            rid = _shown(str(r.get("result_id")))
            parts.append(
                f"<p><b>{_shown(config_label(r))}</b><br>"
                f"{_shown(str(r.get('metric', '')))}: {_shown(value)}"
                f"<br>{'<br>'.join(lines)}<br><small>id {rid}"
                "</small></p>"
            )
        if len(rows) > 20:
            parts.append(f"<p>… and {len(rows) - 20} more selected.</p>")
        self.setHtml("".join(parts))

    def show_text(self, text: str, about: tuple[str, ...] = ()) -> None:
        """``text``, about the results ``about`` (none: about no result)."""
        self.about = about
        lines = [_shown(x) for x in text.splitlines()]
        self.setHtml("<p>" + "<br>".join(lines) + "</p>")
