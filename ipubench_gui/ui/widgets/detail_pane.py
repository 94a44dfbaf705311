"""DetailPane: the selected results' configuration and provenance, with links."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTextBrowser

from ipubench_gui.domain.chartrows import config_label
from ipubench_gui.domain.format import format_number, provenance_lines, shown_unit


def _linked(word: str) -> str:
    """A word of a detail line, as HTML: addresses are links."""
    w = html.escape(word)
    if word.startswith(("http://", "https://")):
        return f'<a href="{w}">{w}</a>'
    if word.startswith("www."):
        return f'<a href="https://{w}">{w}</a>'
    return w


class DetailPane(QTextBrowser):
    def __init__(self, parent=None):
        super().__init__(parent)
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
                lines.append(f"<b>{html.escape(label)}:</b> {v}")
            unit = shown_unit(r)
            value = f"{format_number(r.get('value'))} {unit}".strip()
            if r.get("latency_ms") is not None:
                value += f" at {format_number(r['latency_ms'])} ms"
            parts.append(
                f"<p><b>{html.escape(config_label(r))}</b><br>"
                f"{html.escape(str(r.get('metric', '')))}: {html.escape(value)}"
                f"<br>{'<br>'.join(lines)}<br><small>id {r.get('result_id')}"
                "</small></p>"
            )
        if len(rows) > 20:
            parts.append(f"<p>… and {len(rows) - 20} more selected.</p>")
        self.setHtml("".join(parts))

    def show_text(self, text: str, about: tuple[str, ...] = ()) -> None:
        """``text``, about the results ``about`` (none: about no result)."""
        self.about = about
        lines = [html.escape(x) for x in text.splitlines()]
        self.setHtml("<p>" + "<br>".join(lines) + "</p>")
