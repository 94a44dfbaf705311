"""ipubench-gui: explore published AI-accelerator benchmark results."""

__version__ = "0.1.0"
