"""The Plot value: series of points in data units, with what a chart needs to say.

Nothing here draws; ``charts/builders.py`` turns a Plot into pyqtgraph items.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ipubench_gui.domain.chartrows import (
    PALETTE,
    config_label,
    distinct_colors,
    repeats,
    shares,
)
from ipubench_gui.domain.format import format_number, shown_unit
from ipubench_gui.domain.metrics import CHIP_TIMES

Row = Mapping[str, Any]


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    result_id: str = ""
    label: str = ""  # drawn next to the point (e.g. batch size, efficiency)
    tooltip: str = ""
    highlight: bool = False


@dataclass(frozen=True)
class Series:
    name: str
    color: str
    points: tuple[Point, ...]
    style: str = "line"  # line | scatter | bars | step
    dashed: bool = False
    in_legend: bool = True
    symbol: str = "o"  # pyqtgraph symbol of the points: o, star, t, s, d
    symbol_scale: float = 1.0
    # small multiples: the title of the panel it is drawn in ("": the only one)
    panel: str = ""


@dataclass(frozen=True)
class Plot:
    """Everything needed to draw one chart, in data units."""

    kind: str
    title: str
    x_title: str
    y_title: str
    series: tuple[Series, ...] = ()
    horizontal_bars: bool = False  # bars: categories down the y axis
    categories: tuple[str, ...] = ()  # bar labels, index = y position
    # bars grouped: (y position of a header row, its text), one per group
    sections: tuple[tuple[int, str], ...] = ()
    log_x: bool = False
    log_y: bool = False
    log2_x: bool = False  # system sizes: ticks at powers of two
    x_ticks: tuple[tuple[float, str], ...] = ()
    vline: float | None = None  # e.g. a latency budget
    legend_corner: str = "br"  # tl|tr|bl|br: where this kind leaves room
    notes: tuple[str, ...] = ()
    # what only the footnote says, too long for the window's caption (each
    # vendor claim's caveats; the window has them in each bar's tooltip)
    footnotes: tuple[str, ...] = ()
    rows: tuple[Row, ...] = field(default=(), compare=False)  # for footnotes
    # result ids of the user's own imported results among the points: marked
    # apart ("your results") wherever the chart is drawn
    yours: frozenset[str] = frozenset()
    shared: str = ""  # what every line has in common (series_rule), for subtitles
    # bars ranked best first: how many the ranking held (the store drew the
    # best of them), for the note saying how many are shown
    ranked: int = 0
    # bars of several tasks, each ranked apart: (first row of the task's
    # block, the task, how many rows its ranking held), in order
    blocks: tuple[tuple[int, str, int], ...] = ()

    @property
    def empty(self) -> bool:
        return not any(s.points for s in self.series)

    @property
    def panels(self) -> tuple[str, ...]:
        """Titles of the panels the series are drawn in, in order; () for one
        plot (series_rule.panels: more lines than one panel reads)."""
        titles = dict.fromkeys(s.panel for s in self.series if s.points)
        return tuple(titles) if any(titles) else ()

    def panel(self, title: str) -> Plot:
        """The plot of one panel: its series only, its own corner of the data."""
        return replace(self, series=tuple(s for s in self.series if s.panel == title))

    def point_ids(self) -> list[str]:
        return [p.result_id for s in self.series for p in s.points if p.result_id]


POINT_COLUMNS = ("series", "x", "y", "result_id", "reference")


def reference(row: Row) -> str:
    """Where a result is published, for a reader to find it: its MLPerf
    result ID, else its folder in an MLPerf results repository, else ""."""
    if row.get("mlperf_id"):
        return str(row["mlperf_id"])
    if row.get("repository") and row.get("path"):
        return f"{row['repository']}/{row['path']}"
    return ""


def point_columns(plot: Plot) -> tuple[str, ...]:
    """``POINT_COLUMNS``, the figure's column saying what a per-chip figure
    is: "y (chip-minutes: time × accelerators, derived)"."""
    chips = next((r for r in plot.rows if r.get("per_accelerator")), None)
    if chips is None:
        return POINT_COLUMNS
    what = (
        f"{chips.get('unit')}: time × accelerators, derived"
        if chips.get("metric") in CHIP_TIMES
        else "per accelerator chip, derived"
    )
    figure = "x" if plot.horizontal_bars else "y"
    return tuple(f"{c} ({what})" if c == figure else c for c in POINT_COLUMNS)


def point_rows(plot: Plot) -> list[tuple[str, object, object, str, str]]:
    """Every point drawn, one row each (``POINT_COLUMNS``): for a slide's
    appendix and for checking. Bars give their category as ``y``; drawn lines
    with no result of their own (ideal scaling, the Pareto front) a blank id;
    where each result is published (``reference``)."""
    rows = {r.get("result_id"): r for r in plot.rows}
    out: list[tuple[str, object, object, str, str]] = []
    for s in plot.series:
        for p in s.points:
            y: object = p.y
            if plot.horizontal_bars and 0 <= round(p.y) < len(plot.categories):
                y = plot.categories[round(p.y)]
            name = f"{s.panel}: {s.name}" if s.panel else s.name
            ref = reference(rows[p.result_id]) if p.result_id in rows else ""
            out.append((name, p.x, y, p.result_id, ref))
    return out


def shown_note(shown: int, of: int, best: bool) -> str:
    """The note saying how many bars of how many a chart shows."""
    return f"the {'best' if best else 'first'} {shown:,} of {of:,} shown"


def tasks_note(parts: Sequence[tuple[str, int, int]]) -> str:
    """The note saying how many bars of each task's rows a chart shows, each
    task's best ranked apart: (task, bars, rows of the task)."""
    each = ", ".join(f"{n:,} of {of:,} {task}" for task, n, of in parts)
    return f"the best of each task shown: {each}"


def bar_count(plot: Plot) -> int:
    """Bars drawn (a section's header row is none)."""
    return len(plot.categories) - len(plot.sections)


def _block_bars(plot: Plot) -> list[int]:
    """Bars of each task's block of rows (``Plot.blocks``), in order."""
    starts = [b[0] for b in plot.blocks]
    ends = [*starts[1:], len(plot.categories)]
    return [sum(1 for c in plot.categories[a:b] if c) for a, b in zip(starts, ends)]


def bars_shown_note(plot: Plot) -> str:
    """The note a bar chart carries saying how many of its ranked bars show
    ("the best 60 of 1,371 shown"; by task, "the best of each task shown:
    30 of 65 training, 30 of 1,306 inference")."""
    if plot.blocks:
        bars = _block_bars(plot)
        return tasks_note([(t, n, of) for (_y, t, of), n in zip(plot.blocks, bars)])
    return shown_note(bar_count(plot), plot.ranked or bar_count(plot), plot.ranked > 0)


def first_bars(plot: Plot, n: int) -> Plot:
    """``plot`` with only its first ``n`` rows of bars and headers (and what is
    drawn on them, and the rows behind them: for its footnote); series left
    with nothing are dropped, so a legend names
    only what shows, and the note of how many are shown says the new count
    (one count, not the store's and the picture's). Bars of several tasks
    (``Plot.blocks``) share the ``n`` rows, each task's first kept. A header
    never ends the rows kept; one whose bars are cut says how many of its own
    show. Not a bar chart, or no more than ``n`` rows: ``plot`` itself."""
    if not plot.horizontal_bars or len(plot.categories) <= n:
        return plot
    starts = [b[0] for b in plot.blocks] or [0]
    ends = [*starts[1:], len(plot.categories)]
    heads = dict(plot.sections)
    keep: list[int] = []
    for a, k in zip(starts, shares([b - a for a, b in zip(starts, ends)], n)):
        part = list(range(a, a + k))
        while part and part[-1] in heads:  # a header with its bars cut off
            part.pop()
        keep += part
    at = {old: new for new, old in enumerate(keep)}
    series = tuple(
        replace(s, points=kept)
        for s in plot.series
        if (
            kept := tuple(
                p if at[round(p.y)] == p.y else replace(p, y=at[round(p.y)])
                for p in s.points
                if round(p.y) in at
            )
        )
    )
    sections = tuple(
        (at[y], _section_count(t, y, plot, at)) for y, t in plot.sections if y in at
    )
    blocks = tuple((at[y], t, of) for y, t, of in plot.blocks if y in at)
    drawn = {p.result_id for s in series for p in s.points}
    cut = replace(
        plot,
        series=series,
        categories=tuple(plot.categories[y] for y in keep),
        sections=sections,
        blocks=blocks,
        rows=tuple(r for r in plot.rows if r.get("result_id") in drawn),
    )
    notes = tuple(t for t in plot.notes if t != bars_shown_note(plot))
    if not repeats({s.name: s.color for s in series}):  # the bars left: apart
        notes = tuple(t for t in notes if not t.endswith(COLOURS_REPEAT))
    return replace(cut, notes=(*notes, bars_shown_note(cut)))


def _section_count(text: str, at: int, plot: Plot, kept: Mapping[int, int]) -> str:
    """A section header "name (12)" or "name (12 of 65)" at row ``at`` (what
    its bars share may follow: "name (12) · all X") whose bars are cut to
    the rows ``kept``: "name (5 of 12)", "name (5 of 65)"."""
    head = text.split(SHARED)[0]
    found = list(_COUNT.finditer(head))
    if not found:
        return text
    m = found[-1]
    name, total, rest = text[: m.start()], m[2].replace(",", ""), text[m.end() :]
    ends = [y for y, _t in plot.sections if y > at] + [len(plot.categories)]
    shown = sum(1 for y in range(at + 1, ends[0]) if y in kept and plot.categories[y])
    of = int(total)
    return text if shown >= of else f"{name} ({shown:,} of {of:,}){rest}"


# a section header's count: " (12)" or " (12 of 65)"; then, it may be, what
# its bars share
SHARED = " · all "
_COUNT = re.compile(r" \((?:([\d,]+) of )?([\d,]+)\)")


def split_panel(plot: Plot, title: str, parts: int) -> Plot:
    """``plot`` with its panel ``title`` drawn as ``parts`` panels, its
    named lines shared out in order ("model (part 1 of 2) · the rest of
    its title"): for a slide
    whose legends cannot name them all in one. A line it does not name goes
    with the named one its name extends ("X (ideal)" with "X"), else in
    every part (a front over all the panel's lines)."""
    mine = [s for s in plot.series if s.panel == title]
    named = [s for s in mine if s.in_legend and s.points]
    if parts <= 1 or len(named) < 2:
        return plot
    parts = min(parts, len(named))
    size = -(-len(named) // parts)
    chunks = [named[i : i + size] for i in range(0, len(named), size)]
    names = [_part(title, k + 1, len(chunks)) for k in range(len(chunks))]
    out: list[Series] = []
    for s in plot.series:
        if s.panel != title:
            out.append(s)
    for k, chunk in enumerate(chunks):
        own = {s.name for s in chunk}
        for s in mine:
            if s in chunk:
                out.append(replace(s, panel=names[k]))
            elif not (s.in_legend and s.points):
                owner = next((n for n in _owners(s.name, mine) if n), None)
                if owner is None or owner in own:
                    out.append(replace(s, panel=names[k]))
    # panels keep their order: the parts where the panel was
    order = {t: i for i, t in enumerate(plot.panels)}
    at = order.get(title, 0)

    def rank(s: Series) -> float:
        if s.panel in names:
            return at + names.index(s.panel) / len(names)
        return order.get(s.panel, 0)

    return replace(plot, series=tuple(sorted(out, key=rank)))


def _part(title: str, k: int, n: int) -> str:
    """``title`` as its part ``k`` of ``n``: said after its first part (the
    model), which a title cut to its panel's width keeps."""
    head, sep, rest = title.partition(" · ")
    return f"{head} (part {k} of {n}){sep}{rest}"


def _owners(name: str, series: Sequence[Series]) -> list[str]:
    """The named series whose name ``name`` extends ("X (ideal)": "X")."""
    return [
        s.name
        for s in series
        if s.in_legend and s.points and name != s.name and name.startswith(s.name)
    ]


def tooltip(row: Row) -> str:
    # the unit as the table shows it: what an item of the model is
    figure = f"{format_number(row.get('value'))} {shown_unit(row)}".strip()
    if row.get("per_accelerator"):  # chip-minutes are time × accelerators
        how = "time × accelerators, " if row.get("metric") in CHIP_TIMES else ""
        figure += f" ({how}derived)"
    lines = [config_label(row), figure]
    if row.get("latency_ms") is not None:
        lines.append(f"latency {format_number(row['latency_ms'])} ms")
    for key, label in (
        ("sdk_version", "SDK"),
        ("precision", "precision"),
        ("dataset", "dataset"),
        ("mlperf_id", "MLPerf ID"),
        ("division", "division"),
    ):
        if row.get(key):
            lines.append(f"{label}: {row[key]}")
    lines.append(f"source: {row.get('source_file', '')} — {row.get('table', '')}")
    return "\n".join(lines)


def series_colors(names: Sequence[str]) -> dict[str, str]:
    """Distinct palette colours by position for composite series names (model ·
    platform · framework), which hashing would often give near-identical hues."""
    ranked = sorted(set(names))
    return distinct_colors(ranked, ranked)


# A line wearing a colour again (more lines than colours in one plot) has
# points of another shape, which its legend sample shows.
LINE_SYMBOLS = ("o", "s", "t", "d")


def line_symbols(colors: Mapping[str, str]) -> dict[str, str]:
    """Each line's point symbol: ``o``, or another where its colour repeats."""
    again = repeats(colors)
    return {n: LINE_SYMBOLS[again.get(n, 0) % len(LINE_SYMBOLS)] for n in colors}


def key_name(row: Row, keys: Sequence[str]) -> str:
    return " · ".join(str(row[k]) for k in keys if row.get(k) not in (None, ""))


# The end of a bar chart's note when its groups outnumber the palette.
COLOURS_REPEAT = "some colours stand for more than one"


def colours_note(series: Sequence[Series], what: str) -> str:
    """The note of bars whose colours repeat (``""`` when none do)."""
    if not repeats({s.name: s.color for s in series}):
        return ""
    return f"more {what} values than the {len(PALETTE)} colours: {COLOURS_REPEAT}"


def bar_series(
    groups: Mapping[str, Sequence[Point]], order: Sequence[object] = ()
) -> tuple[Series, ...]:
    """One bar series per group, in name order, each its own colour
    (``distinct_colors`` over the groups shown, ``order`` preferred)."""
    colors = distinct_colors(groups, order)
    return tuple(
        Series(name, colors[name], tuple(pts), "bars")
        for name, pts in sorted(groups.items())
    )


def line_series(
    lines: Mapping[str, Sequence[Row]],
    point: Callable[[Row], Point],
    panel: str = "",
) -> list[Series]:
    """One line per entry of ``lines`` (``series_rule.group``), each with a
    distinct palette colour (within its ``panel``); lines in name order."""
    colors = series_colors(list(lines))
    symbols = line_symbols(colors)
    return [
        Series(
            name,
            colors[name],
            tuple(point(r) for r in rs),
            symbol=symbols[name],
            panel=panel,
        )
        for name, rs in sorted(lines.items())
    ]
