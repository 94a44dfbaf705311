"""What is worked out once from a store's rows, per Database, typed: the rows
held in memory, whether the facet cube pays, the catalogue of names with
the user's aliases and the claims audit. Forgotten when the rows change
(``Database.data_changed``)."""

from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from ipubench_gui.domain.claims import Audit
from ipubench_gui.domain.entities import Catalogue
from ipubench_gui.store.db import Database
from ipubench_gui.store.query.snapshot import Snapshot


@dataclass
class StoreCache:
    """One Database's derived values; read and set under ``lock``."""

    # The rows in memory (service.browse.snapshot); False: too many to hold;
    # None: not loaded yet, or dropped because the rows changed.
    snapshot: Snapshot | Literal[False] | None = None
    # service.browse.cube_pays (the cube never changes)
    cube_pays: bool | None = None
    # store.user.aliases.of: the store's names with the user's aliases (None:
    # not read)
    catalogue: Catalogue | None = None
    # service.claims.audits_of: every claim audited, names read from the data
    # folder it names (None: not worked out). The vendor chart and the claims
    # views ask for it in turn, and it takes longer than a frame.
    audits: tuple[Path, tuple[Audit, ...]] | None = None
    # how many times the rows changed: a value worked out from older rows is
    # not kept (see ``keep``)
    generation: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def forget_rows(self) -> None:
        with self.lock:
            self.snapshot = None
            self.catalogue = None
            self.audits = None
            self.generation += 1

    def keep_catalogue(self, cat: Catalogue, generation: int) -> None:
        """Keep ``cat``, read at ``generation``, unless the rows changed since."""
        with self.lock:
            if self.generation == generation:
                self.catalogue = cat

    def keep_audits(
        self, data_dir: Path, audits: tuple[Audit, ...], generation: int
    ) -> None:
        """Keep ``audits``, worked out at ``generation``, unless the rows
        changed since."""
        with self.lock:
            if self.generation == generation:
                self.audits = (data_dir, audits)


_CACHES: weakref.WeakKeyDictionary[Database, StoreCache] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def cache_of(db: Database) -> StoreCache:
    """``db``'s cache, made on first use (from any thread)."""
    with _LOCK:
        cache = _CACHES.get(db)
        if cache is None:
            cache = _CACHES[db] = StoreCache()
            db.on_data_changed(cache.forget_rows)
        return cache
