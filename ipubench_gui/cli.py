"""Command line: argument parsing and the commands that need no window."""

from __future__ import annotations

import argparse
import gc
from pathlib import Path

from ipubench_gui.domain import metrics
from ipubench_gui.domain.chartspec import COLOR_CHOICES, GROUP_CHOICES
from ipubench_gui.versions import version_text


def _filter_help() -> str:
    from ipubench_gui.domain.fields import FACETS, RANGES

    return (
        "keep rows where DIM is VALUE; repeat it for more (the same DIM twice "
        "means either value). DIM is one of: "
        + ", ".join(f.name for f in FACETS)
        + "; DIM=LO..HI (either end may be left out) for "
        + ", ".join(f.name for f in RANGES)
        + "; text=WORDS searches model, variant and dataset. Example: "
        "--filter framework=PyTorch --filter batch_size=8..64"
    )


RESULT_ID_HELP = (
    "a result's id, as in the result_id column of export-results (e.g. bowtr-536574)"
)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="ipubench-gui",
        usage="%(prog)s [options] [FILE ...]\n       %(prog)s COMMAND ...",
        description="Explore published AI-accelerator benchmark results. "
        "With no command, opens the app; FILE (as a desktop passes it on a "
        "double-click) is opened in it: a saved view (*.ipubench-view.json), "
        "results to import (CSV/TSV, Parquet, JSON), or an MLPerf results folder.",
    )
    _add_global_options(p)
    sub = p.add_subparsers(dest="command", metavar="COMMAND", prog=p.prog)
    filter_help = _filter_help()
    _add_export_results(sub)
    _add_export_chart(sub, filter_help)
    _add_export_table(sub, filter_help)
    _add_import(sub)
    _add_import_mlperf(sub)
    _add_compare(sub)
    _add_claims(sub)
    _add_counterparts(sub)
    from ipubench_gui.commands_mlperf import add_parser as add_mlperf_table

    add_mlperf_table(sub)
    return p


def _add_global_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--version",
        action=_VersionAction,
        help="print the app's version, when its data was built, and the "
        "versions of Qt, pyqtgraph and DuckDB, then exit",
    )
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
        "--theme",
        choices=("system", "light", "dark"),
        help="colours for this run (default: as chosen in View > Theme)",
    )
    p.add_argument(
        "--view",
        type=Path,
        metavar="FILE.json",
        help="open the app with a saved view (File → Save view)",
    )


def _add_export_results(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
) -> None:
    ex = sub.add_parser(
        "export-results", help="write every stored result as CSV (not a filtered view)"
    )
    _add_output(ex, "output CSV path")


def _add_export_chart(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], filter_help: str
) -> None:
    from ipubench_gui.domain.kinds import KINDS

    ch = sub.add_parser(
        "export-chart",
        help="write a chart as PNG, SVG or PDF, with no window shown",
        description="Write one chart for slides. Kinds: " + ", ".join(KINDS) + ".",
    )
    ch.add_argument(
        "--view",
        type=Path,
        metavar="FILE.json",
        help="a saved view (File → Save view): its filters, chart kind and "
        "options, as saved; the options given beside it apply on top",
    )
    ch.add_argument(
        "--kind",
        choices=list(KINDS),
        metavar="KIND",
        help="one of: " + ", ".join(KINDS) + " (required without --view)",
    )
    ch.add_argument(
        "--filter",
        action="append",
        default=[],
        metavar="DIM=VALUE",
        help=filter_help,
    )
    _add_output(ch, "output file: .png, .svg or .pdf")
    ch.add_argument(
        "--size",
        default="1920x1080",
        metavar="WxH",
        help="pixels (default 1920x1080; 3840x2160 for 4K)",
    )
    ch.add_argument("--title", help="chart title (default: the kind's)")
    ch.add_argument(
        "--subtitle", default=None, help="subtitle (default: the filters, in words)"
    )
    ch.add_argument(
        "--color-by",
        choices=COLOR_CHOICES,
        metavar="DIM",
        help=f"colour bars by this dimension (throughput kind): "
        f"{', '.join(COLOR_CHOICES)} (default: framework)",
    )
    groups = [g for g in GROUP_CHOICES if g]
    ch.add_argument(
        "--group-by",
        choices=[*groups, "none"],
        metavar="DIM",
        help="bars in sections, one per value of this dimension, each under "
        f"its name (throughput kind): {', '.join(groups)}; none: one list",
    )
    ch.add_argument(
        "--budget-ms",
        type=float,
        default=None,
        help="latency budget (latency-throughput kind)",
    )
    ch.add_argument(
        "--benchmark",
        metavar="MODEL",
        help="mlperf kind: the benchmark drawn, any spelling of its model "
        "(default: the one with the most results)",
    )
    ch.add_argument(
        "--open-division",
        action=argparse.BooleanOptionalAction,
        help="mlperf kind: draw Open division results too (default: Closed)",
    )
    ch.add_argument(
        "--unit-family",
        default=None,
        metavar="UNIT",
        help="throughput kind: what the bars count, e.g. images/s or "
        "sequences/s (default: the largest group of the filtered rows)",
    )
    ch.add_argument(
        "--data",
        type=Path,
        default=None,
        metavar="FILE.csv",
        help="also write the plotted points: series, x, y, result_id",
    )
    ch.add_argument(
        "--linear",
        dest="log",
        action="store_false",
        default=None,
        help="linear axes instead of log",
    )
    ch.add_argument(
        "--log", dest="log", action="store_true", help="log axes (the default)"
    )
    _add_per_accelerator(ch, negatable=True)
    ch.add_argument(
        "--transparent", action="store_true", help="transparent background (PNG)"
    )
    ch.add_argument(
        "--dark",
        action="store_true",
        help="dark background for dark slides (light text; colours kept readable)",
    )


def _add_export_table(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], filter_help: str
) -> None:
    et = sub.add_parser(
        "export-table", help="write the filtered results as CSV, Parquet or Excel"
    )
    _add_per_accelerator(et)
    _add_output(et, "output: .csv, .parquet or .xlsx")
    et.add_argument(
        "--filter",
        action="append",
        default=[],
        metavar="DIM=VALUE",
        help=filter_help,
    )


def _add_import(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    im = sub.add_parser(
        "import",
        help="import results from a CSV/TSV, Parquet or JSON file",
        description="Import a file into your own results (kept in your user data "
        "folder). Columns not given by --map are guessed from their headers, as "
        "the import dialog guesses them (--no-guess: only the --map columns); "
        "the mapping used and the columns left out, with why, are printed first.",
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
        "--no-guess",
        action="store_true",
        help="read only the columns given by --map (guess no others)",
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
    im.add_argument("--metric", choices=metrics.NAMES)
    im.add_argument(
        "--unit",
        help="unit of the figures, when the file has none (an error when a "
        "column is mapped to unit; --metric likewise)",
    )
    im.add_argument(
        "--alias",
        action="append",
        default=[],
        metavar="[KIND:]FROM=TO",
        help="treat the name FROM as the known name TO, saved in your user "
        "database (e.g. --alias 'RN-50 (ours)=ResNet-50 v1.5'); KIND is model, "
        "framework, dataset, system or unit (default: the kind that knows TO)",
    )
    im.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="a value for every row (e.g. platform=A100, task=inference)",
    )
    im.add_argument(
        "--encoding",
        default="utf-8",
        choices=("utf-8", "utf-16", "latin-1"),
        help="text encoding of a CSV/TSV file (default utf-8)",
    )
    im.add_argument(
        "--source-label",
        default="",
        metavar="LABEL",
        help="a name for this import (default: the file name)",
    )
    im.add_argument(
        "--skip-existing",
        action="store_true",
        help="leave out rows already stored (repeats of an earlier row of the "
        "file, or figures an earlier import stored) and say how many; without "
        "it such a row stops the import",
    )
    im.add_argument(
        "--check",
        action="store_true",
        help="check the file and report, but store nothing",
    )


def _add_import_mlperf(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
) -> None:
    mi = sub.add_parser(
        "import-mlperf",
        help="import an MLPerf Training or Inference results folder (a round or "
        "one submitter)",
        description="Read, score (as MLCommons' result summarizer does) and "
        "import every result under DIR: a round's folder of a "
        "training_results_vX.Y clone, or one submitter's folder in it; or an "
        "inference_results_vX.Y clone (its closed/ folder, or closed/SUBMITTER: "
        "ResNet-50 and BERT, Offline and Server, read as MLCommons' submission "
        "checker reads them). All or nothing; results already stored are "
        "reported, never duplicated.",
    )
    mi.add_argument("dir", type=Path, metavar="DIR")
    mi.add_argument(
        "--round",
        metavar="X.Y",
        help="the MLPerf round (default: from a training_results_vX.Y or "
        "inference_results_vX.Y folder above DIR)",
    )
    mi.add_argument(
        "--skip-bad",
        action="store_true",
        help="import the results without problems even if others have some",
    )
    mi.add_argument(
        "--check",
        action="store_true",
        help="read and report only; store nothing",
    )


def _add_compare(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmp = sub.add_parser(
        "compare", help="compare configurations side by side (ids from export-results)"
    )
    cmp.add_argument("ids", nargs="+", metavar="RESULT_ID", help=RESULT_ID_HELP)
    cmp.add_argument(
        "--baseline",
        metavar="RESULT_ID",
        help="the configuration the others are measured against (default: the "
        "first); a RESULT_ID as above",
    )
    cmp.add_argument("--format", choices=("markdown", "csv"), default="markdown")
    cmp.add_argument(
        "--only-differences",
        action="store_true",
        help="leave out attributes that are the same everywhere",
    )
    _add_per_accelerator(cmp)


def _add_claims(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cl = sub.add_parser(
        "claims",
        help="audit the vendor's claims and IPU-versus-GPU comparisons against "
        "the stored results",
        description="Every claim (data/claims.csv) and comparison "
        "(data/comparisons.csv): the stated figure, the figure recomputed from "
        "stored results (naming them and whose they are), a verdict (confirmed, "
        "contradicted, consistent with the vendor's own figures, nearest "
        "evidence only, not checkable) and every difference, chip counts first.",
    )
    cl.add_argument("--format", choices=("csv", "markdown"), default="markdown")


def _add_counterparts(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cp = sub.add_parser(
        "counterparts", help="results that differ from one in exactly one attribute"
    )
    cp.add_argument("id", metavar="RESULT_ID", help=RESULT_ID_HELP)


class _VersionAction(argparse.Action):
    """``--version``: the text is put together only when asked for (it imports
    Qt, pyqtgraph and DuckDB to ask them their versions)."""

    def __init__(self, option_strings: list[str], dest: str, **kw) -> None:
        super().__init__(option_strings, dest, nargs=0, **kw)

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        print(version_text())
        parser.exit()


def _add_output(sub: argparse.ArgumentParser, what: str) -> None:
    """Every export takes its output file alike: ``FILE`` or ``--out FILE``."""
    sub.add_argument("file", nargs="?", type=Path, metavar="FILE", help=what)
    sub.add_argument("--out", type=Path, metavar="FILE", help="the same, as an option")
    sub.set_defaults(output_of=sub)


def _resolve_output(args: argparse.Namespace) -> None:
    sub = getattr(args, "output_of", None)
    if sub is None:
        return
    if args.file is not None and args.out is not None and args.file != args.out:
        sub.error(f"two output files given: {args.file} and --out {args.out}")
    args.file = args.out = args.file or args.out
    if args.file is None:
        sub.error("where to write? give the output FILE (or --out FILE)")


def split_files(
    p: argparse.ArgumentParser, argv: list[str]
) -> tuple[list[str], list[Path]]:
    """Take the FILEs to open out of ``argv``. argparse cannot have an optional
    positional beside subcommands (``ipubench-gui view.json`` was an "invalid
    choice" of command), so FILEs are the arguments before any COMMAND that are
    neither options nor option values."""
    commands: set[str] = set()
    takes_value: set[str] = set()
    for a in p._actions:  # argparse's own list; no public accessor
        if isinstance(a, argparse._SubParsersAction):
            commands |= set(a.choices)
        elif a.option_strings and a.nargs != 0:
            takes_value |= set(a.option_strings)
    rest: list[str] = []
    files: list[Path] = []
    i = 0
    while i < len(argv):
        tok = argv[i]
        if tok in commands:
            return rest + argv[i:], files
        if tok == "--":
            files += [Path(t) for t in argv[i + 1 :]]
            break
        if tok.startswith("-") and tok != "-":
            rest.append(tok)
            if tok in takes_value and i + 1 < len(argv):
                rest.append(argv[i + 1])
                i += 1
        else:
            files.append(Path(tok))
        i += 1
    return rest, files


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    import sys

    p = build_parser()
    rest, files = split_files(p, list(sys.argv[1:] if argv is None else argv))
    args = p.parse_args(rest)
    args.files = files
    return args


def main(argv: list[str] | None = None) -> int:
    from ipubench_gui.console import run_guarded

    return run_guarded(lambda: _main(argv))


def _main(argv: list[str] | None) -> int:
    args = parse_args(argv)
    _resolve_output(args)
    if args.self_test:
        from ipubench_gui import startup
        from ipubench_gui.selftest import run

        startup.prepare()  # as the window does (checked by tests/frozen)
        return run()
    if args.command is None:
        # No cyclic garbage collection until the window is painted with data
        # (run_gui resumes it): start-up allocates a large heap that all lives
        # on, and collecting it would walk that heap again and again for
        # nothing (tests/bench: start-up).
        gc.disable()
        # Start opening the store first: DuckDB works on another core (it
        # releases the GIL) while this thread imports Qt and pyqtgraph and
        # builds the window.
        from ipubench_gui import trace
        from ipubench_gui.bootstrap import open_store_async

        store = open_store_async()
        trace.mark("store opening on a thread")
        from ipubench_gui import startup

        startup.prepare()  # before Qt, pyqtgraph and the modules that follow
        from ipubench_gui.app import run_gui

        trace.mark("app modules imported (Qt, pyqtgraph)")
        return run_gui(args, store)
    from ipubench_gui import commands, commands_import, commands_mlperf
    from ipubench_gui.store.bundled.build import DataError
    from ipubench_gui.store.db import StoreError

    run = {
        "export-results": commands.export_results,
        "export-chart": commands.export_chart,
        "compare": commands.compare,
        "claims": commands.claims,
        "counterparts": commands.counterparts,
        "import": commands_import.import_,
        "import-mlperf": commands_import.import_mlperf,
        "export-table": commands.export_table,
        "mlperf-table": commands_mlperf.mlperf_table,
    }[args.command]
    import duckdb

    from ipubench_gui.store.health import is_damage

    try:
        return run(args)
    except (StoreError, DataError) as exc:  # a store that cannot be opened
        return commands.fail(exc, 1)
    except duckdb.Error as exc:  # a block of a store file found damaged
        if not is_damage(exc):
            raise
        from ipubench_gui.bootstrap import damage_message

        return commands.fail(damage_message(exc), 1)


def _add_per_accelerator(p: argparse.ArgumentParser, negatable: bool = False) -> None:
    """``negatable``: --no-per-accelerator too, and None when neither is given
    (export-chart: a saved view's choice stands unless one is)."""
    p.add_argument(
        "--per-accelerator",
        action=argparse.BooleanOptionalAction if negatable else "store_true",
        help="figures per accelerator chip: throughput / chips, time to train x "
        "chips (chip-minutes); derived, and labelled so",
    )
