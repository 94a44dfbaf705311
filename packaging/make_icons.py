"""Render resources/icons/app.svg to the PNG sizes, .ico and .icns the platforms use.

Run after changing the SVG: ``python packaging/make_icons.py``. The outputs are
committed, so a build needs no image tools. ICO and ICNS are written directly
as containers of PNG images (both formats allow that since Windows Vista /
macOS 10.7), which avoids another dependency.
"""

from __future__ import annotations

import os
import struct
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt  # noqa: E402
from PySide6.QtGui import QGuiApplication, QImage, QPainter  # noqa: E402
from PySide6.QtSvg import QSvgRenderer  # noqa: E402

ICONS = Path(__file__).resolve().parents[1] / "resources" / "icons"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICNS_TYPES = {
    16: b"icp4",
    32: b"icp5",
    64: b"icp6",
    128: b"ic07",
    256: b"ic08",
    512: b"ic09",
}


def render(size: int) -> bytes:
    img = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    img.fill(Qt.GlobalColor.transparent)
    p = QPainter(img)
    QSvgRenderer(str(ICONS / "app.svg")).render(p)
    p.end()
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    img.save(buf, "PNG")
    return bytes(data)


def ico(pngs: dict[int, bytes]) -> bytes:
    sizes = [s for s in sorted(pngs) if s <= 256]
    head = struct.pack("<HHH", 0, 1, len(sizes))
    offset = 6 + 16 * len(sizes)
    entries, blobs = b"", b""
    for s in sizes:
        data = pngs[s]
        entries += struct.pack(
            "<BBBBHHII", s % 256, s % 256, 0, 0, 1, 32, len(data), offset + len(blobs)
        )
        blobs += data
    return head + entries + blobs


def icns(pngs: dict[int, bytes]) -> bytes:
    body = b"".join(
        t + struct.pack(">I", len(pngs[s]) + 8) + pngs[s] for s, t in ICNS_TYPES.items()
    )
    return b"icns" + struct.pack(">I", len(body) + 8) + body


def main() -> int:
    QGuiApplication(sys.argv[:1])
    pngs = {s: render(s) for s in SIZES}
    for s, data in pngs.items():
        (ICONS / f"app-{s}.png").write_bytes(data)
    (ICONS / "app.ico").write_bytes(ico(pngs))
    (ICONS / "app.icns").write_bytes(icns(pngs))
    print(f"wrote {len(pngs)} PNGs, app.ico and app.icns to {ICONS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
