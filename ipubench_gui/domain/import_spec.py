"""The values an import of a file is told and answers with: which fields it
fills (``FIELDS``), in which encodings a CSV is read (``ENCODINGS``), what to
read and how (``ImportSpec``), the preview, and the counts landed. Pure
values: the store reads and lands them, the window and the command line fill
them in."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from ipubench_gui.domain.fields import RESULT_FIELDS

FIELDS: tuple[str, ...] = (*RESULT_FIELDS, "task", "accelerators", "nodes", "division")

# The encodings a CSV may be read in, by the names users choose, each with
# Python's name for it (DuckDB's CSV reader knows these without an extension,
# which it would download).
ENCODINGS = {"utf-8": "utf-8-sig", "utf-16": "utf-16", "latin-1": "latin-1"}


class MLPerfImportError(ValueError):
    """An MLPerf results folder that cannot be imported as asked (which round
    it is, a round that contradicts its folder's); the message says why."""


@dataclass(frozen=True)
class ImportSpec:
    """What to read and how: field <- column, constants, optional unpivot."""

    path: Path
    columns: dict[str, str] = field(default_factory=dict)  # field -> file column
    constants: dict[str, str] = field(default_factory=dict)  # field -> value
    unpivot: tuple[str, ...] = ()  # value columns of a wide file
    unpivot_into: str = "model"  # the field their names become
    label: str = ""
    encoding: str = "utf-8"  # CSV only: utf-8, utf-16 or latin-1
    skip_existing: bool = False  # leave out rows already stored
    # (kind or "", alias, canonical): saved with the import, all or nothing
    aliases: tuple[tuple[str, str, str], ...] = ()


@dataclass(frozen=True)
class Preview:
    """A file's first rows as read, with the fields its columns were guessed
    to fill and the constants guessed for the rest."""

    columns: list[str]
    types: list[str]
    rows: list[tuple[Any, ...]]
    guessed: dict[str, str]
    constants: dict[str, str] = field(default_factory=dict)


class Counts(NamedTuple):
    """Rows an import lands, skips for having no figure, and leaves out as
    already stored."""

    landed: int
    skipped: int
    existing: int = 0


@dataclass(frozen=True)
class ImportResult:
    source_id: int
    landed: int
    skipped: int
    label: str
    existing: int = 0  # rows left out as already stored
    aliases: tuple[tuple[str, str, str], ...] = ()  # (alias, canonical, kind) saved
