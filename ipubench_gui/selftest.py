"""--self-test: check, with no window, that an install can do its job.

Opens the bundled store, checks the number of results against the shipped
CSV (read with the standard library), applies a filter, builds every chart
kind and exports one PNG to a temporary folder. Prints one line and returns 0,
or names the step that failed and returns 1.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path


def run() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    t0 = time.perf_counter()
    step = "starting"
    try:
        from ipubench_gui import paths
        from ipubench_gui.bootstrap import open_store, user_db_path
        from ipubench_gui.charts.export import ExportOptions, export
        from ipubench_gui.domain.chartspec import ChartSpec
        from ipubench_gui.domain.filters import FilterState
        from ipubench_gui.domain.kinds import KINDS
        from ipubench_gui.service import browse
        from ipubench_gui.service.chart import make_chart
        from ipubench_gui.store.bundled.sources import shown_rows
        from ipubench_gui.store.health import cut_short
        from ipubench_gui.store.user.userdb import check_user
        from ipubench_gui.ui.application import ensure_app

        step = "reading the shipped data"
        expected = shown_rows(paths.data_dir())
        step = "opening the store (built again if its cache is damaged)"
        db = open_store(user=False)  # never touches the user's own results
        step = "checking the results cache"
        if db.path is not None:
            problem = cut_short(db.cursor(), "b", db.path)
            if problem:
                raise AssertionError(f"{db.path}: {problem}")
        step = "checking your imported results"
        user_ok, user_said = check_user(user_db_path())
        if not user_ok:
            raise AssertionError(
                f"{user_db_path()}: {user_said}; start the app to set the file "
                "aside (it is kept) and begin a new one"
            )
        step = "counting results"
        universe = browse.universe(db)
        total = universe.total
        if total != expected:
            raise AssertionError(f"store has {total} results, data has {expected}")
        step = "filtering"
        st = FilterState().with_values("framework", ["PyTorch"])
        page = browse.page(db, st, (None, False))
        if not 0 < page.matching < total:
            raise AssertionError(f"filter kept {page.matching} of {total}")
        step = "building charts"
        ensure_app()
        charts = {}
        for kind in KINDS:
            spec = ChartSpec(kind=kind)
            charts[kind] = make_chart(db, FilterState(), spec, universe)
            if charts[kind].plot.empty:
                raise AssertionError(f"chart {kind} is empty")
        db.close()
        step = "exporting a PNG"
        with tempfile.TemporaryDirectory() as tmp:
            bars = charts["throughput"]
            out = export(
                bars.plot,
                Path(tmp) / "selftest.png",
                ExportOptions(1920, 1080, footnote=bars.footnote),
            )
            size = out.stat().st_size
        if size < 10_000:
            raise AssertionError(f"exported PNG is only {size} bytes")
    except Exception as exc:  # the point is to name any failure
        print(f"self-test failed while {step}: {type(exc).__name__}: {exc}")
        return 1
    ms = (time.perf_counter() - t0) * 1000
    print(
        f"self-test ok: {total} results, filter kept {page.matching}, "
        f"{len(charts)} chart kinds built, PNG {size:,} bytes, your imported "
        f"results: {user_said}, {ms:.0f} ms"
    )
    return 0
