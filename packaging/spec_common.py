"""Exclusions shared by the app's spec and the benchmark's minimal app."""

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
