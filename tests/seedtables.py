"""Read the results tables out of the vendor's page dump, for verifying ``data/``.

The dump prints one table cell per line; a blank cell is a line holding only
(non-breaking) spaces, and a table ends at the first truly empty line. This
reader is deliberately independent of the app's loader: it works on the raw
text, so a figure mistyped in ``data/`` cannot hide behind shared code.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

RESULTS_PAGE = "000_74c88246ac92525e.txt"

TRAIN = [
    "Model",
    "Variant",
    "Platform",
    "SDK Version",
    "Framework",
    "Dataset",
    "Batch Size",
    "Precision",
    "Throughput (items/sec)",
]
INFER = TRAIN + ["Latency (ms)"]

# (heading as printed, column headers as printed)
TABLES: list[tuple[str, list[str]]] = [
    (
        "OGB-LSC 2022",
        [
            "Dataset Challenge",
            "Model",
            "Platform",
            "SDK Version",
            "Framework",
            "Throughput (items/sec)",
            "Time to Train",
            "Evaluation Metric",
            "OGB-LSC 2022 Ranking",
        ],
    ),
    ("Bow Platform - Training", TRAIN),
    ("Bow Platform - Inference", INFER),
    (
        "MLPerf v2.0 Training Performance",
        [
            "Division",
            "Model",
            "MLPerf Quality Target",
            "Platform",
            "SDK Version",
            "Framework",
            "MLPerf ID",
            "Dataset",
            "Precision",
            "Time to Train (mins)",
        ],
    ),
    ("IPU-POD Classic - Training", TRAIN),
    ("IPU-POD Classic - Time to Result", TRAIN[:-1] + ["Time To Result (secs)"]),
    ("IPU-POD Classic - Inference", INFER),
]


@dataclass(frozen=True)
class SeedTable:
    heading: str
    headers: list[str]
    rows: list[dict[str, str | None]]


def _find(lines: list[str], seq: list[str], start: int) -> int:
    for i in range(start, len(lines) - len(seq) + 1):
        if [ln.strip() for ln in lines[i : i + len(seq)]] == seq:
            return i
    raise ValueError(f"header sequence {seq[:3]}... not found after line {start}")


def read_tables(path: Path) -> list[SeedTable]:
    """Return every results table of the page dump, cells as printed (blank -> None)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out: list[SeedTable] = []
    pos = 0
    for heading, headers in TABLES:
        # OGB's table has no heading line of its own; its header row is unique.
        if heading != "OGB-LSC 2022":
            pos = lines.index(heading, pos)
        i = _find(lines, headers, pos) + len(headers)
        rows: list[dict[str, str | None]] = []
        while i < len(lines) and lines[i] != "":
            cells = lines[i : i + len(headers)]
            if len(cells) < len(headers) or "" in cells:
                raise ValueError(f"{heading}: ragged row at line {i + 1}")
            rows.append({h: (c.strip() or None) for h, c in zip(headers, cells)})
            i += len(headers)
        out.append(SeedTable(heading, headers, rows))
        pos = i
    return out
