"""The window, the command line and the self-test draw one chart the same way
(``store.charts.make_chart``), and the CLI's export needs no window module."""

from __future__ import annotations

import subprocess
import sys

import pytest

from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.kinds import KINDS

FILTERS = {
    "none": FilterState(),
    "PyTorch": FilterState().with_values("framework", ["PyTorch"]),
}


@pytest.mark.parametrize("filters", list(FILTERS))
@pytest.mark.parametrize("kind", list(KINDS))
def test_window_chart_is_make_chart(make_session, kind, filters):
    from ipubench_gui.store.charts import make_chart

    s = make_session()
    spec = ChartSpec(kind=kind, color_by="platform")
    s.state.set_filters(FILTERS[filters])
    s.state.set_chart(spec)
    drawn = s.controller.chart
    # The window's bar chart is picked from its table page (best_rows); the
    # CLI's comes from the store's own query: the same chart either way.
    made = make_chart(s.db, FILTERS[filters], spec)
    assert drawn is not None
    assert not made.plot.empty or filters != "none"  # every kind draws something
    assert drawn.plot == made.plot
    assert drawn.plot.rows == made.plot.rows  # not compared by Plot's ==
    assert (drawn.subtitle, drawn.footnote) == (made.subtitle, made.footnote)


def test_a_chart_built_on_the_worker_is_the_one_drawn(make_session, qtbot):
    """Queries on the worker, as the app runs: a filter change's chart is
    built there with its rows (the GUI thread only draws it), and it is the
    CLI's chart."""
    from ipubench_gui.store.charts import make_chart

    s = make_session(synchronous=False)
    spec = ChartSpec(kind="scaling")
    s.state.set_chart(spec)
    qtbot.waitUntil(lambda: s.controller.universe is not None)
    with qtbot.waitSignal(s.results.chartRowsChanged, timeout=10_000):
        s.state.set_filters(FILTERS["PyTorch"])
    qtbot.waitUntil(lambda: "chart" not in s.runner.pending())
    built = s.results.built
    assert built is not None and built.filters == FILTERS["PyTorch"]
    assert s.controller.chart is built.chart
    made = make_chart(s.db, FILTERS["PyTorch"], spec)
    assert built.chart.plot == made.plot and built.chart.plot.rows == made.plot.rows
    assert (built.chart.subtitle, built.chart.footnote) == (
        made.subtitle,
        made.footnote,
    )


def test_cli_chart_export_imports_no_window_module(tmp_path):
    code = (
        "import sys; from ipubench_gui import cli; "
        f"code = cli.main(['export-chart', '--kind', 'scaling', '--out', "
        f"{str(tmp_path / 'c.png')!r}]); "
        "print(code, sorted(m for m in sys.modules if m.startswith("
        "('ipubench_gui.app', 'ipubench_gui.ui.main_window', "
        "'ipubench_gui.ui.controller'))))"
    )
    p = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
    )
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip().splitlines()[-1] == "0 []"
    assert (tmp_path / "c.png").stat().st_size > 10_000


def test_a_failed_job_without_its_own_handler_reaches_the_one_sink(make_session):
    s = make_session()
    sunk = []
    s.runner.failed.connect(lambda slot, exc: sunk.append((slot, str(exc))))

    def broken(db):
        raise ValueError("no such thing")

    s.runner.submit("page", broken)
    assert sunk == [("page", "no such thing")]
    assert s.window.statusBar().currentMessage() == (
        "Results could not be computed: no such thing"
    )
    handled = []
    s.runner.submit("page", broken, on_error=lambda slot, exc: handled.append(slot))
    assert handled == ["page"] and len(sunk) == 1
