"""``python -m ipubench_gui export-results``: every stored row, stable ids."""

from __future__ import annotations

import csv
import os

import pytest

from ipubench_gui.store.bundled.build import build_store
from ipubench_gui.store.db import Database
from ipubench_gui.store.export.export import export_results
from tests.conftest import STORE_ROWS, run_cli

REQUIRED = (
    "result_id, source_file, table, model, variant, platform, sdk_version, "
    "framework, dataset, batch_size, precision, metric, value, unit, "
    "latency_ms, mlperf_id"
).split(", ")


def _cli(*args, home):
    return run_cli(*args, home=home)


def test_export_results_writes_every_row(tmp_path, csv_rows, _isolated_home):
    out = tmp_path / "all.csv"
    p = _cli("export-results", str(out), home=_isolated_home)
    assert p.returncode == 0, p.stderr
    with open(out, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        got = list(reader)
    assert reader.fieldnames[: len(REQUIRED)] == REQUIRED
    assert len(got) == STORE_ROWS
    assert {
        r["result_id"]
        for r in got
        if not r["result_id"].startswith(("nvref-", "mlperf"))
    } == {r["result_id"] for r in csv_rows}
    ogb = [r for r in got if r["model"] == "GPS++"]
    assert {(r["metric"], r["value"], r["unit"]) for r in ogb} == {
        ("throughput", "17800", "graphs/s"),
        ("time_to_train", "1423", "min"),
    }
    inf = next(
        r
        for r in got
        if r["model"] == "BERT-Large"
        and r["batch_size"] == "4"
        and r["platform"] == "IPU-M2000"
    )
    assert (inf["metric"], inf["value"], inf["latency_ms"]) == (
        "throughput",
        "2071",
        "1.92",
    )
    assert inf["table"] == "IPU-POD Classic - Inference"
    tgn = next(r for r in got if r["platform"] == "1x Bow IPU")
    assert (tgn["dataset"], tgn["batch_size"], tgn["precision"]) == ("", "", "")
    # Kept stable: model/framework/dataset/platform hold canonical names, and
    # *_as_printed the data's own spelling, cell for cell.
    printed = {r["result_id"]: r for r in csv_rows}
    for r in got:
        if r["result_id"] not in printed:  # NVIDIA's figures: gpu_reference.csv
            continue
        if r["source_file"] != printed[r["result_id"]]["source_file"]:
            continue  # the vendor's MLPerf figure, shown as the official result
        for c in ("model", "framework", "dataset", "platform"):
            assert r[f"{c}_as_printed"] == printed[r["result_id"]][c]
    rn50 = {r["model_as_printed"] for r in got if r["model"] == "ResNet-50 v1.5"}
    # (the MLPerf table's "ResNet50 v1.5" rows are shown as the official results)
    assert {"ResNet-50 v1.5", "ResNet-50v1.5"} <= rn50
    tf2 = {r["framework_as_printed"] for r in got if r["framework"] == "TensorFlow 2"}
    assert tf2 == {"TensorFlow2"}
    assert len({r["model"] for r in got}) < len({r["model_as_printed"] for r in got})


def test_unwritable_path_fails_with_a_message(tmp_path, _isolated_home):
    p = _cli("export-results", str(tmp_path / "missing" / "x.csv"), home=_isolated_home)
    assert p.returncode != 0
    assert "missing" in p.stderr and "does not exist" in p.stderr
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        if os.access(ro, os.W_OK):
            pytest.skip("running as a user who can write anywhere")
        p = _cli("export-results", str(ro / "x.csv"), home=_isolated_home)
        assert p.returncode != 0 and "cannot write" in p.stderr
    finally:
        ro.chmod(0o700)


def test_ids_are_stable_when_rows_are_added_elsewhere(data_copy, tmp_path, db):
    before = {
        r[0]: r[1:]
        for r in db.cursor()
        .execute("SELECT result_id, model, platform, value FROM results")
        .fetchall()
    }
    with open(data_copy / "results.csv", "a", newline="") as f:
        f.write(
            "usr-000001,000_74c88246ac92525e.txt,Extra,1,training,M,,Bow Pod16,,,,,,"
            "throughput,1,items/s,1,,,,,,,,\n"
        )
    d = Database.open(build_store(data_copy, tmp_path / "s.duckdb"))
    after = {
        r[0]: r[1:]
        for r in d.cursor()
        .execute("SELECT result_id, model, platform, value FROM results")
        .fetchall()
    }
    d.close()
    assert {k: after[k] for k in before} == before
    assert len(after) == len(before) + 1


def test_export_replaces_an_existing_file_whole(db, tmp_path):
    out = tmp_path / "x.csv"
    out.write_text("previous contents")
    assert export_results(db, out) == STORE_ROWS
    assert out.read_text().startswith("result_id,")
    assert [p.name for p in tmp_path.iterdir()] == ["x.csv"]  # no temporary left


def test_exported_files_get_the_mode_of_any_new_file(db, tmp_path):
    plain = tmp_path / "plain.txt"
    plain.write_text("")  # what the user's umask gives a new file
    out = tmp_path / "x.csv"
    export_results(db, out)
    assert out.stat().st_mode & 0o777 == plain.stat().st_mode & 0o777
    out.chmod(0o640)  # a file being replaced keeps its mode
    export_results(db, out)
    assert out.stat().st_mode & 0o777 == 0o640


@pytest.mark.parametrize("cmd", ["export-results", "export-table", "export-chart"])
def test_every_export_takes_its_output_file_alike(cmd, capsys):
    from pathlib import Path

    from ipubench_gui import cli

    extra = ["--kind", "mlperf"] if cmd == "export-chart" else []

    def parsed(*words):
        args = cli.build_parser().parse_args([cmd, *words, *extra])
        cli._resolve_output(args)
        return args

    for form in (["out.csv"], ["--out", "out.csv"], ["out.csv", "--out", "out.csv"]):
        args = parsed(*form)
        assert args.file == args.out == Path("out.csv")
    for form, says in (
        ([], "give the output FILE"),
        (["a.csv", "--out", "b.csv"], "two output files given: a.csv and --out b.csv"),
    ):
        with pytest.raises(SystemExit) as stop:
            parsed(*form)
        assert stop.value.code == 2 and says in capsys.readouterr().err
