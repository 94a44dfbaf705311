"""Controllers look rows up in ``ui/results.Results`` and ask the window
through ``ui/window_port.WindowPort``: none reads rows back out of the table
model or the chart's drawing, or says things through the window's widgets."""

from __future__ import annotations

import ast
from pathlib import Path

UI = Path(__file__).resolve().parents[2] / "ipubench_gui" / "ui"

# What reading the window's widgets looks like: the table model's rows, the
# chart's hits, the status bar, the current cell of a view.
READS = {
    "row_of",
    "row_dict",
    "hits",
    "statusBar",
    "current_row",
    "current_result",
    "cells_in_use",
    "currentIndex",
}


def test_controllers_read_no_widget_of_the_window():
    bad = []
    for f in sorted(UI.glob("*controller*.py")):
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in READS:
                bad.append(f"{f.name}:{node.lineno} .{node.attr}")
    assert bad == []


def test_the_window_port_is_what_reads_them():
    """The rule above is not met by reading nothing at all: the port does
    read the window (else the test above would pass for want of a case)."""
    text = (UI / "window_port.py").read_text(encoding="utf-8")
    assert {"statusBar", "current_row", "currentIndex"} <= {
        n.attr for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Attribute)
    }
