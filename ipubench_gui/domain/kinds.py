"""The chart kinds: one registry entry per kind says everything that varies by kind.

Per kind: its label, the chart options it uses, which stored rows it draws
(``condition``, a constant rule the store turns into SQL), its series rule
(``along``: what may differ along one line, ``x`` of it placing a point on
the line; a line joins only results identical in everything else,
domain/series_rule.py), which also says what one median point groups beyond
the row cap (``keys``: one line at one x), and its builder (rows in, a
``Plot`` out). The store, the
chart options, the command line and the plot dispatch all read it here, so a
new kind is one entry in ``KINDS`` (plus its builder and a test).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from ipubench_gui.domain import series_rule
from ipubench_gui.domain.chartrows import ChartRows
from ipubench_gui.domain.plot_kinds import (
    bars_plot,
    latency_throughput_plot,
    progress_plot,
    scaling_plot,
)
from ipubench_gui.domain.plot_mlperf import mlperf_plot
from ipubench_gui.domain.plot_model import Plot
from ipubench_gui.domain.plot_vendor import vendor_plot

# Chart options a kind may use (the chart options panel shows only these).
# family: what the bars count (one unit family at a time); per_chip: figures per
# accelerator chip (derived); benchmark: the one MLPerf benchmark drawn, and
# whether the Open division is drawn beside the Closed one
OPTIONS = ("color_by", "group_by", "log", "budget", "family", "per_chip", "benchmark")


class KindOptions(Protocol):
    """The style options a builder reads (``domain.chartspec.ChartSpec`` has them)."""

    @property
    def color_by(self) -> str: ...
    @property
    def group_by(self) -> str | None: ...
    @property
    def log(self) -> bool: ...
    @property
    def budget_ms(self) -> float | None: ...
    @property
    def benchmark(self) -> str | None: ...
    @property
    def open_division(self) -> bool: ...


# (options, the store's rows, colour order, what varies along a line) -> Plot
Builder = Callable[[KindOptions, ChartRows, Sequence[object], tuple[str, ...]], Plot]


@dataclass(frozen=True)
class RowRule:
    """Which stored rows a kind draws: these columns equal these constants, and
    those columns not blank. The store writes it as SQL (``queries.kind_where``)."""

    equals: tuple[tuple[str, str], ...] = ()
    present: tuple[str, ...] = ()


@dataclass(frozen=True)
class ChartKind:
    """One chart kind.

    ``rows`` says how the store finds the rows: ``"best"``, the best rows of
    one metric in one unit (bar charts; the table's page can answer when it
    holds every filtered row); ``"matching"``, every filtered row meeting
    ``condition``, or beyond the row cap one median row per ``keys`` group;
    ``"comparisons"``, the vendor's stated comparisons (no filter).
    """

    label: str
    build: Builder
    rows: str = "matching"
    uses: frozenset[str] = frozenset()
    condition: RowRule = RowRule()
    # the series rule: what may differ along one line; ``x``, of those, what
    # places a point on it (the rest only travels with it, as the platform
    # that names a system size)
    along: tuple[str, ...] = ()
    x: tuple[str, ...] = ()
    # what the builder keeps apart beyond a configuration (series_rule.CONFIGURATION)
    extra_keys: tuple[str, ...] = ()
    note: str = ""  # a sentence the chart's footnote always carries

    @property
    def keys(self) -> tuple[str, ...]:
        """What one median point groups beyond the row cap
        (``queries.kind_aggregate``): the rows of one line at one x, by the
        series rule itself, so a median never mixes two lines."""
        return series_rule.point_keys(self.along, self.x) + self.extra_keys

    @property
    def metric(self) -> str:
        """The metric a ``"matching"`` kind draws (its condition's)."""
        return dict(self.condition.equals).get("metric", "throughput")


KINDS: dict[str, ChartKind] = {
    "throughput": ChartKind(
        "Throughput comparison",
        lambda o, data, order, _along: bars_plot(data, o.color_by, o.group_by, order),
        rows="best",
        uses=frozenset({"color_by", "group_by", "family", "per_chip"}),
    ),
    "latency-throughput": ChartKind(
        "Latency vs throughput (inference)",
        lambda o, data, order, along: latency_throughput_plot(
            data.rows, along, o.budget_ms, o.log, order
        ),
        uses=frozenset({"log", "budget", "per_chip"}),
        condition=RowRule(
            (("metric", "throughput"), ("task", "inference")), ("latency_ms",)
        ),
        along=("batch_size",),
        x=("batch_size",),
    ),
    "scaling": ChartKind(
        "Scaling with system size",
        lambda _o, data, order, along: scaling_plot(data.rows, along, order),
        uses=frozenset({"log", "per_chip"}),
        condition=RowRule(
            (("metric", "throughput"), ("task", "training")), ("accelerators",)
        ),
        along=("accelerators", "platform", "batch_size"),
        x=("accelerators",),
    ),
    "progress": ChartKind(
        "Generation / SDK progress",
        lambda _o, data, order, along: progress_plot(data.rows, along, order),
        condition=RowRule((("metric", "throughput"), ("task", "training"))),
        # each generation's figures are in a table of their own
        along=("generation", "sdk_version", "platform", "table"),
        x=("generation", "sdk_version"),
        extra_keys=("sdk_sort",),  # orders the SDKs
    ),
    "mlperf": ChartKind(
        "MLPerf time to train",
        lambda o, data, order, _along: mlperf_plot(
            data.rows, order, o.benchmark, o.open_division
        ),
        uses=frozenset({"log", "per_chip", "benchmark"}),
        # official results (the seed's cited figures share their rows); a time
        # and an accelerator count to plot
        condition=RowRule(
            (("metric", "time_to_train"),), ("mlperf_round", "value", "accelerators")
        ),
        # plot_mlperf: one series per accelerator type (generation), division
        # and category; along a line only the system size differs
        along=("accelerators", "platform", "batch_size"),
        x=("accelerators",),
        extra_keys=("category",),
    ),
    "vendor": ChartKind(
        "Vendor IPU-vs-GPU claims",
        lambda _o, data, _order, _along: vendor_plot(data.rows),
        rows="comparisons",
        note="Ratios as stated by the vendor, not measured here.",
    ),
}


def kind(name: str) -> ChartKind:
    """The kind called ``name``; ``ValueError`` naming the known kinds."""
    try:
        return KINDS[name]
    except KeyError:
        raise ValueError(
            f"unknown chart kind {name!r}; known: {sorted(KINDS)}"
        ) from None
