"""`import --map` maps what it is told and guesses the rest as the import
dialog does (the same guess), says the mapping it used and the columns it
left out with why; `--no-guess` keeps to the --maps. Driven as a user runs
it: the command line in a subprocess, the stored rows read back with
`export-results`."""

from __future__ import annotations

import csv

from tests.conftest import run_cli

# What a user's own file looks like: headers of their own, a derived column,
# notes. Framework and Batch were not stored with explicit --maps (the issue).
ROWS = [
    ("ResNet50", "A100 80GB", "PyTorch", "256", "2500", "9.77", "run 1"),
    ("ResNet50", "A100 80GB", "TensorFlow", "512", "2600", "10.16", "run 2"),
]
HEADER = "Benchmark,System,Framework,Batch,Samples/s,Per chip (derived),Notes"
MAPS = ("--map", "Benchmark=model", "--map", "System=platform")
MAPS += ("--map", "Samples/s=value", "--metric", "throughput", "--unit", "images/s")


def _file(tmp_path):
    f = tmp_path / "mine.csv"
    f.write_text(
        HEADER + "\n" + "".join(",".join(r) + "\n" for r in ROWS), encoding="utf-8"
    )
    return f


def _stored(tmp_path, home) -> list[dict]:
    out = tmp_path / "all.csv"
    p = run_cli("export-results", str(out), home=home)
    assert p.returncode == 0, p.stderr
    with open(out, newline="", encoding="utf-8") as fh:
        return [r for r in csv.DictReader(fh) if r["source_file"] == "mine.csv"]


def test_import_map_guesses_the_rest_and_says_what_it_left_out(
    tmp_path, _isolated_home
):
    import duckdb

    from ipubench_gui.store.user import import_read

    f = _file(tmp_path)
    p = run_cli("import", str(f), *MAPS, home=_isolated_home)
    assert p.returncode == 0, p.stdout + p.stderr
    said = p.stdout.splitlines()
    for line in (
        "map: 'Benchmark' -> model",
        "map: 'System' -> platform",
        "guessed: 'Framework' -> framework",
        "guessed: 'Batch' -> batch_size",
        "map: 'Samples/s' -> value",
        "given: metric by --metric 'throughput'",
        "given: unit by --unit 'images/s'",
        "left out: 'Per chip (derived)': a derived figure (computed from "
        "another), never read as one",
        "left out: 'Notes': its header names no field",
    ):
        assert line in said, p.stdout
    # the guesses are the import dialog's for the same file (its preview)
    with duckdb.connect() as con:
        dialog = import_read.preview(con, f).guessed
    assert dialog["framework"] == "Framework" and dialog["batch_size"] == "Batch"
    # and they were stored: each row's framework and batch as in the file
    got = sorted(
        (r["framework_as_printed"] or r["framework"], r["batch_size"])
        for r in _stored(tmp_path, _isolated_home)
    )
    assert got == sorted((r[2], r[3]) for r in ROWS)


def test_import_no_guess_keeps_to_the_maps(tmp_path, _isolated_home):
    f = _file(tmp_path)
    p = run_cli("import", str(f), *MAPS, "--no-guess", home=_isolated_home)
    assert p.returncode == 0, p.stdout + p.stderr
    said = p.stdout.splitlines()
    assert "left out: 'Framework': looks like framework; not guessed (--no-guess)" in (
        said
    )
    assert "left out: 'Batch': looks like batch_size; not guessed (--no-guess)" in said
    assert not [s for s in said if s.startswith("guessed:")]
    stored = _stored(tmp_path, _isolated_home)
    assert len(stored) == len(ROWS)
    assert {(r["framework"], r["batch_size"]) for r in stored} == {("", "")}
