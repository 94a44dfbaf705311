"""Import benchmarks: rows/s against DuckDB's read_csv; GUI stall
while the window imports, against a bare sleeper's in the same seconds."""

from __future__ import annotations

import gc
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import duckdb

from tests.bench.harness import (
    REPO_DATA,
    Row,
    StallMeter,
    case,
    median_ms,
    run_until,
)


def _make_csv(path: Path, n: int) -> None:
    con = duckdb.connect()
    con.execute(f"""COPY (SELECT 'Model ' || (i % 40) AS model,
        ['A100 80GB', 'Bow-2000', 'IPU-POD16', 'H100'][1 + (i % 4)::INT] AS platform,
        ['PyTorch', 'TensorFlow2', 'PopART'][1 + (i % 3)::INT] AS framework,
        (1 + i % 512) AS batch_size, round(100 + random() * 50000, 2) AS throughput,
        round(0.2 + random() * 30, 3) AS latency
        FROM range({n}) t(i)) TO '{path}' (HEADER)""")
    con.close()


def _fresh(path: Path) -> Path:
    """``path`` for a new user database: one kept from an earlier run (--keep)
    would hold that run's import too, and the filter changes measured over
    it twice the rows."""
    path.unlink(missing_ok=True)
    path.with_name(path.name + ".wal").unlink(missing_ok=True)
    return path


def _import_stages(csv, cache, tmp, spec_args, n, floor_ms) -> list[Row]:
    """Where an import's time goes: reading and normalising the
    file, the one scan of checks and counts, landing (write, names, facet
    counts, commit) and closing (DuckDB's checkpoint), medians of 3."""
    from ipubench_gui.domain.import_spec import ImportSpec
    from ipubench_gui.store.user import importer
    from ipubench_gui.store.user.userdb import open_combined

    spent: dict[str, list[float]] = {}

    def timed(name, fn):
        def run(*a, **k):
            t = time.perf_counter()
            try:
                return fn(*a, **k)
            finally:
                spent.setdefault(name, []).append((time.perf_counter() - t) * 1000)

        return run

    norm, summ = importer._normalise, importer.summary
    importer._normalise = lambda con, spec: timed("read + normalise", norm(con, spec))
    importer.summary = timed("checks and counts (one scan)", summ)
    try:
        for k in range(3):
            db, _ = open_combined(
                REPO_DATA, cache, _fresh(tmp / f"user-stages-{k}.duckdb")
            )
            t = time.perf_counter()
            importer.import_file(db.cursor(), ImportSpec(csv, *spec_args))
            whole = (time.perf_counter() - t) * 1000
            t = time.perf_counter()
            db.close()
            spent.setdefault("close (checkpoint)", []).append(
                (time.perf_counter() - t) * 1000
            )
            before = (
                spent["read + normalise"][-1]
                + spent["checks and counts (one scan)"][-1]
            )
            spent.setdefault("land (write, names, facet counts)", []).append(
                whole - before
            )
    finally:
        importer._normalise, importer.summary = norm, summ
    return [
        Row(f"  {name}", f"{n:,} rows", statistics.median(ms), "the floor", floor_ms)
        for name, ms in spent.items()
    ]


# A bare 5 ms sleeper in another process: how late this machine wakes any
# thread meanwhile (the others' load and the import's own threads), the
# baseline of the window's stalls. Prints its longest gap (ms) when stopped.
_SLEEPER = """
import signal, time
stop = []
signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
worst, last = 0.0, time.perf_counter()
print("ready", flush=True)
while not stop:
    time.sleep(0.005)
    now = time.perf_counter()
    worst, last = max(worst, now - last), now
print(worst * 1000, flush=True)
"""


class _Sleeper:
    """The sleeper above, for the time of a ``with`` block: ``worst_ms``."""

    def __enter__(self) -> _Sleeper:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _SLEEPER], stdout=subprocess.PIPE, text=True
        )
        assert self.proc.stdout is not None
        self.proc.stdout.readline()  # sleeping by now
        return self

    def __exit__(self, *exc) -> None:
        self.proc.terminate()
        self.worst_ms = float(self.proc.communicate()[0])


def _run_queue_ms() -> float:
    """The calling thread's time runnable but waiting for a core so far
    (Linux: /proc/thread-self/schedstat; 0 elsewhere)."""
    try:
        with open("/proc/thread-self/schedstat") as f:
            return int(f.read().split()[1]) / 1e6
    except (OSError, IndexError, ValueError):
        return 0.0


class _WaitMeter(StallMeter):
    """A StallMeter that also keeps, per gap, the GUI thread's wait for a core."""

    def __enter__(self) -> _WaitMeter:
        self.waits: list[float] = []
        self._last_wait = _run_queue_ms()
        super().__enter__()
        return self

    def _tick(self) -> None:
        super()._tick()
        wait = _run_queue_ms()
        self.waits.append(wait - self._last_wait)
        self._last_wait = wait

    def worst(self) -> tuple[float, float, float]:
        """The longest gap: wall, GUI-thread CPU and run-queue wait (ms)."""
        i = max(range(1, len(self.gaps)), key=self.gaps.__getitem__, default=0)
        if i == 0:
            return 0.0, 0.0, 0.0
        return self.gaps[i], self.cpu_gaps[i], self.waits[i]


def _window_import(csv, cache, user, spec_args) -> tuple[tuple, tuple, float, float]:
    """One import through the window, as the app runs it: the event loop
    asleep between events (QEventLoop.exec). The longest gap while importing and
    until the imported rows are shown (wall, CPU, wait), a bare sleeper's
    longest meanwhile, and the import's wall time (ms)."""

    from ipubench_gui.app import Session, ensure_app
    from ipubench_gui.domain.import_spec import ImportSpec
    from ipubench_gui.store.user.userdb import open_combined

    for stale in (user, Path(f"{user}.wal")):  # a kept one from an earlier run
        stale.unlink(missing_ok=True)
    app = ensure_app()
    s = Session(open_combined(REPO_DATA, cache, user)[0])
    s.start(restore=False)
    s.window.resize(1400, 900)
    s.window.show()
    done: list[str] = []
    s.runner.finished.connect(lambda slot, *_: done.append(slot))

    def until(slots: set[str], since: int = 0) -> None:
        run_until(s.runner, done, slots, since)

    until({"page", "facets", "chart"})
    app.processEvents()  # painted
    gc.freeze()  # as the app does once its first window is painted
    done.clear()
    with _Sleeper() as sleeper, _WaitMeter(interval=5) as meter:
        t0 = time.perf_counter()
        s.imports.start_import(ImportSpec(csv, *spec_args))
        until({"import"})
        took = (time.perf_counter() - t0) * 1000
        during = meter.worst()
        # Finishing: the window asks again for what the import changed
        # (universe, page, facets, chart) and shows it: until painted.
        until({"universe", "page", "facets", "chart"}, len(done))
        app.processEvents()
    gc.unfreeze()
    stalls = sorted(meter.gaps[1:], reverse=True)[:5]
    print(f"import stalls (5 longest, ms): {[round(g) for g in stalls]}", flush=True)
    s.window.close()
    s.close()
    return during, meter.worst(), sleeper.worst_ms, took


def _window_stalls(csv, cache, tmp, spec_args, n, imports) -> list[Row]:
    """The GUI thread's longest stall while the window imports ``csv`` and
    until it shows the rows, medians of ``imports`` imports, each against a
    bare sleeper's in the same seconds; and what the GUI thread did in it."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    runs = [
        _window_import(csv, cache, _fresh(tmp / f"user-ui-{k}.duckdb"), spec_args)
        for k in range(imports)
    ]
    during = [statistics.median(r[0][i] for r in runs) for i in range(3)]
    shown = [statistics.median(r[1][i] for r in runs) for i in range(3)]
    bare = statistics.median(r[2] for r in runs)
    took = statistics.median(r[3] for r in runs)
    beyond = statistics.median(r[1][0] - r[2] for r in runs)
    scale = f"{n:,} rows"
    sleeper = "a bare 5 ms sleeper in another process, same time"
    return [
        Row(
            "import through the window (worker thread), until its answer",
            scale,
            took,
            target=f"median of {imports}",
        ),
        Row(
            f"longest GUI stall while importing, median of {imports}",
            scale,
            during[0],
            sleeper,
            bare,
            "<= 50 ms",
        ),
        Row(
            "  the same, until the window shows the imported rows",
            scale,
            shown[0],
            sleeper,
            bare,
            "<= 50 ms",
        ),
        Row(
            "  the same, less the bare sleeper's in that import (derived)",
            scale,
            beyond,
            target="~0: the window waits no longer than any thread",
        ),
        # What the GUI thread did in its longest gap: its own work (CPU) and
        # waiting for a core (the rest: asleep, on the GIL or a lock).
        Row(
            "  GUI-thread CPU, longest gap while importing",
            scale,
            during[1],
            "wall",
            during[0],
        ),
        Row(
            "  GUI-thread wait for a core, same gap",
            scale,
            during[2],
            "wall",
            during[0],
        ),
        Row(
            "  GUI-thread CPU, longest gap until shown",
            scale,
            shown[1],
            "wall",
            shown[0],
        ),
        Row(
            "  GUI-thread wait for a core, same gap", scale, shown[2], "wall", shown[0]
        ),
    ]


@case("import")
def bench_import(args, tmp: Path) -> list[Row]:
    from ipubench_gui.domain.import_spec import ImportSpec
    from ipubench_gui.store.bundled.build import build_store, fingerprint
    from ipubench_gui.store.user import importer
    from ipubench_gui.store.user.userdb import open_combined

    n = 100_000 if args.quick else 1_000_000
    csv = tmp / "import.csv"
    _make_csv(csv, n)
    cache = tmp / "import-cache"
    cache.mkdir(exist_ok=True)
    store = cache / f"results-{fingerprint(REPO_DATA)[:16]}.duckdb"
    if not store.exists():
        build_store(REPO_DATA, store)
    spec_args = (
        {
            "model": "model",
            "platform": "platform",
            "framework": "framework",
            "batch_size": "batch_size",
            "value": "throughput",
            "latency_ms": "latency",
        },
        {"metric": "throughput", "unit": "items/s"},
    )

    def raw_read():
        c = duckdb.connect()
        c.execute("CREATE TABLE t AS SELECT * FROM read_csv($p)", {"p": str(csv)})
        c.close()

    def disk_read():
        # What landing rows costs at all: the same read into a database file.
        target = tmp / "raw-disk.duckdb"
        target.unlink(missing_ok=True)
        c = duckdb.connect(str(target))
        c.execute("CREATE TABLE t AS SELECT * FROM read_csv($p)", {"p": str(csv)})
        c.close()

    k = [0]
    opening: list[float] = []

    def one_import():
        # As in the window: the store is open already (its opening, the
        # app's start, is timed apart); the import ends when its rows are in
        # the file (close: DuckDB's checkpoint, as the floor's close).
        k[0] += 1
        t = time.perf_counter()
        db, _ = open_combined(REPO_DATA, cache, _fresh(tmp / f"user-{k[0]}.duckdb"))
        opened = time.perf_counter()
        importer.import_file(db.cursor(), ImportSpec(csv, *spec_args))
        db.close()
        opening.append((opened - t) * 1000)
        return (time.perf_counter() - opened) * 1000

    base = median_ms(raw_read, 3, warmup=1)
    # The import and its floor in turns (the machine's load drifts), 5 each.
    imp_t, disk_t = [], []
    for _ in range(3 if args.quick else 5):
        disk_t.append(median_ms(disk_read, 1, warmup=0))
        imp_t.append(one_import())
    imp, disk = statistics.median(imp_t), statistics.median(disk_t)
    with_open = statistics.median(a + b for a, b in zip(imp_t, opening))
    rows = [
        Row(
            f"import {n:,}-row CSV (validate + land)",
            f"{n:,} rows",
            imp,
            "read_csv into an on-disk DuckDB table (the floor)",
            disk,
            f"<= 2.0x the floor; {n / imp * 1000:,.0f} rows/s",
        ),
        Row(
            "  the same, with opening the store first (CLI import)",
            f"{n:,} rows",
            with_open,
            "read_csv into an on-disk DuckDB table (the floor)",
            disk,
        ),
        Row(
            "  the floor: read_csv into an on-disk DuckDB table",
            f"{n:,} rows",
            disk,
            "DuckDB read_csv of the same file (in memory)",
            base,
            "(for reference: any import writes its rows to a file)",
        ),
        *_import_stages(csv, cache, tmp, spec_args, n, disk),
    ]

    rows += _window_stalls(csv, cache, tmp, spec_args, n, 2 if args.quick else 3)

    # The window over imported rows (the first import's user database): the
    # same filter changes and budgets as bench_ui's over bundled rows.
    from tests.bench.bench_ui import _filter_change

    def with_imports():
        return open_combined(REPO_DATA, cache, tmp / "user-1.duckdb")[0]

    rows += _filter_change(with_imports, f"{n:,} imported rows", 9)
    # The same filter changes over as many bundled rows, in the same run: the
    # imported rows' budget is this one's (within ~1.2x).
    from tests.bench.bench_ui import _synthetic_store

    rows += _filter_change(_synthetic_store(tmp, n), f"{n:,} bundled rows", 9)
    return rows
