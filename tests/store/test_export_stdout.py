"""An output file of ``-`` is standard output for the text exports (CSV of
``export-results``, ``export-table`` and ``export-chart --data``), never a
file named '-'; a chart image to ``-`` is refused (a reader that goes away:
tests/store/test_bad_home.py)."""

from __future__ import annotations

import csv
import io

from tests.conftest import REPO, STORE_ROWS, run_cli


def test_export_results_to_dash_writes_the_csv_to_stdout(tmp_path):
    home = tmp_path / "home"
    p = run_cli("export-results", "-", home=home)
    assert p.returncode == 0, p.stderr
    assert p.stderr == f"wrote {STORE_ROWS} results to standard output\n"
    assert not (REPO / "-").exists()  # no file named '-' where it ran
    # the same bytes as the file the same export writes
    out = tmp_path / "all.csv"
    assert run_cli("export-results", str(out), home=home).returncode == 0
    assert p.stdout == out.read_text(encoding="utf-8").replace("\r\n", "\n")


def test_export_table_to_dash_is_csv_of_the_filtered_rows(tmp_path):
    home = tmp_path / "home"
    p = run_cli(
        "export-table", "--out", "-", "--filter", "framework=PyTorch", home=home
    )
    assert p.returncode == 0, p.stderr
    rows = list(csv.DictReader(io.StringIO(p.stdout)))
    assert rows and {r["Framework"] for r in rows} == {"PyTorch"}
    assert p.stderr == f"wrote {len(rows)} results to standard output\n"


def test_a_chart_image_to_dash_is_refused_and_its_points_go_to_stdout(tmp_path):
    home = tmp_path / "home"
    p = run_cli("export-chart", "-", "--kind", "throughput", home=home)
    assert p.returncode == 2
    assert "give a file name ending .png, .svg or .pdf, not '-'" in p.stderr
    png = tmp_path / "c.png"
    p = run_cli(
        "export-chart", str(png), "--kind", "throughput", "--data", "-", home=home
    )
    assert p.returncode == 0, p.stderr
    assert png.stat().st_size > 0
    rows = list(csv.reader(io.StringIO(p.stdout)))
    assert rows[0][:4] == ["series", "x", "y", "result_id"]
    n = len(rows) - 1
    assert p.stderr.endswith(f"wrote {png} (1920x1080, {n} items)\n")


def test_a_folder_as_the_table_file_is_named_as_one(tmp_path):
    p = run_cli("export-table", str(tmp_path), home=tmp_path / "home")
    assert p.returncode == 1
    assert p.stderr == (
        f"error: cannot export to {tmp_path}: it is a folder; give a file name "
        "ending .csv, .parquet or .xlsx\n"
    )
