"""Group: a bar chart in sections, each under a header row naming its group, in
the window's chart and in exports."""

from __future__ import annotations

from collections import Counter

import pyqtgraph as pg
import pytest
from PySide6 import QtCore, QtGui

from ipubench_gui.charts.export import ExportOptions, compose
from ipubench_gui.charts.theme import LIGHT
from tests.charts.test_export import _plot
from tests.charts.test_export_legibility import _render


def _bars(plot) -> dict[float, tuple[str, float]]:
    """y position -> (result id, value) of every bar."""
    return {p.y: (p.result_id, p.x) for s in plot.series for p in s.points}


def test_groups_are_sections_under_their_header(db):
    """Each group's bars together under a header naming it and counting
    them, groups ordered by their best; bars of both tasks are grouped
    within their task first (test_tasks_apart), the header naming both."""
    flat = _plot(db, "throughput")
    plot = _plot(db, "throughput", group_by="platform")
    rows = {r["result_id"]: r for r in flat.rows}
    mixed = len({r["task"] for r in rows.values()}) > 1

    def group(i: str) -> tuple[str, str]:
        return (rows[i]["task"] if mixed else "", rows[i]["platform"])

    # the same bars, each group's together
    assert sorted(_bars(plot).values()) == sorted(_bars(flat).values())
    bars = _bars(plot)
    heads = dict(plot.sections)
    assert len(heads) == len({group(i) for i, _ in bars.values()}) >= 3
    assert len(plot.categories) == len(bars) + len(heads)
    sizes = Counter(group(i) for i, _ in bars.values())
    best_first: dict[str, list[float]] = {}
    for y, text in plot.sections:
        assert y not in bars and plot.categories[y] == ""  # no bar, no label
        under = []
        for z in range(y + 1, len(plot.categories)):
            if z in heads:
                break
            under.append(group(bars[z][0]))
        g = under[0]
        assert set(under) == {g}  # the rows under a header are its group's
        task = f"Task: {g[0]} · " if mixed else ""
        # what its bars all share after the count (test_bar_names)
        assert text.split(" · all ")[0] == f"{task}Platform: {g[1]} ({sizes[g]})"
        best = max(v for i, v in bars.values() if group(i) == g)
        best_first.setdefault(g[0], []).append(best)
    for bests in best_first.values():  # groups by their best, within a task
        assert bests == sorted(bests, reverse=True)
    assert plot.sections[0][0] == 0


def _colour_near(img, x: int, y: int, colour: QtGui.QColor, tol: int = 10) -> bool:
    c = QtGui.QColor(img.pixel(x, y))
    return sum(abs(a - b) for a, b in zip(c.getRgb()[:3], colour.getRgb()[:3])) <= tol


@pytest.mark.scale
def test_export_draws_headers_on_empty_rows(qapp, db):
    plot = _plot(db, "throughput", group_by="platform")
    opts = ExportOptions(1920, 1080)
    w = compose(plot, opts)
    pi = w.ci.getItem(2, 0)
    img = _render(w, opts)
    bar_colours = {QtGui.QColor(LIGHT.series(s.color)).name() for s in plot.series}
    ink = QtGui.QColor(LIGHT.foreground)
    view = pi.vb.viewRange()[1]
    cut = w.chart_plot  # the rows that fit, shared between the tasks
    drawn = [(y, t) for y, t in cut.sections if view[0] <= y <= view[1]]
    assert len(drawn) >= 2
    x0 = round(pi.vb.mapViewToScene(QtCore.QPointF(0.0, 0)).x())
    for y, text in drawn:
        row = round(pi.vb.mapViewToScene(QtCore.QPointF(0.0, y)).y())
        span = range(x0 + 1, x0 + 400)
        # the header's row: text in the foreground colour, and no bar
        assert any(
            _colour_near(img, x, row + d, ink, 60) for x in span for d in (-2, 0, 2)
        )
        assert not any(
            QtGui.QColor(img.pixel(x, row)).name() in bar_colours for x in span
        ), text
        # the row below: its group's first bar, from the axis
        below = round(pi.vb.mapViewToScene(QtCore.QPointF(0.0, y + 1)).y())
        assert QtGui.QColor(img.pixel(x0 + 3, below)).name() in bar_colours
    # the header rows carry no tick label: the name is drawn once, in the plot
    ticks = [t for level in pi.getAxis("left")._tickLevels for _, t in level]
    assert len(ticks) == sum(1 for c in cut.categories[: len(ticks) + len(drawn)] if c)
    # each header drawn once, in order (a header cut short counts "k of n")
    texts = [it.toPlainText() for it in pi.items if isinstance(it, pg.TextItem)]
    heads = [t.rsplit(" (", 1)[0] for t in texts if "Platform: " in t]
    assert [t.rsplit(" (", 1)[0] for _, t in drawn] == heads[: len(drawn)]
    w.close()


@pytest.mark.scale
def test_export_chart_groups_from_the_command_line(tmp_path):
    from tests.conftest import run_cli

    out = tmp_path / "grouped.png"
    r = run_cli(
        "export-chart",
        "--kind",
        "throughput",
        "--group-by",
        "platform",
        "--out",
        str(out),
        home=tmp_path,
        drop=("DISPLAY",),
    )
    assert r.returncode == 0, r.stderr
    assert QtGui.QImage(str(out)).size() == QtCore.QSize(1920, 1080)
    bad = run_cli("export-chart", "--group-by", "colour", str(out), home=tmp_path)
    assert bad.returncode == 2 and "--group-by" in bad.stderr
