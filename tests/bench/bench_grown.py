"""The grown bundled store (MLPerf Training 1.0-4.0 and Inference 1.0-3.0,
~3,900 rows) against the store it grew from (Training 1.0-2.1 only, ~1,050
rows), made from a copy of data/ in the same run: the store built from
data/ (a first start's cost), the in-memory copy loaded, and a filter change
in the app as run, the two stores in turn so the machine's load sways both
alike. The targets: a change within one frame, a first start at most 1.2x."""

from __future__ import annotations

import csv
import shutil
import statistics
import time
from pathlib import Path

from tests.bench.harness import REPO_DATA, Row, case


def _grown_from(tmp: Path) -> Path:
    """data/ as it was before the new rounds: Training 1.0-2.1, no Inference."""
    old = tmp / "data-before"
    if old.exists():
        shutil.rmtree(old)
    shutil.copytree(REPO_DATA, old, ignore=shutil.ignore_patterns("*.duckdb*"))
    for name, keep in (
        ("mlperf_training.csv", lambda r: r["mlperf_round"] <= "2.1"),
        ("mlperf_inference.csv", lambda r: False),
    ):
        with open(REPO_DATA / name, newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            rows = [r for r in reader if keep(r)]
            fields = reader.fieldnames or []
        with open(old / name, "w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, fields, lineterminator="\n")
            w.writeheader()
            w.writerows(rows)
    return old


def _first_start_ms(data: Path, out: Path) -> float:
    """Store built from ``data``, then what the window's first answers need:
    the in-memory copy, a page and the facet counts."""
    from ipubench_gui.domain.filters import FilterState
    from ipubench_gui.service import browse
    from ipubench_gui.store.bundled.build import build_store
    from ipubench_gui.store.db import Database

    t = time.perf_counter()
    build_store(data, out)
    db = Database.open(out)
    browse.page(db, FilterState(), ("value", True))
    browse.facet_counts(db, FilterState())
    db.close()
    return (time.perf_counter() - t) * 1000


@case("grown")
def bench_grown(args, tmp: Path) -> list[Row]:
    from ipubench_gui.store.db import Database
    from tests.bench.bench_ui import threaded_changes

    stores = {"grown": REPO_DATA, "before": _grown_from(tmp)}
    built = {k: tmp / f"grown-{k}.duckdb" for k in stores}
    start: dict[str, list[float]] = {k: [] for k in stores}
    change: dict[str, list[float]] = {k: [] for k in stores}
    stall: dict[str, list[float]] = {k: [] for k in stores}
    rounds = 2 if args.quick else 5
    for i in range(rounds):
        for k in stores if i % 2 == 0 else reversed(list(stores)):
            start[k].append(_first_start_ms(stores[k], built[k]))
            lat, meter, _ = threaded_changes(Database.open(built[k]), 30)
            change[k].append(statistics.median(lat))
            stall[k].append(meter.worst_cpu_ms)
    med = {
        k: {
            n: statistics.median(v[k])
            for n, v in (("start", start), ("change", change), ("stall", stall))
        }
        for k in stores
    }
    label = f"grown vs Training 1.0-2.1 only, {rounds} rounds"
    return [
        Row(
            "first start: store built + first answers",
            label,
            med["grown"]["start"],
            "before the new rounds",
            med["before"]["start"],
            "<= 1.2x",
        ),
        Row(
            "threaded: filter change -> painted (app as run)",
            label,
            med["grown"]["change"],
            "before the new rounds",
            med["before"]["change"],
            "<= 16 ms",
        ),
        Row(
            "longest GUI stall, GUI-thread CPU time",
            label,
            statistics.median(stall["grown"]),
            "before the new rounds",
            statistics.median(stall["before"]),
            "<= 30 ms",
        ),
    ]
