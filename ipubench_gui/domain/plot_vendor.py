"""The vendor-claims chart: the stated IPU-vs-GPU ratios, each with its caveats."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from ipubench_gui.domain import metrics
from ipubench_gui.domain.format import format_number
from ipubench_gui.domain.plot_model import Plot, Point, Row, bar_series


# -- 6. vendor comparisons --
def vendor_plot(comparisons: Sequence[Row]) -> Plot:
    """Stated IPU-vs-GPU ratios as bars, each labelled with its caveats."""
    labels: list[str] = []
    by_kind: dict[str, list[Point]] = defaultdict(list)
    notes = []
    for c in sorted(comparisons, key=lambda c: -(c.get("ratio_stated") or 0)):
        metric: str = c["metric"]
        what_of = metrics.label(metric).lower()
        variant = f" ({c['variant']})" if c.get("variant") else ""
        label = (
            f"{c['model']}{variant} {c['task']} {what_of}: {c['ipu_system']} vs "
            f"{c['gpu_system']}"
        )
        if c.get("ratio_stated") is None:
            notes.append(f"{label}: shown without a stated ratio")
            continue
        caveats = [x.strip() for x in (c.get("caveats") or "").split(";") if x.strip()]
        if c.get("assumptions"):
            caveats.append(c["assumptions"])
        what = metrics.label(metric).lower()
        y = len(labels)
        labels.append(label)
        q = c.get("ratio_qualifier") or ""
        mark = (
            f"  ⚠ {len(caveats)} caveat{'s' if len(caveats) != 1 else ''}"
            if caveats
            else ""
        )
        tip = "\n".join(
            [
                label,
                f"stated: {c.get('ratio_as_printed') or ''}",
                f"IPU: {c.get('ipu_framework') or '?'}, "
                f"{c.get('ipu_precision') or '?'}, batch {c.get('ipu_batch') or '?'}",
                f"GPU: {c.get('gpu_framework') or '?'}, "
                f"{c.get('gpu_precision') or '?'}, batch {c.get('gpu_batch') or '?'}",
                f"GPU figure: {c.get('gpu_source') or 'not stated'}",
                *[f"⚠ {x}" for x in caveats],
                f"source: {c['source_file']} — {c['chart']}",
            ]
        )
        better = (
            "lower"
            if c["metric"] in ("latency",)
            else "faster"
            if c["metric"].startswith("time")
            else "higher"
        )
        by_kind[what].append(
            Point(
                c["ratio_stated"],
                y,
                c["comparison_id"],
                f"{q}{format_number(c['ratio_stated'])}× {better}{mark}",
                tip,
            )
        )
    palette = {
        "throughput": "#0072B2",
        "latency": "#E69F00",
        "time to train": "#009E73",
        "time to result": "#CC79A7",
    }
    series = bar_series(by_kind, lambda k: palette.get(k, "#999999"))
    return Plot(
        "vendor",
        "The vendor's IPU-vs-GPU headline claims",
        "Stated advantage (×, log scale) — as claimed by the vendor",
        "",
        series,
        horizontal_bars=True,
        categories=tuple(labels),
        log_x=True,
        notes=tuple(notes)
        + (
            "ratios as stated by the vendor, not measured "
            "here; ⚠ marks differences between the two sides",
        ),
        rows=tuple(comparisons),
    )
