"""Frozen entry point: the same command line as ``python -m ipubench_gui``."""

from __future__ import annotations

import sys

from ipubench_gui.cli import main

if __name__ == "__main__":
    sys.exit(main())
