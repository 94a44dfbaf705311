"""Start-up trace: with ``IPUBENCH_GUI_TRACE=1`` each start-up step prints when
it finished (ms since the command line was parsed) to stderr. For finding where
start-up time goes, in the source and the frozen app alike."""

from __future__ import annotations

import os
import sys
import threading
import time

ON = bool(os.environ.get("IPUBENCH_GUI_TRACE"))
_T0 = time.perf_counter()
_LOCK = threading.Lock()  # marks come from the opening thread too: whole lines


def mark(step: str) -> None:
    if ON:
        with _LOCK:  # time taken under the lock too: lines in time order
            ms = (time.perf_counter() - _T0) * 1000
            sys.stderr.write(f"trace {ms:7.1f} ms  {step}\n")
            sys.stderr.flush()
