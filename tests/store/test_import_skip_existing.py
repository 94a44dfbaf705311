"""Rows already stored (a repeat within the file, a figure an earlier import
stored) stop an import, or with "skip rows already stored" are left out and
counted."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ipubench_gui.domain.import_spec import ImportSpec
from ipubench_gui.store.user import importer
from ipubench_gui.store.user.import_read import ImportFailed
from tests.conftest import run_cli

FIRST = "model,platform,throughput\nResNet-50,A100 80GB,2500\nBERT,A100 80GB,900\n"
# Row 1 was stored by FIRST; row 3 repeats row 2; rows 2 and 4 are new.
SECOND = (
    "model,platform,throughput\nResNet-50,A100 80GB,2500\n"
    "ResNet-50,A100 80GB,2700\nResNet-50,A100 80GB,2700\nBERT,A100 80GB,950\n"
)


def _spec(path, **kw) -> ImportSpec:
    return ImportSpec(
        path,
        {"model": "model", "platform": "platform", "value": "throughput"},
        {"metric": "throughput", "unit": "images/s"},
        **kw,
    )


def _values(db) -> list[float]:
    rows = db.cursor().execute("SELECT value FROM user_results_v ORDER BY value")
    return [v for (v,) in rows.fetchall()]


def test_rows_already_stored_stop_the_import_naming_each(combined, tmp_path):
    first, second = tmp_path / "first.csv", tmp_path / "second.csv"
    first.write_text(FIRST)
    second.write_text(SECOND)
    importer.import_file(combined.cursor(), _spec(first))
    with pytest.raises(ImportFailed) as err:
        importer.import_file(combined.cursor(), _spec(second))
    text = str(err.value)
    assert "row 1: already stored by the import 'first.csv' (its row 1)" in text
    assert "row 3: repeats row 2 exactly" in text
    assert "--skip-existing" in text and "Skip rows already stored" in text
    assert _values(combined) == [900.0, 2500.0]  # nothing of second.csv


def test_skip_existing_lands_only_the_new_rows_and_counts_the_others(
    combined, tmp_path
):
    first, second = tmp_path / "first.csv", tmp_path / "second.csv"
    first.write_text(FIRST)
    second.write_text(SECOND)
    importer.import_file(combined.cursor(), _spec(first))
    spec = _spec(second, skip_existing=True)
    assert importer.validate(combined.cursor(), spec) == (2, 0, 2)
    res = importer.import_file(combined.cursor(), spec)
    assert (res.landed, res.skipped, res.existing) == (2, 0, 2)
    assert _values(combined) == [900.0, 950.0, 2500.0, 2700.0]
    # The kept row is the file's first of the two repeats.
    rows = combined.cursor().execute(
        "SELECT row FROM user_results_v WHERE source_file = 'second.csv' ORDER BY row"
    )
    assert [r for (r,) in rows.fetchall()] == [2, 4]
    # Again: everything is stored now, so there is nothing new to import.
    with pytest.raises(ImportFailed, match="already stored; nothing new to import"):
        importer.import_file(combined.cursor(), replace(spec, label="again"))
    assert len(_values(combined)) == 4


def test_cli_skip_existing_reports_how_many_were_left_out(tmp_path, _isolated_home):
    first, second = tmp_path / "first.csv", tmp_path / "second.csv"
    first.write_text(FIRST)
    second.write_text(SECOND)
    args = ("--metric", "throughput", "--unit", "images/s")
    p = run_cli("import", str(first), *args, home=_isolated_home)
    assert p.returncode == 0, p.stderr
    p = run_cli("import", str(second), *args, home=_isolated_home)
    assert p.returncode == 1 and "already stored by the import" in p.stderr
    assert "Traceback" not in p.stderr
    p = run_cli(
        "import", str(second), *args, "--skip-existing", "--check", home=_isolated_home
    )
    assert p.returncode == 0, p.stderr
    assert "2 rows would land" in p.stdout
    assert "2 already stored would be left out" in p.stdout
    p = run_cli("import", str(second), *args, "--skip-existing", home=_isolated_home)
    assert p.returncode == 0, p.stderr
    assert "imported 2 rows" in p.stdout and "2 already stored left out" in p.stdout
    out = tmp_path / "all.csv"
    p = run_cli("export-results", str(out), home=_isolated_home)
    assert p.returncode == 0, p.stderr
    lines = out.read_text().splitlines()
    assert sum(",second.csv," in line for line in lines) == 2
    assert sum(",first.csv," in line for line in lines) == 2
