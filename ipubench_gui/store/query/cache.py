"""What is worked out once from a store's rows, per Database, typed: the rows
held in memory, whether the facet cube pays and the catalogue of names with
the user's aliases. Forgotten when the rows change (``Database.data_changed``)."""

from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass, field
from typing import Literal

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
    # how many times the rows changed: a value worked out from older rows is
    # not kept (see ``keep``)
    generation: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def forget_rows(self) -> None:
        with self.lock:
            self.snapshot = None
            self.catalogue = None
            self.generation += 1

    def keep_catalogue(self, cat: Catalogue, generation: int) -> None:
        """Keep ``cat``, read at ``generation``, unless the rows changed since."""
        with self.lock:
            if self.generation == generation:
                self.catalogue = cat


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
