"""Mapping between range-slider positions and values, linear or logarithmic."""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from dataclasses import dataclass

STEPS = 1000


@dataclass(frozen=True)
class SliderScale:
    """Maps ``[lo, hi]`` onto integer positions ``0..STEPS``.

    Logarithmic when the range spans two decades or more and is positive, so
    batch sizes 1..65,536 or throughputs 97..3.5M are all reachable.
    """

    lo: float
    hi: float

    @property
    def log(self) -> bool:
        return self.lo > 0 and self.hi / self.lo >= 100

    def to_pos(self, v: float) -> int:
        if self.hi <= self.lo:
            return 0
        v = min(max(v, self.lo), self.hi)
        if self.log:
            f = math.log(v / self.lo) / math.log(self.hi / self.lo)
        else:
            f = (v - self.lo) / (self.hi - self.lo)
        return round(f * STEPS)

    def to_value(self, pos: int) -> float:
        f = min(max(pos, 0), STEPS) / STEPS
        if self.log:
            v = self.lo * (self.hi / self.lo) ** f
        else:
            v = self.lo + f * (self.hi - self.lo)
        return _nice(v)


def _nice(v: float) -> float:
    """Round to 3 significant figures so boxes show 1,020 rather than 1,018.37."""
    if v == 0:
        return 0.0
    digits = 3 - int(math.floor(math.log10(abs(v)))) - 1
    return round(v, digits)


def counted_unit(counts: Mapping[object, int], checked: Collection[object]) -> str:
    """What the throughput figures of the rows shown count, for the range
    filter's title: their one unit family ("images/s"), "mixed units" when
    they are several, "" when none. ``counts``: rows per unit family with
    every filter but the family's own; ``checked``: the families ticked."""
    shown = [
        v
        for v, n in counts.items()
        if n
        and isinstance(v, str)
        and v.endswith("/s")
        and (not checked or v in checked)
    ]
    if len(shown) > 1:
        return "mixed units"
    return shown[0] if shown else ""


def per_chip_unit(counted: str) -> str:
    """The unit of a per-chip throughput column, from what the rows shown
    count (``counted_unit``): "images/s, derived"; "mixed units, derived";
    "derived" when nothing is counted. Derived: divided here, not published."""
    return f"{counted}, derived" if counted else "derived"
