"""The comparison as a picture: an HTML table painted by Qt, at slide size."""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtGui import QColor, QImage, QPainter, QTextDocument

from ipubench_gui.domain import compare
from ipubench_gui.domain.files import ExportError, atomic_write
from ipubench_gui.service.compare import Compared


def comparison_html(c: Compared, px: int = 22) -> str:
    rows, baseline = c.rows, c.baseline
    t = compare.table(rows, baseline, c.comparison.focus)
    head = "".join(
        f"<th>{html.escape(r['result_id'])}{' ★' if i == baseline else ''}</th>"
        for i, r in enumerate(rows)
    )
    body = []
    for cr in compare.shown(t, c.comparison.only_differences):
        cells = "".join(
            _cell(cr.shown(i), cr.differs and cr.kind == "attribute", not v)
            for i, v in enumerate(cr.values)
        )
        label = (
            f"<b>{html.escape(cr.label)}</b>"
            if cr.kind == "ratio"
            else html.escape(cr.label)
        )
        body.append(f"<tr><th align=left>{label}</th>{cells}</tr>")
    return (
        f"<div style='font-size:{px}px; color:#222'>"
        "<table cellspacing=0 cellpadding=6 border=1 style='border-color:#bbb'>"
        f"<tr><th></th>{head}</tr>{''.join(body)}</table>"
        f"<p style='font-size:{round(px * 0.7)}px; color:#555'>★ baseline; "
        "highlighted: attributes that differ; <i>unknown</i>: blank, neither the "
        "same nor different.</p></div>"
    )


def _cell(text: str, differs: bool, unknown: bool) -> str:
    bg = ' style="background:#FBE3B3"' if differs else ""
    shown = (
        f"<i style='color:#777'>{html.escape(text)}</i>"
        if unknown and text
        else (html.escape(text))
    )
    return f"<td{bg}>{shown}</td>"


def save_png(c: Compared, path: Path, width: int = 1920) -> Path:
    """The comparison as shown (only differences and focus honoured), painted."""
    doc = QTextDocument()
    doc.setHtml(comparison_html(c, px=max(14, width // 80)))
    doc.setTextWidth(width - 40)
    h = int(doc.size().height()) + 40
    img = QImage(width, h, QImage.Format.Format_ARGB32_Premultiplied)
    img.fill(QColor("#FFFFFF"))
    p = QPainter(img)
    p.translate(20, 20)
    doc.drawContents(p)
    p.end()

    def save(tmp: str) -> None:
        if not img.save(tmp, "PNG"):
            raise OSError(f"Qt could not encode {path.name}")

    return atomic_write(path, save, ExportError)
