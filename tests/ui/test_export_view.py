"""``export-chart --view FILE``: a view saved in the window exports, from the
command line, the chart the window drew for it; options given beside the view
apply on top; a view file that cannot be used is refused by name."""

from __future__ import annotations

import csv
import dataclasses
import json

import pytest

from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.filters import FilterState, NumRange
from tests.conftest import run_cli

TITLE = "Deck slide rebuilt from a view"
SUBTITLE = "Saved subtitle for the room"
# Every field of ChartSpec away from its default, for two kinds: the bars
# (unit family, bars shown, sections) and the MLPerf chart (its benchmark,
# not the one with the most results, and the Open division).
STYLE = dict(
    metric=None,
    max_bars=12,
    per_accelerator=True,
    open_division=True,
    color_by="platform",
    group_by="model",
    log=False,
    budget_ms=20.0,
    title=TITLE,
    subtitle=SUBTITLE,
)
VIEWS = {
    "throughput": (
        FilterState()
        .with_values("framework", ["PopART", "PyTorch"])
        .with_range("batch_size", NumRange(1, 4096))
        .with_text("bert"),
        ChartSpec(
            kind="throughput",
            unit_family="sequences/s",
            benchmark="BERT-Large",
            **{**STYLE, "metric": "throughput"},
        ),
    ),
    "mlperf": (
        FilterState()
        .with_values("mlperf_round", ["2.0", "2.1", "3.0"])
        .with_text("bert"),  # MLPerf results have no batch size, throughput
        # or latency to keep in a range
        ChartSpec(
            kind="mlperf",
            unit_family="time",
            benchmark="BERT-Large",
            **{**STYLE, "metric": "time_to_train"},
        ),
    ),
}


@pytest.fixture(scope="module")
def cli_home(tmp_path_factory):
    """One user folder for this module's command lines: the store is built
    into its cache once."""
    return tmp_path_factory.mktemp("cli-home")


def _saved(session, tmp_path, name: str):
    """The state of ``VIEWS[name]`` set in the window and saved as File →
    Save view saves it; the path and the window's chart."""
    filters, spec = VIEWS[name]
    session.state.set_filters(filters)
    session.state.set_chart(spec)
    path = tmp_path / f"{name}.ipubench-view.json"
    session.compare.save_view(path)
    return path, session.controller.chart


def _points(path) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.reader(f))[1:]


def _same(cells: list[str], values: tuple) -> bool:
    """A row of ``--data`` as the window's point: numbers by value."""
    if len(cells) != len(values):
        return False
    for cell, v in zip(cells, values, strict=True):
        if v is None or v == "":
            ok = cell == ""
        elif isinstance(v, int | float):
            ok = float(cell) == pytest.approx(v, rel=1e-12)
        else:
            ok = cell == str(v)
        if not ok:
            return False
    return True


def _assert_same_points(data, chart) -> None:
    from ipubench_gui.domain.plot_model import point_rows

    shown = point_rows(chart.plot)
    written = _points(data)
    assert shown and len(written) == len(shown)
    bad = [(c, v) for c, v in zip(written, shown, strict=True) if not _same(c, v)]
    assert not bad, bad[:3]


@pytest.mark.parametrize("name", list(VIEWS))
def test_a_view_saved_in_the_window_exports_its_chart(
    session, tmp_path, cli_home, name
):
    path, chart = _saved(session, tmp_path, name)
    saved = json.loads(path.read_text())
    # the file holds the state away from every default (the bars are the
    # default kind; the MLPerf view's kind is not)
    defaults = ChartSpec()
    same = [
        f.name
        for f in dataclasses.fields(ChartSpec)
        if saved["chart"][f.name] == getattr(defaults, f.name)
    ]
    assert same == ([] if name != defaults.kind else ["kind"]), same
    parts = ("selected", "text") if name == "mlperf" else ("selected", "ranges", "text")
    assert all(saved["filters"][k] for k in parts)
    assert chart is not None and not chart.plot.empty
    out, data = tmp_path / "chart.svg", tmp_path / "points.csv"
    p = run_cli(
        "export-chart",
        "--view",
        str(path),
        "--out",
        str(out),
        "--data",
        str(data),
        home=cli_home,
    )
    assert p.returncode == 0, p.stderr[-2000:]
    assert p.stderr == ""  # nothing of the view dropped
    _assert_same_points(data, chart)
    svg = out.read_text(encoding="utf-8")
    assert TITLE in svg and SUBTITLE in svg
    if name == "mlperf":  # the saved benchmark, not the one with most results
        assert {r["model"] for r in chart.plot.rows} == {"BERT-Large"}
        assert "open" in {r["division"] for r in chart.plot.rows}
    assert all(r.get("per_accelerator") for r in chart.plot.rows)


@pytest.mark.scale
def test_options_beside_the_view_apply_on_top(session, tmp_path, cli_home):
    from PySide6.QtGui import QImage

    path, _ = _saved(session, tmp_path, "throughput")
    out, data = tmp_path / "chart.png", tmp_path / "points.csv"
    p = run_cli(
        "export-chart",
        "--view",
        str(path),
        "--filter",
        "framework=PopART",  # replaces the view's frameworks, keeps the rest
        "--no-per-accelerator",
        "--group-by",
        "none",
        "--title",
        "Given title",
        "--size",
        "1280x720",
        "--out",
        str(out),
        "--data",
        str(data),
        home=cli_home,
    )
    assert p.returncode == 0, p.stderr[-2000:]
    filters, spec = VIEWS["throughput"]
    session.state.set_filters(filters.with_values("framework", ["PopART"]))
    session.state.set_chart(
        spec.with_(per_accelerator=False, group_by=None, title="Given title")
    )
    chart = session.controller.chart
    _assert_same_points(data, chart)
    assert not any(r.get("per_accelerator") for r in chart.plot.rows)
    assert {r["framework"] for r in chart.plot.rows} == {"PopART"}
    img = QImage(str(out))
    assert (img.width(), img.height()) == (1280, 720)


def test_a_view_that_cannot_be_used_is_refused_by_name(tmp_path, capsys):
    from ipubench_gui import cli

    bad = tmp_path / "bad.ipubench-view.json"
    bad.write_text('{"format": "ipubench-gui view", "version": ')
    other = tmp_path / "other.json"
    other.write_text('{"hello": 1}')
    cases = {
        tmp_path / "missing.json": "no such file",
        tmp_path: "not a regular file",
        bad: "not valid JSON",
        other: "not an ipubench-gui view file",
    }
    for path, why in cases.items():
        code = cli.main(["export-chart", "--view", str(path), str(tmp_path / "c.png")])
        err = capsys.readouterr().err
        assert code == 2 and err.startswith(f"error: --view {path}: {why}"), err
    assert not (tmp_path / "c.png").exists()
    code = cli.main(["export-chart", str(tmp_path / "c.png")])
    assert code == 2
    assert "--kind KIND, or --view FILE" in capsys.readouterr().err
