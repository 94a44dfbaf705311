"""Saved views and given filters against the store: names read as the store
reads them today (any spelling, the user's aliases), and what a view file
names that the store no longer holds (facet values, compared results)
dropped, and said."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from ipubench_gui.domain.entities import Catalogue
from ipubench_gui.domain.views import View, reconcile
from ipubench_gui.service import browse
from ipubench_gui.store.bundled import names
from ipubench_gui.store.db import Database
from ipubench_gui.store.user import aliases


def check_view(db: Database, view: View) -> tuple[View, list[str]]:
    """``view`` without values or ids the store no longer has, its names
    read as today's (an alias the user added, a canonical name), and what
    was dropped."""
    u = browse.universe(db)
    known = browse.existing_ids(db, list(view.comparison.ids))
    return reconcile(view, u.values, known, renamer(db))


def catalogue(db: Database) -> Catalogue:
    """The canonical names of ``db``, with the user's aliases."""
    return aliases.of(db)


def renamer(db: Database) -> Callable[[str, object], object]:
    """``rename(dim, value)``: a facet value as ``db`` names it (any spelling,
    the user's aliases, to the canonical name)."""
    return names.renamer(aliases.of(db))


def save_view(view: View, path: Path) -> Path:
    """Write ``view`` to ``path`` as JSON, atomically; raises ExportError or
    OSError in words."""
    # the exporters' module when one saves, not with the window (start-up)
    from ipubench_gui.store.export.export import write_text

    return write_text(path, json.dumps(view.to_json(), indent=2) + "\n")
