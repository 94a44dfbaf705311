"""Read an MLPerf Inference results tree (``closed/ORG/...`` of any round's
``inference_results_vX.Y`` clone) into results, one per
ORG/results/SYSTEM/BENCHMARK/SCENARIO, as MLCommons' submission checker reads
them.

The rule is MLCommons' own, from ``tools/submission/submission_checker.py`` of
``mlcommons/inference`` (Apache-2.0), the rounds 1.0 - 3.0 versions:

* ``RESULT_FIELD``: an Offline result is the summary's "Samples per second", a
  Server result its "Scheduled samples per second" (never "Completed samples
  per second").
* ``check_performance_dir``: each ``key : value`` line of
  ``mlperf_log_summary.txt`` is read with the regex
  ``^\\s*([\\w\\s.\\(\\)\\/]+)\\s*\\:\\s*([\\w\\+\\.]+).*``; a result is valid
  only if "Result is" says ``VALID``.
* ``get_inferred_result`` (and its earlier inline form): an Offline folder
  holding a SingleStream log is an Offline figure *inferred* from it, "QPS w/o
  loadgen overhead"; the checker marks it inferred.
* the scenario folder is matched case-insensitively (``offline`` →
  ``Offline``), and ``system_type`` comes from the system file ("edge",
  "datacenter", or both).

Nothing here writes anywhere: callers decide what lands.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ipubench_gui.domain import mlperf_names
from ipubench_gui.domain.files import NotRegular, read_regular
from ipubench_gui.domain.result_rules import count_problem, figure_problem
from ipubench_gui.store.db import Cancelled
from ipubench_gui.store.mlperf import mlperf
from ipubench_gui.store.mlperf.mlperf import Names, TreeError

SUMMARY = Path("performance") / "run_1" / "mlperf_log_summary.txt"
RESULT_FIELD = {  # submission_checker.py RESULT_FIELD
    "Offline": "Samples per second",
    "Server": "Scheduled samples per second",
}
INFERRED_FIELD = "QPS w/o loadgen overhead"  # Offline from SingleStream
SCENARIOS = {s.lower(): s for s in RESULT_FIELD}
#: benchmark folder -> (benchmark, model, dataset, variant)
BENCHMARKS: dict[str, tuple[str, str, str, str | None]] = {
    "resnet50": ("resnet50", "ResNet-50 v1.5", "ImageNet-1k", None),
    # Centaur Technology's v1.0 and v1.1 folder
    "resnet": ("resnet50", "ResNet-50 v1.5", "ImageNet-1k", None),
    "bert-99": ("bert-99", "BERT-Large", "SQuAD", "accuracy 99%"),
    "bert-99.9": ("bert-99.9", "BERT-Large", "SQuAD", "accuracy 99.9%"),
}
_LINE = re.compile(r"^\s*([\w\s.\(\)\/]+)\s*\:\s*([\w\+\.]+).*")  # the checker's
_MIG = re.compile(r"\s*\(([^)]*MIG)\)\s*$", re.IGNORECASE)
SUMMARY_LIMIT = 1 << 20  # a summary is a few KB; anything bigger is not one


@dataclass(frozen=True)
class Summary:
    """What one ``mlperf_log_summary.txt`` says, read as the checker reads it."""

    scenario: str | None  # as logged: Offline, Server, SingleStream, ...
    valid: bool
    value: float | None  # samples/s
    inferred: bool  # an Offline figure inferred from a SingleStream log
    problem: str | None = None


def parse_summary(text: str, scenario: str) -> Summary:
    """Read the figure of a ``scenario`` (Offline or Server) folder's summary."""
    kv: dict[str, str] = {}
    for line in text.splitlines():
        m = _LINE.match(line)
        if m:
            kv[m[1].strip()] = m[2].strip()
    logged = kv.get("Scenario")
    valid = kv.get("Result is") == "VALID"
    inferred = scenario == "Offline" and logged == "SingleStream"
    if logged != scenario and not inferred:
        return Summary(logged, valid, None, False, f"the log is of scenario {logged!r}")
    key = INFERRED_FIELD if inferred else RESULT_FIELD[scenario]
    if key not in kv:
        return Summary(logged, valid, None, inferred, f"no {key!r} line")
    try:
        value = float(kv[key])
    except ValueError:
        return Summary(logged, valid, None, inferred, f"{key!r} is not a number")
    bad = figure_problem(value)
    if bad:
        return Summary(logged, valid, None, inferred, f"{key!r} {bad}")
    return Summary(logged, valid, value, inferred)


@dataclass(frozen=True)
class Result:
    """One result (or one that cannot be read) and where it came from."""

    round: str
    submitter: str
    system_id: str
    benchmark: str  # resnet50, bert-99, bert-99.9
    scenario: str  # Offline, Server
    path: str  # closed/ORG/results/SYSTEM/BENCHMARK/SCENARIO
    model: str | None = None
    dataset: str | None = None
    variant: str | None = None
    division: str | None = None
    system_type: str | None = None  # datacenter, edge, "datacenter, edge"
    availability: str | None = None
    category: str | None = None
    system_name: str | None = None
    accelerator_model: str | None = None
    accelerator: str | None = None
    accelerator_vendor: str | None = None
    accelerator_generation: str | None = None
    accelerator_type: str | None = None  # the chip model (naming: mlperf_names)
    accelerator_form_factor: str | None = None
    accelerator_memory_gb: int | None = None
    accelerators: int | None = None  # None: unknown, MIG slices, or no chip
    nodes: int | None = None
    host_cpu: str | None = None
    framework: str | None = None  # its family (naming: mlperf_names)
    framework_version: str | None = None
    framework_as_printed: str | None = None
    value: float | None = None  # samples/s
    valid: bool = False
    inferred: bool = False
    status: str = "valid"  # valid | invalid | unreadable
    note: str = ""
    problems: tuple[str, ...] = field(default=())

    @property
    def key(self) -> tuple[str, str, str, str, str]:
        return (
            self.round,
            self.submitter,
            self.system_id,
            self.benchmark,
            self.scenario,
        )


def round_of(folder: Path) -> str | None:
    """The round named by ``inference_results_vX.Y`` at or above ``folder``
    (or a ``vX.Y`` folder inside one named ``inference``), else None."""
    return mlperf.round_of(folder, "inference")


def is_inference_tree(folder: Path) -> bool:
    """Whether ``folder`` looks like an inference results tree (or one of its
    ``closed`` or ORG folders) rather than a training one."""
    if round_of(folder.resolve()) is not None:
        return True
    return (
        folder.name == "closed"
        or (folder / "closed").is_dir()
        or (folder.parent.name == "closed")
    )


def _orgs(folder: Path) -> tuple[Path, list[Path]]:
    """(the round's root, which paths are relative to; the ORG folders)."""
    if not folder.is_dir():
        raise TreeError(f"{folder}: not a folder")
    if mlperf.is_org(folder):
        return folder.parent.parent, [folder]
    closed = folder if folder.name == "closed" else folder / "closed"
    orgs = (
        sorted(p for p in closed.iterdir() if p.is_dir() and mlperf.is_org(p))
        if closed.is_dir()
        else []
    )
    if not orgs:
        raise TreeError(
            f"{folder}: not an MLPerf Inference results tree (no "
            "closed/SUBMITTER/results and closed/SUBMITTER/systems folders in "
            "it, and it is not one of them)"
        )
    return closed.parent, orgs


def scan(
    folder: Path,
    round_: str,
    names: Names,
    *,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> list[Result]:
    """Every Offline and Server result of resnet50, bert-99 and bert-99.9 under
    ``folder``; other benchmarks and scenarios are left out."""
    root, orgs = _orgs(folder)
    jobs: list[tuple[Path, Path, str, str]] = []
    for org in orgs:
        for sysdir in sorted(p for p in (org / "results").iterdir() if p.is_dir()):
            for bdir in sorted(p for p in sysdir.iterdir() if p.is_dir()):
                if bdir.name not in BENCHMARKS:
                    continue
                for sdir in sorted(p for p in bdir.iterdir() if p.is_dir()):
                    scenario = SCENARIOS.get(sdir.name.lower())
                    if scenario:
                        jobs.append((org, sdir, bdir.name, scenario))
    systems: dict[Path, dict[str, Any] | str] = {}
    out = []
    for i, (org, sdir, bench, scenario) in enumerate(jobs):
        if cancelled is not None and cancelled():
            raise Cancelled
        sys_file = org / "systems" / f"{sdir.parent.parent.name}.json"
        if sys_file not in systems:
            systems[sys_file] = _read_system(sys_file, root)
        out.append(
            _result(root, org, sdir, bench, scenario, round_, systems[sys_file], names)
        )
        if progress is not None:
            progress(i + 1, len(jobs))
    return out


def _read_system(path: Path, root: Path) -> dict[str, Any] | str:
    rel = path.relative_to(root)
    try:
        desc = json.loads(read_regular(path, SUMMARY_LIMIT).decode("utf-8"))
    except FileNotFoundError:
        return f"{rel}: system description is missing"
    except (NotRegular, OSError, UnicodeDecodeError) as exc:
        return f"{rel}: cannot read ({exc})"
    except ValueError as exc:
        return f"{rel}: not valid JSON ({exc})"
    if not isinstance(desc, dict):
        return f"{rel}: not a system description (expected a JSON object)"
    for key in ("division", "status", "system_name", "system_type"):
        if not isinstance(desc.get(key), str):
            return f"{rel}: field {key!r} is missing"
    if _cpu_only(desc) and not str(desc.get("accelerators_per_node", "")).strip():
        desc = {**desc, "accelerators_per_node": 0}  # blank with no accelerator
    for key, zero in (("number_of_nodes", False), ("accelerators_per_node", True)):
        bad = count_problem(_count(desc.get(key)), zero=zero)
        if bad:
            return f"{rel}: {key} {bad.replace('None', repr(desc.get(key)))}"
    return desc


def _count(value: object) -> int | None:
    """A count as a system file writes it ("8", 8, 8.0); None if it is not a
    whole number (result_rules.count_problem then names it)."""
    try:
        f = float(str(value).strip())
    except (ValueError, OverflowError):
        return None
    return int(f) if f.is_integer() else None


def _cpu_only(desc: dict[str, Any]) -> bool:
    """A system file naming no accelerator ("", "N/A", "-")."""
    model = str(desc.get("accelerator_model_name") or "").strip()
    return model.upper() in ("", "N/A", "NA", "-", "NONE")


def system_type(text: str) -> str:
    """ "datacenter", "edge" or "datacenter, edge" from the file's spelling."""
    kinds = sorted({k.strip().lower() for k in text.split(",") if k.strip()})
    return ", ".join(kinds)


def _system_fields(desc: dict[str, Any], names: Names) -> dict[str, Any]:
    nodes = _count(desc.get("number_of_nodes"))
    per_node = _count(desc.get("accelerators_per_node"))
    model = str(desc.get("accelerator_model_name") or "").strip()
    notes = []
    mig = _MIG.search(model)
    chip = model[: mig.start()] if mig else model
    acc = names.accelerator(chip, desc["system_name"])
    if per_node == 0 or _cpu_only(desc):
        count = None  # 0 chips: per chip means nothing
    else:
        count = per_node * nodes if per_node is not None and nodes else None
    if mig:
        notes.append(
            f"MIG slices ({mig[1]}): parts of a GPU, not whole chips; no per-chip "
            "figure"
        )
        count = None
    status = desc["status"].strip()
    stype = system_type(desc["system_type"])
    printed = str(desc.get("framework") or "").strip() or None
    family = mlperf_names.framework_family(printed, names.catalogue)
    if stype == "edge":
        notes.append("edge system (edge only)")
    division = desc["division"].strip().lower()
    return {
        "division": "closed" if division == "close" else division,
        "system_type": stype,
        "availability": status,
        "category": mlperf_names.category(status) or status,
        "system_name": desc["system_name"].strip(),
        "accelerator_model": model or None,
        "accelerator": acc.name,
        "accelerator_vendor": acc.vendor or None,
        "accelerator_generation": acc.generation,
        "accelerator_type": acc.chip,
        "accelerator_form_factor": acc.form_factor,
        "accelerator_memory_gb": acc.memory_gb,
        "accelerators": count,
        "nodes": nodes,
        "host_cpu": str(desc.get("host_processor_model_name") or "").strip() or None,
        "framework": family,
        "framework_version": mlperf_names.framework_version(printed)
        if family
        else None,
        "framework_as_printed": printed,
        "note": "; ".join(notes),
    }


def _result(
    root: Path,
    org: Path,
    sdir: Path,
    bench: str,
    scenario: str,
    round_: str,
    desc: dict[str, Any] | str,
    names: Names,
) -> Result:
    benchmark, model, dataset, variant = BENCHMARKS[bench]
    rel = sdir.relative_to(root).as_posix()
    base: dict[str, Any] = {
        "round": round_,
        "submitter": org.name,
        "system_id": sdir.parent.parent.name,
        "benchmark": benchmark,
        "scenario": scenario,
        "path": rel,
        "model": model,
        "dataset": dataset,
        "variant": variant,
    }
    if isinstance(desc, str):
        return Result(**base, status="unreadable", note=desc, problems=(desc,))
    base.update(_system_fields(desc, names))
    first_note = base.pop("note")
    notes = [first_note] if first_note else []
    if bench != benchmark:
        notes.append(f"folder {bench!r} holds {benchmark}")
    summary_path = sdir / SUMMARY
    try:
        text = read_regular(summary_path, SUMMARY_LIMIT).decode("latin-1")
    except (NotRegular, OSError) as exc:
        why = "missing" if isinstance(exc, FileNotFoundError) else f"unreadable ({exc})"
        problem = f"{rel}/{SUMMARY.as_posix()}: {why}"
        return Result(**base, status="unreadable", note=problem, problems=(problem,))
    s = parse_summary(text, scenario)
    if s.problem:
        problem = f"{rel}/{SUMMARY.as_posix()}: {s.problem}"
        return Result(**base, status="unreadable", note=problem, problems=(problem,))
    if s.inferred:
        notes.append(
            "Offline figure inferred from a SingleStream log (QPS without "
            "loadgen overhead), as MLCommons' submission checker does"
        )
    problems: tuple[str, ...] = ()
    if not s.valid:
        problems = (f"{rel}: the log says the result is not VALID",)
        notes.append("the log says the result is INVALID")
    return Result(
        **base,
        value=s.value if s.valid else None,
        valid=s.valid,
        inferred=s.inferred,
        status="valid" if s.valid else "invalid",
        note="; ".join(notes),
        problems=problems,
    )
