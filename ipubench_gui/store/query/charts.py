"""make_chart: the one way from a filter and a ChartSpec to a Chart.

The window (on its worker, then ``plots.chart_of`` on the GUI thread), the
command line's ``export-chart`` and ``--self-test`` all draw through here, so
a chart is the same wherever it is made. No Qt.
"""

from __future__ import annotations

from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.plots import Chart, chart_of
from ipubench_gui.store.db import Database
from ipubench_gui.store.query import fetch


def make_chart(
    db: Database,
    state: FilterState,
    spec: ChartSpec,
    universe: fetch.Universe | None = None,
) -> Chart:
    """The chart of ``spec`` over the rows ``state`` keeps; ``universe`` (asked
    of ``db`` when not given) orders the colours as the window does."""
    u = universe if universe is not None else fetch.universe(db)
    data = fetch.chart_data(db, state, spec)
    return chart_of(spec, data, state, color_order(u, spec), u.names)


def color_order(universe: fetch.Universe | None, spec: ChartSpec) -> list[object]:
    """The values of ``spec.color_by`` in the store's order (none known: [])."""
    return list(universe.values.get(spec.color_by, [])) if universe else []
