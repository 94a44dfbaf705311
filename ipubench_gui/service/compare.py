"""Comparing results: a Comparison's rows as stored or per accelerator chip,
said as a table, Markdown or CSV honouring its focus and "only differences";
and a result's counterparts. The window and the command line both call these,
so neither can drop a part of the Comparison."""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ipubench_gui.domain import compare
from ipubench_gui.domain.chartrows import config_label
from ipubench_gui.domain.compare import Comparison, Counterpart
from ipubench_gui.domain.format import to_tsv
from ipubench_gui.domain.per_chip import NOTE as CHIP_NOTE
from ipubench_gui.domain.per_chip import per_chip_or_as_is
from ipubench_gui.service import browse
from ipubench_gui.store.db import Database

Row = Mapping[str, Any]
FORMATS = ("csv", "markdown", "tsv")


@dataclass(frozen=True)
class Compared:
    """The rows of a comparison in column order, as shown: per accelerator
    chip where ``per_chip`` (a row with no such figure stays as stored)."""

    rows: tuple[Row, ...]
    comparison: Comparison
    per_chip: bool = False

    @property
    def baseline(self) -> int:
        return self.comparison.baseline_index

    @property
    def note(self) -> str:
        """What the figures are, when derived (empty otherwise)."""
        return CHIP_NOTE if self.per_chip and self.rows else ""

    def table(self) -> tuple[list[str], list[list[str]]]:
        """Header and body (CSV, TSV), only differences and focus honoured."""
        c = self.comparison
        return compare.to_rows(self.rows, self.baseline, c.only_differences, c.focus)

    def text(self, fmt: str) -> str:
        """The comparison as ``fmt`` (one of FORMATS): what the window copies
        or saves and the command line prints, alike."""
        c = self.comparison
        if fmt == "markdown":
            return compare.to_markdown(
                self.rows, self.baseline, c.only_differences, c.focus
            )
        if fmt == "tsv":
            header, body = self.table()
            return to_tsv(header, [list[object](r) for r in body])
        if fmt == "csv":
            # the exporters' module when one writes, not with the window
            from ipubench_gui.store.export.export import csv_writer

            out = io.StringIO()
            row = csv_writer(out)  # every cell inert: no formula in a spreadsheet
            header, body = self.table()
            for r in [header, *body]:
                row(r)
            return out.getvalue()
        raise ValueError(f"unknown format {fmt!r}")


def shown(rows: Iterable[Row], comparison: Comparison, per_chip: bool) -> Compared:
    """Rows fetched as stored (``fetch_rows``), shown as the comparison asks."""
    rows = list(rows)
    return Compared(
        tuple(per_chip_or_as_is(rows) if per_chip else rows), comparison, per_chip
    )


def fetch_rows(db: Database, comparison: Comparison) -> list[dict[str, Any]]:
    """The comparison's rows as stored, in column order; raises
    ``browse.UnknownIds`` naming an id the store does not hold."""
    return browse.rows_by_ids(db, list(comparison.ids))


def compared(db: Database, comparison: Comparison, per_chip: bool) -> Compared:
    """A comparison from the store, as it is shown."""
    return shown(fetch_rows(db, comparison), comparison, per_chip)


def save(c: Compared, path: Path, fmt: str) -> Path:
    """Write the comparison to ``path`` as ``fmt``, atomically; raises
    ExportError or OSError in words."""
    from ipubench_gui.store.export.export import write_text

    return write_text(path, c.text(fmt))


@dataclass(frozen=True)
class Counterparts:
    """A result and the stored results that differ from it in exactly one
    attribute, grouped by that attribute."""

    row: Row
    groups: dict[str, list[Counterpart]]

    def per_chip(self) -> Counterparts:
        """The same, each figure per accelerator chip where it has one."""

        def chip(r: Row) -> Row:
            return dict(per_chip_or_as_is([r])[0])

        return Counterparts(
            chip(self.row),
            {
                a: [replace(cp, row=chip(cp.row)) for cp in items]
                for a, items in self.groups.items()
            },
        )

    def lines(self) -> list[str]:
        """The counterparts as lines of text (the command line's answer)."""
        row = self.row
        out = [
            f"{row['result_id']}: {config_label(row)} — {compare.show(row, 'value')}"
        ]
        if not self.groups:
            out.append("no stored result differs from it in exactly one attribute")
        for attr, items in self.groups.items():
            out += ["", f"differs in {compare.NAMES[attr]}:"]
            for cp in items:
                r = cp.row
                note = f"; {cp.note}" if cp.note else ""
                out.append(
                    f"  {r['result_id']}  {compare.show(r, attr):>14}  "
                    f"{compare.show(r, 'value'):>20}  "
                    f"{compare.ratio_text(r, row)}{note}"
                )
        return out


def counterparts(db: Database, rid: str) -> Counterparts:
    """The counterparts of result ``rid``, as stored; raises
    ``browse.UnknownIds`` when the store does not hold it."""
    (row,) = browse.rows_by_ids(db, [rid])
    return Counterparts(row, compare.counterparts(row, browse.family_rows(db, row)))
