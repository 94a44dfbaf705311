"""What the app says when a file cannot be imported: the store's message says
what is wrong (store/user/import_csv.py, import_read.py), and the advice
here, chosen by the failure's kind (``ImportFailed.kind``), says what to do.
Declared in one place so they can be reviewed and tested."""

from __future__ import annotations

# kind -> what to do (import_csv.KINDS and import_read.FAILURES).
ADVICE: dict[str, str] = {
    "unclosed_quote": (
        "Close the quotation mark on that line, or remove the stray one, in a "
        "text editor; then import the file again."
    ),
    "binary": (
        "Choose a results file saved as text (CSV or TSV), Parquet or JSON; "
        "this one is not."
    ),
    "line_endings": (
        "Save the file again as plain CSV (one kind of line ending) in a text "
        "editor or spreadsheet, and import that."
    ),
    "parquet": (
        "Choose a real Parquet file, or save the results as CSV and import that."
    ),
    "json": (
        "Fix the JSON where it is named (a JSON validator shows the place), or "
        "save the results as CSV and import that."
    ),
    "columns": (
        "Give every line as many cells as the header; a value that holds the "
        "delimiter needs quotation marks around it."
    ),
    "no_line_break": (
        "Choose a CSV file with one result per line, or a Parquet or JSON file."
    ),
    "blank_header": "Put the column names on the file's first line.",
    "header": (
        "Check the first line: it should name the columns, separated by commas, "
        "tabs or semicolons."
    ),
    "long_line": (
        "Check that this is a results file with one result per line; a cell "
        "that long is not a figure."
    ),
    "not_regular": "Choose a file saved on disk, not a device or a pipe.",
    "missing": "Check the file's name and folder (was it moved?), and choose it again.",
    "unreadable": (
        "Copy the file to a folder of yours, or ask for permission to read it."
    ),
    "folder": "Choose a file inside the folder.",
    "empty": "Choose the file that holds the results; this one is empty.",
    "no_rows": "Choose the file that holds the results; this one has only a header.",
    "format": "Save the results as CSV, TSV, Parquet or JSON, and import that.",
    "reserved": "Rename that column in the file, and import it again.",
}
DEFAULT = (
    "Open the file in a text editor or spreadsheet, fix what is named above, "
    "and import it again."
)
NOTHING_STORED = "Nothing was imported."


def explain(message: str, kind: str = "") -> tuple[str, str]:
    """(what is wrong, what to do) for a store message of ``kind``. A message
    that says what to do itself, after a dash ("not utf-8 text — choose an
    encoding"), keeps its own advice."""
    what = message.strip()
    head, dash, tail = what.partition(" — ")
    if dash and tail:
        return head, tail[0].upper() + tail[1:] + "."
    return what, ADVICE.get(kind, DEFAULT)
