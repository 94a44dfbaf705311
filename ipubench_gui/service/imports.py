"""Importing: a result file (preview, check, land; the user's aliases) and an
MLPerf results folder (plan, land), and the imported sources (list, rename,
remove). The window runs these on its worker; the command line calls them
in turn. Each write goes through ``db.writing()``, so what the Database keeps
in memory is made again from the rows written."""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ipubench_gui.domain import import_spec
from ipubench_gui.domain.entities import Catalogue
from ipubench_gui.store.db import Database
from ipubench_gui.store.mlperf import mlperf_import
from ipubench_gui.store.mlperf.mlperf import Names
from ipubench_gui.store.user import aliases, import_read, importer
from ipubench_gui.store.user.user_names import import_labels

# Rows a mapping and constants are guessed from, when none are given.
GUESS_ROWS = 10_000
NAMES_SHOWN = 20  # names listed per kind after an import; the rest summed up


@dataclass(frozen=True)
class Previewed:
    """A file's first rows, the encoding they were read in, and the names
    (with the user's aliases) to read them with."""

    path: Path
    preview: import_spec.Preview
    encoding: str
    names: Catalogue


def preview(db: Database, path: Path, encoding: str = "utf-8") -> Previewed:
    got = import_read.preview(db.cursor(), path, encoding=encoding)
    return Previewed(path, got, encoding, aliases.of(db))


@dataclass(frozen=True)
class Guessed:
    """A file's columns, the mapping (field -> column) to read it with, and
    the values its columns imply (a scenario implies the task)."""

    names: list[str]
    mapping: dict[str, str]
    constants: dict[str, str]


def guess(
    db: Database,
    path: Path,
    encoding: str = "utf-8",
    chosen: Mapping[str, str] | None = None,
    taken: Collection[str] = (),
    guessing: bool = True,
) -> Guessed:
    """Read the header and the first GUESS_ROWS rows of ``path`` (the import
    reads the whole file after) and guess, as the import dialog does, the
    fields ``chosen`` (field -> column) leaves open, but those ``taken``
    (given another way); with ``guessing`` off, ``chosen`` alone."""
    con = db.cursor()
    names, _ = import_read.stage(con, path, encoding=encoding, rows=GUESS_ROWS)
    if not guessing:
        return Guessed(names, dict(chosen or {}), {})
    mapping = import_read.guess(names, chosen, taken=taken)
    return Guessed(names, mapping, import_read.guess_constants(con, mapping))


def check(db: Database, spec: import_spec.ImportSpec) -> import_spec.Counts:
    """What importing ``spec`` would land and skip; stores nothing; raises
    ImportFailed listing the problems."""
    return importer.validate(db.cursor(), spec)


def import_file(db: Database, spec: import_spec.ImportSpec) -> import_spec.ImportResult:
    """Read, check and land ``spec`` in one transaction (all or nothing)."""
    with db.writing() as cur:
        return importer.import_file(cur, spec)


def names_of(db: Database, source_id: int, most: int | None = NAMES_SHOWN) -> list[str]:
    """How an import's names read: "model: ResNet50 → ResNet-50 v1.5 (alias)";
    past ``most`` per kind, the rest summed up in one line (a million
    distinct names are not a million lines)."""
    return [
        f"{k}: {label}" for k, label in import_labels(db.cursor(), source_id, most=most)
    ]


def add_aliases(db: Database, wanted: list[tuple[str, str, str]]) -> list[str]:
    """Save each (kind, alias, canonical) as the user's alias ("" kind: the
    first kind whose table knows the canonical name, else model) and name
    the imported rows again; returns what each became. Raises EntityError."""
    from ipubench_gui.domain.entities import KINDS

    said = []
    with db.writing() as con:
        for kind, alias, canonical in wanted:
            cat = aliases.user_catalogue(con)
            if not kind:
                kind = next(
                    (k for k in KINDS if cat.resolve(k, canonical).recognised), "model"
                )
            name = aliases.add_user_alias(con, kind, alias, canonical)
            said.append(f"alias: {alias} → {name} ({kind}, saved)")
        aliases.rename_user_rows(con, aliases.user_catalogue(con))
    return said


def check_aliases(db: Database, wanted: Sequence[tuple[str, str, str]]) -> None:
    """Raise EntityError for the first of ``wanted`` (kind, alias, canonical)
    that cannot mean that; writes nothing (the import saves them, with it)."""
    aliases.check_aliases(db.cursor(), wanted)


def add_alias(db: Database, kind: str, alias: str, canonical: str) -> Catalogue:
    """One alias saved (as :func:`add_aliases`); the names with it after."""
    add_aliases(db, [(kind, alias, canonical)])
    return aliases.of(db)


def sources(db: Database) -> list[Any]:
    """The imported sources, one line each."""
    return importer.list_sources(db.cursor())


def rename_source(db: Database, source_id: int, label: str) -> list[Any]:
    with db.writing() as cur:
        importer.rename_source(cur, source_id, label)
    return sources(db)


def remove_source(db: Database, source_id: int) -> list[Any]:
    with db.writing() as cur:
        importer.remove_source(cur, source_id)
    return sources(db)


# -- an MLPerf results folder --
# What ``plan_mlperf`` answers and ``land_mlperf`` takes.
MLPerfPlan = mlperf_import.Plan


def resolve_round(folder: Path, given: str | None) -> str:
    """The MLPerf round of ``folder``: ``given``, else the one a
    ``training_results_vX.Y`` (or inference) folder above it names; raises
    ``MLPerfImportError`` saying why when neither says, or the two disagree."""
    return mlperf_import.resolve_round(folder, given)


def plan_mlperf(
    db: Database,
    folder: Path,
    round_: str,
    data_dir: Path,
    progress: Callable[..., object] | None = None,
    stop: threading.Event | None = None,
) -> mlperf_import.Plan:
    """What importing ``folder`` (a round, or one submitter's folder) would
    land, skip as stored, or refuse; names read with the bundled entities."""
    names = Names.load(data_dir / "entities")
    kw: dict[str, Any] = {}
    if progress is not None:
        kw["progress"] = progress
    if stop is not None:
        kw["cancelled"] = stop.is_set
    return mlperf_import.plan(db.cursor(), folder, round_, names, **kw)


def land_mlperf(
    db: Database, plan: mlperf_import.Plan, skip_bad: bool
) -> tuple[int, int]:
    """Land a plan's new results (and, with ``skip_bad``, leave its bad ones
    out): the source id and how many landed."""
    with db.writing() as cur:
        return mlperf_import.land(cur, plan, skip_bad=skip_bad)
