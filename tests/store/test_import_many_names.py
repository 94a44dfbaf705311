"""An import of many distinct names says them in a summary, not a line each,
and stays within the stated memory (DuckDB's 1 GB) at a million of them."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import CLI_WITH_PEAK_RSS, REPO, run_cli, write_csv

ARGS = (
    "--map",
    "model=model",
    "--map",
    "throughput=value",
    "--map",
    "unit=unit",
    "--metric",
    "throughput",
)


def _names_file(tmp_path, n: int):
    return write_csv(
        tmp_path / "names.csv",
        "SELECT 'model-' || i AS model, i + 1.5 AS throughput, 'images/s' AS unit "
        f"FROM range({n}) t(i)",
    )


def test_many_names_are_summed_up(tmp_path, _isolated_home):
    p = run_cli("import", str(_names_file(tmp_path, 500)), *ARGS, home=_isolated_home)
    assert p.returncode == 0, p.stderr
    models = [ln for ln in p.stdout.splitlines() if ln.startswith("model: ")]
    assert len(models) == 21  # 20 named, then the rest summed up
    assert models[-1] == ("model: … and 480 more: 0 renamed, 500 not recognised in all")


@pytest.mark.slow
def test_a_million_distinct_names_import_within_a_gigabyte(tmp_path):
    p = subprocess.run(
        [
            sys.executable,
            "-c",
            CLI_WITH_PEAK_RSS,
            "import",
            str(_names_file(tmp_path, 10**6)),
            *ARGS,
        ],
        env=dict(os.environ, IPUBENCH_GUI_HOME=str(tmp_path / "home")),
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert p.returncode == 0, p.stderr
    assert len(p.stdout.splitlines()) < 60
    peak_mb = int(p.stdout.split("peak-kb")[1].split()[0]) / 1024
    assert peak_mb < 1024, peak_mb
