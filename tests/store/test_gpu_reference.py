"""data/gpu_reference.csv against ../shared/gpu-reference/figures.csv; in the store."""

from __future__ import annotations

import csv

import pytest

from tests.conftest import DATA, GPU_STORED, REPO

FIGURES = REPO.parent / "shared" / "gpu-reference" / "figures.csv"


def _read(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def figures():
    if not FIGURES.exists():
        pytest.skip(f"{FIGURES} not found; verification needs it")
    return _read(FIGURES)


def test_every_transcribed_figure_is_carried_with_its_provenance(figures):
    ours = _read(DATA / "gpu_reference.csv")
    for f in figures:
        # A figure is a row's value, or (a latency printed on the same table
        # row as a throughput) that row's latency.
        hits = [
            r
            for r in ours
            if f["comparison_id"] in r["comparison_ids"].split()
            and r["source_repo"] == f["source_repo"]
            and r["commit"] == f["commit"]
            and r["path"] == f["path"]
            and r["gpu"] == f["gpu"]
            and r["framework"] == f["framework"]
            and r["precision"] == f["precision"]
            and r["batch_as_printed"] == f["batch_size"]
            and r["source_date"] == f["source_date"]
            and (
                (r["value_as_printed"] == f["value"] and r["measure"] == f["metric"])
                or (f["value"] and r["latency_as_printed"] == f["value"])
            )
        ]
        assert len(hits) == 1, f
        r = hits[0]
        assert r["table_caption"] == f["table_caption"]
        if r["value_as_printed"] == f["value"] and f["value"]:
            assert r["unit_as_printed"] == f["unit"]
            scale = 60 if f["unit"] == "hours" else 1  # the store keeps minutes
            assert float(r["value"]) == pytest.approx(float(f["value"]) * scale)
        if not f["value"]:
            assert r["role"] == "not retrieved" and not r["value"]
    # Nothing of ours that figures.csv does not hold.
    printed = {f["value"] for f in figures}
    for r in ours:
        assert r["value_as_printed"] in printed
        assert r["latency_as_printed"] in printed or r["latency_as_printed"] in (
            "",
            "11.66",  # printed in that README row; figures.csv gives it in a note
        )
        assert r["link"].endswith(r["path"] or "")


def test_published_figures_sit_beside_the_vendors_in_the_store(db):
    got = {
        r[0]: r[1:]
        for r in db.cursor()
        .execute(
            "SELECT result_id, vendor, platform, accelerators, value, unit, "
            "latency_ms, source_file, link FROM results_v "
            "WHERE source_file = 'gpu-reference/figures.csv'"
        )
        .fetchall()
    }
    assert set(got) == {r["result_id"] for r in GPU_STORED}
    for r in GPU_STORED:
        vendor, platform, n, value, unit, lat, _src, link = got[r["result_id"]]
        assert vendor == "NVIDIA" and platform == r["platform"] and link == r["link"]
        assert n == int(r["gpu_count"])
        assert (value, unit) == (float(r["value"]), r["unit"])
    # ResNeXt-101 at batch 1: 127.96 images/s at 7.84 ms, one row of that table.
    row = got["nvref-a925d6"]
    assert (row[1], row[3], row[5]) == ("A100 40GB", 127.96, 7.84)
    kind = db.scalar(
        "SELECT kind FROM sources WHERE source_file = 'gpu-reference/figures.csv'"
    )
    assert kind == "published reference"
    facet = db.scalar(
        "SELECT sum(n) FROM facet_cube WHERE source_file = 'gpu-reference/figures.csv'"
    )
    assert facet == len(GPU_STORED)
