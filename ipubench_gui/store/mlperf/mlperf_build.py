"""Build ``data/mlperf_training.csv`` and ``data/mlperf_inference.csv``
(derived figures only) from clones of the MLCommons results repositories.

    python -m ipubench_gui.store.mlperf.mlperf_build [../shared/mlperf/training]
        [--out FILE] [--inference ../shared/mlperf/inference]
        [--inference-out FILE]

Each round folder ``vX.Y`` (or ``training_results_vX.Y``,
``inference_results_vX.Y``) is read with ``store.mlperf.mlperf`` or
``store.mlperf.mlperf_inference``; its ``SNAPSHOT.txt`` (or ``.git/HEAD``) gives the
commit. Same input, same bytes out: rows sorted by round and path, times
rounded to microminutes, throughputs kept as the logs print them.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import io
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ipubench_gui.domain.files import read_regular
from ipubench_gui.store.mlperf import mlperf_inference as inference
from ipubench_gui.store.mlperf.mlperf import Names, Result, round_of, scan

DATA = Path(__file__).resolve().parents[3] / "data"

COLUMNS = (
    "result_id",
    "mlperf_round",
    "submitter",
    "system_id",
    "mlperf_benchmark",
    "model",
    "dataset",
    "division",
    "availability",
    "category",
    "system_name",
    "accelerator_model",
    "accelerator",
    "accelerator_vendor",
    "accelerator_generation",
    "accelerator_type",
    "accelerator_form_factor",
    "accelerator_memory_gb",
    "accelerators",
    "nodes",
    "host_cpu",
    "host_cpus",
    "framework",
    "framework_version",
    "framework_as_printed",
    "value",
    "unit",
    "status",
    "runs_found",
    "runs_required",
    "runs_used",
    "runs_dropped",
    "scaling_factor",
    "note",
    "repository",
    "commit",
    "path",
    "retrieved",
    "vendor_result_id",
)


def result_id(round_: str, path: str) -> str:
    """Stable id of a result: its round and repository path, hashed."""
    digest = hashlib.sha1(f"{round_}/{path}".encode()).hexdigest()[:8]
    return f"mlperf{round_.replace('.', '')}-{digest}"


def commit_of(folder: Path) -> str:
    """The commit a copy was taken at: SNAPSHOT.txt's, else the clone's HEAD."""
    m = re.search(r"^commit ([0-9a-f]{40})", _small_text(folder / "SNAPSHOT.txt"), re.M)
    if m:
        return m[1]
    git = folder / ".git"
    ref = _small_text(git / "HEAD").strip()
    if ref.startswith("ref: ") and ".." not in ref:
        ref = _small_text(git / ref[5:]).strip()
    # only a commit id: a file of other bytes says nothing about the copy
    return ref if re.fullmatch(r"[0-9a-f]{40}", ref) else ""


def _small_text(path: Path) -> str:
    """A small text file's text ("" when it is not a regular file of at most
    64 KiB); bytes that are not UTF-8 read as U+FFFD."""
    try:
        return read_regular(path, 1 << 16).decode("utf-8", "replace")
    except OSError:
        return ""


def retrieved_of(folder: Path, said: str = r"Retrieved (\d{4}-\d\d-\d\d)") -> str:
    """The retrieval date a README above the copy states (``said``: "Retrieved
    YYYY-MM-DD", or the inference section's "(added YYYY-MM-DD)")."""
    for p in (folder, *folder.parents):
        readme = p / "README.md"
        if readme.is_file():
            m = re.search(said, readme.read_text("utf-8"))
            if m:
                return m[1]
    return ""


def row(res: Result, repository: str, commit: str, retrieved: str) -> dict[str, Any]:
    """One CSV row of a result (empty cells for unknowns)."""
    note = "; ".join(p for p in (res.note, *res.problems) if p)
    return {
        "result_id": result_id(res.round, res.path),
        "mlperf_round": res.round,
        "submitter": res.submitter,
        "system_id": res.system_id,
        "mlperf_benchmark": res.benchmark,
        "model": res.model,
        "dataset": res.dataset,
        "division": res.division,
        "availability": res.availability,
        "category": res.category,
        "system_name": res.system_name,
        "accelerator_model": res.accelerator_model,
        "accelerator": res.accelerator,
        "accelerator_vendor": res.accelerator_vendor,
        "accelerator_generation": res.accelerator_generation,
        "accelerator_type": res.accelerator_type,
        "accelerator_form_factor": res.accelerator_form_factor,
        "accelerator_memory_gb": res.accelerator_memory_gb,
        "accelerators": res.accelerators,
        "nodes": res.nodes,
        "host_cpu": res.host_cpu,
        "host_cpus": res.host_cpus,
        "framework": res.framework,
        "framework_version": res.framework_version,
        "framework_as_printed": res.framework_as_printed,
        "value": None if res.minutes is None else f"{res.minutes:.6f}",
        "unit": "min",
        "status": res.status,
        "runs_found": res.runs_found,
        "runs_required": res.runs_required,
        "runs_used": res.runs_used,
        "runs_dropped": res.runs_dropped,
        "scaling_factor": f"{res.scaling_factor:g}",
        "note": note or None,
        "repository": repository,
        "commit": commit,
        "path": res.path,
        "retrieved": retrieved,
        "vendor_result_id": None,
    }


_ADDED = re.compile(
    r"## Training rounds (\d+\.\d+) \S (\d+\.\d+) \(added (\d{4}-\d\d-\d\d)\)"
)


def added_of(folder: Path, round_: str) -> str:
    """The date a README above the copy says a range of rounds holding
    ``round_`` was added ("## Training rounds 3.0 – 4.0 (added YYYY-MM-DD)")."""
    key = tuple(int(x) for x in round_.split("."))
    for p in (folder, *folder.parents):
        readme = p / "README.md"
        if readme.is_file():
            for m in _ADDED.finditer(readme.read_text("utf-8")):
                lo, hi = (tuple(int(x) for x in m[i].split(".")) for i in (1, 2))
                if lo <= key <= hi:
                    return m[3]
    return ""


def round_folders(
    root: Path, round_of: Callable[[Path], str | None] = round_of
) -> list[tuple[str, Path]]:
    """(round, folder) of every round folder directly under ``root``."""
    out = []
    for p in sorted(root.iterdir()):
        rnd = round_of(p) if p.is_dir() else None
        if rnd:
            out.append((rnd, p))
    return out


def build_rows(root: Path, data_dir: Path = DATA) -> list[dict[str, Any]]:
    """Every result of every round under ``root``, as CSV rows, each vendor
    figure that cites an MLPerf result matched to its row."""
    names = Names.load(data_dir / "entities")
    rows: list[dict[str, Any]] = []
    for rnd, folder in round_folders(root):
        repo = f"mlcommons/training_results_v{rnd}"
        commit = commit_of(folder)
        retrieved = added_of(folder, rnd) or retrieved_of(folder)
        rows.extend(row(r, repo, commit, retrieved) for r in scan(folder, rnd, names))
    rows.sort(key=lambda r: (r["mlperf_round"], r["path"]))
    match_vendor_rows(rows, data_dir, names)
    return rows


def _csv_rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def match_vendor_rows(rows: list[dict[str, Any]], data_dir: Path, names: Names) -> None:
    """Set ``vendor_result_id`` on the official row each vendor figure citing an
    MLPerf result is about: same round (the table's "vX.Y"), model, division,
    submitter (the system's vendor), accelerator type and count, and a framework
    the official one names. Graphcore's PaddlePaddle results, also listed under
    Baidu with other logs, match Graphcore's own folder. A cited figure that
    matches no row, or several, stops the build with its id."""
    platforms = {p["platform"]: p for p in _csv_rows(data_dir / "platforms.csv")}
    for seed in _csv_rows(data_dir / "results.csv"):
        if not seed["mlperf_id"] or seed["metric"] != "time_to_train":
            continue
        m = re.search(r"v(\d+\.\d+)", seed["table"])
        plat = platforms[seed["platform"]]
        model = names.catalogue.canonical("model", seed["model"])
        hits = [
            r
            for r in rows
            if m
            and r["mlperf_round"] == m[1]
            and r["model"] == model
            and (r["division"] or "") == seed["division"].lower()
            and r["submitter"] == plat["vendor"]
            and r["accelerator_generation"] == plat["generation"]
            and str(r["accelerators"]) == plat["accelerators"]
            and seed["framework"].lower() in (r["framework_as_printed"] or "").lower()
        ]
        if len(hits) != 1:
            raise ValueError(
                f"results.csv {seed['result_id']} ({seed['mlperf_id']}): "
                f"{len(hits)} official results match, need exactly one"
            )
        hits[0]["vendor_result_id"] = seed["result_id"]


def to_csv(rows: list[dict[str, Any]], columns: tuple[str, ...] = COLUMNS) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, columns, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: "" if v is None else v for k, v in r.items()})
    return buf.getvalue()


INFERENCE_COLUMNS = (
    "result_id",
    "mlperf_round",
    "submitter",
    "system_id",
    "mlperf_benchmark",
    "scenario",
    "model",
    "variant",
    "dataset",
    "division",
    "system_type",
    "availability",
    "category",
    "system_name",
    "accelerator_model",
    "accelerator",
    "accelerator_vendor",
    "accelerator_generation",
    "accelerator_type",
    "accelerator_form_factor",
    "accelerator_memory_gb",
    "accelerators",
    "nodes",
    "host_cpu",
    "framework",
    "framework_version",
    "framework_as_printed",
    "value",
    "unit",
    "status",
    "inferred",
    "note",
    "repository",
    "commit",
    "path",
    "retrieved",
)
INFERENCE_ADDED = r"## Inference[^\n]*added (\d{4}-\d\d-\d\d)"


def inference_row(
    res: inference.Result, repository: str, commit: str, retrieved: str
) -> dict[str, Any]:
    """One CSV row of an inference result (empty cells for unknowns)."""
    return {
        "result_id": result_id(f"i{res.round}", res.path),
        "mlperf_round": res.round,
        "submitter": res.submitter,
        "system_id": res.system_id,
        "mlperf_benchmark": res.benchmark,
        "scenario": res.scenario,
        "model": res.model,
        "variant": res.variant,
        "dataset": res.dataset,
        "division": res.division,
        "system_type": res.system_type,
        "availability": res.availability,
        "category": res.category,
        "system_name": res.system_name,
        "accelerator_model": res.accelerator_model,
        "accelerator": res.accelerator,
        "accelerator_vendor": res.accelerator_vendor,
        "accelerator_generation": res.accelerator_generation,
        "accelerator_type": res.accelerator_type,
        "accelerator_form_factor": res.accelerator_form_factor,
        "accelerator_memory_gb": res.accelerator_memory_gb,
        "accelerators": res.accelerators,
        "nodes": res.nodes,
        "host_cpu": res.host_cpu,
        "framework": res.framework,
        "framework_version": res.framework_version,
        "framework_as_printed": res.framework_as_printed,
        "value": None if res.value is None else repr(res.value),
        "unit": "samples/s",
        "status": res.status,
        "inferred": "true" if res.inferred else "false",
        "note": res.note or None,
        "repository": repository,
        "commit": commit,
        "path": res.path,
        "retrieved": retrieved,
    }


def build_inference_rows(root: Path, data_dir: Path = DATA) -> list[dict[str, Any]]:
    """Every inference result of every round under ``root``, as CSV rows."""
    names = Names.load(data_dir / "entities")
    rows: list[dict[str, Any]] = []
    for rnd, folder in round_folders(root, inference.round_of):
        repo = f"mlcommons/inference_results_v{rnd}"
        commit = commit_of(folder)
        retrieved = retrieved_of(folder, INFERENCE_ADDED) or retrieved_of(folder)
        rows.extend(
            inference_row(r, repo, commit, retrieved)
            for r in inference.scan(folder, rnd, names)
        )
    rows.sort(key=lambda r: (r["mlperf_round"], r["path"]))
    return rows


def main(argv: list[str] | None = None) -> int:
    repo_root = DATA.parent
    ap = argparse.ArgumentParser(
        prog="python -m ipubench_gui.store.mlperf.mlperf_build"
    )
    ap.add_argument(
        "source",
        nargs="?",
        type=Path,
        default=repo_root.parent / "shared" / "mlperf" / "training",
    )
    ap.add_argument(
        "--out", type=Path, default=repo_root / "data" / "mlperf_training.csv"
    )
    ap.add_argument(
        "--inference",
        type=Path,
        default=repo_root.parent / "shared" / "mlperf" / "inference",
    )
    ap.add_argument(
        "--inference-out",
        type=Path,
        default=repo_root / "data" / "mlperf_inference.csv",
    )
    args = ap.parse_args(argv)
    for folder in (args.source, args.inference):
        if not folder.is_dir():
            print(f"{folder}: no such folder", file=sys.stderr)
            return 2
    rows = build_rows(args.source)
    args.out.write_text(to_csv(rows), encoding="utf-8")
    print(f"{args.out}: {len(rows)} results")
    irows = build_inference_rows(args.inference)
    args.inference_out.write_text(to_csv(irows, INFERENCE_COLUMNS), encoding="utf-8")
    print(f"{args.inference_out}: {len(irows)} results")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
