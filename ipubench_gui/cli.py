"""Command line: argument parsing and the commands that need no window."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ipubench_gui import __version__

if TYPE_CHECKING:
    from ipubench_gui.domain.filters import FilterState
    from ipubench_gui.store.fetch import Universe


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="ipubench-gui",
        description="Explore published AI-accelerator benchmark results. "
        "With no command, opens the app.",
    )
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    p.add_argument(
        "--screenshot",
        type=Path,
        metavar="FILE.png",
        help="open the window, save a picture of it once the results "
        "are shown, and exit (for documentation and checks)",
    )
    p.add_argument(
        "--self-test",
        action="store_true",
        help="check this installation with no window (exit 0 when fine)",
    )
    p.add_argument(
        "--view",
        type=Path,
        metavar="FILE.json",
        help="open the app with a saved view (File → Save view)",
    )
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    ex = sub.add_parser(
        "export-results", help="write every stored result as CSV (not a filtered view)"
    )
    ex.add_argument("file", type=Path, help="output CSV path")

    from ipubench_gui.domain.plots import KINDS

    ch = sub.add_parser(
        "export-chart",
        help="write a chart as PNG, SVG or PDF, with no window shown",
        description="Write one chart for slides. Kinds: " + ", ".join(KINDS) + ".",
    )
    ch.add_argument(
        "--kind",
        required=True,
        choices=list(KINDS),
        metavar="KIND",
        help="one of: " + ", ".join(KINDS),
    )
    ch.add_argument(
        "--filter",
        action="append",
        default=[],
        metavar="DIM=VALUE",
        help="keep rows where DIM is VALUE (repeat; the same DIM twice "
        "means either value); DIM=LO..HI for batch_size, throughput, "
        "latency_ms; text=WORDS to search",
    )
    ch.add_argument(
        "--out",
        required=True,
        type=Path,
        metavar="FILE",
        help="output file: .png, .svg or .pdf",
    )
    ch.add_argument(
        "--size",
        default="1920x1080",
        metavar="WxH",
        help="pixels (default 1920x1080; 3840x2160 for 4K)",
    )
    ch.add_argument("--title", default="", help="chart title (default: the kind's)")
    ch.add_argument(
        "--subtitle", default=None, help="subtitle (default: the filters, in words)"
    )
    ch.add_argument(
        "--color-by",
        default="framework",
        metavar="DIM",
        help="colour bars by this dimension (throughput kind)",
    )
    ch.add_argument(
        "--budget-ms",
        type=float,
        default=None,
        help="latency budget (latency-throughput kind)",
    )
    ch.add_argument("--linear", action="store_true", help="linear axes instead of log")
    ch.add_argument(
        "--transparent", action="store_true", help="transparent background (PNG)"
    )
    et = sub.add_parser(
        "export-table", help="write the filtered results as CSV, Parquet or Excel"
    )
    et.add_argument("file", type=Path, help="output: .csv, .parquet or .xlsx")
    et.add_argument(
        "--filter",
        action="append",
        default=[],
        metavar="DIM=VALUE",
        help="as for export-chart",
    )

    im = sub.add_parser(
        "import",
        help="import results from a CSV/TSV, Parquet or JSON file",
        description="Import a file into your own results (kept in your user data "
        "folder). Without --map, columns are guessed from their headers.",
    )
    im.add_argument("file", type=Path)
    im.add_argument(
        "--map",
        action="append",
        default=[],
        metavar="COLUMN=FIELD",
        help="read FIELD from the file's COLUMN (fields: model, variant, "
        "platform, framework, dataset, batch_size, precision, value, "
        "latency_ms, unit, metric, sdk_version, task, accelerators, "
        "nodes, mlperf_id, division)",
    )
    im.add_argument(
        "--unpivot",
        metavar="COL1,COL2,...",
        help="wide files: these columns each hold a figure",
    )
    im.add_argument(
        "--unpivot-into",
        default="model",
        metavar="FIELD",
        help="the field the unpivoted column names become (default model)",
    )
    im.add_argument(
        "--metric", choices=("throughput", "latency", "time_to_train", "time_to_result")
    )
    im.add_argument("--unit", help="unit of the figures, when the file has none")
    im.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="a value for every row (e.g. platform=A100, task=inference)",
    )
    im.add_argument(
        "--source-label",
        default="",
        metavar="LABEL",
        help="a name for this import (default: the file name)",
    )
    im.add_argument(
        "--check",
        action="store_true",
        help="check the file and report, but store nothing",
    )

    cmp = sub.add_parser(
        "compare", help="compare configurations side by side (ids from export-results)"
    )
    cmp.add_argument("ids", nargs="+", metavar="RESULT_ID")
    cmp.add_argument(
        "--baseline",
        metavar="RESULT_ID",
        help="the configuration the others are measured against (default: the first)",
    )
    cmp.add_argument("--format", choices=("markdown", "csv"), default="markdown")
    cmp.add_argument(
        "--only-differences",
        action="store_true",
        help="leave out attributes that are the same everywhere",
    )
    cp = sub.add_parser(
        "counterparts", help="results that differ from one in exactly one attribute"
    )
    cp.add_argument("id", metavar="RESULT_ID")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.self_test:
        from ipubench_gui.selftest import run

        return run()
    if args.command is None:
        from ipubench_gui.app import run_gui

        return run_gui(args)
    return COMMANDS[args.command](args)


def _export_results(args: argparse.Namespace) -> int:
    from ipubench_gui.bootstrap import open_store
    from ipubench_gui.store.export import ExportError, export_results

    db = open_store()
    try:
        n = export_results(db, args.file)
    except ExportError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    finally:
        db.close()
    print(f"wrote {n} results to {args.file}")
    return 0


def _parse_filters(specs: list[str], universe: Universe) -> FilterState:
    """``DIM=VALUE`` options -> FilterState; ValueError naming what is wrong."""
    from ipubench_gui.domain.fields import FACETS, RANGES, field
    from ipubench_gui.domain.filters import FilterState, NumRange

    facets = {f.name for f in FACETS}
    ranges = {f.name for f in RANGES}
    st = FilterState()
    for spec in specs:
        dim, sep, value = spec.partition("=")
        dim = dim.strip()
        if not sep or not dim:
            raise ValueError(f"--filter {spec!r}: expected DIM=VALUE")
        if dim == "text":
            st = st.with_text(f"{st.text} {value}".strip())
        elif dim in ranges:
            lo, dots, hi = value.partition("..")
            try:
                rng = (
                    NumRange(float(lo) if lo else None, float(hi) if hi else None)
                    if dots
                    else NumRange(float(value), float(value))
                )
            except ValueError:
                raise ValueError(
                    f"--filter {spec!r}: {dim} takes a number or LO..HI"
                ) from None
            st = st.with_range(dim, rng)
        elif dim in facets:
            known = universe.values.get(dim, [])
            try:
                v = field(dim).parse(value)
            except ValueError:
                v = value
            if v not in known:
                shown = ", ".join(str(k) for k in known[:30])
                raise ValueError(
                    f"--filter {spec!r}: no {dim} called {value!r}; known: {shown}"
                )
            st = st.with_values(dim, st.values(dim) | {v})
        else:
            raise ValueError(
                f"--filter {spec!r}: unknown dimension {dim!r}; use one "
                f"of {', '.join(sorted(facets | ranges | {'text'}))}"
            )
    return st


def _export_chart(args: argparse.Namespace) -> int:
    import os

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # never show a window
    from ipubench_gui.app import ensure_app
    from ipubench_gui.bootstrap import open_store
    from ipubench_gui.charts.export import (
        ExportError,
        ExportOptions,
        export,
        parse_size,
    )
    from ipubench_gui.domain.chartspec import ChartSpec
    from ipubench_gui.domain.plots import build_plot, footnote
    from ipubench_gui.store import fetch

    try:
        width, height = parse_size(args.size)
    except ValueError as exc:
        print(f"error: --size: {exc}", file=sys.stderr)
        return 2
    db = open_store()
    try:
        universe = fetch.universe(db)
        try:
            state = _parse_filters(args.filter, universe)
        except ValueError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        spec = ChartSpec(
            kind=args.kind,
            color_by=args.color_by,
            log=not args.linear,
            budget_ms=args.budget_ms,
            title=args.title,
        )
        data = fetch.chart_data(db, state, spec)
    finally:
        db.close()
    plot = build_plot(spec, data, universe.values.get(spec.color_by, []))
    if plot.empty:
        print(
            f"error: nothing to plot: no {args.kind} figures match {state.describe()}",
            file=sys.stderr,
        )
        return 1
    ensure_app()
    subtitle = (
        args.subtitle
        if args.subtitle is not None
        else ("" if state.is_empty() else f"Filters: {state.describe()}")
    )
    opts = ExportOptions(
        width, height, args.title, subtitle, footnote(plot), args.transparent
    )
    try:
        export(plot, args.out, opts)
    except ExportError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {args.out} ({width}x{height}, {len(plot.point_ids())} items)")
    return 0


def _pairs(items: list[str], what: str) -> dict[str, str]:
    out = {}
    for item in items:
        k, sep, v = item.partition("=")
        if not sep or not k.strip():
            raise ValueError(f"{what} {item!r}: expected A=B")
        out[k.strip()] = v.strip()
    return out


def _export_table(args: argparse.Namespace) -> int:
    from ipubench_gui.bootstrap import open_store
    from ipubench_gui.store import fetch
    from ipubench_gui.store.export import ExportError, export_table

    db = open_store()
    try:
        try:
            state = _parse_filters(args.filter, fetch.universe(db))
        except ValueError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        n = export_table(db, state, args.file)
    except ExportError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    finally:
        db.close()
    print(f"wrote {n} results to {args.file}")
    return 0


def _import(args: argparse.Namespace) -> int:
    from ipubench_gui.bootstrap import open_store
    from ipubench_gui.store import importer

    try:
        mapping = {field: col for col, field in _pairs(args.map, "--map").items()}
        constants = _pairs(args.set, "--set")
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.metric:
        constants["metric"] = args.metric
    if args.unit:
        constants["unit"] = args.unit
    unpivot = tuple(c.strip() for c in (args.unpivot or "").split(",") if c.strip())
    db = open_store()
    try:
        status = db.user_status
        if not args.check and (status is None or not status.writable):
            print(
                f"error: {status.message if status else 'no user database'}",
                file=sys.stderr,
            )
            return 1
        if status and status.message:
            print(f"note: {status.message}", file=sys.stderr)
        con = db.cursor()
        if not mapping and not unpivot:
            names, _ = importer.stage(con, args.file)
            mapping = importer.guess(names)
            for f, v in importer.guess_constants(con, mapping).items():
                constants.setdefault(f, v)
                print(f"guessed: {f} = {v!r}")
            for f, c in sorted(mapping.items()):
                print(f"guessed: {c!r} -> {f}")
        spec = importer.ImportSpec(
            args.file, mapping, constants, unpivot, args.unpivot_into, args.source_label
        )
        if args.check:
            landed, skipped = importer.validate(con, spec)
            print(
                f"{landed} rows would land; {skipped} without a figure would be "
                "skipped (nothing stored: --check)"
            )
            return 0
        res = importer.import_file(con, spec)
    except importer.ImportFailed as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    finally:
        db.close()
    print(
        f"imported {res.landed} rows as {res.label!r} (source {res.source_id}); "
        f"skipped {res.skipped} without a figure"
    )
    return 0


def _compare(args: argparse.Namespace) -> int:
    import csv

    from ipubench_gui.bootstrap import open_store
    from ipubench_gui.domain import compare
    from ipubench_gui.store import fetch

    ids = list(dict.fromkeys(args.ids))
    if len(ids) < 2:
        print("error: compare needs at least two different result ids", file=sys.stderr)
        return 2
    baseline = args.baseline or ids[0]
    if baseline not in ids:
        ids.insert(0, baseline)
    db = open_store()
    try:
        rows = fetch.rows_by_ids(db, ids)
    except fetch.UnknownIds as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    finally:
        db.close()
    b = ids.index(baseline)
    if args.format == "markdown":
        sys.stdout.write(compare.to_markdown(rows, b, args.only_differences))
    else:
        header, body = compare.to_rows(rows, b)
        w = csv.writer(sys.stdout, lineterminator="\n")
        w.writerow(header)
        w.writerows(body)
    return 0


def _counterparts(args: argparse.Namespace) -> int:
    from ipubench_gui.bootstrap import open_store
    from ipubench_gui.domain import compare
    from ipubench_gui.domain.chartspec import config_label
    from ipubench_gui.store import fetch

    db = open_store()
    try:
        (row,) = fetch.rows_by_ids(db, [args.id])
        groups = compare.counterparts(row, fetch.family_rows(db, row))
    except fetch.UnknownIds as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    finally:
        db.close()
    print(f"{args.id}: {config_label(row)} — {compare.show(row, 'value')}")
    if not groups:
        print("no stored result differs from it in exactly one attribute")
    for attr, items in groups.items():
        print(f"\ndiffers in {compare.NAMES[attr]}:")
        for cp in items:
            r = cp.row
            ratio = compare.ratio_text(r, row)
            note = f"; {cp.note}" if cp.note else ""
            print(
                f"  {r['result_id']}  {compare.show(r, attr):>14}  "
                f"{compare.show(r, 'value'):>20}  {ratio}{note}"
            )
    return 0


COMMANDS = {
    "export-results": _export_results,
    "export-chart": _export_chart,
    "compare": _compare,
    "counterparts": _counterparts,
    "import": _import,
    "export-table": _export_table,
}
