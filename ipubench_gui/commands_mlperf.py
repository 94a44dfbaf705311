"""The ``mlperf-table`` command: the MLPerf results table, as the window's
View → MLPerf results table shows it, written as CSV, Markdown or a workbook."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ipubench_gui.domain.mlperf_names import CATEGORIES, category

FORMATS = ("csv", "markdown", "xlsx")  # domain.mlperf_table.FORMATS, not imported
# here: the parser is built at every start, the table's modules only when used


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    t = sub.add_parser(
        "mlperf-table",
        help="MLPerf Training results as a table: a row per system and "
        "framework, a column per benchmark (minutes)",
        description="One row per system and framework (round, division, "
        "availability, submitter, system, accelerator, accelerators, "
        "framework), one column per benchmark, time to train in minutes "
        "(chip-minutes with --per-accelerator); blank where the system has no "
        "score, 'logs missing' where the copy of the results lacks the logs.",
    )
    t.add_argument("--round", metavar="X.Y", help="one MLPerf round, e.g. 2.0")
    t.add_argument("--division", choices=("closed", "open"))
    t.add_argument(
        "--availability",
        action="append",
        default=[],
        metavar="CATEGORY",
        help=f"one of: {'; '.join(CATEGORIES)} (or a system file's spelling: "
        "onprem, cloud, preview, research); repeat for several",
    )
    t.add_argument(
        "--filter",
        action="append",
        default=[],
        metavar="DIM=VALUE",
        help="any other filter, as export-table takes them",
    )
    t.add_argument("--format", choices=FORMATS, default="markdown")
    t.add_argument(
        "--per-accelerator",
        action="store_true",
        help="chip-minutes (time × accelerators, derived) instead of minutes",
    )
    t.add_argument(
        "--out", type=Path, metavar="FILE", help="write here (default: print)"
    )


def _filters(args: argparse.Namespace) -> list[str]:
    """The options as export-table's DIM=VALUE filters; ValueError naming a
    value that is not one."""
    from ipubench_gui.domain.result_rules import normalise_round

    specs = list(args.filter)
    if args.round:
        specs.append(f"mlperf_round={normalise_round(args.round)}")
    if args.division:
        specs.append(f"division={args.division}")
    for a in args.availability:
        cat = category(a) or next(
            (c for c in CATEGORIES if c.lower() == a.lower()), None
        )
        if cat is None:
            raise ValueError(f"--availability {a!r}: one of {'; '.join(CATEGORIES)}")
        specs.append(f"category={cat}")
    return specs


def mlperf_table(args: argparse.Namespace) -> int:
    from ipubench_gui.commands import _export_store, _parse_filters, fail
    from ipubench_gui.domain.files import ExportError
    from ipubench_gui.domain.mlperf_table import markdown
    from ipubench_gui.service import browse
    from ipubench_gui.service import mlperf_table as service
    from ipubench_gui.service.views import renamer
    from ipubench_gui.store.export.export import csv_writer

    if args.format == "xlsx" and args.out is None:
        return fail("a workbook needs a file: give --out FILE", 2)
    db = _export_store()
    try:
        state = _parse_filters(_filters(args), browse.universe(db), renamer(db))
        table = service.table(db, state, args.per_accelerator)
    except ValueError as exc:
        return fail(exc, 2)
    finally:
        db.close()
    if args.out is not None:
        try:
            n = service.write(table, args.out, args.format)
        except ExportError as exc:
            return fail(exc, 1)
        print(f"wrote {n} systems × {len(table.benchmarks)} benchmarks to {args.out}")
    elif args.format == "markdown":
        sys.stdout.write(markdown(table))
    else:
        reconfigure = getattr(sys.stdout, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(newline="")  # the CSV's own line ends
        row = csv_writer(sys.stdout)
        row(table.headers)
        for r in table.records():
            row(r)
    if args.format == "csv":
        print(f"note: {table.unit}. {table.footnote()}", file=sys.stderr)
    return 0
