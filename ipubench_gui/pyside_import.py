"""Import PySide6 without its per-module source scan (~50 ms of start-up).

Once PySide6 is imported, every module imported after it is passed to
``shibokensupport.feature.feature_imported``, which decides whether the module
"uses PySide" (for the opt-in ``from __feature__ import snake_case`` syntax) by
reading its whole source with ``inspect.getsource`` and searching it for the
word "PySide6". numpy, duckdb, pyqtgraph and this app are several hundred
modules, read and tokenised for nothing: the app does not use ``__feature__``.

``import_pyside()`` imports QtCore and replaces that one check with a test of
the module's name, which gives the same answer for this app's modules and
PySide6's own. The import hook and the feature machinery stay as they are (a
module may still say ``from __feature__ import ...``; tests/unit checks it).
If a PySide6 release renames the function, nothing is replaced.
"""

from __future__ import annotations

import sys

from ipubench_gui import trace

# Top-level packages whose modules use PySide6 (what the source scan finds).
USES_PYSIDE = ("PySide6", "ipubench_gui", "pyqtgraph", "superqt", "pytestqt")


def _uses_pyside(module) -> bool:
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
