"""``python -m ipubench_gui``: the app, or a command (see ``--help``)."""

from __future__ import annotations

import sys

from ipubench_gui.cli import main

if __name__ == "__main__":
    sys.exit(main())
