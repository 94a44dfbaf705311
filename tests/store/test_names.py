"""Canonical names in the store: bundled rows, imports, user aliases, old user
databases; facets, text search and the ResNet-50 rows the issue counted."""

from __future__ import annotations

import csv
import os
from pathlib import Path

import pytest

from ipubench_gui.domain.entities import EntityError
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.import_spec import ImportSpec
from ipubench_gui.service import browse
from ipubench_gui.store.bundled import names
from ipubench_gui.store.query import queries as q
from ipubench_gui.store.user import aliases, importer
from ipubench_gui.store.user.userdb import open_combined
from tests.conftest import DATA, GPU_STORED


def _printed(column: str) -> dict[str, str]:
    """result id -> ``column`` as printed, for every stored figure: the
    vendor's (results.csv) and NVIDIA's measurements (gpu_reference.csv)."""
    with open(DATA / "results.csv", newline="", encoding="utf-8") as f:
        out = {r["result_id"]: r[column] for r in csv.DictReader(f)}
    return out | {r["result_id"]: r[column] for r in GPU_STORED}


def rn50_ids(db=None) -> set[str]:
    """Every stored ResNet-50 figure, by the model as printed: the vendor's and
    NVIDIA's CSV rows, and (in the store) the official MLPerf results."""
    printed = _printed("model")
    ids = {i for i, m in printed.items() if m.replace("-", "").startswith("ResNet50")}
    if db is not None:
        ids |= {
            i
            for (i, m) in db.cursor()
            .execute("SELECT result_id, model_as_printed FROM results_v")
            .fetchall()
            if m and m.replace("-", "").replace(" ", "").lower().startswith("resnet50")
        }
    return ids


@pytest.fixture
def combined(tmp_path, store_path):
    from ipubench_gui.store.bundled.build import fingerprint

    cache = tmp_path / "cache"
    cache.mkdir()
    os.link(store_path, cache / f"results-{fingerprint(DATA)[:16]}.duckdb")
    user = tmp_path / "user" / "user.duckdb"
    db, status = open_combined(DATA, cache, user)
    assert status.writable, status.message
    yield db, cache, user
    db.close()


def test_facet_lists_resnet50_once_with_every_row(db):
    """The issue: three ResNet-50 spellings; ticking one dropped most rows."""
    printed = _printed("model")
    rn50 = {
        i
        for i, m in printed.items()
        if m.replace(" ", "").lower().startswith(("resnet-50", "resnet50"))
    }
    assert {printed[i] for i in rn50} == {
        "ResNet-50 v1.5",
        "ResNet-50v1.5",
        "ResNet50 v1.5",
    }
    rn50 = rn50_ids(db)  # and the official MLPerf ResNet-50 results
    counts = {
        v: n for _f, v, n in db.run(q.facet_counts(FilterState(), ["model"])).rows
    }
    assert counts["ResNet-50 v1.5"] == len(rn50)
    assert not {"ResNet-50v1.5", "ResNet50 v1.5", "BERT Large"} & set(counts)
    got = db.run(q.results(FilterState().with_values("model", ["ResNet-50 v1.5"])))
    assert set(got.column("result_id")) == rn50


def test_any_alias_finds_the_entity(db):
    want = set(
        db.run(
            q.results(FilterState().with_values("model", ["ResNet-50 v1.5"]))
        ).column("result_id")
    )
    for text in ("rn50", "ResNet50", "resnet-50v1.5"):
        got = db.run(q.results(FilterState().with_text(text)))
        assert want <= set(got.column("result_id")), text
        assert set(got.column("model")) <= {"ResNet-50 v1.5"}, text


def test_details_carry_both_spellings(db):
    rows = db.run(q.results(FilterState().with_values("model", ["BERT-Large"])))
    printed = _printed("model")
    for r in rows.dicts():
        if r["result_id"] in printed and r["source_file"] != "mlcommons":
            assert r["model_as_printed"] in (printed[r["result_id"]], r["model"])
        assert r["unit_family"] in ("sequences/s", "time")


def test_unit_family_of_items(db):
    fam = dict(
        db.cursor()
        .execute(
            "SELECT model, any_value(unit_family) FROM results_v "
            "WHERE metric = 'throughput' GROUP BY 1"
        )
        .fetchall()
    )
    assert fam["ResNet-50 v1.5"] == "images/s"
    assert fam["BERT-Large"] == "sequences/s"
    assert fam["Cluster-GCN"] == "nodes/s"
    assert fam["GPS++"] == "graphs/s"  # the page's OGB footnote: graphs


def _import(db, tmp_path, text, **consts):
    p = tmp_path / "gpu.csv"
    p.write_text(text, encoding="utf-8")
    spec = ImportSpec(
        p,
        {"model": "model", "platform": "system", "framework": "fw", "value": "v"},
        {"metric": "throughput", "unit": "items/s", **consts},
    )
    with db.writing() as cur:
        return importer.import_file(cur, spec)


def test_imported_rows_meet_the_bundled_ones(combined, tmp_path):
    db, _cache, _user = combined
    _import(
        db,
        tmp_path,
        "model,system,fw,v\nresnet,Bow-Pod16,Pytorch,1000\nMy Net,A100 80GB,TF2,50\n",
    )
    rows = {
        r[0]: r[1:]
        for r in db.cursor()
        .execute(
            "SELECT model_as_printed, model, platform, platform_as_printed, "
            "framework, accelerators, unit_family FROM results_v "
            "WHERE source_file = 'gpu.csv'"
        )
        .fetchall()
    }
    assert rows["resnet"] == (
        "ResNet-50 v1.5",
        "Bow Pod16",
        "Bow-Pod16",
        "PyTorch",
        16,
        "images/s",
    )
    # unknown model kept as given; its items are unknown
    assert rows["My Net"] == (
        "My Net",
        "A100 80GB",
        "A100 80GB",
        "TensorFlow 2",
        1,
        "items/s",
    )
    counts = {
        v: n for _f, v, n in db.run(q.facet_counts(FilterState(), ["model"])).rows
    }
    assert counts["ResNet-50 v1.5"] == len(rn50_ids(db)) + 1  # and the import


def test_user_alias_renames_imported_rows(combined, tmp_path):
    db, _cache, _user = combined
    _import(db, tmp_path, "model,system,fw,v\nRN-50 (ours),A100 80GB,PyTorch,900\n")
    assert db.scalar("SELECT model FROM results_v WHERE source_file = 'gpu.csv'") == (
        "RN-50 (ours)"
    )
    with db.writing() as cur:
        assert aliases.add_user_alias(cur, "model", "RN-50 (ours)", "resnet50") == (
            "ResNet-50 v1.5"
        )
        aliases.rename_user_rows(cur, aliases.user_catalogue(cur))
    assert db.scalar("SELECT model FROM results_v WHERE source_file = 'gpu.csv'") == (
        "ResNet-50 v1.5"
    )
    assert aliases.of(db).canonical("model", "rn-50 (OURS)") == "ResNet-50 v1.5"
    with pytest.raises(EntityError, match="not a known model"):
        aliases.add_user_alias(db.cursor(), "model", "x", "No Such Net")


def test_an_older_user_database_gets_canonical_names(combined, tmp_path):
    db, cache, user = combined
    _import(db, tmp_path, "model,system,fw,v\nResNet50,IPU-M2000,TensorFlow1,4000\n")
    # Make it as an import before canonical names was: no resolved names, the
    # facet counts under the names as printed, without other_names.
    cur = db.cursor()
    cur.execute("DROP TABLE u.user_names")
    cur.execute("ALTER TABLE u.user_cube DROP COLUMN other_names")
    cur.execute("UPDATE u.user_cube SET model = 'ResNet50', framework = 'TensorFlow1'")
    db.close()
    db2, status = open_combined(DATA, cache, user)
    try:
        assert status.writable, status.message
        got = (
            db2.cursor()
            .execute(
                "SELECT model, model_as_printed, framework, framework_as_printed, "
                "unit_family FROM results_v WHERE source_file = 'gpu.csv'"
            )
            .fetchall()
        )
        assert got == [
            ("ResNet-50 v1.5", "ResNet50", "TensorFlow 1", "TensorFlow1", "images/s")
        ]
        counts = {
            v: n for _f, v, n in db2.run(q.facet_counts(FilterState(), ["model"])).rows
        }
        assert counts["ResNet-50 v1.5"] == len(
            rn50_ids(db2)
        )  # the import (ResNet50) among them
    finally:
        db2.close()


def test_broken_entity_tables_stop_the_build(data_copy, tmp_path):
    from ipubench_gui.store.bundled.build import DataError, build_store

    with open(data_copy / "entities" / "aliases.csv", "a", encoding="utf-8") as f:
        f.write("model,rn50,No Such Model,test\n")
    with pytest.raises(DataError, match="not a known model"):
        build_store(data_copy, tmp_path / "x.duckdb")
    assert not Path(tmp_path / "x.duckdb").exists()


def test_views_saved_with_old_names_still_open(db):
    from ipubench_gui.domain.views import View, reconcile

    old = View(
        FilterState()
        .with_values("model", ["ResNet-50v1.5", "BERT Large", "Gone Net"])
        .with_values("framework", ["TensorFlow1"])
    )
    u = browse.universe(db)
    fixed, dropped = reconcile(old, u.values, set(), names.renamer(aliases.of(db)))
    assert fixed.filters.values("model") == {"ResNet-50 v1.5", "BERT-Large"}
    assert fixed.filters.values("framework") == {"TensorFlow 1"}
    assert dropped == ["model: Gone Net"]


def test_cli_filter_takes_any_spelling(db, tmp_path, _isolated_home):
    from tests.conftest import run_cli

    out = tmp_path / "t.csv"
    p = run_cli("export-table", str(out), "--filter", "model=rn50", home=_isolated_home)
    assert p.returncode == 0, p.stderr
    with open(out, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert {r["ID"] for r in rows} == rn50_ids(db)


def test_cli_import_shows_names_and_takes_aliases(tmp_path, _isolated_home):
    from tests.conftest import run_cli

    f = tmp_path / "gpu.csv"
    f.write_text(
        "model,system,throughput\nResNet50,A100 80GB,2000\n"
        "RN-50 (ours),A100 80GB,2100\nFoo Net,A100 80GB,10\n",
        encoding="utf-8",
    )
    p = run_cli(
        "import",
        str(f),
        "--map",
        "model=model",
        "--map",
        "system=platform",
        "--map",
        "throughput=value",
        "--metric",
        "throughput",
        "--unit",
        "images/s",
        "--alias",
        "RN-50 (ours)=ResNet-50 v1.5",
        home=_isolated_home,
    )
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert "alias: RN-50 (ours) → ResNet-50 v1.5 (model, saved)" in out
    assert "model: ResNet50 → ResNet-50 v1.5 (alias)" in out
    assert "model: RN-50 (ours) → ResNet-50 v1.5 (user alias)" in out
    assert "model: Foo Net (not recognised)" in out
    res = tmp_path / "all.csv"
    assert run_cli("export-results", str(res), home=_isolated_home).returncode == 0
    with open(res, newline="", encoding="utf-8") as fh:
        mine = [r for r in csv.DictReader(fh) if r["source_file"] == "gpu.csv"]
    got = sorted((r["model_as_printed"], r["model"]) for r in mine)
    assert got == [
        ("Foo Net", "Foo Net"),
        ("RN-50 (ours)", "ResNet-50 v1.5"),
        ("ResNet50", "ResNet-50 v1.5"),
    ]
    bad = run_cli("import", str(f), "--alias", "x=No Such Net", home=_isolated_home)
    assert bad.returncode == 2 and "not a known model" in bad.stderr


def test_imported_mlperf_rows_are_named_as_bundled_ones(combined, tmp_path):
    """import-mlperf rows get canonical names, *_as_printed, unit_family and
    other_names (the search finds them by any alias), and keep them when a
    user alias makes the names be resolved again."""
    from ipubench_gui.store.mlperf import mlperf_import
    from ipubench_gui.store.mlperf.mlperf import Names
    from tests.mlperf_trees import SYSTEM, tree

    db, _cache, _user = combined
    # Pytorch and Bow-Pod16 are aliases in data/entities/aliases.csv
    system = {**SYSTEM, "framework": "Pytorch", "system_name": "Bow-Pod16"}
    root = tree(tmp_path, [10, 20, 30, 40, 100], system=system)
    names_ = Names.load(DATA / "entities")
    with db.writing() as cur:
        mlperf_import.land(cur, mlperf_import.plan(cur, root, "9.9", names_))
    cols = (
        "model, model_as_printed, framework, framework_as_printed, platform, "
        "platform_as_printed, dataset, dataset_as_printed, unit_family, other_names"
    )
    sql = f"SELECT {cols} FROM results_v WHERE mlperf_round = '9.9'"
    (got,) = db.cursor().execute(sql).fetchall()
    row = dict(zip(cols.split(", "), got))
    assert row["model"] == row["model_as_printed"] == "ResNet-50 v1.5"
    assert (row["framework"], row["framework_as_printed"]) == ("PyTorch", "Pytorch")
    assert (row["platform"], row["platform_as_printed"]) == ("Bow Pod16", "Bow-Pod16")
    assert row["dataset"] == "ImageNet-1k"  # data/entities/mlperf_benchmarks.csv
    assert row["unit_family"] == "time"
    assert "rn50" in row["other_names"].split(" | ")  # an alias of ResNet-50
    # found by an alias, like the bundled rows; counted under canonical names
    hits = db.run(q.results(FilterState().with_text("rn50"))).column("mlperf_round")
    assert "9.9" in hits
    counts = dict(
        (v, n)
        for _f, v, n in db.run(
            q.facet_counts(FilterState().with_text("rn50"), ["framework"])
        ).rows
    )
    bundled = db.scalar(
        "SELECT count(*) FROM b.results_v WHERE framework = 'PyTorch' "
        "AND other_names LIKE '%rn50%'"
    )
    assert counts["PyTorch"] == bundled + 1 and "Pytorch" not in counts
    # a user alias resolves every imported row's names again: MLPerf ones too
    with db.writing() as cur:
        aliases.add_user_alias(cur, "framework", "Pytorch", "PyTorch")
        aliases.rename_user_rows(cur, aliases.user_catalogue(cur))
    (again,) = db.cursor().execute(sql).fetchall()
    assert again == got
    counts2 = {
        v: n
        for _f, v, n in db.run(
            q.facet_counts(FilterState().with_text("rn50"), ["framework"])
        ).rows
    }
    assert counts2 == counts


def test_a_user_alias_finds_the_bundled_rows(combined):
    """ "Treat ... as alias of" (or import --alias) saves a user alias; a search
    for it finds the bundled rows of the entity, in SQL, in the facet counts
    and in the in-memory copy, as the search for a bundled alias does."""
    from ipubench_gui.store.query.snapshot import Snapshot

    db, _cache, _user = combined
    rn50 = rn50_ids(db)
    term = FilterState().with_text("Our RN-50")

    def found():
        got = set(db.run(q.results(term)).column("result_id"))
        counts = {v: n for _f, v, n in db.run(q.facet_counts(term, ["model"])).rows}
        page, _n = Snapshot.load(db).page(term, ["result_id"], None, False, 10**6)
        return got, counts, set(page.column("result_id"))

    assert found() == (set(), {}, set())
    with db.writing() as cur:
        aliases.add_user_alias(cur, "model", "Our RN-50", "rn50")
        aliases.rename_user_rows(cur, aliases.user_catalogue(cur))
    got, counts, held = found()
    assert got == rn50 and counts == {"ResNet-50 v1.5": len(rn50)}
    assert held == rn50
    # the bundled store is not changed: its own search text is as built
    assert not db.scalar(
        "SELECT count(*) FROM b.results_v WHERE other_names LIKE '%our rn-50%'"
    )


def test_the_catalogue_is_kept_until_the_data_changes(combined):
    """aliases.of(db) is read once into the store's cache (StoreCache) and
    forgotten with everything else derived from the rows (data_changed)."""
    from ipubench_gui.store.query.cache import cache_of

    db, _cache, _user = combined
    before = aliases.of(db)
    assert aliases.of(db) is before and cache_of(db).catalogue is before
    assert before.canonical("model", "Our Net") == "Our Net"  # not recognised
    with db.writing() as cur:
        aliases.add_user_alias(cur, "model", "Our Net", "rn50")
    assert cache_of(db).catalogue is None
    assert aliases.of(db).canonical("model", "our net") == "ResNet-50 v1.5"


def test_imported_names_counts_and_search_follow_the_file_across_a_rename(
    combined, tmp_path
):
    """The names of imported figures are resolved per combination into a table
    of the connection (aliases.NAME_ROWS), made again on an alias and on
    opening: the figures' names, facet counts and search hits equal those of
    the file read on its own (DuckDB's read_csv, with only the names the
    bundled catalogue gives: data/entities), before and after a rename."""
    import duckdb

    combos = [
        (m, s, fw)
        for m in ("RN-50 (ours)", "ResNet50", "My Net")
        for s in ("A100 80GB", "Bow-Pod16")
        for fw in ("PyTorch", "TensorFlow2")
    ]
    lines = ["model,system,fw,v"] + [
        f"{m},{s},{fw},{100 * i + k + 1}"
        for i, (m, s, fw) in enumerate(combos)
        for k in range(i % 3 + 1)
    ]
    _import(db := combined[0], tmp_path, "\n".join(lines) + "\n")
    raw = duckdb.connect()
    raw.execute(
        "CREATE TABLE f AS SELECT * FROM read_csv($p, all_varchar = true)",
        {"p": str(tmp_path / "gpu.csv")},
    )
    # The bundled catalogue's aliases (data/entities/aliases.csv) name models
    # and frameworks; the user's alias then names "RN-50 (ours)" as well.
    with open(DATA / "entities" / "aliases.csv", newline="", encoding="utf-8") as f:
        known = {(r["kind"], r["alias"]): r["canonical"] for r in csv.DictReader(f)}
    before = {m: known.get(("model", m), m) for m in ("ResNet50", "My Net")}
    after = before | {"RN-50 (ours)": before["ResNet50"]}

    def expected(canon: dict[str, str]):
        rows = raw.execute("SELECT model, system, fw, v FROM f").fetchall()
        named = sorted(
            (canon.get(m, m), known.get(("framework", fw), fw), float(v))
            for m, _s, fw, v in rows
        )
        models: dict[str, int] = {}
        for m, _fw, _v in named:
            models[m] = models.get(m, 0) + 1
        return named, models

    def seen(database):
        got = sorted(
            database.cursor()
            .execute(
                "SELECT model, framework, value FROM results_v "
                "WHERE source_file = 'gpu.csv'"
            )
            .fetchall()
        )
        src = FilterState().with_values("source_file", ["gpu.csv"])
        counts = {
            v: n for _f, v, n in database.run(q.facet_counts(src, ["model"])).rows
        }
        hits = database.run(q.results(src.with_text("rn-50 (ours)"))).column("value")
        return got, counts, sorted(hits)

    def file_hits(canon: dict[str, str]) -> list[float]:
        # "rn-50 (ours)" is found in the figures named by it: as printed before
        # the alias, and all of ResNet-50 v1.5 (other names) after it.
        target = canon.get("RN-50 (ours)", "RN-50 (ours)")
        rows = raw.execute("SELECT model, v FROM f").fetchall()
        return sorted(float(v) for m, v in rows if canon.get(m, m) == target)

    named, models = expected(before)
    assert seen(db) == (named, models, file_hits(before))
    with db.writing() as cur:
        aliases.add_user_alias(cur, "model", "RN-50 (ours)", "resnet50")
        aliases.rename_user_rows(cur, aliases.user_catalogue(cur))
    named2, models2 = expected(after)
    assert models2 != models  # the rename moved figures between names
    assert seen(db) == (named2, models2, file_hits(after))
    _db, cache, user = combined
    db.close()
    again, _ = open_combined(DATA, cache, user)
    try:
        assert seen(again) == (named2, models2, file_hits(after))
    finally:
        again.close()
