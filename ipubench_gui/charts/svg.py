"""Make pyqtgraph's SVG portable: what Qt draws, librsvg (Inkscape, LibreOffice,
most slide tools) draws too. Pure text in, text out; no Qt.

Two things differ outside Qt:

- Bars are ``<rect>`` elements in data coordinates under a group's
  ``matrix(...)`` transform, outlined with ``vector-effect="non-scaling-stroke"``.
  librsvg 2.54 ignores that vector effect, so the 0.75-unit white outline is
  scaled by the data-to-pixel factor (36x on a bar chart's category axis) and
  paints every bar over in white. pyqtgraph flattens paths and polylines into
  pixel coordinates but not rects; here rects are flattened the same way.
- Qt names only the font it used ("Sans Serif"), which no other renderer knows.
  Every font family list gets a CSS generic fallback (``sans-serif``).
"""

from __future__ import annotations

import html
import re
from xml.dom import minidom

GENERIC = ("serif", "sans-serif", "monospace", "cursive", "fantasy", "system-ui")
_MATRIX = re.compile(r"matrix\(([^)]*)\)")


def families(value: str) -> list[str]:
    """A CSS font-family list as names, quotes removed."""
    return [f.strip().strip("\"'").strip() for f in value.split(",") if f.strip()]


def with_fallback(value: str) -> str:
    """``value`` (a font-family list) ending in a generic family."""
    names = families(value)
    if not names or names[-1].lower() not in GENERIC:
        mono = any("mono" in n.lower() or "courier" in n.lower() for n in names)
        names.append("monospace" if mono else "sans-serif")
    return ", ".join(f"'{n}'" if " " in n else n for n in names)


def _flatten_rects(group: minidom.Element) -> None:
    """Apply ``group``'s axis-aligned matrix to its rects, then drop it (only
    when the group holds nothing but rects, so nothing else moves)."""
    m = _MATRIX.fullmatch(group.getAttribute("transform").strip())
    kids = [c for c in group.childNodes if c.nodeType == c.ELEMENT_NODE]
    if m is None or not kids or any(c.tagName != "rect" for c in kids):
        return
    a, b, c, d, e, f = (float(v) for v in m.group(1).split(","))
    if b or c:
        return  # rotated or sheared: not a bar chart's transform
    for r in kids:
        x, y = float(r.getAttribute("x") or 0), float(r.getAttribute("y") or 0)
        w, h = float(r.getAttribute("width") or 0), float(r.getAttribute("height") or 0)
        x0, x1 = sorted((a * x + e, a * (x + w) + e))
        y0, y1 = sorted((d * y + f, d * (y + h) + f))
        for name, v in (("x", x0), ("y", y0), ("width", x1 - x0), ("height", y1 - y0)):
            r.setAttribute(name, f"{v:.3f}")
    group.removeAttribute("transform")


def portable(data: bytes) -> bytes:
    """pyqtgraph's SVG export, rewritten to render alike in Qt and librsvg."""
    doc = minidom.parseString(data)
    for el in doc.getElementsByTagName("*"):
        if el.hasAttribute("font-family"):
            el.setAttribute(
                "font-family", with_fallback(el.getAttribute("font-family"))
            )
    for g in doc.getElementsByTagName("g"):
        if g.hasAttribute("transform"):
            _flatten_rects(g)
    return doc.toxml(encoding="UTF-8")


def font_families(svg_text: str) -> list[str]:
    """Every font-family value in an SVG's text (attributes and styles)."""
    found = re.findall(r'font-family="([^"]*)"', svg_text)
    found += re.findall(r"font-family:\s*([^;\"]*)", svg_text)
    return [html.unescape(v) for v in found]
