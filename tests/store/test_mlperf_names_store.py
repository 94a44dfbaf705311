"""MLPerf rows named through the entity tables as the vendor's rows are, found
by the search box by any name of their system, and the vendor's rows keeping
the page's own words (checked against the seed text and data/mlperf_training.csv,
read with the standard library)."""

from __future__ import annotations

import csv
import re

import pytest

from ipubench_gui.domain import compare
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.service import browse
from ipubench_gui.store.query import queries
from tests.conftest import DATA, seeds_or_skip

CSV = list(csv.DictReader((DATA / "mlperf_training.csv").open(encoding="utf-8")))
INFERENCE = list(csv.DictReader((DATA / "mlperf_inference.csv").open(encoding="utf-8")))
RESULTS = list(csv.DictReader((DATA / "results.csv").open(encoding="utf-8")))
PLATFORMS = {p["platform"]: p for p in csv.DictReader((DATA / "platforms.csv").open())}


def _ids(db, text: str) -> set[str]:
    res = db.run(queries.results(FilterState().with_text(text), ["result_id"]))
    return {r[0] for r in res.rows}


def _official_id(r: dict) -> str:
    return r.get("vendor_result_id") or r["result_id"]


def test_mosaicml_systems_have_eight_accelerators():
    mosaic = [r for r in CSV if r["submitter"] == "MosaicML"]
    assert len(mosaic) == 4
    assert {r["accelerators"] for r in mosaic} == {"8"}  # "number_of_nodes": 1.0


def test_rows_show_the_family_availability_and_chip_the_csv_holds(db):
    got = {
        r[0]: r[1:]
        for r in db.cursor()
        .execute(
            "SELECT result_id, framework, framework_as_printed, framework_version, "
            "category, availability, accelerator_type, platform, system_id "
            "FROM results_v WHERE mlperf_round IS NOT NULL"
        )
        .fetchall()
    }
    # every official row, of Training and of Inference, is its CSV's row
    assert len(got) == len(CSV) + len(INFERENCE)
    for r in CSV + INFERENCE:
        fw, printed, version, cat, avail, chip, platform, sid = got[_official_id(r)]
        assert fw == (r["framework"] or r["framework_as_printed"] or None)
        assert cat == r["category"] and avail == r["availability"]
        assert chip == r["accelerator_type"] and sid == r["system_id"]
        assert version == (r["framework_version"] or None)
        if not r.get("vendor_result_id"):
            assert printed == (r["framework_as_printed"] or None)
            assert platform  # the system file's name (canonical where known)


@pytest.mark.parametrize(
    ("text", "official", "vendor"),
    [
        # NVIDIA's folders and names spell it dgxa100_n8_ngc22.04_...
        (
            "dgx a100",
            lambda r: (
                "dgx" in r["system_name"].lower() and "a100" in r["system_name"].lower()
            ),
            lambda p: "DGX" in p and "A100" in p,
        ),
        ("bow", lambda r: r["accelerator_type"] == "Bow IPU", lambda p: "Bow" in p),
        (
            "pod16",
            lambda r: "pod16" in (r["system_name"] + r["system_id"]).lower(),
            lambda p: "POD16" in p.upper(),
        ),
        (
            "tpu",
            lambda r: r["accelerator_type"].startswith("TPU"),
            lambda p: "TPU" in p,
        ),
    ],
)
def test_search_finds_systems_by_any_of_their_names(db, text, official, vendor):
    want = {_official_id(r) for r in CSV if official(r)}
    want |= {
        r["result_id"]
        for r in RESULTS
        if vendor(r["platform"]) or vendor(PLATFORMS[r["platform"]]["accelerator"])
    }
    got = _ids(db, text)
    assert want and want <= got
    # nothing else but rows naming it elsewhere (model, dataset, submitter)
    assert all(text.split()[0] in t for t in _search_texts(db, got - want))


def _search_texts(db, ids: set[str]) -> list[str]:
    if not ids:
        return []
    return [
        t
        for (t,) in db.cursor()
        .execute(
            "SELECT search_text FROM results_v WHERE list_contains($i, result_id)",
            {"i": sorted(ids)},
        )
        .fetchall()
    ]


def test_search_finds_a_system_by_its_alias(db):
    # "Bow-Pod16" and Baidu's folder "IPU_POD16_PaddlePaddle" are aliases of
    # Bow Pod16 (entities/aliases.csv): the official rows are found by both
    baidu = {r["result_id"] for r in CSV if r["system_id"] == "IPU_POD16_PaddlePaddle"}
    assert baidu and baidu <= _ids(db, "bow-pod16") and baidu <= _ids(db, "ipu_pod16")


# -- the vendor's rows keep the page's words (seed 000) --------------------------


def test_vendor_rows_keep_the_pages_words_and_their_own_tables_link(db):
    seed = (seeds_or_skip() / "000_74c88246ac92525e.txt").read_text(encoding="utf-8")
    words = set(re.split(r"\n", seed))
    text = " ".join(words)
    rows = (
        db.cursor()
        .execute(
            "SELECT result_id, model_as_printed, dataset_as_printed, "
            "framework_as_printed, platform_as_printed, link, path, repository "
            "FROM results_v WHERE source_file = $f OR vendor_source_file = $f",
            {"f": "000_74c88246ac92525e.txt"},
        )
        .fetchall()
    )
    assert len(rows) == len([r for r in RESULTS if r["source_file"].startswith("000")])
    for rid, model, dataset, framework, platform, link, path, repo in rows:
        for printed in (model, dataset, framework, platform):
            assert printed is None or printed in text, (rid, printed)
        if path:  # a row shared with an official result: that result's folder
            assert link.endswith(path) and repo in link
        else:
            assert not link or link in seed, (rid, link)
    shared = {r[0]: r for r in rows if r[6]}
    assert len(shared) == 11
    assert {shared[i][1] for i in shared} == {"BERT", "ResNet50 v1.5", "RNN-T"}
    assert shared["mlp20-6ec6d2"][2] == "ImageNet2012"
    assert shared["mlp20-c56371"][2] == "Customer dataset"


def test_a_vendor_row_links_to_nothing_of_another_table(db):
    bow = browse.rows_by_ids(db, ["bowtr-536574"])[0]
    assert not bow.get("link")
    assert not compare.value_of(bow, "source_link")  # not the page's last links


def test_a_count_written_as_a_float_is_read_as_a_count():
    """MosaicML's v2.0 and v2.1 system files give "number_of_nodes": 1.0."""
    from pathlib import Path

    from ipubench_gui.store.mlperf.mlperf import Names, scan

    root = Path(__file__).resolve().parents[3] / "shared" / "mlperf" / "training"
    folder = root / "v2.0" / "MosaicML"
    if not folder.is_dir():
        pytest.skip("../shared/mlperf is not present")
    results = scan(folder, "2.0", Names.load(DATA / "entities"))
    assert results and {(r.nodes, r.accelerators) for r in results} == {(1, 8)}
