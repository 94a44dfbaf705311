"""The value rules every imported result meets, whatever path it comes by.

One place for them: a CSV, Parquet or JSON import checks its cells in SQL with
these bounds (``store/user/import_checks.py``), an MLPerf results folder (training
or inference) checks what its logs and system files say here, in Python; a
property test holds the two to the same answers. A result that breaks a rule
is refused, or listed as not scored: never stored as a score.

Each check returns ``None`` when the value is fine, else the problem in words
("must be a positive finite number, got -28070691.2"), which the caller puts
after the thing's name.
"""

from __future__ import annotations

import math
import re
import unicodedata

# Whole numbers are stored as INTEGER (32 bits).
INT_MAX = 2**31 - 1
# No measurement of this app's kinds (a throughput, a latency, a time to
# train) comes near 10^15; a bigger figure is a typo or garbage, and it would
# overflow a chart's axis arithmetic.
FIGURE_MAX = 1e15
# MLPerf's scaling.json factors are near 1 (1.0 to 1.03 in rounds 1.0-2.1);
# the band leaves room for any rule change while refusing 0, 1e308 or NaN.
SCALING_MIN = 0.1
SCALING_MAX = 10.0
# A round's two numbers: MLPerf's rounds run 0.5, 0.6, ..., 4.1, ...
ROUND_PART_MAX = 99
_ROUND = re.compile(r"[vV]?\s*(\d+)\s*\.\s*(\d+)")
# More result files than this many times what a benchmark needs is not a
# result at all (10,000 logs in one folder were once scored as one result):
# not read, not scored. More than RUNS_WARN times is read, with a warning.
RUNS_REFUSE = 10
RUNS_WARN = 2
RUNS_UNKNOWN_MAX = 100  # a benchmark whose required count is unknown


def _number(x: object) -> float | None:
    """``x`` as a float if it is a number (never a bool, which Python counts
    as one); None otherwise. An integer too large for a float is +inf."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return None
    try:
        return float(x)
    except OverflowError:
        return math.inf


def figure_problem(x: object) -> str | None:
    """A figure (time, throughput, latency): finite, positive, below
    FIGURE_MAX."""
    v = _number(x)
    if v is None or not math.isfinite(v) or v <= 0 or v > FIGURE_MAX:
        return f"must be a positive finite number below 1e15, got {_shown(x)}"
    return None


def count_problem(x: object, *, zero: bool = False) -> str | None:
    """A count (accelerators, nodes, batch size): a whole number from 1 (or
    0, with ``zero``: a CPU-only system's accelerators) to INT_MAX."""
    v = _number(x)
    lo = 0 if zero else 1
    if (
        v is None
        or not math.isfinite(v)
        or v != math.floor(v)
        or not (lo <= v <= INT_MAX)
    ):
        return f"must be a whole number from {lo} to {INT_MAX:,}, got {_shown(x)}"
    return None


def scaling_problem(x: object) -> str | None:
    """An MLPerf scaling factor: a number from SCALING_MIN to SCALING_MAX."""
    v = _number(x)
    if v is None or not math.isfinite(v) or not SCALING_MIN <= v <= SCALING_MAX:
        return (
            f"must be a number from {SCALING_MIN} to {SCALING_MAX:g}, got {_shown(x)}"
        )
    return None


class RoundError(ValueError):
    """A round that is not X.Y; the message says what was given."""


def normalise_round(text: str) -> str:
    """An MLPerf round as ``X.Y``: "v3.0", "3.00", "03.0", "３.０" (full
    width) and "٣.٠" (any script's digits) all read as "3.0", so one round is
    never stored twice under two spellings. Raises RoundError for anything
    else, for 0.0 and for parts above ROUND_PART_MAX."""
    m = _ROUND.fullmatch(unicodedata.normalize("NFKC", str(text)).strip())
    if m is None:
        raise RoundError(f"round {_shown(text)}: expected X.Y, e.g. 2.0")
    if max(len(m[1]), len(m[2])) > 6:
        major = minor = ROUND_PART_MAX + 1
    else:  # int() reads every script's digits
        major, minor = int(m[1]), int(m[2])
    if major > ROUND_PART_MAX or minor > ROUND_PART_MAX or (major, minor) == (0, 0):
        raise RoundError(
            f"round {_shown(text)}: not an MLPerf round (X.Y, each part from 0 "
            f"to {ROUND_PART_MAX}, not 0.0)"
        )
    return f"{major}.{minor}"


def runs_limit(required: int | None) -> int:
    """How many result files of one result are read at most (see RUNS_REFUSE)."""
    return RUNS_UNKNOWN_MAX if not required else required * RUNS_REFUSE


def runs_problem(found: int, required: int | None) -> str | None:
    """Too many result files for one result to be one: not scored."""
    if found > runs_limit(required):
        asked = f"the rules ask for {required}" if required else "far more than any"
        return f"{found:,} result files, {asked}: not one result, not scored"
    return None


def runs_warning(found: int, required: int | None) -> str | None:
    """Read and scored, but worth a look: far more runs than required."""
    if required and required * RUNS_WARN < found <= runs_limit(required):
        return (
            f"{found} result files where the rules ask for {required}: all "
            "scored as the result summarizer does; check the folder"
        )
    return None


def _shown(x: object) -> str:
    """A value as a message shows it: short, on one line."""
    text = repr(x) if isinstance(x, str) else str(x)
    text = " ".join(text.split())
    return text if len(text) <= 40 else text[:39] + "…"
