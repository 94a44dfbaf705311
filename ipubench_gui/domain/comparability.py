"""Which figures may be set against each other: the same metric in the same
unit family. Ratios, verdicts and counterparts (domain/compare.py) and the
throughput chart's axis (one unit family at a time) follow this rule."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ipubench_gui.domain import metrics
from ipubench_gui.domain.metrics import family

Row = Mapping[str, Any]

# Counts whose item depends on the model ("items/s" of an unknown model).
GENERIC_FAMILIES = frozenset({"items/s", "samples/s"})


def not_comparable(row: Row, base: Row) -> str:
    """Why two figures cannot be set against each other ("" when they can):
    ratios, verdicts and counterparts need the same metric in the same unit
    family (images/s against images/s, never against nodes/s), and a count of
    unknown items the same model."""
    if not row.get("metric") or not base.get("metric"):
        return "not comparable: metric unknown"  # a blank is never the same
    fa, fb = family(row), family(base)
    models = (row.get("model"), base.get("model"))
    known_models = None not in models
    same_model = known_models and models[0] == models[1]
    ok = (
        row.get("metric") == base.get("metric")
        and fa != ""
        and fa == fb
        and (fa not in GENERIC_FAMILIES or same_model)
    )
    if ok:
        return ""
    if not known_models and fa == fb and row.get("metric") == base.get("metric"):
        return "not comparable: model unknown, so what an item is"
    parts = []
    if known_models and not same_model:
        parts.append(f"model ({row.get('model')} vs {base.get('model')})")
    tasks = (row.get("task"), base.get("task"))
    if None not in tasks and tasks[0] != tasks[1]:  # a blank is unknown
        parts.append("task")
    if row.get("metric") != base.get("metric"):
        la, lb = (metrics.label(r.get("metric")) for r in (row, base))
        parts.append(f"metric ({la} vs {lb})")
    elif fa != fb and same_model:
        parts.append(f"unit ({fa} vs {fb})")
    if not parts:
        parts.append("unit")
    said = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"not comparable: different {said}"
