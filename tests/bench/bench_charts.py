"""Chart benchmarks: kind switch, 4K export, charts over 1M rows."""

from __future__ import annotations

import tempfile
from pathlib import Path

from tests.bench.bench_ui import _synthetic_store
from tests.bench.harness import REPO_DATA, Row, case, median_ms


def _session(store: Path):
    from ipubench_gui.app import Session, ensure_app
    from ipubench_gui.store.db import Database

    app = ensure_app()
    db = Database.open(store)
    s = Session(db, synchronous=True)
    s.start(restore=False)
    s.window.resize(1400, 900)
    s.window.show()
    app.processEvents()
    return app, db, s


@case("charts")
def bench_charts(args, tmp: Path) -> list[Row]:
    from ipubench_gui.charts.export import ExportOptions, export
    from ipubench_gui.domain.kinds import KINDS
    from ipubench_gui.store.bundled.build import build_store

    rows: list[Row] = []
    app, db, s = _session(build_store(REPO_DATA, tmp / "charts-seed.duckdb"))
    kinds = list(KINDS)
    i = 0

    def switch():
        nonlocal i
        s.state.set_chart(s.state.chart.with_(kind=kinds[i % len(kinds)]))
        app.processEvents()
        i += 1

    def restyle():
        nonlocal i
        s.state.set_chart(
            s.state.chart.with_(
                color_by=("framework", "platform")[i % 2], kind="throughput"
            )
        )
        app.processEvents()
        i += 1

    rows.append(
        Row(
            "switch chart kind + redraw (all 6 in turn)",
            "seed",
            median_ms(switch, 36, warmup=6),
            "restyle (colour by), no query",
            median_ms(restyle, 20, warmup=2),
            "<= 50 ms",
        )
    )
    s.state.set_chart(s.state.chart.with_(kind="throughput"))
    app.processEvents()
    plot = s.controller.plot
    out = Path(tempfile.mkdtemp(dir=tmp))
    hd = median_ms(lambda: export(plot, out / "a.png", ExportOptions(1920, 1080)), 5)
    rows.append(
        Row(
            "export 3840x2160 PNG (throughput, 60 bars)",
            "seed",
            median_ms(
                lambda: export(plot, out / "b.png", ExportOptions(3840, 2160)), 5
            ),
            "1920x1080 PNG",
            hd,
            "<= 1000 ms",
        )
    )
    s.window.close()
    s.close()
    db.close()

    n = 100_000 if args.quick else 1_000_000
    app, db, s = _session(_synthetic_store(tmp, n))
    flip = [0]
    for kind in ("latency-throughput", "throughput", "scaling"):
        s.state.set_chart(s.state.chart.with_(kind=kind))
        app.processEvents()

        def refilter():
            from ipubench_gui.domain.filters import FilterState

            flip[0] += 1
            s.state.set_filters(
                FilterState().with_values(
                    "framework", [("PyTorch", "TensorFlow 1")[flip[0] % 2]]
                )
            )
            app.processEvents()

        rows.append(
            Row(
                f"{kind} chart: filter change end to end",
                f"{n:,} rows",
                median_ms(refilter, 7, warmup=1),
                target="interactive (< 200 ms)",
            )
        )
        pts = len(s.controller.plot.point_ids()) if s.controller.plot else 0
        rows.append(Row(f"{kind} chart: points drawn", f"{n:,} rows", float(pts)))
    s.window.close()
    s.close()
    db.close()
    return rows
