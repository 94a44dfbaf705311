"""Scatter points that would print as one mark: where each is drawn, and
which are drawn as one mark with a count.

One rule for the window and every export, and for the footnote that explains
the counts (``count_note``): points at one x closer in y than a mark's height
are drawn side by side, centred on their x; a place holding more than
``CROWD`` of them would pack them closer than a mark's width (MLPerf rounds
put dozens of results at one chip count), so there each series' points are
drawn as one mark, with their count beside it.
Positions are in view units: x and y as the chart's axes transform them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ipubench_gui.domain.plot_model import Plot

# Scatter points at one x closer than this share of the y range are at one
# place: more than ``CROWD`` there are drawn one mark per series, with a count
# (side by side, a place's 6 or more marks were packed closer than their width).
SAME_PLACE = 0.012
CROWD = 5
# A mark's size as shares of the axes' ranges, as a chart of some 600 by 600
# px draws a 7 px mark (a symbol scaled up, as the IPU stars, in proportion):
# two marks closer than that both ways would overprint.
MARK_W = 0.012
MARK_H = 0.015
# how far a mark may be moved from its x at most, as a share of the x range
REACH = 0.04


@dataclass(frozen=True)
class Crowd:
    """Points of one series drawn as one mark: ``series`` (index in the
    plot's series), ``points`` (indices in it), the mark's place (view units:
    its x after the move, the middle of its points' y)."""

    series: int
    points: tuple[int, ...]
    x: float
    y: float

    @property
    def count(self) -> int:
        return len(self.points)


@dataclass(frozen=True)
class Places:
    """Where scatter points are drawn: ``moves``, by series index, each
    point's move along x and ``lifts`` along y (view units; only series with
    a point moved); ``crowds``, the marks that stand for several points (its
    points all drawn at the mark's place: a stack of their marks read as a
    smudge)."""

    moves: dict[int, tuple[float, ...]]
    lifts: dict[int, tuple[float, ...]]
    crowds: tuple[Crowd, ...]


def view_of(value: float, mode: str) -> float:
    """``value`` on an axis of ``mode`` (linear, log2, log10); NaN where a
    log axis has no place for it."""
    if mode == "linear":
        return float(value)
    if not value > 0 or not math.isfinite(value):
        return math.nan
    return math.log2(value) if mode == "log2" else math.log10(value)


def modes(plot: Plot) -> tuple[str, str]:
    """The x and y axis modes ``plot`` is drawn with."""
    x = "log2" if plot.log2_x else "log10" if plot.log_x else "linear"
    return x, "log10" if plot.log_y else "linear"


def places(plot: Plot) -> Places:
    """Where ``plot``'s scatter points are drawn (the module's rule)."""
    xm, ym = modes(plot)
    pts = [
        (view_of(p.x, xm), view_of(p.y, ym), i, k)
        for i, s in enumerate(plot.series)
        if s.style == "scatter"
        for k, p in enumerate(s.points)
    ]
    pts = [q for q in pts if math.isfinite(q[0]) and math.isfinite(q[1])]
    if len(pts) < 2:
        return Places({}, {}, ())
    xspan = (max(q[0] for q in pts) - min(q[0] for q in pts)) or 1.0
    yspan = (max(q[1] for q in pts) - min(q[1] for q in pts)) or 1.0
    pts.sort(key=lambda q: (q[0], q[1]))
    # the marks: (x, y, the points each stands for)
    marks: list[tuple[float, float, list[tuple[float, float, int, int]]]] = []
    k = 0
    while k < len(pts):
        j = k + 1
        while (
            j < len(pts)
            and pts[j][0] == pts[k][0]
            and pts[j][1] - pts[k][1] < SAME_PLACE * yspan
        ):
            j += 1
        group = pts[k:j]
        k = j
        if len(group) <= CROWD:
            marks += [(q[0], q[1], [q]) for q in group]
            continue
        # one mark per series, the user's own results apart (ringed)
        by: dict[tuple[int, bool], list[tuple[float, float, int, int]]] = {}
        for q in group:
            mine = plot.series[q[2]].points[q[3]].result_id in plot.yours
            by.setdefault((q[2], mine), []).append(q)
        for key in sorted(by):
            ys = [q[1] for q in by[key]]
            marks.append((group[0][0], (min(ys) + max(ys)) / 2, by[key]))
    moves: dict[int, list[float]] = {}
    lifts: dict[int, list[float]] = {}
    crowds: list[Crowd] = []
    swarm = _Swarm(MARK_W * xspan, MARK_H * yspan, REACH * xspan)
    # larger marks (the IPU stars) placed first: they keep their place and
    # the others make room around them
    marks.sort(key=lambda m: -plot.series[m[2][0][2]].symbol_scale)
    for x, y, members in marks:
        scale = plot.series[members[0][2]].symbol_scale
        dx = swarm.place(x, y, scale)
        for _x, py, i, at in members:
            if dx:
                moves.setdefault(i, [0.0] * len(plot.series[i].points))[at] = dx
            if py != y:
                lifts.setdefault(i, [0.0] * len(plot.series[i].points))[at] = y - py
        if len(members) > 1:
            who = tuple(q[3] for q in members)
            crowds.append(Crowd(members[0][2], who, x + dx, y))
    return Places(
        {i: tuple(m) for i, m in moves.items()},
        {i: tuple(m) for i, m in lifts.items()},
        tuple(crowds),
    )


class _Swarm:
    """Marks placed one by one, each moved along x the least that keeps it
    off the marks placed before it (a beeswarm), at most ``reach``; a mark
    with no free place within reach takes the one it overlaps least."""

    def __init__(self, w: float, h: float, reach: float):
        self.w, self.h, self.reach = w, h, reach
        self.rows: dict[int, list[tuple[float, float, float]]] = {}
        self.tall = 1.0  # the largest scale placed

    def place(self, x: float, y: float, scale: float) -> float:
        """Where a mark of ``scale`` at (x, y) goes: its move along x."""
        self.tall = max(self.tall, scale)
        row = math.floor(y / self.h)
        span = math.ceil(self.tall)
        near = [
            m
            for r in range(row - span, row + span + 1)
            for m in self.rows.get(r, ())
            if abs(m[1] - y) < self.h * (m[2] + scale) / 2
            and abs(m[0] - x) < self.reach + self.w * (m[2] + scale)
        ]
        step = self.w / 2
        best, least = 0.0, math.inf
        for n in range(int(self.reach / step) * 2 + 1):
            dx = (n + 1) // 2 * step * (1 if n % 2 else -1)
            over = sum(
                max(0.0, self.w * (m[2] + scale) / 2 - abs(x + dx - m[0])) for m in near
            )
            if over < least:
                best, least = dx, over
            if over == 0:
                break
        self.rows.setdefault(row, []).append((x + best, y, scale))
        return best


def count_text(crowd: Crowd) -> str:
    """What a crowd's mark says beside it."""
    return f"×{crowd.count}"


def count_note(plot: Plot, crowds: Sequence[Crowd]) -> str:
    """The footnote's words for ``crowds`` (empty if none): what "×n" means,
    with how far apart the figures one mark stands for lie at most."""
    if not crowds:
        return ""
    widest = 0.0
    for c in crowds:
        ys = [plot.series[c.series].points[k].y for k in c.points]
        if min(ys) > 0:
            widest = max(widest, max(ys) / min(ys) - 1)
    return (
        "×n beside a mark: n results of that series at one place, drawn as one "
        f"mark (the same x, figures within {math.ceil(widest * 100)}% of each other)"
    )
