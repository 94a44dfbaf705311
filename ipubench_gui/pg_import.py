"""Import pyqtgraph without materialising every Qt class (~80 ms of start-up).

pyqtgraph keeps its own "mirror" modules of QtCore, QtGui and QtWidgets, filled
when ``pyqtgraph.Qt`` is imported by copying every name across:
``for o in dir(src): setattr(dst, o, getattr(src, o))``. PySide6 creates its
classes lazily, on first attribute access, so that copy creates all ~750 of
them, though the app uses about a quarter. The copy costs 80 ms here, a fifth of
the whole start-up.

``install()`` (called by the package, before anything imports pyqtgraph) hooks
that one module's import: while ``pyqtgraph.Qt`` runs, the ``dir()`` its copy
loop calls returns nothing for the three PySide6 modules, and each mirror gets a
module ``__getattr__`` (PEP 562) that fetches a name from PySide6 on first use
and keeps it, so later lookups are plain dictionary hits, as before. Everything
else pyqtgraph's module does (its own shims, ``QOpenGLWidget``,
``QFileSystemModel``) runs unchanged. The hook removes itself after that import;
if pyqtgraph changes how it copies, the hook simply finds nothing to skip.
"""

from __future__ import annotations

import builtins
import importlib.util
import sys

from ipubench_gui import trace

TARGET = "pyqtgraph.Qt"
MIRRORED = ("QtCore", "QtGui", "QtWidgets")
lazy_mirrors: list[str] = []  # the mirrors this import left to fill on use


def _mirror_lazily(mirror, source) -> None:
    def __getattr__(name: str):
        try:
            value = getattr(source, name)
        except AttributeError:
            msg = f"module {mirror.__name__!r} has no attribute {name!r}"
            raise AttributeError(msg, name=name, obj=mirror) from None
        setattr(mirror, name, value)
        return value

    mirror.__getattr__ = __getattr__
    lazy_mirrors.append(mirror.__name__.rpartition(".")[2])


def _dir_for_copy(*args):
    """``dir`` as ``pyqtgraph.Qt`` sees it while it runs."""
    if len(args) == 1:
        source = args[0]
        package, _, name = getattr(source, "__name__", "").rpartition(".")
        mirror = sys.modules.get(f"{TARGET}.{name}")
        if package == "PySide6" and name in MIRRORED and mirror is not None:
            _mirror_lazily(mirror, source)
            return []
    return builtins.dir(*args)


class _Loader:
    """The real loader, with ``dir`` injected into the module it runs."""

    def __init__(self, loader):
        self._loader = loader

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module) -> None:
        module.__dict__["dir"] = _dir_for_copy
        try:
            self._loader.exec_module(module)
        finally:
            module.__dict__.pop("dir", None)
        trace.mark(f"pyqtgraph.Qt imported; lazy Qt mirrors: {', '.join(lazy_mirrors)}")

    def __getattr__(self, name: str):
        return getattr(self._loader, name)


class _Finder:
    def find_spec(self, fullname, path=None, target=None):
        if fullname != TARGET:
            return None
        uninstall()
        spec = importlib.util.find_spec(fullname)  # the finders after this one
        if spec is None or not hasattr(spec.loader, "exec_module"):
            return spec
        spec.loader = _Loader(spec.loader)
        return spec


_finder = _Finder()


def install() -> None:
    if TARGET not in sys.modules and _finder not in sys.meta_path:
        sys.meta_path.insert(0, _finder)


def uninstall() -> None:
    if _finder in sys.meta_path:
        sys.meta_path.remove(_finder)
