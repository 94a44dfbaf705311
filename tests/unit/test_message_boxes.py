"""One way to show a message box: ui/widgets/message_box.py. A static
``QMessageBox.warning`` (or critical, information) elsewhere runs a nested
event loop in which store answers keep arriving; nothing else calls one."""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parents[2] / "ipubench_gui"
STATIC = {"warning", "critical", "information", "about"}


def test_message_boxes_are_shown_one_way():
    bad = []
    for f in PKG.rglob("*.py"):
        if f.name == "message_box.py":
            continue
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in STATIC
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "QMessageBox"
            ):
                bad.append(f"{f.relative_to(PKG)}:{node.lineno}")
    assert bad == []
