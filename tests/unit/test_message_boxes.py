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


# What a controller says goes through these; its words are declared in its
# ``Say`` class (ui/messages.py), never written where they are said.
SAYING = {"showMessage", "show_warning", "show_report", "warn", "say", "_say", "tell"}


def _literal(node: ast.AST) -> bool:
    """Text written in place: a string, an f-string, or one joined to them."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return bool(node.value)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp):
        return _literal(node.left) or _literal(node.right)
    return False


def test_controllers_say_only_declared_messages():
    bad = []
    for f in sorted((PKG / "ui").glob("*controller*.py")):
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in SAYING
                and any(_literal(a) for a in node.args)
            ):
                bad.append(f"{f.name}:{node.lineno}")
    assert bad == []
