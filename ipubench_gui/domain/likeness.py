"""Like for like: is each attribute of two results the same, different, or
unknown, and what does that make of the comparison.

Decisions, made once here:

* Three values for every attribute: ``SAME``, ``DIFFERS``, ``UNKNOWN``. A blank
  on either side is unknown: never the same, never a difference. An attribute
  that has no meaning for the pair (an MLPerf division between two vendor
  table rows, a batch size of a time to train) is ``NOT_APPLICABLE``.
* Attributes are either the **workload** (what was run: model, variant or
  phase, task, dataset, metric and unit family, precision, sequence length,
  batch size where the figure depends on it, MLPerf division and quality
  target) or the **system** (what ran it: accelerator type, chip count,
  platform, SDK, framework).
* The verdict: *like for like* when every workload attribute is the same and
  the accelerator type is known on both sides; *not like for like* when a
  workload attribute differs; otherwise *can't tell*, naming what is unknown.
  A system difference is what a like-for-like comparison compares; different
  chip counts are always named first, with the per-chip figures beside the
  systems' own.
* Two MLPerf results are one workload by the benchmark's rules: the benchmark
  fixes model, variant and dataset, and precision and batch size are the
  submitter's choices, so those are not applicable between them; the quality
  target is the same within one round of one benchmark (the store holds the
  target only where a page printed it).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ipubench_gui.domain import metrics
from ipubench_gui.domain.format import format_number, shown_unit
from ipubench_gui.domain.per_chip import per_chip

Row = Mapping[str, Any]

SAME, DIFFERS, UNKNOWN, NOT_APPLICABLE = "same", "differs", "unknown", "n/a"
WORKLOAD, SYSTEM = "workload", "system"
LIKE, NOT_LIKE, CANT_TELL = "like for like", "not like for like", "can't tell"

_SL = re.compile(r"\bSL\s*(\d+)\b", re.IGNORECASE)
_SEQUENCES = frozenset({"sequences/s", "tokens/s"})


def _blank(v: Any) -> bool:
    return v is None or (isinstance(v, str) and not v.strip())


def _known(v: Any) -> Any:
    return None if _blank(v) else v


def is_mlperf(row: Row) -> bool:
    """An MLPerf result (official, or a vendor page's row citing one)."""
    return not _blank(row.get("division"))


def sequence_length(row: Row) -> int | None:
    """The sequence length a row names ("Ph1 Pre-Training (SL128)" → 128)."""
    m = _SL.search(str(row.get("variant") or ""))
    return int(m[1]) if m else None


def metric_and_family(row: Row) -> tuple[str, str] | None:
    """What a figure measures and counts: ("throughput", "images/s")."""
    metric, fam = row.get("metric"), row.get("unit_family") or row.get("unit")
    if _blank(metric) or _blank(fam):
        return None
    return str(metric), str(fam).removesuffix(" per chip")


# -- which attributes apply to a pair --
def _always(a: Row, b: Row) -> bool:
    return True


def _unless_both_mlperf(a: Row, b: Row) -> bool:
    return not (is_mlperf(a) and is_mlperf(b))


def _either_mlperf(a: Row, b: Row) -> bool:
    return is_mlperf(a) or is_mlperf(b)


def _either_scenario(a: Row, b: Row) -> bool:
    """An MLPerf Inference scenario (Offline, Server) is part of the workload:
    a figure without one (a vendor's) is not known to be the same."""
    return not (_blank(a.get("scenario")) and _blank(b.get("scenario")))


def _both_system_type(a: Row, b: Row) -> bool:
    return not (_blank(a.get("system_type")) or _blank(b.get("system_type")))


def _batch_matters(a: Row, b: Row) -> bool:
    """A throughput or a latency depends on the batch; a time to train is set
    by the quality reached (the batch is the submitter's choice)."""
    rates = {"throughput", "latency"}
    return (
        _unless_both_mlperf(a, b)
        and a.get("metric") in rates
        and b.get("metric") in rates
    )


def _reads(row: Row) -> bool | None:
    """Whether a row's model reads sequences: True when it names a sequence
    length or counts sequences or tokens, False when it counts anything
    else (images/s), None when its figure does not say (a time)."""
    if sequence_length(row) is not None:
        return True
    fam = str(row.get("unit_family") or "").removesuffix(" per chip")
    if fam in _SEQUENCES:
        return True
    return None if fam in ("", "time") else False


def _sequences_matter(a: Row, b: Row) -> bool:
    """Sequence length matters between two models that read sequences: one
    side says so and the other does not say otherwise."""
    if not _unless_both_mlperf(a, b):
        return False
    reads = {_reads(a), _reads(b)}
    return True in reads and False not in reads


def _quality_target(a: Row, b: Row) -> str:
    """Both printed: compared as printed. Both MLPerf results of one round
    and one benchmark: the same by the rules. Else unknown."""
    ta, tb = a.get("quality_target"), b.get("quality_target")
    if not _blank(ta) and not _blank(tb):
        return SAME if ta == tb else DIFFERS
    if not (is_mlperf(a) and is_mlperf(b)):
        return UNKNOWN
    rounds = {_known(r.get("mlperf_round")) for r in (a, b)}
    benches = {
        _known(r.get("mlperf_benchmark")) or _known(r.get("model")) for r in (a, b)
    }
    if None in rounds or None in benches:
        return UNKNOWN
    return SAME if len(rounds) == 1 and len(benches) == 1 else UNKNOWN


@dataclass(frozen=True)
class Attribute:
    """One attribute of a comparison: its key, its name in a sentence, which
    side it is on, when it applies, and how it is read from a row."""

    key: str
    name: str
    side: str
    applies: Callable[[Row, Row], bool] = _always
    read: Callable[[Row], Any] | None = None
    relate: Callable[[Row, Row], str] | None = None  # its own rule

    def value(self, row: Row) -> Any:
        return self.read(row) if self.read else row.get(self.key)


# Workload first, then system; in each, the order a verdict lists them.
ATTRIBUTES: tuple[Attribute, ...] = (
    Attribute("model", "model", WORKLOAD),
    Attribute("variant", "variant", WORKLOAD, _unless_both_mlperf),
    Attribute("task", "task", WORKLOAD),
    Attribute("dataset", "dataset", WORKLOAD, _unless_both_mlperf),
    Attribute("metric", "metric and unit", WORKLOAD, read=metric_and_family),
    Attribute("precision", "precision", WORKLOAD, _unless_both_mlperf),
    Attribute(
        "sequence_length",
        "sequence length",
        WORKLOAD,
        _sequences_matter,
        read=sequence_length,
    ),
    Attribute("batch_size", "batch size", WORKLOAD, _batch_matters),
    Attribute("division", "MLPerf division", WORKLOAD, _either_mlperf),
    Attribute(
        "quality_target",
        "quality target",
        WORKLOAD,
        _either_mlperf,
        relate=_quality_target,
    ),
    Attribute("scenario", "MLPerf scenario", WORKLOAD, _either_scenario),
    Attribute("accelerators", "chip count", SYSTEM),
    Attribute("generation", "accelerator type", SYSTEM),
    Attribute("platform", "platform", SYSTEM),
    Attribute("sdk_version", "SDK", SYSTEM),
    Attribute("framework", "framework", SYSTEM),
    Attribute("system_type", "system type", SYSTEM, _both_system_type),
)
BY_KEY = {a.key: a for a in ATTRIBUTES}


def relate(attr: Attribute, a: Row, b: Row) -> str:
    """``SAME``, ``DIFFERS``, ``UNKNOWN`` or ``NOT_APPLICABLE`` for one pair."""
    if not attr.applies(a, b):
        return NOT_APPLICABLE
    if attr.relate is not None:
        return attr.relate(a, b)
    va, vb = attr.value(a), attr.value(b)
    if _blank(va) or _blank(vb):
        return UNKNOWN
    return SAME if va == vb else DIFFERS


def relate_all(attr: Attribute, rows: Sequence[Row]) -> str:
    """One status over several columns: ``DIFFERS`` when any two known values
    differ, else ``UNKNOWN`` when any is unknown, else ``SAME`` (or
    ``NOT_APPLICABLE`` when no pair has the attribute)."""
    found = {relate(attr, a, b) for i, a in enumerate(rows) for b in rows[i + 1 :]}
    for status in (DIFFERS, UNKNOWN, SAME):
        if status in found:
            return status
    return NOT_APPLICABLE


def _show(attr: Attribute, row: Row) -> str:
    v = attr.value(row)
    if _blank(v):
        return "unknown"
    if attr.key == "metric":
        metric, fam = v
        return f"{metrics.label(metric).lower()} in {fam}"
    return format_number(v) if isinstance(v, (int, float)) else str(v)


# -- the verdict --
@dataclass(frozen=True)
class Assessment:
    """What two results have in common: each applicable attribute's status,
    and the verdict that follows. ``row`` is set against ``base``."""

    row: Row
    base: Row
    statuses: tuple[tuple[str, str], ...]  # (key, status), ATTRIBUTES order
    focus: str | None = None

    def keys(self, status: str, side: str | None = None) -> list[str]:
        keys = [
            k
            for k, s in self.statuses
            if s == status and (side is None or BY_KEY[k].side == side)
        ]
        # chip counts first, then the attribute the user compares
        first = ["accelerators", *([self.focus] if self.focus else [])]
        return sorted(keys, key=lambda k: first.index(k) if k in first else 99)

    @property
    def verdict(self) -> str:
        if self.keys(DIFFERS, WORKLOAD):
            return NOT_LIKE
        unknown = self.keys(UNKNOWN, WORKLOAD)
        if unknown or "generation" in self.keys(UNKNOWN):
            return CANT_TELL
        return LIKE

    @property
    def like_for_like(self) -> bool:
        return self.verdict == LIKE

    def differences(self) -> list[str]:
        """Every difference in words, chip counts first: "16 vs 8 chips (…)",
        "precision (16.16 vs 16.32)"."""
        return [self.difference(k) for k in self.keys(DIFFERS)]

    def difference(self, key: str) -> str:
        attr = BY_KEY[key]
        if key == "accelerators":
            return self._chips()
        return f"{attr.name} ({_show(attr, self.row)} vs {_show(attr, self.base)})"

    def _chips(self) -> str:
        """ "8 vs 16 chips (20,000 vs 40,000 images/s; 2,500 vs 2,500 images/s
        per chip, derived)": the systems' own figures and those per chip."""
        a, b = self.row, self.base
        na, nb = (format_number(r["accelerators"]) for r in (a, b))
        text = f"{na} vs {nb} chips"
        sa, sb = _as_stored(a), _as_stored(b)
        figures = [_pair(sa, sb)] if _has_figure(sa) and _has_figure(sb) else []
        pa, pb = per_chip(sa), per_chip(sb)
        if pa is not None and pb is not None:
            figures.append(f"{_pair(pa, pb)}, derived")
        return f"{text} ({'; '.join(figures)})" if figures else text

    def text(self) -> str:
        """The verdict in words: "like for like: same workload; compares …",
        "not like for like: workload differs in …", "can't tell: … unknown"."""
        system = [self.difference(k) for k in self.keys(DIFFERS, SYSTEM)]
        unknown_workload = [BY_KEY[k].name for k in self.keys(UNKNOWN, WORKLOAD)]
        unknown_system = [BY_KEY[k].name for k in self.keys(UNKNOWN, SYSTEM)]
        compares = "compares " + ", ".join(system) if system else ""
        if self.verdict == NOT_LIKE:
            workload = [self.difference(k) for k in self.keys(DIFFERS, WORKLOAD)]
            parts = [f"{NOT_LIKE}: workload differs in {', '.join(workload)}"]
            if system:
                parts.append(f"also {compares}")
            unknown = unknown_workload + unknown_system
            if unknown:
                parts.append(f"unknown: {', '.join(unknown)}")
            return "; ".join(parts)
        if self.verdict == CANT_TELL:
            # the accelerator type first among the unknowns: without it
            # nothing says which kind of chip is compared
            unknown = [n for n in unknown_system if n == "accelerator type"]
            unknown += unknown_workload
            others = [n for n in unknown_system if n != "accelerator type"]
            parts = [f"{CANT_TELL}: {', '.join(unknown)} unknown"]
            if system:
                parts.append(compares)
            if others:  # unknown too, but no reason to doubt the workload
                parts.append(f"also unknown: {', '.join(others)}")
            return "; ".join(parts)
        parts = [f"{LIKE}: same workload"]
        parts.append(compares if system else "same system")
        if unknown_system:
            parts.append(f"unknown: {', '.join(unknown_system)}")
        return "; ".join(parts)


def _as_stored(row: Row) -> Row:
    """A per-chip row back as its system's figure (``per_chip`` keeps it)."""
    if not row.get("per_accelerator"):
        return row
    out = dict(row)
    out.update(
        value=row.get("system_value"),
        unit=row.get("system_unit"),
        unit_family=str(row.get("unit_family") or "").removesuffix(" per chip"),
        per_accelerator=False,
    )
    return out


def _has_figure(row: Row) -> bool:
    return row.get("value") is not None


def _pair(a: Row, b: Row) -> str:
    """Two figures, the unit said once where they share it: "20,000 vs
    40,000 images/s"; "314.24 vs 403.2 chip-minutes"."""
    ua, ub = shown_unit(a), shown_unit(b)
    va, vb = format_number(a.get("value")), format_number(b.get("value"))
    if ua == ub:
        return f"{va} vs {vb} {ua}".strip()
    return f"{va} {ua} vs {vb} {ub}"


def assess(row: Row, base: Row, focus: str | None = None) -> Assessment:
    """``row`` set against ``base``: every attribute's status and the verdict."""
    statuses = tuple(
        (attr.key, s)
        for attr in ATTRIBUTES
        if (s := relate(attr, row, base)) != NOT_APPLICABLE
    )
    return Assessment(row, base, statuses, focus if focus in BY_KEY else None)
