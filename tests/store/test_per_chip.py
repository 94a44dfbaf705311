"""Per-accelerator figures against hand-computed ones from the seed's text."""

from __future__ import annotations

import csv

import pytest

from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.per_chip import LABEL, NOTE, per_chip
from ipubench_gui.domain.plots import build_plot, footnote
from ipubench_gui.service import browse
from tests.conftest import run_cli, seeds_or_skip
from tests.seedtables import RESULTS_PAGE, read_tables


def _seed(heading, **match):
    t = {t.heading: t for t in read_tables(seeds_or_skip() / RESULTS_PAGE)}[heading]
    return [r for r in t.rows if all(r[k] == v for k, v in match.items())]


def _n(text):
    return float(text.replace(",", ""))


def _by_mlperf_id(db, mid):
    rid = db.scalar("SELECT result_id FROM results WHERE mlperf_id = $m", {"m": mid})
    (row,) = browse.rows_by_ids(db, [rid])
    return row


def test_time_to_train_times_chips(db):
    # Seed: ResNet-50 on Bow Pod16 (16 IPUs) 19.64 min, MLPerf ID 2.0-2047.
    # the seed's 19.64 min is stored as the official result (scored from logs)
    (seed,) = _seed("MLPerf v2.0 Training Performance", **{"MLPerf ID": "2.0-2047"})
    stored = _by_mlperf_id(db, "2.0-2047")
    assert stored["value"] == pytest.approx(_n(seed["Time to Train (mins)"]), abs=0.01)
    row = per_chip(stored)
    assert row["value"] == pytest.approx(stored["value"] * 16)
    assert row["unit"] == "chip-minutes"


def test_throughput_per_chip_in_the_scaling_chart(db):
    # Seed: ResNet-50 v1.5, TensorFlow1, IPU-M2000 (4 IPUs) and IPU-POD64.
    rows = _seed(
        "IPU-POD Classic - Training", Model="ResNet-50 v1.5", Framework="TensorFlow1"
    )
    want = {
        {"IPU-M2000": 4, "IPU-POD64": 64}[r["Platform"]]: _n(
            r["Throughput (items/sec)"]
        )
        / {"IPU-M2000": 4, "IPU-POD64": 64}[r["Platform"]]
        for r in rows
        if r["Platform"] in ("IPU-M2000", "IPU-POD64")
    }
    spec = ChartSpec(kind="scaling", per_accelerator=True)
    state = FilterState().with_values("model", ["ResNet-50 v1.5"])
    plot = build_plot(spec, browse.chart_data(db, state, spec))
    line = next(
        s
        for s in plot.series
        if s.name.startswith("IPU Mk2 Classic · TensorFlow 1") and not s.dashed
    )
    got = {p.x: p.y for p in line.points}
    for n, v in want.items():
        assert got[n] == pytest.approx(v)
    # labelled derived: axis title, every legend entry, notes and footnote
    assert LABEL in plot.y_title
    assert all(s.name.endswith("(per chip)") for s in plot.series)
    assert NOTE in plot.notes and NOTE not in footnote(plot)  # said once
    assert "images/s" in plot.y_title


def test_throughput_bars_ranked_per_chip(db):
    spec = ChartSpec(per_accelerator=True)
    plot = build_plot(spec, browse.chart_data(db, FilterState(), spec))
    values = [p.x for s in plot.series for p in s.points]
    stored = {
        r["result_id"]: r["value"] / r["accelerators"]
        for r in browse.rows_by_ids(db, plot.point_ids())
    }
    assert sorted(values) == sorted(stored.values())
    assert LABEL in plot.x_title


def test_cli_compare_and_export_table_per_accelerator(db, tmp_path, _isolated_home):
    a = _by_mlperf_id(db, "2.0-2047")["result_id"]  # Bow Pod16, 19.64 min
    b = _by_mlperf_id(db, "2.0-2050")["result_id"]  # Bow Pod64, 6.30 min
    p = run_cli("compare", a, b, "--per-accelerator", home=_isolated_home)
    assert p.returncode == 0, p.stderr
    for rid, chips in ((a, 16), (b, 64)):
        (r,) = browse.rows_by_ids(db, [rid])
        assert f"{r['value'] * chips:,.2f}".rstrip("0").rstrip(".") in p.stdout
    assert NOTE in p.stdout
    out = tmp_path / "t.csv"
    p = run_cli(
        "export-table",
        str(out),
        "--per-accelerator",
        "--filter",
        "platform=IPU-M2000",
        home=_isolated_home,
    )
    assert p.returncode == 0, p.stderr
    with open(out, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert rows
    by_id = {r["result_id"]: r for r in browse.rows_by_ids(db, [r["ID"] for r in rows])}
    for r in rows:
        stored = by_id[r["ID"]]
        if stored["metric"] == "throughput":
            assert float(r["Value"]) == pytest.approx(stored["value"] / 4)
            assert r["Unit"] == stored["unit"] + " per chip"
            assert r["derived"] == LABEL
        else:  # MCMC's time to result, 49 s on 4 IPUs: 196 chip-seconds
            assert float(r["Value"]) == pytest.approx(stored["value"] * 4)
            assert (stored["unit"], r["Unit"]) == ("s", "chip-seconds")
            assert r["derived"] == "chip-seconds (time × accelerators, derived)"
    assert {r["Unit"] for r in rows} >= {"chip-seconds"}
