"""MLPerf system files' names read into canonical ones (domain/mlperf_names.py):
framework family and version, availability category, accelerator chip, form
factor and memory; checked on every system file of the shared copy and on
spellings whose reading is known from the files themselves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ipubench_gui.domain import mlperf_names as mn
from ipubench_gui.domain.entities import SEVERAL, letters_digits, load
from tests.conftest import DATA

SHARED = Path(__file__).resolve().parents[3] / "shared" / "mlperf"
CAT = load(DATA / "entities")
# System files whose framework text names no framework at all.
NAMES_NO_FRAMEWORK = {"", "CUDA 11.6", "CUDA 12.0", "CUDA 12.3"}


def _system_files(kind: str = "training") -> list[dict]:
    files = sorted(SHARED.glob(f"{kind}/v*/*/systems/*.json")) + sorted(
        SHARED.glob(f"{kind}/v*/closed/*/systems/*.json")
    )
    if not files:
        pytest.skip("../shared/mlperf is not present")
    out = []
    for f in files:
        try:
            out.append(json.loads(f.read_text(encoding="utf-8")))
        except ValueError:
            continue
    return out


def test_every_framework_as_printed_maps_to_one_family():
    families = {e.get("family") or e.name for e in CAT.entities["framework"].values()}
    texts = {str(d.get("framework") or "").strip() for d in _system_files()}
    assert len(texts) > 100
    for text in texts:
        fam = mn.framework_family(text, CAT)
        if text in NAMES_NO_FRAMEWORK:
            assert fam is None, text
            continue
        assert fam in families, text
    # each family is a framework the tables know, and no two read alike
    assert families <= set(CAT.names("framework"))
    letters = [letters_digits(f) for f in families]
    assert len(letters) == len(set(letters))


@pytest.mark.parametrize(
    ("text", "family", "version"),
    [
        (
            "NGC MXNet 22.04 , NGC PyTorch 22.04 , NGC TensorFlow 22.04-tf1",
            SEVERAL,
            "NGC 22.04",
        ),
        (
            "MXNet NVIDIA Release 22.04, PyTorch NVIDIA Relase 22.04",
            SEVERAL,
            "NGC 22.04",
        ),
        ("PyTorch NVIDIA Release 21.05", "PyTorch", "NGC 21.05"),
        ("merlin_hugectr NVIDIA Release 22.04", "HugeCTR", "NGC 22.04"),
        (
            "Merlin HugeCTR with NVIDIA DL Frameworks Release 21.09",
            "HugeCTR",
            "NGC 21.09",
        ),
        ("TensorFlow 1.15 Poplar SDK 2.5.1", "TensorFlow", "1.15, Poplar SDK 2.5.1"),
        ("PopART Poplar SDK 2.5.1", "PopART", "Poplar SDK 2.5.1"),
        (
            "PaddlePaddle (branch: develop, commitID: b2d8f6d)",
            "PaddlePaddle",
            "develop b2d8f6d",
        ),
        ("Lingvo-JAX", "JAX", None),
        (
            "Lingvo-TF, https://github.com/tensorflow/lingvo.git, branch x",
            "TensorFlow",
            None,
        ),
        ("Mindspore v1.2.1", "MindSpore", "1.2.1"),
        (
            "PyTorch v1.12.1+cu116 and MosaicML composer v0.10.1",
            "PyTorch",
            "1.12.1+cu116",
        ),
        ("NVIDIA NeMo Framework Release 24.04", "PyTorch", "NGC 24.04"),
        ("NGC MLPerf v2.1/2.0", SEVERAL, "NGC MLPerf v2.1/2.0"),
        ("CUDA 11.6", None, "11.6"),
    ],
)
def test_framework_family_and_version(text, family, version):
    assert mn.framework_family(text, CAT) == family
    assert mn.framework_version(text) == version


def test_every_status_names_an_mlcommons_category():
    statuses = {str(d.get("status")) for d in _system_files()}
    statuses |= {str(d.get("status")) for d in _system_files("inference")}
    assert {mn.category(s) for s in statuses} == set(mn.CATEGORIES)
    assert (
        mn.category("onprem")
        == mn.category("Available on premise")
        == ("Available on-premise")
    )
    assert mn.category("Available in cloud") == "Available cloud"
    assert mn.category("rdi") == mn.category("research") == mn.RDI
    assert mn.category("withdrawn") is None


@pytest.mark.parametrize(
    ("text", "system", "chip", "form", "memory"),
    [
        ("NVIDIA A100-SXM4-80GB (400W)", "", "A100", "SXM", 80),
        ("NVIDIA A100-PCIe-40GB(250W)", "", "A100", "PCIe", 40),
        ("NVIDIA A100 - PCIe - 80 GB", "", "A100", "PCIe", 80),
        ("NVIDIA A100_PCIe_80GB", "", "A100", "PCIe", 80),
        ("NVIDIA A100-SXM-80GB (1x1g.10gb MIG)", "", "A100", "SXM", 80),
        ("NVIDIA H100-SXM5-80GB", "", "H100", "SXM", 80),
        ("NVIDIA H100-SXM5-96GB", "", "H100", "SXM", 96),
        ("NVIDIA H100-PCIe", "", "H100", "PCIe", None),
        ("NVIDIA H100-SXM-80GB-02", "", "H100", "SXM", 80),
        ("NVIDIA H200-SXM5-141GB", "", "H200", "SXM", 141),
        ("NVIDIA A10G", "", "A10G", None, None),
        ("NVIDIA A30-PCIE-24GB", "", "A30", "PCIe", 24),
        ("Intel(R) Gaudi(R) 2 AI Accelerator", "", "Gaudi2", None, None),
        ("Habana Gaudi HL-205", "", "Gaudi", None, None),
        ("Graphcore Bow IPU", "", "Bow IPU", None, None),
        ("Graphcore IPU GC200", "", "GC200 IPU", None, None),
        ("TPU", "tpu-v4-128", "TPU v4", None, None),
        ("TPU-v5p", "tpu-v5p-1024", "TPU v5p", None, None),
        ("N/A", "", "CPU only", None, None),
    ],
)
def test_one_chip_per_model_with_form_factor_and_memory(
    text, system, chip, form, memory
):
    acc = mn.accelerator(text, CAT, system)
    assert (acc.chip, acc.form_factor, acc.memory_gb, acc.known) == (
        chip,
        form,
        memory,
        True,
    )


def test_every_training_accelerator_is_a_known_chip():
    for d in _system_files():
        name = str(d.get("accelerator_model_name"))
        assert mn.accelerator(name, CAT, str(d.get("system_name"))).known, name
