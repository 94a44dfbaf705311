"""Number and value formatting shared by the table, charts and exports."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def format_number(v: float | int | None, digits: int = 3) -> str:
    """Thousands separators; up to ``digits`` significant decimals for fractions.

    >>> format_number(1260000), format_number(0.58), format_number(19.64)
    ('1,260,000', '0.58', '19.64')
    """
    if v is None:
        return ""
    if isinstance(v, bool):
        return str(v)
    f = float(v)
    if f.is_integer() and abs(f) < 1e15:
        return f"{int(f):,}"
    if abs(f) >= 1000:
        return f"{f:,.0f}"
    text = f"{f:.{digits}g}" if abs(f) < 1 else f"{f:,.2f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def counted(
    n: float | int, word: str, plural: str | None = None, grouped: bool = True
) -> str:
    """``n`` things, the word agreeing with the number: "1 chip", "16 chips"
    (``grouped``: with thousands separators; not in output scripts read).

    >>> counted(1, "chip"), counted(1024, "chip"), counted(2, "IPU", "IPUs")
    ('1 chip', '1,024 chips', '2 IPUs')
    """
    number = format_number(n) if grouped else str(n)
    return f"{number} {word if n == 1 else plural or word + 's'}"


def format_compact(v: float) -> str:
    """Short axis numbers: 950, 12k, 1.5M, 2.1G."""
    a = abs(v)
    for div, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if a >= div:
            text = f"{v / div:.3g}"
            return text + suffix
    return f"{v:.3g}" if a < 1000 and not float(v).is_integer() else f"{v:,.0f}"


def format_cell(v: object) -> str:
    """Display text of a table cell: blank for NULL, separators for numbers."""
    if v is None:
        return ""
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return format_number(v)
    return str(v)


# Units whose item is the model's (data/entities/units.csv: "what one item /
# sample is depends on the model"): the vendor's "items/sec", MLPerf's samples.
_MODEL_ITEMS = ("items/s", "samples/s")


def shown_unit(row: Mapping[str, Any]) -> str:
    """A figure's unit as shown: the vendor prints every throughput as
    "items/sec" and MLPerf Inference counts "samples", so either reads as what
    the row counts (its unit family, "images/s" for ResNet-50, "sequences/s"
    for BERT), "per chip" kept; other units as stored. Exports keep the stored
    unit beside unit_family; Explain quotes the source's own words."""
    unit = str(row.get("unit") or "")
    fam = row.get("unit_family")
    generic = next((g for g in _MODEL_ITEMS if unit.startswith(g)), None)
    if fam and generic and str(fam).endswith(("/s", "per chip")):
        return str(fam).removesuffix(" per chip") + unit[len(generic) :]
    return unit


def to_tsv(headers: list[str], rows: list[list[object]]) -> str:
    """Tab-separated text with a header line; raw numbers so spreadsheets parse
    them; tabs and newlines inside text become spaces."""

    def cell(v: object) -> str:
        if v is None:
            return ""
        if isinstance(v, float) and v.is_integer():
            v = int(v)
        return str(v).replace("\t", " ").replace("\r", " ").replace("\n", " ")

    lines = ["\t".join(cell(h) for h in headers)]
    lines += ["\t".join(cell(v) for v in r) for r in rows]
    return "\n".join(lines) + "\n"


def source_name(row: Mapping[str, Any]) -> str:
    """The source of a row as people name it: its title (the file id is a
    column of the exports only)."""
    return str(row.get("source_title") or row.get("source_file") or "")


def source_labels(
    sources: Iterable[tuple[str, str, str | None, str]],
) -> dict[str, str]:
    """File id -> how a source is named in lists: its title, then its date
    ("Graphcore: Performance Results (…) · 2023-07-04"). ``sources``: (file
    id, title, date, date kind) rows of the store's ``sources``; imports of
    one file name under two labels read "A / B"."""
    titles: dict[str, list[str]] = {}
    for file, title, date, _kind in sources:
        label = f"{title} · {date}" if date else str(title or file)
        if label not in titles.setdefault(file, []):
            titles[file].append(label)
    return {file: " / ".join(labels) for file, labels in titles.items()}


def source_list_labels(
    sources: Iterable[tuple[str, str, str | None, str]],
) -> dict[str, str]:
    """File id -> a source's name short enough for a narrow list: its title
    before any bracket ("MLPerf Training v2.1 results", the whole title going
    on "(MLCommons, official logs)"); with its date, or else whole, where two
    would read alike. A narrow list shortens a long name from its middle,
    which hid what told the MLPerf rounds apart; ``source_labels`` gives the
    whole name (tooltips, chips, subtitles)."""
    rows = list(sources)
    full = source_labels(rows)
    files = [file for file, *_ in rows]
    short = {f: str(t or f).split(" (")[0] for f, t, *_ in rows}
    dated = {f: f"{short[f]} · {d}" if d else short[f] for f, _t, d, _k in rows}
    out = {}
    for file in full:
        out[file] = full[file]  # several imports of one file name: all named
        if files.count(file) == 1:
            for level in (short, dated):
                if list(level.values()).count(level[file]) == 1:
                    out[file] = level[file]
                    break
    return out


def yours(row: Mapping[str, Any]) -> bool:
    """Whether ``row`` is one of the user's own results, imported from a file
    of theirs (not the bundled data, nor official MLPerf results)."""
    return row.get("source_date_kind") == "imported"


def source_lines(row: Mapping[str, Any]) -> list[str]:
    """The source's title, its date and the addresses it gives."""
    out = [f"Source: {source_name(row)}"]
    imported = yours(row)
    if imported and row.get("source_file") not in (None, out[0][8:]):
        out.append(f"File: {row['source_file']}")  # a user's own file
    if row.get("source_date"):
        kind = row.get("source_date_kind") or "dated"
        said = {"imported": "Imported", "round published": "Round published"}
        out.append(f"{said.get(kind, 'Page ' + kind)}: {row['source_date']}")
    if row.get("retrieved"):  # an MLPerf result: the copy read, apart
        out.append(f"Copy retrieved: {row['retrieved']}")
    if row.get("source_links") and not row.get("link"):
        out.append(f"Addresses it gives: {row['source_links']}")
    return out


def provenance_lines(row: Mapping[str, Any]) -> list[str]:
    """Where a figure comes from, one fact a line, for tooltips and detail panes."""
    out = source_lines(row)
    if row.get("table"):
        where = f"Table: {row['table']}"
        if row.get("row"):
            where += f", row {row['row']}"
        out.append(where)
    if row.get("value_as_printed"):
        out.append(f"Printed as: {row['value_as_printed']}")
    for key in ("model", "platform", "framework", "dataset"):
        printed = row.get(f"{key}_as_printed")
        if printed and printed != row.get(key):
            out.append(
                f"{key.capitalize()} as printed: {printed} (shown as {row[key]})"
            )
    for key, label in (
        ("mlperf_id", "MLPerf ID"),
        ("division", "Division"),
        ("quality_target", "Quality target"),
        ("evaluation_metric", "Evaluation metric"),
        ("ranking", "Ranking"),
        ("link", "Link"),
        ("note", "Note"),
    ):
        if row.get(key):
            out.append(f"{label}: {row[key]}")
    return out
