"""ipubench-gui: explore published AI-accelerator benchmark results."""

from ipubench_gui import pg_import

__version__ = "0.1.0"

pg_import.install()  # before anything imports pyqtgraph; see pg_import
