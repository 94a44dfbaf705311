"""The claims audit: every claim and stated comparison of the vendor checked
against the stored rows, for the Claims dock, the comparator's vendor-claims
tab, the vendor chart and the ``claims`` command alike: one computation per
store (kept until its rows change)."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ipubench_gui.domain import claims as dc
from ipubench_gui.domain.claims import Audit
from ipubench_gui.store.db import Database
from ipubench_gui.store.query import queries
from ipubench_gui.store.query.cache import cache_of
from ipubench_gui.store.query.claims import audit_store, stored_ids


@dataclass(frozen=True)
class Audited:
    """Every audit, and which of the results they used the store holds."""

    audits: tuple[Audit, ...]
    stored: frozenset[str]


def audits_of(db: Database, data_dir: Path) -> tuple[Audit, ...]:
    """Every claim and comparison audited, names resolved with the entity
    tables in ``data_dir``; worked out once per store until its rows change."""
    cache = cache_of(db)
    with cache.lock:
        kept, generation = cache.audits, cache.generation
    if kept is not None and kept[0] == data_dir:
        return kept[1]
    audits = tuple(audit_store(db, data_dir))
    cache.keep_audits(data_dir, audits, generation)
    return audits


def audit(db: Database, data_dir: Path) -> Audited:
    """Audit every claim, names resolved with the entity tables in ``data_dir``."""
    audits = audits_of(db, data_dir)
    return Audited(audits, stored_ids(db, list(audits)))


def text(audited: Audited, fmt: str) -> str:
    """The audits as ``markdown`` or ``csv`` (cells made inert)."""
    # the exporters' module, imported when a text is asked for: not with the
    # window, which audits at start (the vendor chart) but writes no text then
    from ipubench_gui.store.export.export import inert

    audits = list(audited.audits)
    if fmt == "markdown":
        return dc.to_markdown(audits)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(dc.CSV_COLUMNS)
    for a in audits:
        row = a.row()
        w.writerow([inert(row[c]) for c in dc.CSV_COLUMNS])
    return out.getvalue()


def vendor_comparisons(
    db: Database, data_dir: Path
) -> tuple[list[dict[str, Any]], dict[str, Audit]]:
    """The vendor's stated comparisons and their audits by claim id."""
    audits = audits_of(db, data_dir)
    stated = {a.claim_id: a for a in audits if a.kind == "comparison"}
    return db.run(queries.comparisons()).dicts(), stated
