"""What finding rows already stored costs an import: the
same file imported into a user database that already holds an import of the
same size, against one that holds none (where the check is one count)."""

from __future__ import annotations

import time
from pathlib import Path

from tests.bench.bench_import import _make_csv
from tests.bench.harness import REPO_DATA, Row, case

COLUMNS = {
    "model": "model",
    "platform": "platform",
    "framework": "framework",
    "batch_size": "batch_size",
    "value": "throughput",
    "latency_ms": "latency",
}
CONSTANTS = {"metric": "throughput", "unit": "items/s"}


@case("import-existing")
def bench_import_existing(args, tmp: Path) -> list[Row]:
    from ipubench_gui.domain.import_spec import ImportSpec
    from ipubench_gui.store.bundled.build import build_store, fingerprint
    from ipubench_gui.store.user import importer
    from ipubench_gui.store.user.userdb import open_combined

    n = 100_000 if args.quick else 1_000_000
    first, second = tmp / "stored.csv", tmp / "new.csv"
    _make_csv(first, n)
    _make_csv(second, n)  # random figures: no row of it is stored
    cache = tmp / "existing-cache"
    cache.mkdir(exist_ok=True)
    store = cache / f"results-{fingerprint(REPO_DATA)[:16]}.duckdb"
    if not store.exists():
        build_store(REPO_DATA, store)
    k = [0]

    def into(prefilled: bool) -> float:
        times = []

        def one() -> None:
            k[0] += 1
            db, _ = open_combined(REPO_DATA, cache, tmp / f"u-{k[0]}.duckdb")
            try:
                if prefilled:
                    importer.import_file(
                        db.cursor(), ImportSpec(first, COLUMNS, CONSTANTS)
                    )
                spec = ImportSpec(second, COLUMNS, CONSTANTS)
                t = time.perf_counter()
                importer.import_file(db.cursor(), spec)
                times.append((time.perf_counter() - t) * 1000)
            finally:
                db.close()

        for _ in range(3):
            one()
        return sorted(times)[1]

    empty = into(False)
    full = into(True)
    return [
        Row(
            f"import {n:,} rows, {n:,} imported before (checked for repeats)",
            f"{n:,} + {n:,} rows",
            full,
            "the same import into an empty user database",
            empty,
        )
    ]
