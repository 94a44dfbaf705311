"""Exclusions shared by the app's spec and the benchmark's minimal app, and the
app's version for the spec."""

import re
from pathlib import Path

# Qt modules the app never loads (it uses Core, Gui, Widgets, Svg, and the
# OpenGL and Test modules pyqtgraph imports), and Python packages it never uses.
EXCLUDES = [
    "tkinter",
    "IPython",
    "matplotlib",
    "scipy",
    "pandas",
    "pytest",
    "hypothesis",
    "pyinstaller",
    "PyInstaller",
    *[
        f"PySide6.{m}"
        for m in (
            "QtNetwork",
            "QtQml",
            "QtQuick",
            "QtQuickWidgets",
            "QtQuickControls2",
            "QtQuickTest",
            "QtSql",
            "QtXml",
            "QtDBus",
            "QtDesigner",
            "QtHelp",
            "QtUiTools",
            "QtConcurrent",
            "QtPrintSupport",
            "QtSvgWidgets",
            "Qt3DCore",
            "QtWebEngineCore",
            "QtMultimedia",
            "QtCharts",
            "QtPdf",
        )
    ],
]


# Plugins and files Qt would load for nothing here: other platforms than X11
# (Wayland sessions run it through XWayland) and offscreen (self-test, export
# from the command line), image formats other than PNG/SVG/ICO/JPEG,
# translations (the app is in English), QML tooling.
DROP = (
    "translations",
    "qmltooling",
    "qmllint",
    "egldeviceintegrations",
    "wayland-",
    "platforms/libqeglfs",
    "platforms/libqlinuxfb",
    "platforms/libqvnc",
    "platforms/libqvkkhrdisplay",
    "platforms/libqminimalegl",
    "platforms/libqwayland",
    "imageformats/libqtiff",
    "imageformats/libqwebp",
    "imageformats/libqtga",
    "imageformats/libqwbmp",
    "imageformats/libqgif",
    "imageformats/libqicns",
    "imageformats/libqpdf",
    "networkinformation",
    "tls/",
    "sqldrivers",
    "designer",
    "Qt6Network",
    "Qt6Qml",
    "Qt6Quick",
    "Qt6Pdf",
    "Qt6WaylandClient",
    "Qt6Sql",
)


def keep(entry) -> bool:
    dest = entry[0].replace("\\", "/")
    return not any(d in dest for d in DROP)


# Python modules as .pyc files beside the executable rather than inside the
# compressed archive: measured faster to start (tests/bench --only package).
NOARCHIVE = True


def app_version(root: Path) -> str:
    """The app's version from its one place, ``ipubench_gui/__init__.py``, read
    as text (the spec does not import the app)."""
    text = (root / "ipubench_gui" / "__init__.py").read_text(encoding="utf-8")
    m = re.search(r'^__version__ = "([^"]+)"', text, re.M)
    if not m:
        raise ValueError("no __version__ in ipubench_gui/__init__.py")
    return m[1]


def windows_version_info(template: Path, version: str) -> str:
    """packaging/version_info.txt with the version filled in: as text, and as
    four numbers (X.Y.Z -> (X, Y, Z, 0)), as Windows wants them."""
    nums = [int(n) for n in re.findall(r"\d+", version)[:4]]
    nums += [0] * (4 - len(nums))
    text = template.read_text(encoding="utf-8")
    return text.replace("{version_tuple}", repr(tuple(nums))).replace(
        "{version}", version
    )
