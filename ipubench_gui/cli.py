"""Command line: argument parsing and the commands that need no window."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ipubench_gui import __version__


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
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    ex = sub.add_parser(
        "export-results", help="write every stored result as CSV (not a filtered view)"
    )
    ex.add_argument("file", type=Path, help="output CSV path")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
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


COMMANDS = {"export-results": _export_results}
