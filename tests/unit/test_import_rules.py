"""Layering: domain imports nothing of ours, store no Qt, charts no widgets/SQL."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[2] / "ipubench_gui"

# layer -> (allowed ipubench_gui subpackages, forbidden third-party roots)
RULES = {
    # domain reads its bundled tables (data/metrics.csv) through paths alone
    "domain": (
        {"domain", "paths"},
        {"PySide6", "pyqtgraph", "duckdb", "superqt", "numpy"},
    ),
    "store": ({"domain", "store"}, {"PySide6", "pyqtgraph", "superqt"}),
    # the use cases, called alike by the window and the command line
    "service": (
        {"domain", "store", "service", "paths"},
        {"PySide6", "pyqtgraph", "superqt"},
    ),
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


def _module_graph() -> dict[str, set[str]]:
    """Module -> the modules of ours it imports, at its top or inside a
    function alike (an import deferred for start-up time still ties the two)."""
    mods = {}
    for f in PKG.rglob("*.py"):
        parts = ("ipubench_gui", *f.relative_to(PKG).with_suffix("").parts)
        mods[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = f
    graph: dict[str, set[str]] = {}
    for mod, f in mods.items():
        used = set()
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                used |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                used |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
        graph[mod] = {m for m in used if m in mods and m not in (mod, "ipubench_gui")}
    return graph


def test_no_import_circle():
    """No module reaches itself through the modules it imports: each can be
    read (and changed) knowing only what lies below it."""
    graph = _module_graph()
    circles = []
    for start in sorted(graph):
        seen, todo = set(), list(graph[start])
        while todo:
            m = todo.pop()
            if m == start:
                circles.append(start)
                break
            if m not in seen:
                seen.add(m)
                todo += graph[m]
    assert circles == []


def test_the_window_imports_nothing_of_the_command_line():
    """ui/ sits below the entry points (app.py, cli.py and its commands), never
    above them: what both need (the version text) lives beneath both."""
    top = {"ipubench_gui.app", "ipubench_gui.cli", "ipubench_gui.selftest"}
    top |= {m for m in _module_graph() if m.startswith("ipubench_gui.commands")}
    bad = {
        (m, t)
        for m, used in _module_graph().items()
        if m.startswith("ipubench_gui.ui")
        for t in used & top
    }
    assert bad == set()


# store/'s parts -> the parts each may import ("" is store/ itself: the
# connection, the identifier whitelist and a file's health). Nothing imports
# upwards: a part can be read knowing only the parts it names.
STORE_PARTS = {
    "": set(),
    "query": {""},
    "bundled": {""},
    "user": {"", "query", "bundled"},
    "mlperf": {"", "user"},
    "export": {"", "query", "user"},
}


def _store_part(mod: str) -> str:
    """The part of store/ that module ``mod`` (dotted) belongs to."""
    parts = mod.split(".")[2:]
    return parts[0] if len(parts) > 1 and parts[0] in STORE_PARTS else ""


def test_store_parts_import_only_the_parts_below_them():
    graph = _module_graph()
    assert {_store_part(m) for m in graph if m.startswith("ipubench_gui.store.")} == (
        set(STORE_PARTS)
    )
    bad = sorted(
        (m, t)
        for m, used in graph.items()
        if m.startswith("ipubench_gui.store.")
        for t in used
        if t.startswith("ipubench_gui.store.")
        and _store_part(t) != _store_part(m)
        and _store_part(t) not in STORE_PARTS[_store_part(m)]
    )
    assert bad == []


@functools.cache
def _defined(path: Path) -> set[str]:
    """Names a module defines at its top level (not those it imports)."""
    names = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {
                n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)
            }
    return names


def test_names_of_the_store_are_imported_from_where_they_are_defined():
    """No module of store/ hands on names it imported: a reader who follows
    an import lands on the definition."""
    root = PKG.parent
    bad = []
    for f in [*PKG.rglob("*.py"), *(root / "tests").rglob("*.py")]:
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if not (
                isinstance(node, ast.ImportFrom)
                and node.level == 0
                and (node.module or "").startswith("ipubench_gui.store")
            ):
                continue
            where = root / Path(*node.module.split("."))
            src = where / "__init__.py" if where.is_dir() else where.with_suffix(".py")
            defined = _defined(src)
            for a in node.names:
                sub = where / a.name
                if a.name not in defined and not (
                    sub.is_dir() or sub.with_suffix(".py").exists()
                ):
                    bad.append(f"{f.relative_to(root)}: {node.module}.{a.name}")
    assert bad == []


# ui/ reaches the store through service/ (the use cases) and the query runner
# (runner.py: the one way to run a job off the GUI thread, which owns the
# Database). Every ui module may name store.db's types: the Database a job of
# the runner is handed, the QueryResult it answers with, the Cancelled it may
# raise (no SQL is reachable that way: queries are built in store.query,
# which ui may not import).
UI_STORE_ANY = {"db"}
# Modules that still import the store directly, each a named exception:
# none is left (an import's value types are domain/import_spec's), and none
# may be added.
UI_STORE_LEFT: dict[str, set[str]] = {}


def test_the_window_reaches_the_store_through_the_service_layer():
    store = "ipubench_gui.store."
    bad, used_left = {}, {}
    for m, used in _module_graph().items():
        if not m.startswith("ipubench_gui.ui"):
            continue
        mods = {t.removeprefix(store) for t in used if t.startswith(store)}
        # a package imported for its modules ("from store.query import queries")
        mods = {t for t in mods if not any(u.startswith(t + ".") for u in mods)}
        extra = mods - UI_STORE_ANY - UI_STORE_LEFT.get(m, set())
        if extra:
            bad[m] = sorted(extra)
        if m in UI_STORE_LEFT:
            used_left[m] = mods & UI_STORE_LEFT[m]
    assert bad == {}
    # what has moved leaves the list, so it only shrinks
    assert used_left == UI_STORE_LEFT
