"""A CSV file's dialect read by us, and DuckDB's read errors said in words.

DuckDB's sniffer takes time quadratic in the longest cell (one cell of a
million digits kept it busy for minutes) and, given rows of unequal length,
silently picks another header or reads everything as one column. So the
header line and delimiter are read here, from the file's first bytes, and
DuckDB reads the rest with ``auto_detect = false`` and strict RFC 4180
rules (in linear time): a short or long row, an unclosed
quote or a byte that is not text then stops the read with its line number.
"""

from __future__ import annotations

import codecs
import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path

from ipubench_gui.domain.import_spec import ENCODINGS

# How far to look for the end of the header line.
HEAD_LIMIT = 16 << 20
DELIMITERS = (",", ";", "\t", "|")
MAX_SHOWN = 80


class CsvUnreadable(Exception):
    """The file cannot be read as CSV; the message says why, for users, and
    ``kind`` which of the ways (KINDS) it is, for what the app advises."""

    def __init__(self, message: str, kind: str):
        super().__init__(message)
        self.kind = kind


# The ways a file can be unreadable: what a message's advice is chosen by.
KINDS = (
    "encoding",  # not text in the encoding tried (the message says what to do)
    "binary",  # binary data, not text
    "blank_header",  # the first line names no columns
    "header",  # the header line cannot be read
    "no_line_break",  # no line break for megabytes
    "columns",  # a line with more or fewer cells than the header
    "unclosed_quote",
    "long_line",
    "line_endings",  # mixed line endings, or binary data in CSV
    "json",  # not valid JSON
    "parquet",  # not a Parquet file
    "other",  # said in DuckDB's own words
)


@dataclass(frozen=True)
class Dialect:
    delim: str
    names: tuple[str, ...]
    encoding: str = "utf-8"

    def sql(self, types: dict[str, str] | None = None) -> tuple[str, dict[str, object]]:
        """The read_csv call (path bound as $path) and its parameters: every
        column read as text, but those ``types`` names (as that type)."""
        types = types or {}
        return (
            "read_csv($path, header = true, auto_detect = false, delim = $delim, "
            "quote = '\"', escape = '\"', columns = $columns, encoding = $encoding, "
            "strict_mode = true, max_line_size = 8388608)",
            {
                "delim": self.delim,
                "columns": {n: types.get(n, "VARCHAR") for n in self.names},
                "encoding": self.encoding,
            },
        )


def shorten(text: object, most: int = MAX_SHOWN) -> str:
    """``text`` cut to ``most`` characters (with an ellipsis) for a message."""
    s = str(text)
    return s if len(s) <= most else s[: most - 1] + "…"


def sniff(path: Path, encoding: str = "utf-8") -> Dialect:
    """The header names and delimiter of the CSV at ``path``."""
    if encoding not in ENCODINGS:
        raise CsvUnreadable(
            f"unknown encoding {shorten(encoding)!r}; use one of "
            f"{', '.join(ENCODINGS)}",
            "encoding",
        )
    head = _head_line(path)
    if encoding == "utf-8" and head[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        raise CsvUnreadable(
            "the file is UTF-16 text, not UTF-8 — choose the encoding utf-16",
            "encoding",
        )
    if encoding != "utf-16" and b"\0" in head:
        raise CsvUnreadable(
            "the file holds binary data (NUL bytes), not CSV text", "binary"
        )
    codec = ENCODINGS[encoding]
    if encoding == "utf-16" and head[:2] not in (
        codecs.BOM_UTF16_LE,
        codecs.BOM_UTF16_BE,
    ):
        codec = "utf-16-le"  # no byte-order mark: little-endian, as DuckDB reads it
    try:
        # Incremental: a character cut at the end of the bytes read is no error.
        text = codecs.getincrementaldecoder(codec)().decode(head)
    except UnicodeError as exc:
        start = getattr(exc, "start", 0)
        at = head[:start].count(b"\n") + 1
        raise CsvUnreadable(
            f"not {encoding} text (line {at}) — choose an encoding (utf-8, "
            "utf-16, latin-1) or save the file as UTF-8",
            "encoding",
        ) from None
    line = text.splitlines()[0] if text.strip() else ""
    if not line.strip():
        raise CsvUnreadable(
            "the first line is blank; it should name the columns", "blank_header"
        )
    if path.suffix.lower() == ".tsv":
        delim = "\t"
    else:
        counts = {d: line.count(d) for d in DELIMITERS}
        delim = (
            max(DELIMITERS, key=lambda d: counts[d]) if any(counts.values()) else ","
        )
    try:
        header = next(csv.reader(io.StringIO(text, newline=""), delimiter=delim), [])
    except csv.Error as exc:
        raise CsvUnreadable(
            f"the header line cannot be read: {exc}", "header"
        ) from None
    return Dialect(delim, _names(header), encoding)


def _head_line(path: Path) -> bytes:
    """The file's first bytes, through the end of its first line."""
    with open(path, "rb") as f:
        head = f.read(1 << 16)
        while not re.search(rb"[\r\n]", head) and len(head) < HEAD_LIMIT:
            more = f.read(1 << 20)
            if not more:
                break
            head += more
    if not re.search(rb"[\r\n]", head) and len(head) >= HEAD_LIMIT:
        raise CsvUnreadable(
            f"no line break in the first {HEAD_LIMIT >> 20} MB; is this a CSV file?",
            "no_line_break",
        )
    return head


def _names(header: list[str]) -> tuple[str, ...]:
    """Column names as DuckDB would give them: blank -> column<i>, repeats
    -> name_1, name_2."""
    out: list[str] = []
    seen: set[str] = set()
    for i, raw in enumerate(header):
        name = raw if raw.strip() else f"column{i}"
        base, k = name, 0
        while name.lower() in seen:
            k += 1
            name = f"{base}_{k}"
        seen.add(name.lower())
        out.append(name)
    return tuple(out)


# -- DuckDB's read errors, in words --
_LINE = re.compile(r"CSV Error on Line: (\d+)")


def read_error(exc: Exception, encoding: str = "utf-8") -> str:
    """What is wrong, in one line, from a DuckDB error reading a file."""
    return why_unreadable(exc, encoding)[1]


def why_unreadable(exc: Exception, encoding: str = "utf-8") -> tuple[str, str]:
    """Which way a file is unreadable (one of KINDS) and what is wrong, in one
    line, from a DuckDB error reading it."""
    text = str(exc)
    line_m = _LINE.search(text)
    on = f" on line {line_m[1]}" if line_m else ""
    cols = re.search(r"Expected Number of Columns: (\d+) Found: (\d+)", text)
    if cols:
        want, got = int(cols[1]), int(cols[2])
        if got > want:  # DuckDB stops counting at the first one too many
            return "columns", f"more columns{on} than the {want} in the header"
        return "columns", f"{got} columns{on}, {want} in the header"
    if "unterminated quote" in text:
        return "unclosed_quote", f"a quoted value opened{on} is never closed"
    if "Invalid unicode" in text or "not utf-8 encoded" in text.lower():
        return "encoding", (
            f"not {encoding} text{on} — choose an encoding (utf-8, utf-16, "
            "latin-1) or save the file as UTF-8"
        )
    if "Maximum line size" in text:
        return "long_line", f"a line{on} is longer than 8 MB"
    if "state machine reached an invalid state" in text:
        return "line_endings", (
            "not readable as CSV: mixed line endings (\\r\\n and \\n) or "
            "binary data; save it as plain CSV"
        )
    if "Malformed JSON" in text or "JSON" in text.split("\n", 1)[0]:
        first = text.split("\n", 1)[0].replace("Invalid Input Error: ", "")
        return "json", "not valid JSON: " + shorten(first.split(" Input:")[0], 160)
    if "magic bytes" in text or "too small to be a Parquet file" in text:
        return "parquet", "not a Parquet file (no Parquet footer)"
    first = text.strip().split("\n", 1)[0] if text.strip() else type(exc).__name__
    engine = shorten(re.sub(r"^[A-Za-z ]+Error: ", "", first), 120)
    for words, kind, said in ENGINE_WORDS:
        if any(w in text for w in words):
            # DuckDB's words kept after ours, for a bug report
            return kind, f"{said} (DuckDB: {engine})"
    return "other", engine


# DuckDB's words for a file it cannot read, and what they mean to a user: what
# is wrong and what to do (the engine's own text follows, for a bug report).
ENGINE_WORDS: tuple[tuple[tuple[str, ...], str, str], ...] = (
    (
        ("TProtocolException", "Footer length error", "Out of buffer", "thrift"),
        "parquet",
        "a damaged or cut-short Parquet file — export it again from where it came",
    ),
    (
        ("don't know what type", "Could not convert", "Unsupported"),
        "other",
        "a value of a kind the import cannot read — save the file with plain "
        "text and numbers in its cells",
    ),
    (
        ("cannot encode str as UTF-8", "surrogate"),
        "other",
        "its name is not UTF-8 text — rename the file (plain letters and digits) "
        "and import it again",
    ),
)
