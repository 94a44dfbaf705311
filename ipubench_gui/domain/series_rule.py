"""Series join only like with like: the one rule every line chart follows.

A line joins results identical in every attribute of their configuration
except the chart's x dimension: batch size for latency–throughput, system
size for scaling (with the platform that names it and the global batch that
grows with it, as the vendor's tables print), generation and SDK for
progress, system size for MLPerf. Legends name only what differs among the
lines shown; what they all share is said once (``Grouping.shared``), for the
chart's subtitle.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ipubench_gui.domain.format import counted

Row = Mapping[str, Any]

# What a configuration is, in the order names list it.
CONFIGURATION: tuple[str, ...] = (
    "model",
    "variant",
    "task",
    "platform",
    "generation",
    "accelerators",
    "framework",
    "sdk_version",
    "dataset",
    "precision",
    "batch_size",
    "division",
    "scenario",  # MLPerf Inference: Offline and Server never joined
    "metric",
    "unit",
    "source_file",
    "table",
)
# How a value reads in a name where the bare value would be unclear.
_SHOWN: dict[str, Callable[[Any], str]] = {
    "accelerators": lambda v: counted(v, "chip"),
    "batch_size": lambda v: f"bs {v}",
}
# Attributes a name leaves out when the one they follow from is named: the
# platform ("IPU-M2000") says its generation ("IPU Mk2 Classic").
_IMPLIED = {"generation": "platform"}
# Attributes a name leaves out: implied by the chart itself.
# (source_file and table keep apart lines from different tables; the rest of
# a configuration tells them apart for readers.)
_UNNAMED = frozenset({"task", "metric", "unit", "source_file", "table"})


def line_keys(along: Sequence[str]) -> tuple[str, ...]:
    """The attributes every row of one line shares: all but ``along``."""
    return tuple(a for a in CONFIGURATION if a not in along)


def point_keys(along: Sequence[str], x: Sequence[str]) -> tuple[str, ...]:
    """The attributes rows share when they are one point of one line: all but
    those of ``along`` that only travel with the point's position ``x``. A
    median beyond the row cap groups these, so it joins only what a line
    would (never two precisions, say, at one batch size)."""
    return tuple(a for a in CONFIGURATION if a not in along or a in x)


SEP = " · "  # between the attributes of a name


def show(attr: str, value: Any) -> str:
    return _SHOWN.get(attr, str)(value)


@dataclass(frozen=True)
class Grouping:
    """Rows in lines: ``lines`` maps a legend name to its rows (in x order);
    ``shared`` is what every line has in common, in words."""

    lines: dict[str, list[Row]]
    shared: str
    differing: tuple[str, ...]


def group(
    rows: Sequence[Row],
    along: Sequence[str],
    order: Callable[[Row], Any] | None = None,
    keep: Callable[[list[Row]], bool] | None = None,
) -> Grouping:
    """``rows`` joined into lines: rows identical in every attribute of
    ``CONFIGURATION`` but ``along`` (a kind's ``along`` in domain.kinds) share
    a line. Only lines that ``keep`` accepts are shown (and named against
    each other)."""
    attrs = line_keys(along)
    by_key: dict[tuple[Any, ...], list[Row]] = defaultdict(list)
    for r in rows:
        by_key[tuple(r.get(a) for a in attrs)].append(r)
    if keep is not None:
        by_key = defaultdict(list, {k: v for k, v in by_key.items() if keep(v)})
    differing = tuple(
        a
        for i, a in enumerate(attrs)
        if len({k[i] for k in by_key}) > 1 and a not in _UNNAMED
    )
    shared_attrs = (
        [
            a
            for i, a in enumerate(attrs)
            if a not in differing
            and a not in _UNNAMED
            and next(iter(by_key))[i] not in (None, "")
        ]
        if by_key
        else []
    )
    shared = SEP.join(show(a, next(iter(by_key))[attrs.index(a)]) for a in shared_attrs)
    lines: dict[str, list[Row]] = {}
    for key, rs in by_key.items():
        values = dict(zip(attrs, key))
        name = (
            SEP.join(
                show(a, values[a])
                for a in differing
                if values[a] not in (None, "") and _IMPLIED.get(a) not in differing
            )
            or shared
            or "all"
        )
        # Two keys can name alike only if they differ in a blank value: keep apart.
        while name in lines:
            name += " ′"
        lines[name] = sorted(rs, key=order) if order else list(rs)
    return Grouping(dict(sorted(lines.items())), shared, differing)


MAX_PANEL_LINES = 8  # a panel's lines: each its own palette colour (Okabe & Ito)
# Small multiples read up to a dozen panels (a 1920x1080 slide holds 3 x 4);
# beyond that each panel is a thumbnail, and building dozens of them cost a
# filter change over a large store several times one plot's time: more lines
# than that are drawn in one plot, as before panels.
MAX_PANELS = 12


@dataclass(frozen=True)
class Panel:
    """One panel of small multiples: its title and its lines, named against
    each other only (what the panel's lines share is in its title)."""

    title: str
    grouping: Grouping


def panels(
    rows: Sequence[Row],
    along: Sequence[str],
    order: Callable[[Row], Any] | None = None,
    keep: Callable[[list[Row]], bool] | None = None,
    most: int = MAX_PANEL_LINES,
    by: str = "model",
    apart: Callable[[Row], str] | None = None,
    most_panels: int = MAX_PANELS,
) -> tuple[Grouping, list[Panel]]:
    """The lines of ``group(rows, along, order, keep)`` and, when they are more
    than ``most``, those lines in panels of at most ``most``: whole models
    (``by``) packed together in name order, a model of more lines than
    ``most`` split over panels of its own ("(1 of 2)"). One panel holding
    every line (title "") when they fit in one, or when they would need more
    than ``most_panels``.

    ``apart``: the workload a panel's lines must share, named (a front or a
    ratio drawn over a panel means something only within one): never two
    in one panel however few their lines, each value in panels of its own."""
    whole = group(rows, along, order, keep)
    workloads = {apart(rs[0]) for rs in whole.lines.values()} if apart else set()
    if len(whole.lines) <= most and len(workloads) <= 1:
        return whole, [Panel("", whole)]
    by_value: dict[str, list[list[Row]]] = defaultdict(list)
    for rs in whole.lines.values():
        name = apart(rs[0]) if apart else show(by, rs[0].get(by) or "(blank)")
        by_value[name].append(rs)
    packs: list[tuple[list[str], list[list[Row]], str]] = []  # names, lines, part
    for value in sorted(by_value, key=str.casefold):
        lines = by_value[value]
        chunks = [lines[i : i + most] for i in range(0, len(lines), most)]
        last = packs[-1] if packs and not apart else None
        if len(chunks) == 1 and last and not last[2]:
            if len(last[1]) + len(lines) <= most:
                last[0].append(value)
                last[1].extend(lines)
                continue
        for k, chunk in enumerate(chunks):
            part = f"({k + 1} of {len(chunks)})" if len(chunks) > 1 else ""
            packs.append(([value], list(chunk), part))
    if len(packs) > most_panels:  # before grouping each pack: none is drawn
        return whole, [Panel("", whole)]
    out = []
    for names, lines, part in packs:
        if len(names) == 1:
            g = group([r for rs in lines for r in rs], along, order, keep)
            title = g.shared or names[0]
            if part and names[0] in title:
                # "YOLOv4 (1 of 2) · 4 chips · …": kept if the rest is cut
                title = title.replace(names[0], f"{names[0]} {part}", 1)
            elif part:  # the shared name does not say the model ("(blank)")
                title = f"{title} {part}".strip()
        else:  # several models (whole ones): each line named by its model,
            # then what differs among that model's own lines (if several)
            g = _by_model(names, by_value, along, order, keep, by)
            title = ", ".join(names)
        out.append(Panel(title, g))
    return whole, out


def _by_model(
    names: list[str],
    by_value: Mapping[str, list[list[Row]]],
    along: Sequence[str],
    order: Callable[[Row], Any] | None,
    keep: Callable[[list[Row]], bool] | None,
    by: str,
) -> Grouping:
    """The lines of several models in one panel, each named by its model and
    what tells it apart from the same model's other lines in the panel (the
    rest of its configuration is in its points' tooltips). A model packed
    with others is packed whole: ``by_value[value]`` is all its lines."""
    named: dict[str, list[Row]] = {}
    for value in names:
        mine = [r for rs in by_value[value] for r in rs]
        g = group(mine, along, order, keep)
        for name, rs in g.lines.items():
            named[value if len(g.lines) == 1 else f"{value}{SEP}{name}"] = rs
    return Grouping(dict(sorted(named.items())), "", (by,))
