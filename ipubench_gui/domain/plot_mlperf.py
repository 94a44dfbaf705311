"""The MLPerf chart: official time to train against accelerator count, one
colour per accelerator type, and the footnote the MLPerf messaging rules ask
for."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace

from ipubench_gui.domain.chartrows import PALETTE, distinct_colors, repeats
from ipubench_gui.domain.crowds import count_note, places
from ipubench_gui.domain.format import format_number
from ipubench_gui.domain.plot_model import Plot, Point, Row, Series, tooltip

IPU_TYPES = frozenset({"Bow", "IPU Mk2 Classic"})
# One colour per accelerator type, the same in every MLPerf chart (others by
# a hash of the name, each apart from the rest shown); IPU types first and
# strongest; palette colours all (the theme keeps those apart on either ground).
TYPE_COLORS = {
    "Bow": "#D55E00",
    "IPU Mk2 Classic": "#E69F00",
    "A100": "#0072B2",
    "H100": "#009E73",
    "TPU v4": "#CC79A7",
    "Gaudi2": "#000000",
    "Gaudi": "#999933",
    "A30": "#56B4E9",
    "A40": "#332288",
    "RTX A5000": "#44AA99",
    "Ascend 910": "#882255",
    "CPU only": "#DDDDDD",
}
# Open division and Preview / Research systems: their own marks.
MARK_SYMBOLS = {"Open": "t", "Preview": "s", "Research": "d"}
TRADEMARK = (
    "MLPerf™ is a trademark of MLCommons Association in the United States and "
    "other countries. All rights reserved. Unauthorized use strictly prohibited."
)
DERIVED = (
    "Times to train computed here from the official logs with MLCommons' "
    "result summarizer rules; not verified by MLCommons."
)
DERIVED_INFERENCE = (
    "Inference throughputs read here from the official log summaries as "
    "MLCommons' submission checker reads them (per chip: derived); not verified "
    "by MLCommons."
)


def is_mlperf(row: Row) -> bool:
    return bool(row.get("mlperf_round") or row.get("mlperf_id"))


def marker(row: Row) -> str:
    """What sets a result apart from Closed / Available: Open, Preview, Research."""
    marks = []
    if str(row.get("division") or "").lower() == "open":
        marks.append("Open")
    category = str(row.get("category") or "")
    if category.startswith("Preview"):
        marks.append("Preview")
    elif category.startswith("Research"):
        marks.append("Research")
    return ", ".join(marks)


def plotted(row: Row) -> bool:
    """An official result with a time and an accelerator count to plot."""
    return (
        is_mlperf(row)
        and row.get("metric") == "time_to_train"
        and row.get("value") is not None
        and bool(row.get("accelerators"))
    )


def benchmark_counts(rows: Sequence[Row]) -> list[tuple[str, int]]:
    """(benchmark, results to plot), most results first, then by name: the
    MLPerf chart's choice of benchmark (what the chart options list)."""
    counts: dict[str, int] = defaultdict(int)
    for r in rows:
        if plotted(r):
            counts[str(r.get("model"))] += 1
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


def chosen_benchmark(rows: Sequence[Row], asked: str | None = None) -> str | None:
    """The benchmark drawn: ``asked`` when the rows have it, else the one
    with the most results."""
    counts = benchmark_counts(rows)
    names = [b for b, _ in counts]
    if asked in names:
        return asked
    return names[0] if names else None


def mlperf_plot(
    rows: Sequence[Row],
    color_order: Sequence[object] = (),
    benchmark: str | None = None,
    open_division: bool = False,
) -> Plot:
    """Time to train against accelerators for one benchmark (``benchmark``, or
    the one with the most results), a colour per accelerator type; the Closed
    division only, unless ``open_division`` (or the rows hold no Closed
    result); Open division and Preview/Research systems in series of their
    own, named so."""
    counts = benchmark_counts(rows)
    shown = chosen_benchmark(rows, benchmark)
    mine = [r for r in rows if plotted(r) and str(r.get("model")) == shown]
    closed = [r for r in mine if str(r.get("division") or "").lower() != "open"]
    hidden_open = 0
    if not open_division and closed:
        hidden_open = len(mine) - len(closed)
        mine = closed
    groups: dict[str, list[Row]] = defaultdict(list)
    for r in mine:
        kind = str(r.get("generation") or r.get("accelerator") or "unknown")
        mark = marker(r)
        groups[f"{kind} ({mark})" if mark else kind].append(r)

    def point(r: Row) -> Point:
        who = " · ".join(
            str(r[k]) for k in ("submitter", "platform") if r.get(k) not in (None, "")
        )
        extra = [
            f"MLPerf Training v{r['mlperf_round']}" if r.get("mlperf_round") else "",
            f"{r.get('division') or ''} division, {r.get('category') or ''}",
            f"result ID {r['mlperf_id']}" if r.get("mlperf_id") else "",
            f"{r['repository']}: {r['path']}" if r.get("path") else "",
            f"{r.get('runs_used')} of {r.get('runs_found')} runs averaged"
            if r.get("runs_found")
            else "",
            f"sources: {r['sources_agree']}" if r.get("sources_agree") else "",
        ]
        return Point(
            float(r["accelerators"]),
            float(r["value"]),
            str(r["result_id"]),
            "",
            tooltip(r) + f"\n{who}\n" + "\n".join(e for e in extra if e),
        )

    # IPU series first (they are what the app is about), then by name.
    names = sorted(groups, key=lambda n: (n.split(" (")[0] not in IPU_TYPES, n))

    def kind_of(name: str) -> str:
        return name.split(" (")[0]

    colors = distinct_colors([kind_of(n) for n in names], fixed=TYPE_COLORS)
    again = repeats(colors)  # more types than colours

    def symbol(name: str) -> str:
        if kind_of(name) in IPU_TYPES:
            return "star"
        marks = name[len(kind_of(name)) :].strip(" ()").split(", ")
        return MARK_SYMBOLS.get(marks[0], "p" if kind_of(name) in again else "o")

    series = tuple(
        Series(
            name,
            colors[kind_of(name)],
            tuple(
                point(r) for r in sorted(groups[name], key=lambda r: r["accelerators"])
            ),
            "scatter",
            symbol=symbol(name),
            symbol_scale=2.2 if kind_of(name) in IPU_TYPES else 1.0,
        )
        for name in names
    )
    rounds = sorted({str(r["mlperf_round"]) for r in mine if r.get("mlperf_round")})
    what = shown or "no results"
    when = ", ".join(f"v{x}" for x in rounds) or "v2.0"
    notes = [
        "IPU results as stars; Open division (triangles) and Preview (squares) "
        "or Research (diamonds) systems in series of their own"
    ]
    if again:
        notes.append(
            f"{len(colors)} accelerator types in {len(PALETTE)} colours: "
            f"pentagons for {', '.join(sorted(again))}, whose colour another "
            "type's circles wear"
        )
    others = [f"{b} ({n})" for b, n in counts if b != shown]
    if others:
        notes.append("one benchmark at a time; others (results): " + ", ".join(others))
    if hidden_open:
        notes.append(
            f"Closed division only: {hidden_open} Open division result"
            f"{'s' * (hidden_open != 1)} not drawn"
        )
    sizes = {int(r["accelerators"]) for r in mine}
    plot = Plot(
        "mlperf",
        f"MLPerf™ Training {when} time to train: {what}",
        "Accelerators (log2 scale)",
        "Time to train (minutes) — lower is better",
        series,
        log2_x=True,
        log_y=True,
        legend_corner="tr",
        x_ticks=tuple(
            (float(n), format_number(n)) for n in sorted(sizes) if n & (n - 1) == 0
        ),
        notes=tuple(notes),
        rows=tuple(mine),
    )
    counted = count_note(plot, places(plot).crowds)
    return replace(plot, notes=plot.notes + (counted,)) if counted else plot


# Beyond this many characters the result IDs are left to the chart's data
# file rather than the footnote (a slide's footnote is two or three lines).
IDS_IN_FOOTNOTE = 300


def compact_ids(ids: Sequence[str]) -> str:
    """MLPerf result IDs ("2.0-2045") in runs: "2.0-2045…2054, 2.0-2125";
    IDs not of that shape as they are."""
    runs: list[list[tuple[str, int]]] = []
    other: list[str] = []
    parsed = []
    for i in set(ids):
        head, _, tail = i.rpartition("-")
        if head and tail.isdigit():
            parsed.append((head, int(tail)))
        else:
            other.append(i)
    for head, n in sorted(parsed):
        last = runs[-1][-1] if runs else None
        if last is not None and last[0] == head and last[1] == n - 1:
            runs[-1].append((head, n))
        else:
            runs.append([(head, n)])
    out = [
        f"{r[0][0]}-{r[0][1]}" + (f"…{r[-1][1]}" if len(r) > 1 else "") for r in runs
    ]
    return ", ".join(out + sorted(other))


def _result_ids(rows: Sequence[Row]) -> str:
    """Every result's MLPerf result ID, compactly; results without one (the
    logs scored here carry none) counted, their folders in the chart's data
    file; beyond a footnote's room, the count and the data file."""
    ids = [str(r["mlperf_id"]) for r in rows if r.get("mlperf_id")]
    without = sum(1 for r in rows if not r.get("mlperf_id"))
    listed = compact_ids(ids)
    data = "the chart's data file (export-chart --data) lists"
    if len(listed) > IDS_IN_FOOTNOTE:
        return f"{data} the result ID or folder of each of the {len(rows):,} results."
    parts = [f"Result IDs: {listed}" if ids else ""]
    if without:
        parts.append(
            f"{without:,} of the {len(rows):,} results have no MLPerf result ID "
            f"in their logs: {data} each one's folder"
        )
    return "; ".join(p for p in parts if p) + "."


def mlperf_footnote(rows: Sequence[Row]) -> str:
    """Round, division, category, result IDs or repository paths, retrieval
    date, the trademark line and, for figures scored here, that MLCommons has
    not verified them."""
    mine = [r for r in rows if is_mlperf(r)]
    if not mine:
        return ""
    repos = sorted({str(r["repository"]) for r in mine if r.get("repository")})
    dates = sorted(
        {
            str(r["retrieved"])
            for r in mine
            if r.get("retrieved") and r.get("repository")
        }
    )
    # Training and Inference are separate suites: each named with its own
    # rounds, division and category (a round number means nothing alone)
    parts = []
    inference = [r for r in mine if r.get("task") == "inference"]
    training = [r for r in mine if r.get("task") != "inference"]
    for suite, these in (("Training", training), ("Inference", inference)):
        if not these:
            continue
        rounds = sorted(
            {str(r["mlperf_round"]) for r in these if r.get("mlperf_round")}
        )
        divisions = sorted({str(r.get("division") or "").lower() for r in these} - {""})
        categories = sorted({str(r["category"]) for r in these if r.get("category")})
        scenarios = sorted({str(r["scenario"]) for r in these if r.get("scenario")})
        parts.append(
            f"MLPerf™ {suite} "
            + (", ".join(f"v{x}" for x in rounds) or "v2.0")
            + (f"; division: {', '.join(divisions)}" if divisions else "")
            + (f"; category: {', '.join(categories)}" if categories else "")
            + (f"; scenario: {', '.join(scenarios)}" if scenarios else "")
            + "."
        )
    parts.append(_result_ids(mine))
    if repos:
        parts.append(
            "Results from github.com/"
            + ", github.com/".join(repos)
            + (f", retrieved {', '.join(dates)}" if dates else "")
            + "."
        )
        if any(r.get("repository") for r in training):
            parts.append(DERIVED)
        if inference:
            parts.append(DERIVED_INFERENCE)
    parts.append(TRADEMARK)
    return " ".join(parts)
