"""The window, the command line and the self-test draw one chart the same way
(``service.chart.make_chart``), and the CLI's export needs no window module."""

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
    from ipubench_gui.service.chart import make_chart

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
    from ipubench_gui.service.chart import make_chart

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


def test_the_chart_is_never_built_on_the_gui_thread_at_start_or_restyled(
    make_session, qtbot, monkeypatch
):
    """Queries on the worker, as the app runs: the chart the start-up asked
    for before the colour order was known (the universe's), and the chart of
    a style change, are built again on the worker from the rows at hand, not
    on the GUI thread (1M rows: 68 ms held at start-up), then drawn."""
    import threading

    from ipubench_gui.service import chart

    on_gui: list[bool] = []
    real = chart.chart_from_rows

    def chart_from_rows(*args, **kwargs):  # the real one, told where it ran
        on_gui.append(threading.current_thread() is threading.main_thread())
        return real(*args, **kwargs)

    monkeypatch.setattr(chart, "chart_from_rows", chart_from_rows)
    s = make_session(synchronous=False)

    def drawn_as_asked() -> bool:
        built, u = s.results.built, s.controller.universe
        return (
            u is not None
            and built is not None
            and built.names is u.names
            and built.spec == s.state.chart
            and s.controller.chart is built.chart is not None
            and "chart" not in s.runner.pending()
        )

    qtbot.waitUntil(drawn_as_asked, timeout=20_000)
    assert on_gui and not any(on_gui)
    rows = s.results.chart_rows
    on_gui.clear()
    s.state.set_chart(s.state.chart.with_(color_by="platform"))
    qtbot.waitUntil(drawn_as_asked, timeout=20_000)
    assert on_gui and not any(on_gui)
    assert s.results.chart_rows is rows  # not queried again
    plot = s.controller.plot
    assert {x.name for x in plot.series} == {r["platform"] for r in plot.rows}


def test_the_first_chart_is_built_once_for_the_universes_colours(
    make_session, qtbot, monkeypatch
):
    """As the app starts (first queries asked before the window exists, on
    the workers): the chart's job waits for the universe and builds the chart
    for its colour order and names, so the first chart drawn is the one
    asked for; built before them, it was built and drawn a second time once
    the universe came."""
    from ipubench_gui.service import chart as chart_service

    built: list[tuple] = []
    real = chart_service.chart_of

    def chart_of(spec, rows, filters, order, names):
        built.append((tuple(order), names))
        return real(spec, rows, filters, order, names)

    monkeypatch.setattr(chart_service, "chart_of", chart_of)
    s = make_session(synchronous=False, prefetch=True, start=False)
    drawn: list[object] = []
    real_render = s.window.canvas.render
    monkeypatch.setattr(
        s.window.canvas,
        "render",
        lambda plot, *a, **k: (drawn.append(plot), real_render(plot, *a, **k)),
    )
    s.start(restore=False)
    qtbot.waitUntil(
        lambda: (
            s.controller.universe is not None
            and s.controller.chart is not None
            and not s.runner.pending()
        ),
        timeout=20_000,
    )
    u = s.controller.universe
    assert len(built) == 1, built
    order, names = built[0]
    assert order and order == tuple(u.values[s.state.chart.color_by])
    assert names is u.names
    assert drawn == [s.controller.plot]


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
