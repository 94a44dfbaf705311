"""Start-up speed-ups for the window's process; only ``cli.main`` calls them.

Two private internals are patched here, each for tens of milliseconds of every
start, and nowhere else: importing ``ipubench_gui`` or any submodule (tests,
the command line's exports, a notebook) leaves ``sys.meta_path`` and PySide6
as they are. ``prepare()`` is called by the GUI entry point and by
``--self-test``, which starts like the window does (checked in tests/frozen).

1. PySide6's per-import source scan. Once PySide6 is imported, every
   module imported after it is passed to
   ``shibokensupport.feature.feature_imported``, which decides whether the
   module "uses PySide" (for the opt-in ``from __feature__ import snake_case``
   syntax) by reading its whole source with ``inspect.getsource`` and searching
   it for the word "PySide6". numpy, duckdb, pyqtgraph and this app are several
   hundred modules, read and tokenised for nothing: the app does not use
   ``__feature__``. ``import_pyside()`` replaces that one check with a test of
   the module's name, which gives the same answer for this app's modules and
   PySide6's own. The import hook and the feature machinery stay as they are
   (a module may still say ``from __feature__ import ...``; tests/unit checks
   it). If a PySide6 release renames the function, nothing is replaced.

2. pyqtgraph's eager Qt mirrors (most of its import time). pyqtgraph keeps its own
   "mirror" modules of QtCore, QtGui and QtWidgets, filled when
   ``pyqtgraph.Qt`` is imported by copying every name across: ``for o in
   dir(src): setattr(dst, o, getattr(src, o))``. PySide6 creates its classes
   lazily, on first attribute access, so that copy creates all ~750 of them,
   though the app uses about a quarter. ``install_pg_hook()`` hooks that one
   module's import: while ``pyqtgraph.Qt`` runs, the ``dir()`` its copy loop
   calls returns nothing for the three PySide6 modules, and each mirror gets a
   module ``__getattr__`` (PEP 562) that fetches a name from PySide6 on first
   use and keeps it. Everything else pyqtgraph's module does (its own shims,
   ``QOpenGLWidget``, ``QFileSystemModel``) runs unchanged. The hook removes
   itself after that import; if pyqtgraph changes how it copies, the hook
   simply finds nothing to skip. The app itself imports Qt classes from
   PySide6, never through the mirrors.
"""

from __future__ import annotations

import builtins
import importlib.util
import sys
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Any

from ipubench_gui import trace


def prepare() -> None:
    """Both speed-ups, in the order the window's start needs them: call before
    anything imports pyqtgraph (PySide6 is imported here)."""
    install_pg_hook()
    import_pyside()


# -- 1. PySide6 without its per-module source scan ------------------------------

# Top-level packages whose modules use PySide6 (what the source scan finds).
USES_PYSIDE = ("PySide6", "ipubench_gui", "pyqtgraph", "superqt", "pytestqt")


def _uses_pyside(module: ModuleType) -> bool:
    name = getattr(module, "__name__", "") or ""
    return name.split(".", 1)[0] in USES_PYSIDE or name == "__main__"


def import_pyside() -> bool:
    """Import PySide6.QtCore and cheapen its per-import check; True if done."""
    import PySide6.QtCore  # noqa: F401  (installs the feature import hook)

    feature = sys.modules.get("shibokensupport.feature")
    if feature is None or not callable(getattr(feature, "_mod_uses_pyside", None)):
        return False
    feature._mod_uses_pyside = _uses_pyside
    trace.mark("PySide6 imported; per-module source scan replaced")
    return True


# -- 2. pyqtgraph without materialising every Qt class ----------------------------

TARGET = "pyqtgraph.Qt"
MIRRORED = ("QtCore", "QtGui", "QtWidgets")
lazy_mirrors: list[str] = []  # the mirrors this import left to fill on use


def _mirror_lazily(mirror: ModuleType, source: ModuleType) -> None:
    def __getattr__(name: str) -> Any:
        try:
            value = getattr(source, name)
        except AttributeError:
            msg = f"module {mirror.__name__!r} has no attribute {name!r}"
            raise AttributeError(msg, name=name, obj=mirror) from None
        setattr(mirror, name, value)
        return value

    mirror.__getattr__ = __getattr__  # type: ignore[method-assign]
    lazy_mirrors.append(mirror.__name__.rpartition(".")[2])


def _dir_for_copy(*args: object) -> list[str]:
    """``dir`` as ``pyqtgraph.Qt`` sees it while it runs."""
    if len(args) == 1:
        source = args[0]
        package, _, name = getattr(source, "__name__", "").rpartition(".")
        mirror = sys.modules.get(f"{TARGET}.{name}")
        if package == "PySide6" and name in MIRRORED and mirror is not None:
            assert isinstance(source, ModuleType)
            _mirror_lazily(mirror, source)
            return []
    return builtins.dir(*args)


class _Loader:
    """The real loader, with ``dir`` injected into the module it runs."""

    def __init__(self, loader: Any):
        self._loader = loader

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        module.__dict__["dir"] = _dir_for_copy
        try:
            self._loader.exec_module(module)
        finally:
            module.__dict__.pop("dir", None)
        trace.mark(f"pyqtgraph.Qt imported; lazy Qt mirrors: {', '.join(lazy_mirrors)}")

    def __getattr__(self, name: str) -> Any:
        return getattr(self._loader, name)


class _Finder:
    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> ModuleSpec | None:
        if fullname != TARGET:
            return None
        uninstall_pg_hook()
        spec = importlib.util.find_spec(fullname)  # the finders after this one
        if spec is None or not hasattr(spec.loader, "exec_module"):
            return spec
        spec.loader = _Loader(spec.loader)  # type: ignore[assignment]
        return spec


_finder = _Finder()


def install_pg_hook() -> None:
    if TARGET not in sys.modules and _finder not in sys.meta_path:
        sys.meta_path.insert(0, _finder)  # type: ignore[arg-type]


def uninstall_pg_hook() -> None:
    if _finder in sys.meta_path:
        sys.meta_path.remove(_finder)  # type: ignore[arg-type]
