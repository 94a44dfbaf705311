"""MLPerf benchmarks: building every round from ../shared/mlperf,
importing one round's folder, and streaming a 200 MB log in bounded memory."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from tests.bench.harness import REPO_DATA, Row, case, median_ms

TRAINING = REPO_DATA.parent.parent / "shared" / "mlperf" / "training"

# Peak RSS of a child that reads the log (or does nothing else): KiB on Linux.
_PEAK = """
import resource, sys, time
from pathlib import Path
t = time.perf_counter()
if sys.argv[1] == "read":
    from ipubench_gui.store.mlperf.mlperf_log import read_log
    run = read_log(Path(sys.argv[2]))
    assert abs(run.minutes - 90.0) < 1e-9, run
elif sys.argv[1] == "lines":
    with open(sys.argv[2], "rb") as f:
        for _ in f:
            pass
else:
    from ipubench_gui.store.mlperf import mlperf_log  # noqa: F401
print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def _big_log(path: Path, mb: int) -> None:
    """A log like a multi-rank one: shell output with MLLOG lines between."""
    noise = ("x" * 180 + "\n").encode()
    rec = ':::MLLOG {"namespace": "", "time_ms": %d, "event_type": "POINT_IN_TIME", '
    with open(path, "wb") as f:
        f.write(f'[0] {rec % 0}"key": "run_start", "value": null}}\n'.encode())
        n = 0
        while f.tell() < mb * 1_000_000:
            n += 1
            if n % 50 == 0:
                line = f'[1] {rec % n}"key": "eval_accuracy", "value": 0.5, '
                f.write((line + '"metadata": {"epoch_num": 1}}\n').encode())
            else:
                f.write(noise)
        stop = rec % 5_400_000
        f.write(f'{stop}"key": "run_stop", "value": null, '.encode())
        f.write(json.dumps({"metadata": {"status": "success"}})[1:].encode() + b"\n")


def _child(what: str, path: Path) -> tuple[float, int]:
    out = subprocess.run(
        [sys.executable, "-c", _PEAK, what, str(path)],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO_DATA.parent,
    ).stdout.split()
    return float(out[0]) * 1000, int(out[1])


@case("mlperf")
def bench_mlperf(args, tmp: Path) -> list[Row]:
    from ipubench_gui.store.bundled.build import build_store, fingerprint
    from ipubench_gui.store.mlperf import mlperf_build, mlperf_import
    from ipubench_gui.store.mlperf.mlperf import Names
    from ipubench_gui.store.user.userdb import open_combined

    rows: list[Row] = []
    runs = 1 if args.quick else 3
    if TRAINING.is_dir():
        logs = sorted(TRAINING.rglob("result_*.txt"))

        def read_bytes():
            for p in logs:
                p.read_bytes()

        rows.append(
            Row(
                "mlperf: build all 4 rounds (786 results, 7,679 logs)",
                "1.0-2.1",
                median_ms(lambda: mlperf_build.build_rows(TRAINING), runs),
                "read every log's bytes",
                median_ms(read_bytes, runs),
                "<= 10 s",
            )
        )
        # One round's folder as a later round (none of it stored yet).
        src = tmp / "training_results_v9.1"
        if not src.exists():
            shutil.copytree(TRAINING / "v2.1", src)
        cache = tmp / "mlperf-cache"
        cache.mkdir(exist_ok=True)
        store = cache / f"results-{fingerprint(REPO_DATA)[:16]}.duckdb"
        if not store.exists():
            build_store(REPO_DATA, store)
        names = Names.load(REPO_DATA / "entities")
        k = [0]

        def import_round():
            k[0] += 1
            db, _ = open_combined(REPO_DATA, cache, tmp / f"user-{k[0]}.duckdb")
            try:
                plan = mlperf_import.plan(db.cursor(), src, "9.1", names)
                with db.writing() as con:
                    mlperf_import.land(con, plan, skip_bad=True)
            finally:
                db.close()

        def scan_only():
            db, _ = open_combined(REPO_DATA, cache, None)
            try:
                mlperf_import.plan(db.cursor(), src, "9.1", names)
            finally:
                db.close()

        rows.append(
            Row(
                "mlperf: import one round's folder (v2.1 tree, 193 results)",
                "196 results",
                median_ms(import_round, runs),
                "read and score only",
                median_ms(scan_only, runs),
                "<= 10 s",
            )
        )
    rows.append(_table_row(tmp, runs))
    big = tmp / "result_0.txt"
    mb = 20 if args.quick else 200
    _big_log(big, mb)
    t_read, rss_read = _child("read", big)
    t_lines, _ = _child("lines", big)
    _, rss_base = _child("import", big)
    rows.append(
        Row(
            f"mlperf: stream a {mb} MB log (peak RSS {rss_read / 1024:.0f} MB, "
            f"interpreter alone {rss_base / 1024:.0f} MB)",
            f"{mb} MB",
            t_read,
            "iterate its lines",
            t_lines,
            "bounded memory",
        )
    )
    big.unlink()
    return rows


def _table_row(tmp: Path, runs: int) -> Row:
    """The MLPerf results table (DuckDB PIVOT, every official result) against
    fetching the same rows unpivoted."""
    from ipubench_gui.domain.filters import FilterState
    from ipubench_gui.store.bundled.build import build_store, fingerprint
    from ipubench_gui.store.db import Database
    from ipubench_gui.store.query.mlperf_table import mlperf_table

    store = tmp / f"table-{fingerprint(REPO_DATA)[:16]}.duckdb"
    if not store.exists():
        build_store(REPO_DATA, store)
    db = Database.open(store)
    try:
        n = db.scalar("SELECT count(*) FROM results_v WHERE mlperf_round IS NOT NULL")
        cur = db.cursor()
        flat = (
            "SELECT mlperf_round, division, category, submitter, system_name, "
            "accelerator_type, accelerators, framework, system_id, model, value, "
            "result_id FROM results_v WHERE mlperf_round IS NOT NULL"
        )
        return Row(
            f"mlperf: results table (PIVOT of {n:,} results)",
            "bundled store",
            median_ms(lambda: mlperf_table(db, FilterState()), runs),
            "the same rows, not pivoted",
            median_ms(lambda: cur.execute(flat).fetchall(), runs),
            "<= 200 ms (on a worker thread)",
        )
    finally:
        db.close()
