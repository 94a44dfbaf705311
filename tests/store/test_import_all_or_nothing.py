"""An import lands whole or not at all, its side effects included: the
aliases given with it (``--alias``) are saved only with the import."""

from __future__ import annotations

import csv

import duckdb

from tests.conftest import run_cli


def _saved(home) -> tuple[list, int]:
    """(aliases, imports) the user database holds, read independently."""
    with duckdb.connect(str(home / "data" / "user.duckdb"), read_only=True) as c:
        aliases = c.execute("SELECT kind, alias FROM user_aliases").fetchall()
        imports = c.execute("SELECT count(*) FROM imports").fetchall()[0][0]
    return aliases, imports


def test_a_refused_import_saves_none_of_its_aliases(tmp_path, _isolated_home):
    home = _isolated_home
    bad = tmp_path / "bad.csv"
    bad.write_text("model,throughput,unit\nRN-X,-5,images/s\n")
    good = tmp_path / "good.csv"
    good.write_text("model,throughput,unit\nRN-X,5,images/s\n")
    p = run_cli("import", str(bad), "--alias", "RN-X=ResNet-50 v1.5", home=home)
    assert p.returncode == 1 and "nothing was imported" in p.stderr
    assert _saved(home) == ([], 0)
    # a second alias that is not one: nothing at all, the first included
    p = run_cli(
        "import",
        str(good),
        "--alias",
        "RN-X=ResNet-50 v1.5",
        "--alias",
        "model:Foo=",
        home=home,
    )
    assert p.returncode == 2 and "expected [KIND:]FROM=TO" in p.stderr
    assert _saved(home) == ([], 0)
    # one the names refuse (a canonical name made an alias of another)
    p = run_cli(
        "import",
        str(good),
        "--alias",
        "RN-X=ResNet-50 v1.5",
        "--alias",
        "ResNet-50 v1.5=BERT-Large",
        home=home,
    )
    assert p.returncode == 2 and "itself" in p.stderr
    assert _saved(home) == ([], 0)
    # and with the import: both, its row named by the alias
    p = run_cli("import", str(good), "--alias", "RN-X=ResNet-50 v1.5", home=home)
    assert p.returncode == 0, p.stderr
    assert "alias: RN-X → ResNet-50 v1.5 (model, saved)" in p.stdout
    assert _saved(home) == ([("model", "RN-X")], 1)
    out = tmp_path / "all.csv"
    assert run_cli("export-results", str(out), home=home).returncode == 0
    with open(out, newline="", encoding="utf-8") as f:
        (mine,) = [r for r in csv.DictReader(f) if r["model_as_printed"] == "RN-X"]
    assert mine["model"] == "ResNet-50 v1.5"
