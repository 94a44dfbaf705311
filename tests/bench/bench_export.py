"""Export benchmarks: streamed exports against DuckDB's own COPY
of the same rows, and the peak memory of an export process at 1M rows."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.bench.harness import Row, case, median_ms
from tests.bench.synthetic import REPO, make_data

# One export in a process of its own: its peak resident memory (VmHWM).
_PEAK = """
import sys
from pathlib import Path
from ipubench_gui.store.db import Database
from ipubench_gui.store.export import export
from ipubench_gui.domain.filters import FilterState
db = Database.open(Path(sys.argv[1]))
out = Path(sys.argv[2])
db.cursor().execute("SET temp_directory = '" + str(out.parent / "spill") + "'")
export.limit_memory(db)  # as the command line does
if sys.argv[3] == "copy":
    db.cursor().execute(
        f"COPY ({export.all_results_query().sql}) TO '{out}' (HEADER)")
elif sys.argv[3] == "results":
    export.export_results(db, out)
else:
    export.export_table(db, FilterState(), out)
hwm = [ln for ln in open('/proc/self/status') if ln.startswith('VmHWM')]
print(int(hwm[0].split()[1]) // 1024)
"""


def _peak_mb(store: Path, out: Path, what: str) -> float:
    p = subprocess.run(
        [sys.executable, "-c", _PEAK, str(store), str(out), what],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    )
    return float(p.stdout.split()[-1])


@case("export")
def bench_export(args, tmp: Path) -> list[Row]:
    from ipubench_gui.domain.filters import FilterState
    from ipubench_gui.store.bundled.build import build_store
    from ipubench_gui.store.db import Database
    from ipubench_gui.store.export import export

    n = 100_000 if args.quick else 1_000_000
    store = build_store(make_data(tmp / "export-data", n), tmp / "export.duckdb")
    db = Database.open(store)
    q = export.all_results_query()
    table = export.table_query(FilterState())

    def copy(query, fmt: str):
        def run() -> None:
            out = tmp / f"copy.{fmt}"
            c = db.cursor()
            c.execute(
                f"COPY ({query.sql}) TO '{out}' (FORMAT {fmt}, HEADER)"
                if fmt == "csv"
                else f"COPY ({query.sql}) TO '{out}' (FORMAT {fmt})",
                query.params,
            )

        return run

    runs = 3
    base_csv = median_ms(copy(q, "csv"), runs)
    base_table = median_ms(copy(table, "csv"), runs)
    base_pq = median_ms(copy(table, "parquet"), runs)
    res = median_ms(lambda: export.export_results(db, tmp / "all.csv"), runs)
    tab = median_ms(lambda: export.export_table(db, FilterState(), tmp / "t.csv"), runs)
    pq = median_ms(
        lambda: export.export_table(db, FilterState(), tmp / "t.parquet"), runs
    )
    db.close()
    scale = f"{n:,} rows"
    rows = [
        Row(
            "export-results CSV (formulas made inert)",
            scale,
            res,
            "DuckDB COPY of the same query",
            base_csv,
            "<= 1.5x",
        ),
        Row(
            "export-table CSV, every row",
            scale,
            tab,
            "DuckDB COPY of the same query",
            base_table,
            "<= 1.5x",
        ),
        Row(
            "export-table Parquet, every row",
            scale,
            pq,
            "DuckDB COPY of the same query",
            base_pq,
            "<= 1.5x",
        ),
    ]
    copy_mb = _peak_mb(store, tmp / "p0.csv", "copy")
    for what, out in (("results", "p1.csv"), ("table", "p2.parquet")):
        mb = _peak_mb(store, tmp / out, what)
        rows.append(
            Row(
                f"peak memory of a process running export-{what} ({out[3:]})",
                scale,
                mb,
                "the same process running DuckDB's COPY (MB)",
                copy_mb,
                "<= 300 MB (figures in MB, not ms; DuckDB limit 256MB)",
            )
        )
    return rows
