"""Read an MLPerf Training results tree (a round, or one submitter's folder) into
scored results, one per SUBMITTER/results/SYSTEM/BENCHMARK folder.

Layout as in MLCommons' ``training_results_vX.Y`` repositories; scoring in
``store/mlperf/mlperf_log.py`` (the result summarizer's rule, cited there). Nothing
here writes anywhere: callers decide what lands.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ipubench_gui.domain import mlperf_names
from ipubench_gui.domain.entities import Catalogue
from ipubench_gui.domain.entities import load as entities_load
from ipubench_gui.domain.files import read_regular
from ipubench_gui.domain.result_rules import runs_problem
from ipubench_gui.store.db import Cancelled
from ipubench_gui.store.mlperf.mlperf_log import (
    RESULT_FILE_COUNTS,
    LogError,
    read_json,
    read_log,
    read_scaling,
    rule_notes,
    score_runs,
)

_SHORT_ROUND_DIR = re.compile(r"v(\d+\.\d+)$")


@dataclass(frozen=True)
class Names:
    """Canonical names for what the logs and system files spell their own way:
    the entity tables (``data/entities``, domain/entities.py), including which
    model each benchmark folder is in which round."""

    catalogue: Catalogue
    benchmarks: tuple[tuple[str, str, str, str, str], ...]  # folder, first, last,
    # model, dataset

    @classmethod
    def load(cls, entities: Path) -> Names:
        with open(
            entities / "mlperf_benchmarks.csv", newline="", encoding="utf-8"
        ) as f:
            rows = tuple(
                (
                    r["benchmark"],
                    r["first_round"].lstrip("v"),
                    r["last_round"].lstrip("v"),
                    r["model"],
                    r["dataset"] or "",
                )
                for r in csv.DictReader(f)
            )
        return cls(entities_load(entities), rows)

    def benchmark(self, folder: str, round_: str) -> tuple[str, str | None]:
        """(model, dataset) of a benchmark folder in a round; an unknown folder
        (a later round's benchmark) keeps its own name."""
        want = _round_key(round_)
        for name, first, last, model, dataset in self.benchmarks:
            if name == folder and _round_key(first) <= want <= _round_key(last):
                return model, dataset or None
        for name, _first, _last, model, dataset in reversed(self.benchmarks):
            if name == folder:  # outside the rounds the table covers
                return model, dataset or None
        return folder, None

    def accelerator(self, model: str, system_name: str) -> mlperf_names.Accelerator:
        """A system file's accelerator read into its canonical name, vendor,
        generation, chip model, form factor and memory (domain/mlperf_names)."""
        return mlperf_names.accelerator(model, self.catalogue, system_name)


def _round_key(r: str) -> tuple[int, ...]:
    return tuple(int(x) for x in r.split(".") if x.isdigit())


class TreeError(ValueError):
    """The folder is not an MLPerf Training results tree (message names it)."""





@dataclass(frozen=True)
class Result:
    """One scored (or unscorable) result and where it came from."""

    round: str
    submitter: str  # folder name
    system_id: str  # folder under results/
    benchmark: str  # folder name
    path: str  # SUBMITTER/results/SYSTEM/BENCHMARK, relative to the round
    model: str | None = None  # canonical, from the entity tables
    dataset: str | None = None
    division: str | None = None
    availability: str | None = None  # the system file's status, as printed
    category: str | None = None  # MLCommons' category it names
    system_name: str | None = None
    accelerator_model: str | None = None  # as the system file prints it
    accelerator: str | None = None  # canonical
    accelerator_vendor: str | None = None
    accelerator_generation: str | None = None
    accelerator_type: str | None = None  # the chip model: A100, H100, Bow IPU, ...
    accelerator_form_factor: str | None = None  # SXM, PCIe, ... where printed
    accelerator_memory_gb: int | None = None  # where printed
    accelerators: int | None = None
    nodes: int | None = None
    host_cpu: str | None = None
    host_cpus: int | None = None
    framework: str | None = None  # its family (PyTorch, ..., "several")
    framework_version: str | None = None
    framework_as_printed: str | None = None  # the system file's text
    minutes: float | None = None
    runs_found: int = 0
    runs_required: int | None = None
    runs_used: int = 0
    runs_dropped: int = 0
    scaling_factor: float = 1.0
    status: str = "scored"  # scored | no score | logs missing | unreadable
    note: str = ""
    problems: tuple[str, ...] = field(default=())  # stop an import unless accepted

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.round, self.submitter, self.system_id, self.benchmark)


def round_of(folder: Path, suite: str = "training") -> str | None:
    """The round named by ``{suite}_results_vX.Y`` at or above ``folder`` (or a
    ``vX.Y`` folder inside one named ``{suite}``: training, inference), else
    None."""
    repo = re.compile(rf"{re.escape(suite)}_results_v(\d+\.\d+)$")
    for p in (folder, *folder.parents):
        m = repo.match(p.name)
        if m:
            return m[1]
        m = _SHORT_ROUND_DIR.match(p.name)
        if m and p.parent.name == suite:
            return m[1]
    return None


def is_org(folder: Path) -> bool:
    # result_summarizer.py _is_organization_folder: results/ and systems/
    return (folder / "results").is_dir() and (folder / "systems").is_dir()


def _round_root(folder: Path) -> tuple[Path, list[Path]]:
    """(the folder paths are relative to, the submitter folders to read)."""
    if not folder.is_dir():
        raise TreeError(f"{folder}: not a folder")
    if is_org(folder):
        return folder.parent, [folder]
    orgs = sorted(p for p in folder.iterdir() if p.is_dir() and is_org(p))
    if not orgs:
        raise TreeError(
            f"{folder}: not an MLPerf Training results tree (no SUBMITTER/results "
            "and SUBMITTER/systems folders in it, and it is not one itself)"
        )
    return folder, orgs


def _missing_logs(root: Path) -> dict[str, int]:
    """Per result path, how many logs MISSING.txt lists (our trimmed copies).
    Only lines of the form SUBMITTER/results/SYSTEM/BENCHMARK/FILE count; a
    file that is not a regular one of sensible size is not read."""
    listed: dict[str, int] = {}
    path = root / "MISSING.txt"
    if not path.exists():
        return listed
    try:
        text = read_regular(path, MISSING_MAX).decode("utf-8", "replace")
    except OSError:
        return listed
    for line in text.splitlines():
        parts = line.strip().split("/")
        if len(parts) == 5 and parts[1] == "results" and all(parts):
            res = "/".join(parts[:4])
            listed[res] = listed.get(res, 0) + 1
    return listed


MISSING_MAX = 1 << 20  # MISSING.txt: a list of paths


@dataclass(frozen=True)
class _Job:
    org: Path
    system_id: str
    benchmark: str
    logs: tuple[Path, ...]


def scan(
    folder: Path,
    round_: str,
    names: Names,
    *,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> list[Result]:
    """Every result under ``folder`` (a round or one submitter), scored.

    ``progress(done, total)`` is called after each result; ``cancelled()``
    returning True stops the scan with :class:`Cancelled`.
    """
    root, orgs = _round_root(folder)
    missing = _missing_logs(root)
    jobs: list[_Job] = []
    for org in orgs:
        for sysdir in sorted(p for p in (org / "results").iterdir() if p.is_dir()):
            for bdir in sorted(p for p in sysdir.iterdir() if p.is_dir()):
                logs = tuple(sorted(bdir.glob("result_*.txt")))
                rel = f"{org.name}/results/{sysdir.name}/{bdir.name}"
                if logs or rel in missing:
                    jobs.append(_Job(org, sysdir.name, bdir.name, logs))
    # Results whose logs are all missing have no folder left in the copy.
    present = {f"{j.org.name}/results/{j.system_id}/{j.benchmark}" for j in jobs}
    for rel in sorted(set(missing) - present):
        org_name, _, system_id, bench = rel.split("/")
        if (root / org_name) in orgs:
            jobs.append(_Job(root / org_name, system_id, bench, ()))
    systems: dict[Path, dict[str, Any] | str] = {}
    out: list[Result] = []
    for i, job in enumerate(jobs):
        if cancelled is not None and cancelled():
            raise Cancelled
        sys_file = job.org / "systems" / f"{job.system_id}.json"
        if sys_file not in systems:
            systems[sys_file] = _read_system(sys_file, root)
        rel = f"{job.org.name}/results/{job.system_id}/{job.benchmark}"
        refused = _unreadable_job(job, rel, round_)
        if refused is not None:
            out.append(refused)
        else:
            out.append(
                _result(root, job, rel, round_, systems[sys_file], missing, names)
            )
        if progress is not None:
            progress(i + 1, len(jobs))
    return out


def _unreadable_job(job: _Job, rel: str, round_: str) -> Result | None:
    """A result that cannot be one, refused before its logs are read: names
    that are not text (they could be neither shown nor stored), or far more
    result files than its benchmark needs (domain.result_rules)."""
    problem = None
    if not _is_text(rel):
        problem = f"{_shown_path(rel)}: a folder name is not UTF-8 text"
    else:
        problem = runs_problem(len(job.logs), RESULT_FILE_COUNTS.get(job.benchmark))
        problem = f"{rel}: {problem}" if problem else None
    if problem is None:
        return None
    return Result(
        round=round_,
        submitter=_shown_path(job.org.name),
        system_id=_shown_path(job.system_id),
        benchmark=_shown_path(job.benchmark),
        path=_shown_path(rel),
        runs_found=len(job.logs),
        status="unreadable",
        note=problem,
        problems=(problem,),
    )


def _is_text(name: str) -> bool:
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:  # bytes a file name held that are not UTF-8
        return False
    return True


def _shown_path(name: str) -> str:
    """A file name as text, bytes that are not UTF-8 shown as U+FFFD."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _read_system(path: Path, root: Path) -> dict[str, Any] | str:
    """The system description, or the problem with it in words."""
    rel = _shown_path(str(path.relative_to(root)))
    try:
        desc = read_json(path)
    except FileNotFoundError:
        return f"{rel}: system description is missing"
    except (OSError, UnicodeDecodeError) as exc:
        return f"{rel}: cannot read ({exc})"
    except ValueError as exc:
        return f"{rel}: not valid JSON ({exc})"
    if not isinstance(desc, dict):
        return f"{rel}: not a system description (expected a JSON object)"
    for key in ("division", "status", "system_name", "accelerator_model_name"):
        if not isinstance(desc.get(key), str):
            return f"{rel}: field {key!r} is missing"
    return desc


def _int(value: object) -> int | None:
    """A count as a system file writes it: 8, "8", 1.0 or "1.0" (not 1.5)."""
    try:
        f = float(str(value).strip())
    except ValueError:
        return None
    return int(f) if f.is_integer() else None


def _framework(desc: dict[str, Any]) -> str:
    # result_summarizer.py _pretty_framework: TensorFlow's commit hash cut
    fw = str(desc.get("framework") or "")
    return re.sub(r" commit hash = .*", "", fw) if "TensorFlow" in fw else fw


def _system_fields(desc: dict[str, Any], names: Names) -> dict[str, Any]:
    nodes = _int(desc.get("number_of_nodes"))
    per_node = _int(desc.get("accelerators_per_node"))
    cpus = _int(desc.get("host_processors_per_node"))
    division = desc["division"].strip().lower()
    status = desc["status"].strip()
    model = desc["accelerator_model_name"].strip()
    acc = names.accelerator(model, desc["system_name"])
    printed = _framework(desc).strip() or None
    family = mlperf_names.framework_family(printed, names.catalogue)
    return {
        "division": "closed" if division == "close" else division,
        "availability": status,
        "category": mlperf_names.category(status) or status,
        "system_name": desc["system_name"].strip(),
        "accelerator_model": model,
        "accelerator": acc.name,
        "accelerator_vendor": acc.vendor or None,
        "accelerator_generation": acc.generation,
        "accelerator_type": acc.chip,
        "accelerator_form_factor": acc.form_factor,
        "accelerator_memory_gb": acc.memory_gb,
        # result_summarizer.py: accelerators_count = per node x nodes
        "accelerators": per_node * nodes if per_node is not None and nodes else None,
        "nodes": nodes,
        "host_cpu": str(desc.get("host_processor_model_name") or "").strip() or None,
        "host_cpus": cpus * nodes if cpus is not None and nodes else None,
        "framework": family,
        "framework_version": mlperf_names.framework_version(printed)
        if family
        else None,
        "framework_as_printed": printed,
    }


def _result(
    root: Path,
    job: _Job,
    rel: str,
    round_: str,
    desc: dict[str, Any] | str,
    missing: dict[str, int],
    names: Names,
) -> Result:
    model, dataset = names.benchmark(job.benchmark, round_)
    base: dict[str, Any] = {
        "round": round_,
        "submitter": job.org.name,
        "system_id": job.system_id,
        "benchmark": job.benchmark,
        "path": rel,
        "model": model,
        "dataset": dataset,
    }
    if isinstance(desc, str):
        return Result(**base, status="unreadable", note=desc, problems=(desc,))
    base.update(_system_fields(desc, names))
    if desc["division"].strip().lower() == "close":
        base["note"] = "system file spells the division 'close'"
    gone = missing.get(rel, 0)
    if gone:
        return Result(
            **{k: v for k, v in base.items() if k != "note"},
            runs_found=len(job.logs),
            status="logs missing",
            note=f"{gone} log(s) missing from this copy of the repository: not scored",
        )
    problems: list[str] = []
    runs = []
    for log in job.logs:
        try:
            run = read_log(log, job.benchmark)
        except LogError as exc:
            problems.append(str(exc))
            continue
        runs.append(run)
        if run.problem and not run.not_converged:
            problems.append(f"{log.relative_to(root)}: {run.problem}")
    try:
        factor = read_scaling(root / rel / "scaling.json")
    except LogError as exc:
        problems.append(str(exc))
        factor = 1.0
    score = score_runs(job.benchmark, runs, factor)
    first_note = base.pop("note", "")
    notes = [first_note] if first_note else []
    if score.runs_required and score.runs_found < score.runs_required:
        problems.append(
            f"{rel}: {score.runs_found} runs, the round requires {score.runs_required}"
        )
    if score.reason:
        problems.append(f"{rel}: no score: {score.reason}")
    aborted = [r for r in runs if r.not_converged]
    if aborted:
        notes.append(f"{len(aborted)} run(s) not counted: {aborted[0].problem}")
    notes.extend(
        rule_notes(
            job.benchmark,
            [log.name for log in job.logs],
            score,
            base.get("system_name"),
            base.get("accelerators"),
        )
    )
    return Result(
        **base,
        minutes=score.minutes,
        runs_found=score.runs_found,
        runs_required=score.runs_required,
        runs_used=score.runs_used,
        runs_dropped=score.runs_dropped,
        scaling_factor=score.scaling_factor,
        status="scored" if score.minutes is not None else "no score",
        note="; ".join(notes),
        problems=tuple(problems),
    )
