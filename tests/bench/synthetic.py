"""Synthetic results at any scale, resampled from the real rows.

Each synthetic row copies a real configuration (so facets keep their real
vocabulary and skew), then varies batch size, SDK and the figure: values are
the real figure times a log-normal factor, latencies follow throughput.
"""

from __future__ import annotations

import shutil
from pathlib import Path

# ruff: noqa: E501  (the generator is one SQL statement; its lines read best whole)
import duckdb

REPO = Path(__file__).resolve().parents[2]


def make_data(dst: Path, n: int, seed: float = 0.42) -> Path:
    """Copy data/ to ``dst`` with ``results.csv`` replaced by ``n`` synthetic rows."""
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(REPO / "data", dst, ignore=shutil.ignore_patterns("*.duckdb*"))
    con = duckdb.connect()
    con.execute("SELECT setseed($s)", {"s": seed})
    con.execute(
        "CREATE TABLE real AS SELECT row_number() OVER () - 1 AS k, * "
        "FROM read_csv($p, all_varchar = true)",
        {"p": str(REPO / "data/results.csv")},
    )
    m = con.execute("SELECT count(*) FROM real").fetchone()[0]
    con.execute(f"""
        COPY (
          SELECT printf('syn-%08d', i) AS result_id, r.source_file, r."table",
                 i AS "row", r.task, r.model, r.variant, r.platform,
                 list_element(['SDK 2.3.0','SDK 2.4.0','SDK 2.5.1','SDK 3.0','SDK 3.1',
                               'SDK 3.2','SDK 3.3'], 1 + (hash(i) % 7)::INT) AS sdk_version,
                 r.framework, r.dataset,
                 CASE WHEN r.batch_size IS NULL THEN NULL
                      ELSE greatest(1, (r.batch_size::INT * pow(2, (hash(i * 7) % 5)::INT - 2))::INT)
                 END AS batch_size,
                 r.precision, r.metric,
                 round(r.value::DOUBLE * exp(0.3 * (random() + random() + random() - 1.5)), 2)
                     AS value,
                 r.unit, r.value_as_printed,
                 CASE WHEN r.latency_ms IS NULL THEN NULL
                      ELSE round(r.latency_ms::DOUBLE * exp(0.3 * (random() - 0.5)), 2) END
                     AS latency_ms,
                 r.mlperf_id, r.division, r.quality_target, r.evaluation_metric, r.ranking,
                 r.link, r.note
          FROM range({int(n)}) t(i) JOIN real r ON r.k = hash(i) % {m}
          ORDER BY i
        ) TO '{dst / "results.csv"}' (HEADER, DELIMITER ',')
    """)
    # the synthetic figures replace the vendor rows MLPerf results shared
    con.execute(f"""
        COPY (SELECT * REPLACE (NULL AS vendor_result_id)
              FROM read_csv('{REPO / "data/mlperf_training.csv"}', all_varchar = true))
        TO '{dst / "mlperf_training.csv"}' (HEADER, DELIMITER ',')
    """)
    con.close()
    return dst


def largest_held_store(tmp: Path) -> Path:
    """A store of exactly ``snapshot.MAX_ROWS`` rows in ``results_v``, the most
    held in memory: synthetic results plus the rows the data holds beside
    ``results`` (NVIDIA's reference figures), which count too."""
    from ipubench_gui.store.bundled.build import build_store
    from ipubench_gui.store.query.snapshot import MAX_ROWS

    out = tmp / "held.duckdb"
    if out.exists() and _rows(out) == MAX_ROWS:  # built by a case before
        return out
    build_store(make_data(tmp / "held", MAX_ROWS), out)
    extra = _rows(out) - MAX_ROWS
    if extra:
        out.unlink()
        build_store(make_data(tmp / "held", MAX_ROWS - extra), out)
    return out


def _rows(store: Path) -> int:
    """How many rows ``store``'s ``results_v`` holds."""
    con = duckdb.connect(str(store), read_only=True)
    try:
        return int(con.execute("SELECT count(*) FROM results_v").fetchone()[0])
    finally:
        con.close()
