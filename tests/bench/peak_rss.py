"""Runs a script (or ``-m module``) as ``python`` would; when it prints its
"ready" line, the process's peak resident memory so far (VmHWM, MB) is added
to that line. For the benchmark's memory row: the app and the bare window are
each started as a user starts them, measured the same way (VmHWM, not the
child's ru_maxrss: Linux carries that over fork+exec from this process)."""

from __future__ import annotations

import os
import runpy
import sys


class _Ready:
    """stdout, with the peak so far added to a line starting "ready "."""

    def __init__(self, out):
        self._out = out

    def write(self, text: str) -> int:
        if text.startswith("ready "):
            with open("/proc/self/status") as f:
                hwm = next(ln for ln in f if ln.startswith("VmHWM"))
            text = text.rstrip("\n") + f" {int(hwm.split()[1]) / 1024:.1f}\n"
        return self._out.write(text)

    def __getattr__(self, name: str):
        return getattr(self._out, name)


if __name__ == "__main__":
    sys.stdout = _Ready(sys.stdout)
    sys.argv = sys.argv[1:]
    if sys.argv[0] == "-m":
        sys.argv = sys.argv[1:]
        sys.path[0] = os.getcwd()  # as ``python -m`` has it
        runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
    else:
        sys.path[0] = os.path.dirname(os.path.abspath(sys.argv[0]))
        runpy.run_path(sys.argv[0], run_name="__main__")
