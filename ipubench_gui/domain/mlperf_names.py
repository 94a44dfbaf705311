"""What MLPerf system files spell their own way, read into canonical names: the
availability category, the framework's family and version, and the
accelerator's chip model, form factor and memory.

The names themselves are data (``data/entities``: frameworks and their
families, accelerators and their generations, with every alias); this module
only says how a system file's free text is cut into those names. Training and
inference system files of every round read alike.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ipubench_gui.domain.entities import POPLAR_SDK, SEVERAL, key

if TYPE_CHECKING:
    from ipubench_gui.domain.entities import Catalogue, Entity

# -- availability ------------------------------------------------------------
ON_PREMISE = "Available on-premise"
CLOUD = "Available cloud"
PREVIEW = "Preview"
RDI = "Research/Development/Internal"
#: MLCommons' availability categories, in the order its tables list them.
CATEGORIES: tuple[str, ...] = (ON_PREMISE, CLOUD, PREVIEW, RDI)
#: The categories of systems one can buy or rent: what a claim is held to.
AVAILABLE: tuple[str, ...] = (ON_PREMISE, CLOUD)


def category(status: str | None) -> str | None:
    """The MLCommons category a system file's ``status`` names ("onprem",
    "available", "Available on premise", "cloud", "Available in cloud",
    "preview", "research", "rdi", in any case); None when it names none."""
    s = " ".join(re.split(r"[\s_-]+", (status or "").strip().casefold()))
    if not s:
        return None
    if "cloud" in s:
        return CLOUD
    if s.startswith("preview"):
        return PREVIEW
    if s.startswith(("research", "rdi", "development", "internal")):
        return RDI
    if s in ("available", "onprem", "on prem", "on premise") or s.startswith(
        "available on"
    ):
        return ON_PREMISE
    return None


# -- frameworks --------------------------------------------------------------
# NVIDIA's containers: "NGC 21.05", "NVIDIA Release 22.04" (also "Relase"),
# "NGC MXNet 20211013"; "NGC MLPerf v2.1/2.0" names a set of them.
_NGC_WORD = re.compile(r"\b(NGC|NVIDIA\s+Rel[ae]{1,2}se|Release)", re.IGNORECASE)
_NGC_RELEASE = re.compile(r"(?<![\d.])(\d\d\.\d\d|20\d{6})(?![\d.])")
_NGC_MLPERF = re.compile(r"\bNGC\s+MLPerf\s+(?:Training\s+)?(v[\d./]+)", re.I)
_VERSION = re.compile(r"(?<![\w.])v?(\d+\.\d+(?:\.\d+)?(?:[a-z]\d*)?(?:\+\w+)?)")
_COMMIT = re.compile(r"branch:\s*([\w.-]+),\s*commitID:\s*(\w+)", re.IGNORECASE)


def framework_family(text: str | None, cat: Catalogue) -> str | None:
    """The one family ``text`` names, :data:`SEVERAL` when it names more than
    one, None when it names none ("CUDA 11.6", a blank)."""
    fams = cat.families(text)
    if not fams:
        return None
    return fams[0] if len(fams) == 1 else SEVERAL


def framework_version(text: str | None) -> str | None:
    """The version a system file's framework text gives: an NVIDIA container
    release ("NGC 22.04"; several releases joined by " / "), a Poplar SDK
    ("Poplar SDK 2.5.1"), a branch and commit, or a plain version ("1.8.0")."""
    t = text or ""
    mlperf = _NGC_MLPERF.search(t)
    if mlperf:
        return f"NGC MLPerf {mlperf[1]}"
    if _NGC_WORD.search(t):
        ngc = list(dict.fromkeys(m[1] for m in _NGC_RELEASE.finditer(t)))
        if ngc:
            return "NGC " + " / ".join(ngc)
    sdk = POPLAR_SDK.search(t)
    lead = _VERSION.search(POPLAR_SDK.sub(" ", t))
    if sdk:
        own = f"{lead[1]}, " if lead else ""
        return f"{own}Poplar SDK {sdk[1]}"
    commit = _COMMIT.search(t)
    if commit:
        return f"{commit[1]} {commit[2]}"
    return lead[1] if lead else None


# -- accelerators -------------------------------------------------------------
@dataclass(frozen=True)
class Accelerator:
    """An accelerator as a system file names it, read into its parts."""

    name: str  # the canonical entity, else the chip model read from the text
    vendor: str
    generation: str  # the chip model's generation: A100, H100, Bow, TPU v4, ...
    chip: str  # the chip model, one per chip: A100, H100, Bow IPU, TPU v4, ...
    form_factor: str | None  # SXM, PCIe, NVL, ... where the text says
    memory_gb: int | None  # where the text says
    known: bool  # whether the tables know the chip


_NONE = frozenset({"", "-", "n/a", "na", "none", "cpu"})
_VENDOR_WORDS = re.compile(
    r"\b(nvidia|intel|habana|amd|google|graphcore|qualcomm|tesla|huawei)\b"
    r"|\(r\)|\(tm\)|\bai accelerator\b|\bgpu\b",
    re.IGNORECASE,
)
_PAREN = re.compile(r"\([^)]*\)")
_FORM = re.compile(r"(?<![a-z])(sxm\d?|pcie|nvl|hhhl|dm\.2e?|mxm)(?![a-z])", re.I)
_FORMS = {"sxm": "SXM", "pcie": "PCIe", "nvl": "NVL", "hhhl": "PCIe HHHL"}
# "80GB", "80 GB", and NVIDIA's virtual GPU profiles ("A100-SXM-80C", "A10-24Q")
_MEMORY = re.compile(r"(?<![a-z0-9.])(\d{1,3})\s*(?:gb?|c|q)(?![a-z])", re.I)
_WATTS = re.compile(r"\b\d{2,4}\s*w\b", re.IGNORECASE)


def _form_factor(text: str) -> str | None:
    m = _FORM.search(text)
    if not m:
        return None
    f = m[1].casefold()
    return _FORMS.get(f.rstrip("0123456789"), m[1])


def accelerator(text: str | None, cat: Catalogue, system_name: str = "") -> Accelerator:
    """Read a system file's ``accelerator_model_name`` ("NVIDIA
    A100-SXM4-80GB (400W)", "Intel(R) Gaudi(R) 2 AI Accelerator", "TPU-v5p").

    The chip is the table's entity when the text is one of its spellings,
    else the entity whose name or generation is what is left once the
    vendor's name, bracketed notes (power, MIG slices), form factor and
    memory are taken out. Google's early files print only "TPU": the
    generation is then read from the system's name ("tpu-v4-128").
    """
    raw = (text or "").strip()
    if raw.casefold() in _NONE:
        return Accelerator(
            "none (CPU only)", "", "CPU only", "CPU only", None, None, True
        )
    t = raw
    if t.upper() == "TPU":
        m = re.search(r"tpu[- ]?v?(\d\w?)", system_name, re.IGNORECASE)
        t = f"TPU v{m[1]}" if m else t
    bare = _PAREN.sub(" ", raw)
    form = _form_factor(bare)
    mem = _MEMORY.search(_WATTS.sub(" ", bare))
    memory = int(mem[1]) if mem else None
    ent = cat.entity("accelerator", t)
    name = ent.name if ent is not None else None
    if ent is None:
        rest = _VENDOR_WORDS.sub(" ", _PAREN.sub(" ", t))
        rest = _FORM.sub(" ", _WATTS.sub(" ", _MEMORY.sub(" ", rest)))
        ent = cat.entity("accelerator", rest)
        name = ent.name if ent is not None else None
        if ent is None:  # a chip the tables know in another form: its model
            ent = _by_generation(rest, cat)
            name = ent.get("generation") if ent is not None else None
        if ent is None or not name:
            chip = " ".join(w for w in re.split(r"[\s_]+", rest.strip(" -_")) if w)
            chip = chip or raw
            return Accelerator(chip, "", chip, chip, form, memory, False)
    gen = ent.get("generation") or ent.name
    family = ent.get("family") or ""
    chip = ent.name if family == "IPU" else gen  # GC200 IPU, not "IPU Mk2 Classic"
    return Accelerator(
        name or ent.name, ent.get("vendor") or "", gen, chip, form, memory, True
    )


def _by_generation(text: str, cat: Catalogue) -> Entity | None:
    """The first accelerator entity named by, or of the generation named by,
    ``text`` or its longest leading run of words ("A100 CTS" is an A100)."""
    words = [w for w in re.split(r"[\s_/-]+", text) if w]
    gens: dict[str, Entity] = {}
    for e in cat.entities["accelerator"].values():
        gens.setdefault(key(e.get("generation") or ""), e)
    for n in range(len(words), 0, -1):
        lead = " ".join(words[:n])
        hit = cat.entity("accelerator", lead) or gens.get(key(lead))
        if hit is not None:
            return hit
    return None
