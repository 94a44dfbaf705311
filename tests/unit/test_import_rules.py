"""Layering: domain imports nothing of ours, store no Qt, charts no widgets/SQL."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[2] / "ipubench_gui"

# layer -> (allowed ipubench_gui subpackages, forbidden third-party roots)
RULES = {
    "domain": ({"domain"}, {"PySide6", "pyqtgraph", "duckdb", "superqt", "numpy"}),
    "store": ({"domain", "store"}, {"PySide6", "pyqtgraph", "superqt"}),
    "charts": ({"domain", "charts"}, {"duckdb", "superqt"}),
}


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append(node.module)
    return out


@pytest.mark.parametrize("layer", sorted(RULES))
def test_layer_imports(layer):
    allowed, forbidden = RULES[layer]
    files = sorted((PKG / layer).rglob("*.py"))
    assert files
    bad = []
    for f in files:
        for mod in _imports(f):
            parts = mod.split(".")
            if parts[0] == "ipubench_gui":
                if len(parts) < 2 or parts[1] not in allowed | {"__init__"}:
                    if mod != "ipubench_gui":  # __version__ only
                        bad.append(f"{f.name}: {mod}")
            elif parts[0] in forbidden:
                bad.append(f"{f.name}: {mod}")
    assert bad == []


def test_every_module_starts_with_a_docstring_and_future_import():
    for f in PKG.rglob("*.py"):
        src = f.read_text(encoding="utf-8")
        tree = ast.parse(src)
        assert ast.get_docstring(tree), f"{f} has no module docstring"
        if f.name != "__init__.py":
            assert "from __future__ import annotations" in src, f
