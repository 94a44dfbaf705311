"""Import an MLPerf results folder into the user's results: a Training round, or
one submitter's folder, of any round's ``training_results_vX.Y`` clone (read
and scored by store/mlperf/mlperf.py), or an Inference one (``closed/ORG/...`` of an
``inference_results_vX.Y`` clone, read by store/mlperf/mlperf_inference.py): the same
code that built the bundled rows, then landed all or nothing."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path

import duckdb

from ipubench_gui.domain.import_spec import MLPerfImportError
from ipubench_gui.domain.result_rules import (
    RoundError,
    count_problem,
    figure_problem,
    normalise_round,
    runs_warning,
    scaling_problem,
)
from ipubench_gui.store.db import one_row
from ipubench_gui.store.mlperf import mlperf_inference as inference
from ipubench_gui.store.mlperf.mlperf import Names, Result, round_of, scan
from ipubench_gui.store.mlperf.mlperf_build import (
    COLUMNS,
    INFERENCE_COLUMNS,
    commit_of,
    inference_row,
    row,
)
from ipubench_gui.store.user import aliases, user_cube

TRAINING, INFERENCE = "training", "inference"
KIND_LABEL = {TRAINING: "MLPerf Training", INFERENCE: "MLPerf Inference"}


AnyResult = Result | inference.Result


def kind_of(folder: Path) -> str:
    """Whether ``folder`` holds Training or Inference results (an inference
    tree has a ``closed`` division folder, or an ``inference_results_vX.Y``
    folder holds it)."""
    return INFERENCE if inference.is_inference_tree(folder) else TRAINING


@dataclass(frozen=True)
class Plan:
    """What an import of one folder would do."""

    folder: Path
    round: str
    repository: str
    commit: str
    new: tuple[AnyResult, ...]  # read cleanly, not stored yet
    bad: tuple[AnyResult, ...]  # with problems (named in each result's problems)
    stored: tuple[AnyResult, ...] = field(default=())  # already in the store
    kind: str = TRAINING

    @property
    def problems(self) -> list[str]:
        return [p for r in self.bad for p in r.problems]

    def summary(self) -> str:
        parts = [f"{len(self.new)} new result(s)"]
        if self.stored:
            parts.append(f"{len(self.stored)} already stored (not imported again)")
        if self.bad:
            parts.append(f"{len(self.bad)} with problems")
        label = KIND_LABEL[self.kind]
        return f"{label} v{self.round}, {self.folder.name}: " + ", ".join(parts)


def resolve_round(folder: Path, given: str | None) -> str:
    """The round asked for, else the one a ``training_results_vX.Y`` folder
    above names; raises :class:`MLPerfImportError` when neither says, or
    when the two disagree (a round's results stored as another's would be
    shown, compared and counted as that round's)."""
    try:
        found = round_of(folder.resolve()) or inference.round_of(folder.resolve())
        if given:
            asked = normalise_round(given)
            if found is not None and normalise_round(found) != asked:
                raise MLPerfImportError(
                    f"{folder}: its folders name round {normalise_round(found)}, "
                    f"but --round says {asked}; leave --round out, or give "
                    f"{normalise_round(found)}"
                )
            return asked
        if found is None:
            raise MLPerfImportError(
                f"{folder}: which MLPerf round is it? No folder named "
                "training_results_vX.Y or inference_results_vX.Y holds it; give "
                "the round (--round X.Y)"
            )
        return normalise_round(found)  # "training_results_v02.0" is 2.0 too
    except RoundError as exc:
        raise MLPerfImportError(str(exc)) from None


def plan(
    con: duckdb.DuckDBPyConnection,
    folder: Path,
    round_: str,
    names: Names,
    *,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> Plan:
    """Read and score every result under ``folder`` (raises TreeError for a
    folder that is not a results tree, Cancelled when asked to stop), and sort
    them into new, with problems, and already stored."""
    round_ = normalise_round(round_)  # one round, one spelling, before any key
    kind = kind_of(folder)
    results: list[AnyResult]
    if kind == INFERENCE:  # its reader checks its figures by the same rules
        results = list(
            inference.scan(
                folder, round_, names, progress=progress, cancelled=cancelled
            )
        )
        keys = "mlperf_round, submitter, system_id, mlperf_benchmark, scenario"
    else:
        results = [
            checked(r)
            for r in scan(folder, round_, names, progress=progress, cancelled=cancelled)
        ]
        keys = "mlperf_round, submitter, system_id, mlperf_benchmark"
    stored_keys = set(
        con.execute(
            f"SELECT {keys} FROM results_v WHERE mlperf_round = $r AND task = $t",
            {"r": round_, "t": kind},
        ).fetchall()
    )
    new, bad, stored = [], [], []
    for r in results:
        if r.key in stored_keys:
            stored.append(r)
        elif r.problems:
            bad.append(r)
        else:
            new.append(r)
    root = folder.resolve()
    repo = f"{kind}_results_v"
    repo_dir = next((p for p in (root, *root.parents) if p.name.startswith(repo)), root)
    return Plan(
        folder,
        round_,
        f"mlcommons/{repo}{round_}",
        commit_of(repo_dir),
        tuple(new),
        tuple(bad),
        tuple(stored),
        kind,
    )


def checked(r: Result) -> Result:
    """``r`` with a problem for every value the import rules refuse
    (domain.result_rules, as a CSV import's cells): such a result is not
    imported (nor, with --skip-bad, stored as a score); far more runs than
    the rules ask for is a note. The same rules for every MLPerf reader."""
    problems: list[str] = []

    def check(what: str, problem: str | None) -> None:
        if problem:
            problems.append(f"{r.path}: {what} {problem}")

    if r.minutes is not None:
        check("time to train", figure_problem(r.minutes))
    cpu_only = r.accelerator_type == "CPU only"
    if r.accelerators is not None:
        check("accelerators", count_problem(r.accelerators, zero=cpu_only))
    for what, n in (("nodes", r.nodes), ("host CPUs", r.host_cpus)):
        if n is not None:
            check(what, count_problem(n))
    check("scaling factor", scaling_problem(r.scaling_factor))
    note = runs_warning(r.runs_found, r.runs_required)
    if not problems and not note:
        return r
    return replace(
        r,
        minutes=None if problems else r.minutes,
        status="no score" if problems and r.status == "scored" else r.status,
        note="; ".join(x for x in (r.note, note) if x),
        problems=r.problems + tuple(problems),
    )


def land(
    con: duckdb.DuckDBPyConnection, p: Plan, *, skip_bad: bool = False
) -> tuple[int, int]:
    """Write the plan's new results in one transaction; returns (source id, rows).

    With problems in the folder nothing lands unless ``skip_bad`` (then only the
    results without problems do)."""
    if p.bad and not skip_bad:
        shown = "; ".join(p.problems[:3])
        more = f" (and {len(p.problems) - 3} more)" if len(p.problems) > 3 else ""
        raise MLPerfImportError(
            f"{len(p.bad)} result(s) in {p.folder} have problems: {shown}{more}. "
            "Nothing was imported; import the others with --skip-bad"
        )
    if not p.new:
        raise MLPerfImportError(f"{p.summary()}: nothing to import")
    _add_missing_columns(con)
    label = f"{KIND_LABEL[p.kind]} v{p.round}: {p.folder.name}"
    today = date.today().isoformat()  # the date the results were read
    columns: tuple[str, ...]
    if p.kind == INFERENCE:
        table, columns = "u.user_mlperf_inference", INFERENCE_COLUMNS
        view, printed = "user_inference_v", aliases.USER_INFERENCE
        rows = [
            inference_row(r, p.repository, p.commit, today)
            for r in p.new
            if isinstance(r, inference.Result)
        ]
    else:
        table, columns = "u.user_mlperf", COLUMNS
        view, printed = "user_mlperf_v", aliases.USER_MLPERF
        rows = [
            row(r, p.repository, p.commit, today)
            for r in p.new
            if isinstance(r, Result)
        ]
    con.execute("BEGIN TRANSACTION")
    try:
        sid = one_row(con.execute("SELECT nextval('u.import_ids')"))[0]
        con.execute(
            "INSERT INTO u.imports VALUES ($id, $f, $l, current_timestamp, $n, 0)",
            {"id": sid, "f": p.repository, "l": label, "n": len(rows)},
        )
        # table and column names are ours (the build's columns), never a user's
        cols = ", ".join(f'"{c}"' for c in (*columns, "source_id"))
        marks = ", ".join("?" for _ in (*columns, "source_id"))
        con.executemany(
            f"INSERT INTO {table} ({cols}) VALUES ({marks})",
            [[r[c] for c in columns] + [sid] for r in rows],
        )
        # their names resolved as every imported row's are (canonical names)
        aliases.refresh_user_names(con, aliases.user_catalogue(con), printed)
        user_cube.count_user_cube(con, view, sid)
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    aliases.define_combined_views(con)  # results_v takes them in; their counts
    return sid, len(rows)


def _add_missing_columns(con: duckdb.DuckDBPyConnection) -> None:
    """A user database made by an older version lacks the MLPerf facets and
    the name columns of MLPerf results."""
    for table, like in (
        ("user_cube", "facet_cube"),
        ("user_mlperf", "mlperf_training"),
    ):
        have = {
            r[0]
            for r in con.execute(
                "SELECT column_name FROM information_schema.columns "
                "WHERE table_catalog = 'u' AND table_name = $t",
                {"t": table},
            ).fetchall()
        }
        for name, typ in con.execute(
            "SELECT column_name, data_type FROM information_schema.columns "
            "WHERE table_catalog = 'b' AND table_name = $t ORDER BY ordinal_position",
            {"t": like},
        ).fetchall():
            if name not in have:
                # names and types come from our own bundled schema, not from users
                con.execute(f'ALTER TABLE u.{table} ADD COLUMN "{name}" {typ}')
