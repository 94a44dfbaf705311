"""Benchmark harness: prints one table of medians, each with a same-run baseline.

Run: ``make bench`` (or ``python tests/bench/run.py [--quick] [--only NAME]``).
Each issue adds its cases to ``CASES``. Figures are medians of several runs;
ratios are against a baseline measured in the same run, because the machine
is shared and noisy.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


from tests.bench.harness import CASES, Row, print_table  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="100k rows instead of 1M")
    ap.add_argument("--only", action="append", help="run only these cases")
    ap.add_argument(
        "--keep",
        type=Path,
        metavar="DIR",
        help="build stores in DIR and reuse those found there (e.g. 1M rows for "
        "runs before and after a change) instead of in a new temporary folder",
    )
    args = ap.parse_args()
    import tests.bench.bench_breakdown  # noqa: F401
    import tests.bench.bench_charts  # noqa: F401
    import tests.bench.bench_claims  # noqa: F401
    import tests.bench.bench_compare  # noqa: F401
    import tests.bench.bench_export  # noqa: F401
    import tests.bench.bench_grown  # noqa: F401
    import tests.bench.bench_import  # noqa: F401
    import tests.bench.bench_import_existing  # noqa: F401
    import tests.bench.bench_mlperf  # noqa: F401
    import tests.bench.bench_names  # noqa: F401
    import tests.bench.bench_package  # noqa: F401
    import tests.bench.bench_slides  # noqa: F401
    import tests.bench.bench_store  # noqa: F401  (registers cases)
    import tests.bench.bench_ui  # noqa: F401
    import tests.bench.bench_window  # noqa: F401

    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as made:
        tmp = str(args.keep) if args.keep else made
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
        order = [
            "store",
            "ui",
            "breakdown",
            "charts",
            "import",
            "import-existing",
            "mlperf",
            "names",
            "export",
            "claims",
            "compare",
            "grown",
        ]  # issue order, whatever the imports'
        for name, fn in sorted(
            CASES.items(),
            key=lambda kv: order.index(kv[0]) if kv[0] in order else len(order),
        ):
            if args.only and name not in args.only:
                continue
            print(f"... {name}", file=sys.stderr, flush=True)
            rows += fn(args, Path(tmp))
    print_table(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
