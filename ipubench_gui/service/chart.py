"""The chart: the one way from a filter and a ChartSpec to a Chart.

``make_chart`` asks the store for the rows and builds the chart
(``export-chart``, ``--self-test``); the window asks for the rows on its
worker (alone, or beside the table's page) and builds through
``chart_from_rows``, the same function, so a chart is the same wherever it
is made.
"""

from __future__ import annotations

from ipubench_gui.domain.chartrows import ChartRows
from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.plots import Chart, chart_of
from ipubench_gui.service import browse
from ipubench_gui.store.db import Database


def make_chart(
    db: Database,
    state: FilterState,
    spec: ChartSpec,
    universe: browse.Universe | None = None,
) -> Chart:
    """The chart of ``spec`` over the rows ``state`` keeps; ``universe`` (asked
    of ``db`` when not given) orders the colours and names the values."""
    u = universe if universe is not None else browse.universe(db)
    return chart_from_rows(spec, browse.chart_data(db, state, spec), state, u)


def chart_from_rows(
    spec: ChartSpec,
    rows: ChartRows,
    state: FilterState,
    universe: browse.Universe | None,
) -> Chart:
    """The chart of ``spec`` over ``rows`` (``browse.chart_data``'s answer for
    ``state``); without a universe yet, colours by value and names as stored."""
    names = universe.names if universe is not None else None
    return chart_of(spec, rows, state, color_order(universe, spec), names)


def color_order(universe: browse.Universe | None, spec: ChartSpec) -> list[object]:
    """The values of ``spec.color_by`` in the store's order (none known: [])."""
    return list(universe.values.get(spec.color_by, [])) if universe else []
