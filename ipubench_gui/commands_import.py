"""The command-line commands that import files (``import``, ``import-mlperf``;
see ``cli.build_parser``)."""

from __future__ import annotations

import argparse
import sys

from ipubench_gui.commands import fail
from ipubench_gui.domain import import_spec
from ipubench_gui.domain.format import counted


def _pairs(items: list[str], what: str) -> dict[str, str]:
    out = {}
    for item in items:
        k, sep, v = item.partition("=")
        if not sep or not k.strip():
            raise ValueError(f"{what} {item!r}: expected A=B")
        if k.strip() in out and out[k.strip()] != v.strip():
            raise ValueError(
                f"{what} {item!r}: {k.strip()!r} is already given as "
                f"{out[k.strip()]!r}; give each once"
            )
        out[k.strip()] = v.strip()
    return out


def _mapping(items: list[str]) -> dict[str, str]:
    """``--map COLUMN=FIELD`` options -> field -> column. A column may feed
    several fields; a field read from two columns is refused."""
    out: dict[str, str] = {}
    for item in items:
        col, sep, fld = item.partition("=")
        col, fld = col.strip(), fld.strip()
        if not sep or not col or not fld:
            raise ValueError(f"--map {item!r}: expected COLUMN=FIELD")
        if fld in out and out[fld] != col:
            raise ValueError(
                f"--map {item!r}: field {fld!r} is already read from column "
                f"{out[fld]!r}; map each field once"
            )
        out[fld] = col
    return out


def import_(args: argparse.Namespace) -> int:
    from ipubench_gui.bootstrap import open_store
    from ipubench_gui.domain.entities import EntityError
    from ipubench_gui.service import imports
    from ipubench_gui.store.user import import_read

    names_said: list[str] = []
    try:
        mapping = _mapping(args.map)
        constants = _pairs(args.set, "--set")
        wanted = _aliases(args.alias)
    except ValueError as exc:
        return fail(exc, 2)
    if args.metric:
        constants["metric"] = args.metric
    if args.unit:
        constants["unit"] = args.unit
    unpivot = tuple(c.strip() for c in (args.unpivot or "").split(",") if c.strip())
    db = open_store(mode="write")
    try:
        status = db.user_status
        if not args.check and (status is None or not status.writable):
            return fail(status.message if status else "no user database", 1)
        if status and status.message:
            print(f"note: {status.message}", file=sys.stderr)
        if wanted and not args.check:  # a wrong one said before the file is read
            imports.check_aliases(db, wanted)
        for field, given in (("unit", args.unit), ("metric", args.metric)):
            if given and field in mapping:
                return fail(
                    f"--{field} {given!r} given, but the file's column "
                    f"{mapping[field]!r} is mapped to {field}: use one or the other "
                    f"(leave out --{field}, or map the column away)",
                    2,
                )
        # Guessed from the header and the first rows as the import dialog
        # guesses (the same function), around what was given; the import
        # reads the whole file once, after.
        given_as = _given_as(args, constants, unpivot)
        chosen = mapping
        read = imports.guess(
            db, args.file, args.encoding, chosen, given_as, not args.no_guess
        )
        mapping = read.mapping
        for f, v in read.constants.items():
            if f not in constants:
                constants[f] = v
                print(f"guessed: {f} = {v!r} (from the values of its column)")
        said = _mapping_lines(
            read.names, mapping, chosen, given_as, unpivot, not args.no_guess
        )
        for line in said:
            print(line)
        spec = import_spec.ImportSpec(
            args.file,
            mapping,
            constants,
            unpivot,
            args.unpivot_into,
            args.source_label,
            args.encoding,
            args.skip_existing,
            wanted,  # saved with the import, all or nothing
        )
        if args.check:
            landed, skipped, existing = imports.check(db, spec)
            print(
                f"{counted(landed, 'row', grouped=False)} would land; {skipped} "
                f"without a figure would be skipped{_existing(existing, 'would be ')} "
                "(nothing stored: --check)"
            )
            return 0
        res = imports.import_file(db, spec)
        names_said = imports.names_of(db, res.source_id)
    except import_read.ImportFailed as exc:
        return fail(exc, 1)
    except EntityError as exc:
        return fail(exc, 2)
    finally:
        db.close()
    for alias, name, kind in res.aliases:
        print(f"alias: {alias} → {name} ({kind}, saved)")
    print(
        f"imported {counted(res.landed, 'row', grouped=False)} as {res.label!r} "
        f"(source {res.source_id}); "
        f"skipped {res.skipped} without a figure{_existing(res.existing)}"
    )
    for line in names_said:
        print(line)
    return 0


def _given_as(
    args: argparse.Namespace, constants: dict[str, str], unpivot: tuple[str, ...]
) -> dict[str, str]:
    """field -> how the command line gives it other than by a column."""
    out = {f: f"--set {f}={v!r}" for f, v in constants.items()}
    for f in ("unit", "metric"):
        if getattr(args, f):
            out[f] = f"--{f} {getattr(args, f)!r}"
    if unpivot:
        out["value"] = out[args.unpivot_into] = "--unpivot"
    return out


def _mapping_lines(
    names: list[str],
    mapping: dict[str, str],
    chosen: dict[str, str],
    given_as: dict[str, str],
    unpivot: tuple[str, ...],
    guessed: bool,
) -> list[str]:
    """What the import reads from where, in the file's column order: "map:"
    for a --map, "guessed:" for a guess, "given:" for a value every row
    gets, and "left out:" with the reason for each column it does not read
    (``guessed``: whether the columns not mapped were guessed)."""
    from ipubench_gui.store.user import import_read

    by_column: dict[str, list[str]] = {}
    for f, c in mapping.items():
        by_column.setdefault(c, []).append(f)
    lines = []
    for col in names:
        for f in by_column.get(col, []):
            how = "map" if chosen.get(f) == col else "guessed"
            lines.append(f"{how}: {col!r} -> {f}")
        if col in unpivot:
            lines.append(f"unpivot: {col!r} -> value (its name -> --unpivot-into)")
    lines += [
        f"given: {f} by {how}" for f, how in given_as.items() if how != "--unpivot"
    ]
    outside = [c for c in names if c not in unpivot]
    reasons = import_read.left_out(outside, mapping, given_as, guessed)
    for col, why in reasons.items():
        lines.append(f"left out: {col!r}: {why}")
    return lines


def _existing(n: int, verb: str = "") -> str:
    """How many rows --skip-existing left out, for the import's report."""
    return f"; {n} already stored {verb}left out" if n else ""


def import_mlperf(args: argparse.Namespace) -> int:
    from ipubench_gui import paths
    from ipubench_gui.bootstrap import open_store
    from ipubench_gui.domain.import_spec import MLPerfImportError
    from ipubench_gui.service import imports
    from ipubench_gui.store.mlperf.mlperf import TreeError

    try:
        rnd = imports.resolve_round(args.dir, args.round)
    except MLPerfImportError as exc:
        return fail(exc, 2)
    db = open_store(mode="write")
    try:
        status = db.user_status
        if not args.check and (status is None or not status.writable):
            return fail(status.message if status else "no user database", 1)
        plan = imports.plan_mlperf(db, args.dir, rnd, paths.data_dir())
        print(plan.summary())
        for r in plan.stored:
            print(f"already stored: {r.path}")
        for problem in plan.problems:
            print(f"problem: {problem}", file=sys.stderr)
        if args.check or (not plan.new and not plan.bad):
            return 0
        sid, n = imports.land_mlperf(db, plan, args.skip_bad)
    except (TreeError, MLPerfImportError) as exc:
        return fail(exc, 1)
    finally:
        db.close()
    print(f"imported {n} MLPerf results (source {sid})")
    return 0


def _aliases(specs: list[str]) -> tuple[tuple[str, str, str], ...]:
    """``--alias [KIND:]FROM=TO`` options -> (kind or "", FROM, TO); every one
    checked before anything is written (ValueError naming the first wrong)."""
    from ipubench_gui.domain.entities import KINDS

    out = []
    for spec in specs:
        head, sep, to = spec.partition("=")
        kind, colon, frm = head.partition(":")
        if not colon or kind.strip() not in KINDS:
            kind, frm = "", head
        frm, to, kind = frm.strip(), to.strip(), kind.strip()
        if not sep or not frm or not to:
            raise ValueError(f"--alias {spec!r}: expected [KIND:]FROM=TO")
        out.append((kind, frm, to))
    return tuple(out)
