"""The command-line commands that need no window (see ``cli.build_parser``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ipubench_gui.domain.chartspec import ChartSpec
    from ipubench_gui.domain.filters import FilterState
    from ipubench_gui.service.browse import Universe
    from ipubench_gui.store.db import Database


def fail(message: object, code: int) -> int:
    """Say what is wrong on stderr; the exit code to return."""
    print(f"error: {message}", file=sys.stderr)
    return code


def _reading_store() -> Database:
    """The store for a command that reads: what kept the user's imported
    results out (another process writing them, damage) is said first."""
    from ipubench_gui.bootstrap import open_store

    db = open_store()
    st = db.user_status
    if st is not None and st.message:
        print(f"note: {st.message}", file=sys.stderr)
    return db


# An output file of "-": standard output (CSV, the only text a table is
# written as); the line saying what was written goes to stderr then.
STDOUT = Path("-")


def _write_results(db, write, path) -> int:
    """Run ``write(path)`` (it returns how many rows it wrote), say so or why
    not, and close ``db`` either way. A ``path`` of ``-`` writes CSV to
    standard output (through a temporary file: the writers are atomic)."""
    from ipubench_gui.domain.files import ExportError

    try:
        if path == STDOUT:
            n = _to_stdout(write, ".csv")
        else:
            n = write(path)
    except ExportError as exc:
        return fail(exc, 1)
    finally:
        db.close()
    if path == STDOUT:
        print(f"wrote {n} results to standard output", file=sys.stderr)
    else:
        print(f"wrote {n} results to {path}")
    return 0


def _to_stdout(write, suffix: str):
    """``write(tmp)`` into a temporary file, then its bytes to stdout."""
    import tempfile

    from ipubench_gui.console import write_file_out

    with tempfile.TemporaryDirectory(prefix="ipubench-out-") as folder:
        tmp = Path(folder) / f"out{suffix}"
        n = write(tmp)
        write_file_out(str(tmp))
    return n


def _export_store() -> Database:
    """The store for an export. Refuses when the user's imported results exist
    but cannot be read (held by a window, damaged and unmovable): an export
    without them would look complete."""
    from ipubench_gui.bootstrap import open_store, user_db_path
    from ipubench_gui.paths import UserFolderError
    from ipubench_gui.store.db import StoreError

    db = open_store()
    st = db.user_status
    try:
        have_imports = user_db_path().exists()
    except (UserFolderError, OSError):  # no folder: nothing imported in it
        have_imports = False
    if st is not None and st.path is None and st.message and have_imports:
        db.close()
        raise StoreError(f"cannot export your imported results. {st.message}")
    if st is not None and st.message:
        print(f"note: {st.message}", file=sys.stderr)
    return db


def export_results(args: argparse.Namespace) -> int:
    from ipubench_gui.service import exports

    db = _export_store()
    return _write_results(db, lambda path: exports.export_results(db, path), args.file)


def _parse_filters(specs: list[str], universe: Universe, rename=None) -> FilterState:
    """``DIM=VALUE`` options -> FilterState; ValueError naming what is wrong.
    ``rename(dim, value)`` (store.bundled.names.renamer) takes any spelling of a name:
    ``model=rn50`` selects ResNet-50 v1.5."""
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
            if rename is not None:
                v = rename(dim, v)
            if v not in known:
                raise ValueError(_unknown_value(spec, dim, value, known))
            st = st.with_values(dim, st.values(dim) | {v})
        else:
            raise ValueError(
                f"--filter {spec!r}: unknown dimension {dim!r}; use one "
                f"of {', '.join(sorted(facets | ranges | {'text'}))}"
            )
    return st


def _unknown_value(spec: str, dim: str, value: str, known: list) -> str:
    """What to say when no row has ``value``: the closest spelling if case or
    spacing is all that differs, else the values there are (blank left out)."""
    names = [str(k) for k in known if k is not None]

    def fold(text: str) -> str:
        return "".join(text.lower().split())

    close = [n for n in names if fold(n) == fold(value)]
    if close:
        return (
            f"--filter {spec!r}: no {dim} called {value!r}; did you mean {close[0]!r}?"
        )
    more = f" and {len(names) - 30} more" if len(names) > 30 else ""
    return (
        f"--filter {spec!r}: no {dim} called {value!r}; known: "
        f"{', '.join(names[:30])}{more}"
    )


# export-chart's chart options by ChartSpec field: given beside --view, each
# replaces the view's (None: not given). benchmark and group_by are read apart.
_CHART_OPTIONS = (
    "kind",
    "color_by",
    "log",
    "budget_ms",
    "title",
    "subtitle",
    "unit_family",
    "per_accelerator",
    "open_division",
)


def _saved_view(path):
    """``export-chart --view``: the view file's View and what it lost on
    reading; ValueError naming the file and what is wrong with it."""
    from ipubench_gui.domain.views import load_view

    try:
        return load_view(path)
    except FileNotFoundError:
        raise ValueError(f"--view {path}: no such file") from None
    except OSError as exc:  # NotRegular, too large, unreadable: said in words
        raise ValueError(f"--view {path}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise ValueError(f"--view {path}: {exc}") from None


def _on_top(base: FilterState, given: FilterState) -> FilterState:
    """``base`` with each dimension, range and search text ``given`` names
    replaced by ``given``'s."""
    for dim, values in given.selected:
        base = base.with_values(dim, values)
    for dim, rng in given.ranges:
        base = base.with_range(dim, rng)
    return base.with_text(given.text) if given.text else base


def _chart_spec(args: argparse.Namespace, base: ChartSpec, canonical) -> ChartSpec:
    """``base`` (a view's chart, else the defaults) with the options given."""
    given = {
        f: getattr(args, f) for f in _CHART_OPTIONS if getattr(args, f) is not None
    }
    if args.group_by is not None:
        given["group_by"] = None if args.group_by == "none" else args.group_by
    if args.benchmark:  # any spelling of a model names it ("bert", "rn50")
        given["benchmark"] = canonical("model", args.benchmark)
    return base.with_(**given)


def export_chart(args: argparse.Namespace) -> int:
    import os

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # never show a window
    from ipubench_gui.charts.export import parse_size
    from ipubench_gui.domain.views import View
    from ipubench_gui.service import browse
    from ipubench_gui.service.chart import make_chart
    from ipubench_gui.service.views import catalogue, check_view, renamer

    if args.kind is None and args.view is None:
        return fail("export-chart: give the chart's --kind KIND, or --view FILE", 2)
    if args.out == STDOUT:
        return fail(
            "export-chart: a chart is an image: give a file name ending .png, .svg "
            "or .pdf, not '-' (--data - writes its points to standard output)",
            2,
        )
    try:
        width, height = parse_size(args.size)
    except ValueError as exc:
        return fail(f"--size: {exc}", 2)
    try:
        view, notes = _saved_view(args.view) if args.view else (View(), [])
    except ValueError as exc:
        return fail(exc, 2)
    db = _reading_store()
    try:
        universe = browse.universe(db)
        if args.view:  # as the window opens it: values the store lost dropped
            view, dropped = check_view(db, view)
            for note in [*notes, *dropped]:
                print(f"warning: --view {args.view}: {note}", file=sys.stderr)
        try:
            given = _parse_filters(args.filter, universe, renamer(db))
        except ValueError as exc:
            return fail(exc, 2)
        state = _on_top(view.filters, given)
        spec = _chart_spec(args, view.chart, catalogue(db).canonical)
        chart = make_chart(db, state, spec, universe)
    finally:
        db.close()
    if chart.plot.empty:
        return fail(
            f"nothing to plot: no {spec.kind} figures match {state.describe()}", 1
        )
    return _write_chart(args, chart, width, height)


def _write_chart(args: argparse.Namespace, chart, width: int, height: int) -> int:
    """The chart to ``args.file`` (and its points to ``--data``); the exit code."""
    from ipubench_gui.charts.export import ExportOptions, export
    from ipubench_gui.domain.files import ExportError
    from ipubench_gui.service import exports
    from ipubench_gui.ui.application import ensure_app

    ensure_app()
    subtitle = chart.subtitle if args.subtitle is None else args.subtitle
    opts = ExportOptions(
        width,
        height,
        "",  # the chart's own (the spec's title, else the kind's)
        subtitle,
        chart.footnote,
        args.transparent,
        args.dark,
    )
    try:
        export(chart.plot, args.out, opts)
        if args.data == STDOUT:
            _to_stdout(lambda p: exports.export_points(chart.plot, p), ".csv")
        elif args.data is not None:
            exports.export_points(chart.plot, args.data)  # --data
    except ExportError as exc:
        return fail(exc, 1)
    n = len(chart.plot.point_ids())
    said = sys.stderr if args.data == STDOUT else sys.stdout
    print(f"wrote {args.out} ({width}x{height}, {n} items)", file=said)
    return 0


def export_table(args: argparse.Namespace) -> int:
    from ipubench_gui.service import browse, exports, views

    db = _export_store()
    try:
        state = _parse_filters(args.filter, browse.universe(db), views.renamer(db))
    except ValueError as exc:
        db.close()
        return fail(exc, 2)
    return _write_results(
        db,
        lambda path: exports.export_table(db, state, path, args.per_accelerator),
        args.file,
    )


def compare(args: argparse.Namespace) -> int:
    from ipubench_gui.domain.compare import Comparison
    from ipubench_gui.service import browse, compare

    ids = list(dict.fromkeys(args.ids))
    if len(ids) < 2:
        return fail("compare needs at least two different result ids", 2)
    baseline = args.baseline or ids[0]
    if baseline not in ids:
        ids.insert(0, baseline)
    wanted = Comparison(tuple(ids), baseline, None, args.only_differences)
    db = _reading_store()
    try:
        c = compare.compared(db, wanted, args.per_accelerator)
    except browse.UnknownIds as exc:
        return fail(exc, 1)
    finally:
        db.close()
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if args.format == "csv" and reconfigure is not None:  # not a test's StringIO
        reconfigure(newline="")  # the CSV's own line ends
    # per chip: the note that the figures are derived ends the Markdown
    sys.stdout.write(c.text(args.format))
    return 0


def counterparts(args: argparse.Namespace) -> int:
    from ipubench_gui.service import browse, compare

    db = _reading_store()
    try:
        found = compare.counterparts(db, args.id)
    except browse.UnknownIds as exc:
        return fail(exc, 1)
    finally:
        db.close()
    print("\n".join(found.lines()))
    return 0


def claims(args: argparse.Namespace) -> int:
    from ipubench_gui import paths
    from ipubench_gui.service import claims

    db = _reading_store()
    try:
        audited = claims.audit(db, paths.data_dir())
    finally:
        db.close()
    sys.stdout.write(claims.text(audited, args.format))
    return 0
