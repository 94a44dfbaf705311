"""Export benchmarks: each export (results CSV, table CSV, Parquet, Excel) in a
process of its own, its time and peak memory against DuckDB's own COPY of the
same rows in the same order, at the same size (1M rows)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from tests.bench.harness import Row, case
from tests.bench.synthetic import REPO, make_data

# One export in a process of its own: its seconds and peak resident memory
# (VmHWM, MB). "copy-*": DuckDB's COPY of the query the export writes, with
# DuckDB's own settings (its default memory limit, every thread).
_ONE = """
import sys, time
from pathlib import Path
from ipubench_gui.store.db import Database
from ipubench_gui.store.export import export
from ipubench_gui.domain.filters import FilterState
db = Database.open(Path(sys.argv[1]))
out = Path(sys.argv[2])
what = sys.argv[3]
db.cursor().execute("SET temp_directory = '" + str(out.parent / "spill") + "'")
t0 = time.perf_counter()
if what.startswith("copy"):
    q = export.all_results_query() if what == "copy-results" else export.table_query(
        FilterState())
    fmt = "parquet" if out.suffix == ".parquet" else "csv"
    opts = "(FORMAT parquet)" if fmt == "parquet" else "(FORMAT csv, HEADER)"
    db.cursor().execute(f"COPY ({q.sql}) TO '{out}' {opts}", q.params)
elif what == "results":
    export.export_results(db, out)
else:
    export.export_table(db, FilterState(), out)
secs = time.perf_counter() - t0
hwm = [ln for ln in open('/proc/self/status') if ln.startswith('VmHWM')]
print(secs * 1000, int(hwm[0].split()[1]) // 1024)
"""


def _run(store: Path, out: Path, what: str) -> tuple[float, float]:
    """(milliseconds, peak MB) of one export in a fresh process."""
    p = subprocess.run(
        [sys.executable, "-c", _ONE, str(store), str(out), what],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    )
    ms, mb = p.stdout.split()[-2:]
    return float(ms), float(mb)


def _median(store: Path, out: Path, what: str, runs: int) -> tuple[float, float]:
    got = sorted(_run(store, out, what) for _ in range(runs))
    ms = sorted(g[0] for g in got)[len(got) // 2]
    return ms, max(g[1] for g in got)


@case("export")
def bench_export(args, tmp: Path) -> list[Row]:
    from ipubench_gui.store.bundled.build import build_store

    n = 100_000 if args.quick else 1_000_000
    store = tmp / f"export-{n}.duckdb"
    if not store.exists():
        t0 = time.perf_counter()
        build_store(make_data(tmp / f"export-data-{n}", n), store)
        print(f"(export store built in {time.perf_counter() - t0:.0f} s)")
    runs = 3
    scale = f"{n:,} rows"
    base = {
        "results": _median(store, tmp / "c1.csv", "copy-results", runs),
        "table": _median(store, tmp / "c2.csv", "copy-table", runs),
        "parquet": _median(store, tmp / "c3.parquet", "copy-table", runs),
    }
    rows = []
    for label, what, out, against in (
        ("export-results CSV (formulas made inert)", "results", "e1.csv", "results"),
        ("export-table CSV, every row", "table", "e2.csv", "table"),
        ("export-table Parquet, every row", "table", "e3.parquet", "parquet"),
        (
            "export-table Excel, every row (DuckDB writes the XML)",
            "table",
            "e4.xlsx",
            "table",
        ),
    ):
        ms, mb = _median(store, tmp / out, what, runs)
        base_ms, base_mb = base[against]
        rows.append(
            Row(label, scale, ms, "DuckDB COPY of the same query", base_ms, "<= 1.5x")
        )
        rows.append(
            Row(
                f"  peak memory of that export process (MB; COPY's: {base_mb:.0f})",
                scale,
                mb,
                "600 MB",
                600.0,
                "<= 1.0x (figures in MB)",
            )
        )
    return rows
