"""Canonical names: every spelling the sources use maps to one entity.

Spellings are collected independently of the app: from the seed documents'
text (tests.seedtables reads the results page cell by cell; prose names are
checked to occur in the text before they are looked up), from data/*.csv
with the stdlib, and from the MLPerf folder and system files as published.
"""

from __future__ import annotations

import csv
import json
import re
from collections import defaultdict
from pathlib import Path

import pytest

from ipubench_gui.domain import mlperf_names
from ipubench_gui.domain.entities import (
    ALIAS,
    CANONICAL,
    KINDS,
    TABLES,
    UNKNOWN,
    USER_ALIAS,
    Catalogue,
    EntityError,
)
from tests.conftest import DATA, REPO, seeds_or_skip
from tests.seedtables import RESULTS_PAGE, read_tables

ENT = DATA / "entities"
MLPERF = REPO.parent / "shared" / "mlperf" / "training"


@pytest.fixture(scope="module")
def cat() -> Catalogue:
    return Catalogue.load(ENT)


def _csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def seed_cells() -> dict[str, set[str]]:
    """Model, framework, dataset and platform cells of the results page."""
    tables = read_tables(seeds_or_skip() / RESULTS_PAGE)
    out: dict[str, set[str]] = defaultdict(set)
    for t in tables:
        for r in t.rows:
            out["model"].add(r["Model"])
            out["framework"].add(r["Framework"])
            out["system"].add(r["Platform"])
            ds = r.get("Dataset") or r.get("Dataset Challenge")
            if ds:
                out["dataset"].add(ds)
    return out


# Alias groups: a pattern over spellings as printed -> the one entity they all
# mean. Each group must see at least ``least`` spellings in the seed tables.
GROUPS = [
    ("model", r"(?i)^resnet-?50", "ResNet-50 v1.5", 3),
    ("model", r"(?i)^bert[ -]large$|^BERT$", "BERT-Large", 3),
    ("model", r"(?i)^bert[ -]base", "BERT-Base", 3),
    ("model", r"(?i)^u-?net \(medical\)$", "UNet (Medical)", 2),
    ("model", r"(?i)^resnext-?101", "ResNeXt-101", 1),
    ("model", r"(?i)^gpt-?2$", "GPT-2", 1),
    ("model", r"(?i)^yolo ?v4$", "YOLOv4", 1),
    ("model", r"(?i)^conformer", "Conformer", 2),
    ("framework", r"(?i)^(tensorflow ?2|tf2)$", "TensorFlow 2", 1),
    ("framework", r"(?i)keras", "TensorFlow 2 (Keras)", 1),
    ("framework", r"(?i)^(tensorflow ?1|tf1)$", "TensorFlow 1", 1),
    ("framework", r"(?i)^pytorch$", "PyTorch", 1),
    ("framework", r"(?i)^pytorch geometric$", "PyTorch Geometric", 1),
    ("dataset", r"(?i)^imagenet", "ImageNet-1k", 2),
    ("system", r"(?i)^bow[ -]?pod16$", "Bow Pod16", 1),
    ("system", r"(?i)^ipu-?m2000$", "IPU-M2000", 1),
]


@pytest.mark.parametrize("kind,pattern,canonical,least", GROUPS)
def test_alias_group_maps_every_seed_spelling(
    cat, seed_cells, kind, pattern, canonical, least
):
    seen = {s for s in seed_cells[kind] if re.search(pattern, s)}
    assert len(seen) >= least, (canonical, seen)
    got = {s: cat.canonical(kind, s) for s in seen}
    assert set(got.values()) == {canonical}, got


@pytest.mark.parametrize("kind", ["model", "framework", "dataset", "system"])
def test_every_seed_table_spelling_is_recognised(cat, seed_cells, kind):
    bad = [s for s in seed_cells[kind] if not cat.resolve(kind, s).recognised]
    assert bad == []


def test_seed_model_spellings_collapse(cat, seed_cells):
    """The issue counted 44 model spellings; several name one model."""
    names = {cat.canonical("model", s) for s in seed_cells["model"]}
    assert len(names) < len(seed_cells["model"]) - 5
    # and no canonical name is one a user would not recognise from the page
    assert names <= set(cat.names("model"))


@pytest.mark.parametrize(
    "kind,text,canonical,seed",
    [
        ("model", "BERT-Large", "BERT-Large", "001"),
        ("model", "ResNet-50", "ResNet-50 v1.5", "001"),
        ("model", "ResNeXt-101", "ResNeXt-101", "001"),
        ("model", "EfficientNet-B4", "EfficientNet-B4", "001"),
        ("model", "Deep Voice 3", "DeepVoice3", "001"),
        ("model", "LSTM 2-Layer", "LSTM 2-layer", "001"),
        ("model", "ResNet-50 v1.5", "ResNet-50 v1.5", "002"),
        ("model", "ResNext-101_32x4d", "ResNeXt-101", "002"),
        ("model", "EN-B4", "EfficientNet-B4", "002"),
        ("dataset", "ImageNet2012", "ImageNet-1k", "002"),
        ("system", "IPU-M2000", "IPU-M2000", "002"),
        ("framework", "TensorRT 7.2.1", "TensorRT 7", "002"),
        ("model", "ResNet-50", "ResNet-50 v1.5", "004"),
        ("model", "RNN-T", "RNN-T", "004"),
        ("model", "SchNet GNN", "SchNet", "004"),
        ("system", "Bow Pod16", "Bow Pod16", "004"),
        ("system", "DGX-A100 640GB", "DGX A100 640GB", "004"),
    ],
)
def test_prose_spellings_map(cat, kind, text, canonical, seed):
    doc = next(seeds_or_skip().glob(f"{seed}_*.txt")).read_text(encoding="utf-8")
    assert text in doc
    assert cat.canonical(kind, text) == canonical


@pytest.mark.parametrize(
    "file,columns",
    [
        (
            "results.csv",
            {
                "model": "model",
                "framework": "framework",
                "dataset": "dataset",
                "platform": "system",
                "unit": "unit",
            },
        ),
        (
            "comparisons.csv",
            {
                "model": "model",
                "ipu_system": "system",
                "gpu_system": "system",
                "dataset": "dataset",
            },
        ),
        ("platforms.csv", {"platform": "system", "accelerator": "accelerator"}),
        ("metrics.csv", {"default_unit": "unit"}),
    ],
)
def test_every_data_spelling_is_recognised(cat, file, columns):
    bad = [
        (col, r[col])
        for r in _csv(DATA / file)
        for col, kind in columns.items()
        if r[col] and not cat.resolve(kind, r[col]).recognised
    ]
    assert bad == []


def test_claims_models_and_systems_map(cat):
    # A claim's model cell may list several models ("ResNet-50; BERT"), as the
    # audit reads it: each one must be a model the catalogue knows.
    rows = _csv(DATA / "claims.csv")
    models = {m.strip() for r in rows for m in r["model"].split(";") if m.strip()}
    assert [m for m in sorted(models) if not cat.resolve("model", m).recognised] == []
    named = {m: cat.canonical("model", m) for m in models}
    assert named["BERT"] == "BERT-Large"
    assert named["ResNet-50"] == "ResNet-50 v1.5"
    assert named["RNN-T"] == "RNN-T"


def test_no_two_canonical_names_reduce_to_the_same_letters():
    for kind, (fname, col) in TABLES.items():
        names = [r[col] for r in _csv(ENT / fname)]
        reduced = [re.sub(r"[^0-9a-z]", "", n.lower()) for n in names]
        dups = {r for r in reduced if reduced.count(r) > 1}
        assert dups == set(), (kind, dups)


def test_every_alias_row_names_its_source_and_a_known_entity():
    known = {k: {r[c] for r in _csv(ENT / f)} for k, (f, c) in TABLES.items()}
    for r in _csv(ENT / "aliases.csv"):
        assert r["source"], r
        assert r["canonical"] in known[r["kind"]], r
    for kind, (fname, _c) in TABLES.items():
        assert all(r["source"] for r in _csv(ENT / fname)), kind


def _mlperf_or_skip() -> Path:
    if not MLPERF.is_dir():
        pytest.skip(f"MLPerf results not found at {MLPERF}")
    return MLPERF


def test_mlperf_benchmark_folders_map_to_models(cat):
    folders = {p.name for p in _mlperf_or_skip().glob("*/*/results/*/*") if p.is_dir()}
    assert {"bert", "resnet", "ssd", "rnnt", "unet3d", "dlrm"} <= folders
    table = _csv(ENT / "mlperf_benchmarks.csv")
    assert {r["benchmark"] for r in table} == folders
    for r in table:
        assert r["model"] in cat.names("model"), r
        assert cat.resolve("model", r["benchmark"]).recognised, r
    assert cat.canonical("model", "bert") == "BERT-Large"
    assert cat.canonical("model", "resnet") == "ResNet-50 v1.5"


def test_mlperf_accelerator_names_map(cat):
    files = set()
    for f in _mlperf_or_skip().glob("*/*/systems/*.json"):
        try:
            desc = json.loads(f.read_text(encoding="utf-8"))
            files.add((desc["accelerator_model_name"], desc["system_name"]))
        except (ValueError, KeyError):
            continue
    # Every spelling is read into a chip the tables know (domain/mlperf_names:
    # "NVIDIA H100-SXM5-80GB" is an H100; CPU-only systems print N/A; Google's
    # v1.0 files print a bare "TPU", whose generation is in the system name).
    unknown = {n for n, s in files if not mlperf_names.accelerator(n, cat, s).known}
    assert unknown == set()
    assert cat.canonical("accelerator", "NVIDIA A100-SXM4-80GB (400W)") == (
        "A100-SXM4-80GB"
    )
    assert cat.canonical("accelerator", "Graphcore Bow IPU") == "Bow IPU"


def test_resolution_labels_and_unknown_names(cat):
    r = cat.resolve("model", "ResNet50")
    assert (r.name, r.how, r.label) == (
        "ResNet-50 v1.5",
        ALIAS,
        "ResNet50 → ResNet-50 v1.5 (alias)",
    )
    assert cat.resolve("model", "ResNet-50 v1.5").how == CANONICAL
    for text in ("resnet", "rn50", "RN-50", "resnet 50 v1.5"):
        assert cat.canonical("model", text) == "ResNet-50 v1.5", text
    u = cat.resolve("model", "My Secret Net")
    assert (u.name, u.how, u.recognised) == ("My Secret Net", UNKNOWN, False)
    assert u.label == "My Secret Net (not recognised)"
    assert cat.resolve("model", None).name is None


def test_search_by_any_alias(cat):
    assert "ResNet-50 v1.5" in cat.matching("model", "rn50")
    assert "BERT-Large" in cat.matching("model", "bert large")
    assert cat.matching("model", "") == ()


def test_user_aliases_layer_on_top(cat):
    u = cat.with_aliases(
        [("model", "Our RN", "resnet-50 v1.5"), ("model", "BERT", "BERT-Base")]
    )
    assert u.resolve("model", "our-rn").how == USER_ALIAS
    assert u.canonical("model", "our rn") == "ResNet-50 v1.5"
    assert u.canonical("model", "BERT") == "BERT-Base"  # replaces the bundled alias
    assert cat.canonical("model", "BERT") == "BERT-Large"  # the original is unchanged
    with pytest.raises(EntityError, match="not a known model"):
        cat.with_aliases([("model", "x", "No Such Model")])
    with pytest.raises(EntityError, match="itself"):
        cat.with_aliases([("model", "BERT-Base", "BERT-Large")])


def test_items_and_unit_families(cat):
    assert cat.item("ResNet-50 v1.5", "items/s") == "images"
    assert cat.item("Cluster-GCN", "items/s") == "nodes"
    assert cat.item("BERT-Large", "Samples/s") == "sequences"
    assert cat.item("GPS++", "graphs/s") == "graphs"
    assert cat.unit_family("ResNet50", "items/sec") == "images/s"
    assert cat.unit_family("bert", "items/s") != cat.unit_family("resnet", "items/s")
    assert cat.unit_family("BERT-Large", "min") == "time"
    assert cat.unit_family("Unknown", "items/s") is None


def test_exact_time_conversions(cat):
    assert cat.convert(1423, "min", "h") == pytest.approx(23 + 43 / 60)
    assert cat.convert(0.58, "ms", "s") == pytest.approx(0.00058)
    assert cat.convert(2, "h", "min") == 120
    assert cat.convert(90, "s", "min") == 1.5
    with pytest.raises(EntityError):
        cat.convert(1, "min", "images/s")


def test_chips_per_system(cat):
    rows = {r["platform"]: r["accelerators"] for r in _csv(DATA / "platforms.csv")}
    for platform, n in rows.items():
        assert cat.chips(platform) == (int(n) if n else None), platform
    assert cat.chips("Bow-2000") == 4 and cat.chips("IPU-POD16") == 16


def test_broken_tables_are_named(tmp_path):
    import shutil

    shutil.copytree(ENT, tmp_path / "e")
    with open(tmp_path / "e" / "aliases.csv", "a", encoding="utf-8") as f:
        f.write("model,resnet,BERT-Large,test\n")
    with pytest.raises(EntityError, match=r"aliases\.csv, line \d+: 'resnet' already"):
        Catalogue.load(tmp_path / "e")
    assert set(KINDS) == set(TABLES)
