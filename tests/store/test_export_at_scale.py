"""Exports stream in table order within bounded memory at any size: no sort
of wide rows (DuckDB's ran out of memory at a million imported rows, at
256 MB and at 1 GB), one thread (its ordered writer buffers 128 MB per
thread), the same path for the window and the command line."""

from __future__ import annotations

import csv
import os
import subprocess
import sys

import pytest

from tests.conftest import CLI_WITH_PEAK_RSS, REPO, STORE_ROWS, run_cli, write_csv
from tests.mlperf_trees import tree


def _peak_mb(home, *args: str) -> tuple[subprocess.CompletedProcess, float]:
    p = subprocess.run(
        [sys.executable, "-c", CLI_WITH_PEAK_RSS, *args],
        env=dict(os.environ, IPUBENCH_GUI_HOME=str(home)),
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=900,
    )
    kb = [ln for ln in p.stdout.splitlines() if ln.startswith("peak-kb")]
    return p, int(kb[0].split()[1]) / 1024 if kb else float("nan")


def _import(home, path) -> None:
    p = run_cli(
        "import",
        str(path),
        "--map",
        "model=model",
        "--map",
        "platform=platform",
        "--map",
        "throughput=value",
        "--metric",
        "throughput",
        "--unit",
        "images/s",
        home=home,
    )
    assert p.returncode == 0, p.stderr


def test_exports_come_in_table_order_with_mlperf_imports_between(
    tmp_path, _isolated_home, db
):
    """File import 1, MLPerf import 2, file import 3: written in the table's
    order (ord), which the order of the view's parts alone would not give."""
    home = _isolated_home
    a = write_csv(
        tmp_path / "a.csv",
        "SELECT 'a' || i AS model, 'P' AS platform, "
        "i + 1 AS throughput FROM range(30) t(i)",
    )
    _import(home, a)
    root = tree(tmp_path, [10, 20, 30, 40, 50])
    p = run_cli("import-mlperf", str(root), home=home)
    assert p.returncode == 0, p.stderr
    b = write_csv(
        tmp_path / "b.csv",
        "SELECT 'b' || i AS model, 'P' AS platform, "
        "i + 1 AS throughput FROM range(20) t(i)",
    )
    _import(home, b)
    out = tmp_path / "all.csv"
    p = run_cli("export-results", str(out), home=home)
    assert p.returncode == 0, p.stderr
    with open(out, newline="", encoding="utf-8") as f:
        got = [r["result_id"] for r in csv.DictReader(f)]
    assert len(got) == STORE_ROWS + 51
    # the order independently: the bundled rows' ord, then imports by id
    bundled = [
        r
        for (r,) in db.cursor()
        .execute("SELECT result_id FROM results_v ORDER BY ord")
        .fetchall()
    ]
    mine = got[len(bundled) :]
    assert got[: len(bundled)] == bundled
    assert [m[:4] for m in mine] == ["usr1"] * 30 + ["mlpe"] + ["usr3"] * 20
    p = run_cli("export-table", str(tmp_path / "t.csv"), home=home)
    with open(tmp_path / "t.csv", newline="", encoding="utf-8") as f:
        table = [r["ID"] for r in csv.DictReader(f)]
    assert table == got


@pytest.mark.slow
def test_a_million_imported_rows_export_in_bounded_memory(tmp_path):
    home = tmp_path / "home"
    big = write_csv(
        tmp_path / "m.csv",
        "SELECT 'model' || (i % 50) AS model, 'sys' || (i % 20) AS platform, "
        "i + 1.5 AS throughput FROM range(1000000) t(i)",
    )
    _import(home, big)
    for args in (
        ["export-results", str(tmp_path / "all.csv")],
        ["export-table", str(tmp_path / "t.csv")],
        ["export-table", str(tmp_path / "t.parquet")],
    ):
        p, mb = _peak_mb(home, *args)
        assert p.returncode == 0, p.stderr
        assert p.stdout.startswith(f"wrote {STORE_ROWS + 1_000_000} results")
        assert mb <= 600, (args, mb)
